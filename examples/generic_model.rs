//! A model, a supervised cost and an L1 penalty written once over spec traits, trained on a
//! record that stores bhwc u8 images and index labels: the model asks for flat f32 vectors, the
//! cost for one-hot targets in the model's output space, the penalty for no data at all.
//!
//! `cargo run --example generic_model`

use batchspec::mapping::Server;
use batchspec::mapping::{Cost, Model};
use batchspec::prelude::*;
use ndarray::{Array1, Array2, Array4, Axis};

/// What the dataset stores: 4×4 grey images as bytes, and one of 4 labels per image.
#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    image: Batch<image![4, 4, 1; BHWC, u8]>,
    #[spec(source = "targets")]
    label: Batch<Index<4, 1, u8>>,
}

/// A model's input: the `features` source in the space `S`.
#[derive(DataSpec)]
struct Input<S: Space> {
    #[spec(source = "features")]
    x: ArcBatch<S>,
}

/// A supervised cost's data: the model's input and the targets in the model's output space.
#[derive(DataSpec)]
struct Supervised<X: DataSpec, Y: Space> {
    input: X,
    #[spec(source = "targets")]
    targets: ArcBatch<Y>,
}

/// No data: what an L1 penalty reads.
#[derive(DataSpec)]
struct NoData;

/// Softmax regression from any f32 vector space of `D` features to `K` classes.
struct Linear<const D: usize, const K: usize> {
    w: Array2<f32>,
    b: Array1<f32>,
}

impl<const D: usize, const K: usize> Model for Linear<D, K> {
    type Input = Input<Vector<D>>;
    type Output = Vector<K>;
}

impl<const D: usize, const K: usize> Linear<D, K> {
    fn new() -> Self {
        Linear {
            w: Array2::zeros((D, K)),
            b: Array1::zeros(K),
        }
    }

    fn probabilities(&self, input: &Input<Vector<D>>) -> Array2<f32> {
        let mut z = input.x.array().dot(&self.w) + &self.b;
        for mut row in z.rows_mut() {
            let max = row.fold(f32::MIN, |m, &v| m.max(v));
            row.mapv_inplace(|v| (v - max).exp());
            let sum = row.sum();
            row /= sum;
        }
        z
    }
}

/// Cross-entropy: written once for any model whose output is a vector space.
struct CrossEntropy;

impl<const D: usize, const K: usize> Cost<Linear<D, K>> for CrossEntropy {
    type Data = Supervised<Input<Vector<D>>, Vector<K>>;
    fn cost(&self, model: &Linear<D, K>, data: &Self::Data) -> f64 {
        let p = model.probabilities(&data.input);
        let t = data.targets.array();
        let n = p.nrows().max(1) as f64;
        -(p.mapv(|v| v.max(1e-12).ln()) * t).sum() as f64 / n
    }
}

/// An L1 penalty on the weights: it needs no data.
struct L1(f32);

impl<const D: usize, const K: usize> Cost<Linear<D, K>> for L1 {
    type Data = NoData;
    fn cost(&self, model: &Linear<D, K>, _: &NoData) -> f64 {
        (self.0 * model.w.mapv(f32::abs).sum()) as f64
    }
}

/// One gradient step of cross-entropy + L1 on the served data.
fn step<const D: usize, const K: usize>(
    model: &mut Linear<D, K>,
    data: &Supervised<Input<Vector<D>>, Vector<K>>,
    l1: &L1,
    rate: f32,
) {
    let p = model.probabilities(&data.input);
    let n = p.nrows().max(1) as f32;
    let delta = (p - data.targets.array()) / n;
    let grad_w = data.input.x.array().t().dot(&delta) + model.w.mapv(|w| l1.0 * w.signum());
    model.w.scaled_add(-rate, &grad_w);
    model.b.scaled_add(-rate, &delta.sum_axis(Axis(0)));
}

/// 64 images of a bright quadrant; the label says which one.
fn record() -> Record {
    let n = 64;
    let labels: Vec<u8> = (0..n).map(|i| (i * 7 % 4) as u8).collect();
    let image = Array4::from_shape_fn((n, 4, 4, 1), |(i, h, w, _)| {
        let q = (h / 2) * 2 + w / 2;
        let noise = ((i * 31 + h * 7 + w * 3) % 17) as u8;
        if q == labels[i] as usize {
            200 + noise
        } else {
            20 + noise
        }
    });
    let label = Array2::from_shape_fn((n, 1), |(i, _)| labels[i]);
    Record {
        image: Batch::new(image).expect("sizes fit"),
        label: Batch::new(label).expect("labels in 0..4"),
    }
}

fn main() {
    let record = record();
    let mut model = Linear::<16, 4>::new();
    let (xent, l1) = (CrossEntropy, L1(1e-4));
    // The combined request of the model, the supervised cost and the penalty is checked here,
    // at compile time: features as 16 f32, targets as one-hot of 4.
    const _: () =
        batchspec::mapping::assert_serves::<Record, Supervised<Input<Vector<16>>, Vector<4>>>();
    for epoch in 0..8 {
        let mut server = Server::new(&record);
        let input = server.get::<Input<Vector<16>>>();
        let data = server.get::<Supervised<Input<Vector<16>>, Vector<4>>>();
        let none = server.get::<NoData>();
        assert_eq!(
            server.produced(),
            2,
            "features and one-hot targets, each converted once"
        );
        assert_eq!(input.x.array().as_ptr(), data.input.x.array().as_ptr());
        let loss = xent.cost(&model, &data) + l1.cost(&model, &none);
        println!("epoch {epoch}: loss {loss:.4}");
        step(&mut model, &data, &l1, 2e-5);
    }
}
