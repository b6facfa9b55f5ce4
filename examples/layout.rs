//! Buffer layouts: Brainstorm's test network in one allocation, printed as a tree, with an input
//! that reads two layers' outputs concatenated without copying.
//!
//! Run with `cargo run --example layout`.

use batchspec::buffer::{BufferError, BufferManager, LayoutSpec, ShapeTemplate};
use ndarray::s;

fn main() -> Result<(), BufferError> {
    // Input(2) -> A(3), B(5); A, B -> C(7); B, C -> D(11).
    let mut spec = LayoutSpec::new();
    spec.layer("Input")
        .output("default", ShapeTemplate::time_sized([2]));
    for (name, size, inputs) in [
        ("A", 3, &["Input"][..]),
        ("B", 5, &["Input"][..]),
        ("C", 7, &["A", "B"][..]),
        ("D", 11, &["B", "C"][..]),
    ] {
        let fan_in = match name {
            "C" => 3 + 5,
            "D" => 5 + 7,
            _ => 2,
        };
        spec.layer(name)
            .input("default", inputs.iter().copied())
            .parameter("W", ShapeTemplate::constant([size, fan_in]))
            .parameter("bias", ShapeTemplate::constant([size]))
            .output("default", ShapeTemplate::time_sized([size]));
    }
    let layout = spec.build()?;
    println!("{layout}");

    // One allocation for every hub, forward and backward, at T = 3 time steps, B = 4 sequences.
    let mut buffers = BufferManager::<f32>::new(layout)?;
    buffers.resize(3, 4)?;
    println!(
        "T = {}, B = {}: {} floats in one allocation ({} forward)",
        buffers.time_steps(),
        buffers.batch_size(),
        buffers.len(),
        buffers.layout().forward_len(3, 4)?
    );

    // D reads B and C concatenated: its input is a view of their columns, not a copy.
    buffers.view_mut("B.outputs.default")?.fill(1.0);
    buffers.view_mut("C.outputs.default")?.fill(2.0);
    let d_input = buffers.view("D.inputs.default")?;
    println!(
        "D.inputs.default {:?}, one row: {}",
        d_input.shape(),
        d_input.slice(s![0, 0, ..])
    );
    let b_output = buffers.view("B.outputs.default")?;
    println!(
        "D's input starts where B's output does: {}",
        std::ptr::eq(d_input.as_ptr(), b_output.as_ptr())
    );
    Ok(())
}
