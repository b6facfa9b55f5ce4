//! Filling the buffer arena allocates nothing in the steady state: once the arena has grown to
//! the largest (T, B), batches of the same or smaller size are written, viewed and carried over
//! without touching the heap. Its own test binary, so the counting allocator sees only this.

use batchspec_core::buffer::{
    BufferManager, LayoutSpec, SavedContext, SequenceData, SequenceLengths, ShapeTemplate,
};
use ndarray::{Array, Array3};

#[path = "../../tests/common/mod.rs"]
mod common;

#[global_allocator]
static GLOBAL: common::Counting = common::Counting;

#[test]
fn steady_state_batches_allocate_nothing() {
    let mut spec = LayoutSpec::new();
    spec.layer("Input")
        .output("default", ShapeTemplate::time_sized([2]))
        .output("targets", ShapeTemplate::time_sized([1]));
    spec.layer("Rnn")
        .input("default", ["Input"])
        .parameter("W", ShapeTemplate::constant([4, 2]))
        .output("default", ShapeTemplate::time_sized([4]).with_context(1));
    spec.layer("Out")
        .input("default", ["Rnn"])
        .input("targets", ["Input.targets"])
        .output("default", ShapeTemplate::time_sized([1]));
    let mut buffers = BufferManager::<f32>::new(spec.build().unwrap()).unwrap();
    let rnn = buffers.layout().find("Rnn.outputs.default").unwrap();
    let w = buffers.layout().find("Rnn.parameters.W").unwrap();

    // Brainstorm's mask: batch 3 gives (T, B) = (3, 3), then (2, 2).
    let lengths = [2usize, 3, 3, 1, 2];
    let mask = Array3::from_shape_fn((4, 5, 1), |(t, b, _)| f32::from(u8::from(t < lengths[b])));
    let x = Array::from_shape_fn((4, 5, 2), |(t, b, f)| (t + b + f) as f32);
    let y = Array::from_shape_fn((4, 5, 1), |(t, b, _)| (t * b) as f32);
    let data = SequenceData::new(
        [
            ("default", x.into_dyn()),
            ("targets", y.into_dyn()),
            ("mask", mask.into_dyn()),
        ],
        SequenceLengths::Mask("mask".into()),
    )
    .unwrap();
    let mut saved = SavedContext::default();

    let epoch = |buffers: &mut BufferManager<f32>, saved: &mut SavedContext<f32>| {
        for batch in data.minibatches(3).unwrap() {
            buffers.provide("Input", &batch).unwrap();
            buffers.clear_context();
            {
                let [input, mut out, weights] = buffers
                    .views_mut([
                        "Rnn.inputs.default",
                        "Rnn.outputs.default",
                        "Rnn.parameters.W",
                    ])
                    .unwrap();
                out.fill(input.sum() + weights.sum());
            }
            buffers.view_mut(rnn).unwrap().fill(1.0);
            buffers.view_mut(w).unwrap().fill(0.5);
            buffers.clear_backward();
            buffers.save_context_into(saved);
            buffers.carry_context();
            let _ = buffers.view("Out.inputs.targets").unwrap().sum();
        }
    };

    // Warm-up: the arena grows to the largest batch, the saved context to its size.
    buffers.resize(3, 3).unwrap();
    epoch(&mut buffers, &mut saved);

    let before = common::allocations();
    epoch(&mut buffers, &mut saved);
    epoch(&mut buffers, &mut saved);
    let during = common::allocations() - before;
    assert_eq!(during, 0, "steady-state epochs allocated {during} times");
}
