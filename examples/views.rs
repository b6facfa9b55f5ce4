//! Views: one bhwc u8 batch read by a convolution-like consumer as bchw f32 and by a dense one
//! as bf f64; both send gradients back, summed in the base layout.
//!
//! `cargo run --example views`

use batchspec::prelude::*;
use batchspec::view::View;
use ndarray::Array4;

type Base = image![4, 4, 3; BHWC, u8];
type Planes = image![4, 4, 3; BCHW, f32];
type Flat = Vector<48, f64>;

fn main() -> Result<(), batchspec::Error> {
    let mut view = View::<Base, f64>::new();
    for step in 0..3u8 {
        // The producer puts a new batch each step; the view reuses its memory.
        let pixels = Array4::from_shape_fn((2, 4, 4, 3), |(b, h, w, c)| {
            step * 10 + (b * 48 + h * 12 + w * 3 + c) as u8
        });
        view.put(Batch::new(pixels)?)?;

        let planes = view.get::<Planes>()?; // converted once per put, cached
        let flat = view.get::<Flat>()?;
        println!(
            "step {step}: conv reads {:?} f32, dense reads {:?} f64",
            planes.shape(),
            flat.shape()
        );

        // Each consumer answers in the form it read.
        let conv_grad = planes.array().mapv(|v| v / 255.0);
        let dense_grad = flat.array().mapv(|v| -v / 255.0);
        view.put_gradient(&Batch::<Planes>::new(conv_grad)?)?;
        view.put_gradient(&Batch::<Flat>::new(dense_grad)?)?;

        // The two gradients cancel: the producer sees their sum in bhwc.
        let g = view.gradient()?;
        let worst = g.array().iter().fold(0.0f64, |m, v| m.max(v.abs()));
        println!(
            "        summed gradient {:?} in bhwc, largest |g| = {worst:.2e}",
            g.shape()
        );
    }
    Ok(())
}
