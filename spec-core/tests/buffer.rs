//! Buffer layouts, the buffer manager and sequence minibatches, checked against the numbers of
//! Brainstorm's test network (IDSIA/brainstorm tests/conftest.py and test_layout.py).

use batchspec_core::buffer::{
    BufferError, BufferKind, BufferLayout, BufferManager, Dim, LayoutSpec, SequenceData,
    SequenceLengths, ShapeTemplate, contiguous_order,
};
use ndarray::{Array, Array3, ArrayD, s};
use proptest::prelude::*;

/// Input(2) -> A(3), B(5); A, B -> C(7); B, C -> D(11); fully connected layers with W (out, in).
fn test_network() -> LayoutSpec {
    let mut spec = LayoutSpec::new();
    spec.layer("Input")
        .output("default", ShapeTemplate::time_sized([2]));
    for (name, size, fan_in, inputs) in [
        ("A", 3, 2, &["Input"][..]),
        ("B", 5, 2, &["Input"][..]),
        ("C", 7, 8, &["A", "B"][..]),
        ("D", 11, 12, &["B", "C"][..]),
    ] {
        spec.layer(name)
            .input("default", inputs.iter().copied())
            .parameter("W", ShapeTemplate::constant([size, fan_in]))
            .parameter("bias", ShapeTemplate::constant([size]))
            .output("default", ShapeTemplate::time_sized([size]));
    }
    spec
}

fn columns(layout: &BufferLayout, path: &str) -> (usize, usize, usize) {
    let slice = layout.node(path).unwrap().slice().unwrap();
    (slice.hub(), slice.start(), slice.stop())
}

#[test]
fn test_network_parameter_slices() {
    let layout = test_network().build().unwrap();
    let expected = [
        ("A.parameters.W", 0, 6, vec![3, 2]),
        ("A.parameters.bias", 6, 9, vec![3]),
        ("B.parameters.W", 9, 19, vec![5, 2]),
        ("B.parameters.bias", 19, 24, vec![5]),
        ("C.parameters.W", 24, 80, vec![7, 8]),
        ("C.parameters.bias", 80, 87, vec![7]),
        ("D.parameters.W", 87, 219, vec![11, 12]),
        ("D.parameters.bias", 219, 230, vec![11]),
    ];
    for (path, start, stop, shape) in expected {
        assert_eq!(columns(&layout, path), (0, start, stop), "{path}");
        assert_eq!(
            layout.node(path).unwrap().shape(3, 4),
            Some(shape),
            "{path}"
        );
    }
    assert_eq!(columns(&layout, "parameters"), (0, 0, 230));
    assert_eq!(columns(&layout, "gradients"), (4, 0, 230));
    assert_eq!(columns(&layout, "D.gradients.W"), (4, 87, 219));
    // A layer's parameters are one contiguous view.
    assert_eq!(columns(&layout, "C.parameters"), (0, 24, 87));
}

#[test]
fn test_network_hubs_and_concatenated_inputs() {
    let layout = test_network().build().unwrap();
    let hubs = layout.hubs();
    let summary: Vec<(BufferKind, usize, bool)> = hubs
        .iter()
        .map(|h| (h.kind(), h.width(), h.is_backward()))
        .collect();
    use BufferKind::{Constant, TimeSized};
    assert_eq!(
        summary,
        vec![
            (Constant, 230, false),
            (TimeSized, 2, false),
            (TimeSized, 15, false),
            (TimeSized, 11, false),
            (Constant, 230, true),
            (TimeSized, 2, true),
            (TimeSized, 15, true),
            (TimeSized, 11, true),
        ]
    );
    assert_eq!(columns(&layout, "Input.outputs.default"), (1, 0, 2));
    assert_eq!(columns(&layout, "A.outputs.default"), (2, 0, 3));
    assert_eq!(columns(&layout, "B.outputs.default"), (2, 3, 8));
    assert_eq!(columns(&layout, "C.outputs.default"), (2, 8, 15));
    assert_eq!(columns(&layout, "D.outputs.default"), (3, 0, 11));
    assert_eq!(columns(&layout, "A.inputs.default"), (1, 0, 2));
    assert_eq!(columns(&layout, "B.inputs.default"), (1, 0, 2));
    assert_eq!(columns(&layout, "C.inputs.default"), (2, 0, 8));
    assert_eq!(columns(&layout, "D.inputs.default"), (2, 3, 15));
    assert_eq!(columns(&layout, "D.input_deltas.default"), (6, 3, 15));
    assert_eq!(columns(&layout, "C.output_deltas.default"), (6, 8, 15));

    let c_in = layout.node("C.inputs.default").unwrap();
    assert_eq!(c_in.template().unwrap(), &ShapeTemplate::time_sized([8]));
    let sources: Vec<&str> = c_in.sources().map(|n| n.path()).collect();
    assert_eq!(sources, ["A.outputs.default", "B.outputs.default"]);
    let d_in = layout.node("D.inputs.default").unwrap();
    assert_eq!(d_in.template().unwrap(), &ShapeTemplate::time_sized([12]));

    // Sibling order follows Brainstorm: inputs, outputs, parameters, ..., gradients.
    let groups: Vec<&str> = layout
        .node("C")
        .unwrap()
        .children()
        .map(|c| c.name())
        .collect();
    assert_eq!(
        groups,
        [
            "inputs",
            "outputs",
            "parameters",
            "input_deltas",
            "output_deltas",
            "gradients"
        ]
    );
}

#[test]
fn zero_copy_concatenation() {
    let mut buffers = BufferManager::<f32>::new(test_network().build().unwrap()).unwrap();
    buffers.resize(3, 4).unwrap();
    buffers.view_mut("B.outputs.default").unwrap().fill(1.0);
    buffers.view_mut("C.outputs.default").unwrap().fill(2.0);
    let d_input = buffers.view("D.inputs.default").unwrap();
    assert_eq!(d_input.shape(), &[3, 4, 12]);
    for row in d_input.rows() {
        assert_eq!(
            row.to_vec(),
            [1., 1., 1., 1., 1., 2., 2., 2., 2., 2., 2., 2.]
        );
    }
    // The same memory, not a copy: writing through the input shows in B's output.
    buffers.view_mut("D.inputs.default").unwrap()[[2, 3, 0]] = 7.0;
    assert_eq!(buffers.view("B.outputs.default").unwrap()[[2, 3, 0]], 7.0);
    assert_eq!(buffers.view("C.inputs.default").unwrap()[[2, 3, 3]], 7.0);
}

#[test]
fn resize_gives_brainstorm_sizes() {
    let layout = test_network().build().unwrap();
    assert_eq!(layout.forward_len(3, 4).unwrap(), 566);
    assert_eq!(layout.len(3, 4).unwrap(), 1132);
    let mut buffers = BufferManager::<f32>::new(layout).unwrap();
    assert_eq!((buffers.time_steps(), buffers.batch_size()), (0, 0));
    assert_eq!(buffers.len(), 460);
    buffers.resize(3, 4).unwrap();
    assert_eq!(buffers.len(), 1132);
    let shapes: Vec<Vec<usize>> = buffers
        .layout()
        .hubs()
        .iter()
        .map(|h| h.shape(3, 4))
        .collect();
    assert_eq!(
        shapes,
        vec![
            vec![230],
            vec![3, 4, 2],
            vec![3, 4, 15],
            vec![3, 4, 11],
            vec![230],
            vec![3, 4, 2],
            vec![3, 4, 15],
            vec![3, 4, 11],
        ]
    );
    let ranges: Vec<_> = (0..8).map(|h| buffers.hub_range(h).unwrap()).collect();
    assert_eq!(
        ranges,
        vec![
            0..230,
            230..254,
            254..434,
            434..566,
            566..796,
            796..820,
            820..1000,
            1000..1132
        ]
    );
    let forward = BufferManager::<f32>::forward_only(buffers.layout().clone()).unwrap();
    assert_eq!(forward.len(), 230);
    assert!(matches!(
        forward.view("D.gradients.W"),
        Err(BufferError::NoBackwardBuffers { .. })
    ));
}

#[test]
fn resize_reallocates_only_when_growing_and_keeps_constants() {
    let mut buffers = BufferManager::<f32>::new(test_network().build().unwrap()).unwrap();
    for (i, x) in buffers
        .view_mut("parameters")
        .unwrap()
        .iter_mut()
        .enumerate()
    {
        *x = i as f32;
    }
    buffers.view_mut("gradients").unwrap().fill(-1.0);
    buffers.resize(5, 6).unwrap();
    let high_water = buffers.allocated();
    assert_eq!(high_water, buffers.len());
    buffers.resize(2, 3).unwrap();
    assert_eq!(buffers.allocated(), high_water);
    assert!(buffers.len() < high_water);
    buffers.resize(5, 6).unwrap();
    assert_eq!(buffers.allocated(), high_water);
    buffers.resize(9, 9).unwrap();
    assert!(buffers.allocated() > high_water);
    let params = buffers.view("A.parameters.bias").unwrap();
    assert_eq!(params.iter().copied().collect::<Vec<_>>(), [6.0, 7.0, 8.0]);
    assert!(
        buffers
            .view("gradients")
            .unwrap()
            .iter()
            .all(|&g| g == -1.0)
    );
}

#[test]
fn layout_tree_prints() {
    let layout = test_network().build().unwrap();
    let text = layout.to_string();
    let line = |needle: &str| {
        text.lines()
            .find(|l| l.trim_start().starts_with(needle))
            .unwrap_or_else(|| panic!("no line starting with {needle:?} in\n{text}"))
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(line("parameters "), "parameters #0 [0, 230) (230,)");
    let flat: Vec<String> = text
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    for expected in [
        "default #2 [3, 15) (T, B, 12) = B.outputs.default | C.outputs.default",
        "W #0 [87, 219) (11, 12)",
        "inputs #2 [3, 15)",
        "#2 forward time-sized width 15 A.outputs.default [0, 3), B.outputs.default [3, 8), C.outputs.default [8, 15)",
    ] {
        assert!(
            flat.iter().any(|l| l == expected),
            "no line {expected:?} in\n{text}"
        );
    }
}

#[test]
fn unlayoutable_connectivity_names_the_leaves() {
    let mut spec = LayoutSpec::new();
    for name in ["A", "B", "C"] {
        spec.layer(name)
            .output("default", ShapeTemplate::time_sized([2]));
    }
    spec.layer("X").input("default", ["A", "B"]);
    spec.layer("Y").input("default", ["B", "C"]);
    spec.layer("Z").input("default", ["A", "C"]);
    let err = spec.build().unwrap_err();
    let BufferError::Unlayoutable { sources, consumers } = &err else {
        panic!("{err}");
    };
    assert_eq!(
        sources,
        &[
            "A.outputs.default",
            "B.outputs.default",
            "C.outputs.default"
        ]
    );
    assert_eq!(consumers.len(), 3);
    let message = err.to_string();
    assert!(
        message.starts_with("failed to lay out buffers"),
        "{message}"
    );
    assert!(
        message.contains("`Z.inputs.default` reads {A.outputs.default, C.outputs.default}"),
        "{message}"
    );

    let err = contiguous_order(
        &["A", "B", "C"],
        &[
            ("X", &["A", "B"][..]),
            ("Y", &["B", "C"][..]),
            ("Z", &["A", "C"][..]),
        ],
    )
    .unwrap_err();
    assert!(matches!(err, BufferError::Unlayoutable { .. }));
}

#[test]
fn sources_are_reordered_when_needed() {
    // Brainstorm's case: sinks {A, C} and {B} reorder [A, B, C] to [A, C, B].
    let order = contiguous_order(
        &["A", "B", "C"],
        &[("X", &["A", "C"][..]), ("Y", &["B"][..])],
    )
    .unwrap();
    assert_eq!(order, vec![0, 2, 1]);

    // The same inside one hub, with sizes 2, 4, 3: A (0,2), C (2,6), B (6,9).
    let mut spec = LayoutSpec::new();
    for (name, size) in [("A", 2), ("B", 4), ("C", 3)] {
        spec.layer(name)
            .output("default", ShapeTemplate::time_sized([size]));
    }
    spec.layer("X").input("default", ["A", "C"]);
    spec.layer("Y").input("default", ["B"]);
    spec.layer("Z").input("default", ["A", "B", "C"]);
    let layout = spec.build().unwrap();
    assert_eq!(columns(&layout, "A.outputs.default"), (0, 0, 2));
    assert_eq!(columns(&layout, "C.outputs.default"), (0, 2, 5));
    assert_eq!(columns(&layout, "B.outputs.default"), (0, 5, 9));
    assert_eq!(columns(&layout, "X.inputs.default"), (0, 0, 5));
    assert_eq!(columns(&layout, "Y.inputs.default"), (0, 5, 9));
    assert_eq!(columns(&layout, "Z.inputs.default"), (0, 0, 9));
}

#[test]
fn views_by_id_survive_resizes() {
    let mut buffers = BufferManager::<f32>::new(test_network().build().unwrap()).unwrap();
    let w = buffers.layout().find("C.parameters.W").unwrap();
    let out = buffers.layout().find("C.outputs.default").unwrap();
    buffers.view_mut(w).unwrap().fill(3.0);
    for (t, b) in [(1, 1), (4, 2), (2, 7)] {
        buffers.resize(t, b).unwrap();
        assert_eq!(buffers.view(w).unwrap().shape(), &[7, 8]);
        assert_eq!(buffers.view(out).unwrap().shape(), &[t, b, 7]);
        assert!(buffers.view(w).unwrap().iter().all(|&x| x == 3.0));
    }
    let other = test_network().build().unwrap();
    assert!(matches!(
        other.node(w),
        Err(BufferError::ForeignLayout { .. })
    ));
}

#[test]
fn several_mutable_views_at_once() {
    let mut buffers = BufferManager::<f32>::new(test_network().build().unwrap()).unwrap();
    buffers.resize(2, 3).unwrap();
    buffers.view_mut("A.outputs.default").unwrap().fill(1.0);
    buffers.view_mut("B.outputs.default").unwrap().fill(1.0);
    buffers.view_mut("C.parameters.W").unwrap().fill(0.5);
    {
        // C's forward pass: output = sum over the concatenated input, times W.
        let [input, mut output, w, bias] = buffers
            .views_mut([
                "C.inputs.default",
                "C.outputs.default",
                "C.parameters.W",
                "C.parameters.bias",
            ])
            .unwrap();
        assert_eq!(input.shape(), &[2, 3, 8]);
        assert_eq!(w.shape(), &[7, 8]);
        assert_eq!(bias.shape(), &[7]);
        let x = input.into_dimensionality::<ndarray::Ix3>().unwrap();
        let w = w.into_dimensionality::<ndarray::Ix2>().unwrap();
        for t in 0..2 {
            for b in 0..3 {
                let xv = x.slice(s![t, b, ..]);
                let y: ndarray::Array1<f32> = w.dot(&xv);
                output.slice_mut(s![t, b, ..]).assign(&y);
            }
        }
    }
    assert!(
        buffers
            .view("C.outputs.default")
            .unwrap()
            .iter()
            .all(|&y| y == 4.0)
    );
    // D reads C's output: the result is already where D looks.
    assert_eq!(buffers.view("D.inputs.default").unwrap()[[1, 2, 11]], 4.0);

    let err = buffers
        .views_mut(["C.inputs.default", "B.outputs.default"])
        .unwrap_err();
    assert_eq!(
        err,
        BufferError::OverlappingViews {
            first: "C.inputs.default".into(),
            second: "B.outputs.default".into()
        }
    );
    // Different hubs, any order.
    let [g, d] = buffers
        .views_mut(["D.gradients.W", "D.input_deltas.default"])
        .unwrap();
    assert_eq!((g.shape(), d.shape()), (&[11, 12][..], &[2, 3, 12][..]));
}

#[test]
fn multi_axis_features_concatenate_along_the_first_axis() {
    let mut spec = LayoutSpec::new();
    spec.layer("P")
        .output("default", ShapeTemplate::time_sized([2, 3]));
    spec.layer("Q")
        .output("default", ShapeTemplate::time_sized([4, 3]));
    spec.layer("R").input("default", ["P", "Q"]);
    let layout = spec.build().unwrap();
    let input = layout.node("R.inputs.default").unwrap();
    assert_eq!(
        input.template().unwrap(),
        &ShapeTemplate::time_sized([6, 3])
    );
    let mut buffers = BufferManager::<f32>::new(layout).unwrap();
    buffers.resize(2, 2).unwrap();
    let q = Array::from_shape_fn((2, 2, 4, 3), |(t, b, i, j)| {
        (1000 * t + 100 * b + 10 * i + j) as f32
    });
    buffers.write("Q.outputs.default", &q).unwrap();
    let r = buffers.view("R.inputs.default").unwrap();
    assert_eq!(r.shape(), &[2, 2, 6, 3]);
    assert_eq!(r.slice(s![.., .., 2.., ..]), q);
    // Strided multi-axis leaves cannot be split off beside others, but view alone.
    let err = buffers
        .views_mut(["P.outputs.default", "Q.outputs.default"])
        .unwrap_err();
    assert!(
        matches!(err, BufferError::NotSplittable { rank: 2, .. }),
        "{err}"
    );
    assert_eq!(
        buffers.view_mut("P.outputs.default").unwrap().shape(),
        &[2, 2, 2, 3]
    );
}

#[test]
fn context_carry_save_apply_clear() {
    let mut spec = LayoutSpec::new();
    spec.layer("Input")
        .output("default", ShapeTemplate::time_sized([1]));
    spec.layer("Rnn")
        .input("default", ["Input"])
        .output("default", ShapeTemplate::time_sized([2]).with_context(2));
    let mut buffers = BufferManager::<f32>::new(spec.build().unwrap()).unwrap();
    let h = buffers.layout().find("Rnn.outputs.default").unwrap();
    let step = |t: usize, b: usize, f: usize| (100 * t + 10 * b + f) as f32;

    buffers.resize(3, 2).unwrap();
    buffers.clear_context();
    assert_eq!(buffers.view(h).unwrap().shape(), &[5, 2, 2]);
    assert!(
        buffers
            .view(h)
            .unwrap()
            .slice(s![3.., .., ..])
            .iter()
            .all(|&x| x == 0.0)
    );
    let chunk = Array3::from_shape_fn((3, 2, 2), |(t, b, f)| step(t, b, f));
    buffers.write(h, &chunk).unwrap();

    // What the next chunk needs, saved for a resize; carry_context writes the same in place.
    let saved = buffers.save_context();
    buffers.carry_context();
    let view = buffers.view(h).unwrap();
    // Step -1 (the last row) is the last real step, -2 the one before.
    assert_eq!(view.slice(s![-1, .., ..]), chunk.slice(s![2, .., ..]));
    assert_eq!(view.slice(s![-2, .., ..]), chunk.slice(s![1, .., ..]));

    // A chunk shorter than the context keeps part of the old context.
    buffers.resize(1, 2).unwrap();
    buffers.apply_context(&saved).unwrap();
    assert_eq!(
        buffers.view(h).unwrap().slice(s![1.., .., ..]),
        chunk.slice(s![1..3, .., ..])
    );
    let short = Array3::from_shape_fn((1, 2, 2), |(_, b, f)| step(9, b, f));
    buffers.write(h, &short).unwrap();
    let saved = buffers.save_context();
    let mut carried = buffers.clone();
    carried.carry_context();
    let view = carried.view(h).unwrap();
    assert_eq!(view.slice(s![-1, .., ..]), short.slice(s![0, .., ..]));
    assert_eq!(view.slice(s![-2, .., ..]), chunk.slice(s![2, .., ..]));

    buffers.resize(1, 3).unwrap();
    assert_eq!(
        buffers.apply_context(&saved),
        Err(BufferError::ContextBatchMismatch {
            saved: 2,
            current: 3
        })
    );
    buffers.resize(4, 2).unwrap();
    buffers.apply_context(&saved).unwrap();
    let view = buffers.view(h).unwrap();
    assert_eq!(view.shape(), &[6, 2, 2]);
    assert_eq!(view.slice(s![-1, .., ..]), short.slice(s![0, .., ..]));
    assert_eq!(view.slice(s![-2, .., ..]), chunk.slice(s![2, .., ..]));
    buffers.clear_context();
    assert!(
        buffers
            .view(h)
            .unwrap()
            .slice(s![4.., .., ..])
            .iter()
            .all(|&x| x == 0.0)
    );
    // Consumers of the hub see the context rows too; the input hub has none.
    assert_eq!(
        buffers.view("Input.outputs.default").unwrap().shape(),
        &[4, 2, 1]
    );
}

#[test]
fn clear_backward_zeroes_gradients_and_deltas_only() {
    let mut buffers = BufferManager::<f32>::new(test_network().build().unwrap()).unwrap();
    buffers.resize(2, 2).unwrap();
    buffers.view_mut("parameters").unwrap().fill(1.0);
    buffers.view_mut("gradients").unwrap().fill(1.0);
    buffers
        .view_mut("D.output_deltas.default")
        .unwrap()
        .fill(1.0);
    buffers.clear_backward();
    assert!(
        buffers
            .view("parameters")
            .unwrap()
            .iter()
            .all(|&x| x == 1.0)
    );
    assert!(buffers.view("gradients").unwrap().iter().all(|&x| x == 0.0));
    assert!(
        buffers
            .view("D.output_deltas.default")
            .unwrap()
            .iter()
            .all(|&x| x == 0.0)
    );
}

/// Brainstorm's `'F'` placeholder: "if the feature size is also unknown (e.g. when specifying the
/// input and output shapes of a layer) then 'F' can be used as a placeholder". The test network
/// written with the weights' fan-in as `F`, plus sigmoid layers whose output is `('T', 'B', 'F')`
/// (one of them declared before what feeds it), lays out exactly as written with every size.
#[test]
fn feature_placeholder_is_inferred_from_the_connections() {
    const F: Dim = Dim::FromInput;
    let sigmoid = |spec: &mut LayoutSpec, name: &str, input: &str, template: ShapeTemplate| {
        spec.layer(name)
            .input("default", [input])
            .internal("state", template.clone())
            .output("default", template);
    };
    let mut inferred = LayoutSpec::new();
    // Declared before the layer it reads: resolved in a later round.
    sigmoid(
        &mut inferred,
        "S2",
        "S1",
        ShapeTemplate::with_dims(BufferKind::TimeSized, [F]),
    );
    inferred
        .layer("Input")
        .output("default", ShapeTemplate::time_sized([2]));
    for (name, size, inputs) in [
        ("A", 3, &["Input"][..]),
        ("B", 5, &["Input"][..]),
        ("C", 7, &["A", "B"][..]),
        ("D", 11, &["B", "C"][..]),
    ] {
        inferred
            .layer(name)
            .input("default", inputs.iter().copied())
            .parameter(
                "W",
                ShapeTemplate::with_dims(BufferKind::Constant, [Dim::Size(size), F]),
            )
            .parameter("bias", ShapeTemplate::constant([size]))
            .output("default", ShapeTemplate::time_sized([size]));
    }
    sigmoid(
        &mut inferred,
        "S1",
        "D",
        ShapeTemplate::with_dims(BufferKind::TimeSized, [F]),
    );
    // The same with every size written, in the same order.
    let mut explicit = LayoutSpec::new();
    sigmoid(&mut explicit, "S2", "S1", ShapeTemplate::time_sized([11]));
    explicit
        .layer("Input")
        .output("default", ShapeTemplate::time_sized([2]));
    for (name, size, fan_in, inputs) in [
        ("A", 3, 2, &["Input"][..]),
        ("B", 5, 2, &["Input"][..]),
        ("C", 7, 8, &["A", "B"][..]),
        ("D", 11, 12, &["B", "C"][..]),
    ] {
        explicit
            .layer(name)
            .input("default", inputs.iter().copied())
            .parameter("W", ShapeTemplate::constant([size, fan_in]))
            .parameter("bias", ShapeTemplate::constant([size]))
            .output("default", ShapeTemplate::time_sized([size]));
    }
    sigmoid(&mut explicit, "S1", "D", ShapeTemplate::time_sized([11]));
    let (inferred, explicit) = (inferred.build().unwrap(), explicit.build().unwrap());
    assert_eq!(inferred.to_string(), explicit.to_string());
    let w = inferred.node("C.parameters.W").unwrap();
    assert_eq!(w.template().unwrap(), &ShapeTemplate::constant([7, 8]));
    // The description keeps the placeholder; the layout's templates never hold one.
    assert_eq!(
        ShapeTemplate::with_dims(BufferKind::Constant, [Dim::Size(3), F]).to_string(),
        "(3, F)"
    );
    assert_eq!(
        ShapeTemplate::with_dims(BufferKind::Constant, [F]).to_string(),
        "(F,)"
    );

    // Several feature axes: F takes them all (28×28 images through a sigmoid).
    let mut spec = LayoutSpec::new();
    spec.layer("Input")
        .output("default", ShapeTemplate::time_sized([28, 28]));
    spec.layer("S").input("default", ["Input"]).output(
        "default",
        ShapeTemplate::with_dims(BufferKind::BatchSized, [F, Dim::Size(2)]),
    );
    let layout = spec.build().unwrap();
    assert_eq!(
        layout
            .node("S.outputs.default")
            .unwrap()
            .template()
            .unwrap()
            .to_string(),
        "(B, 28, 28, 2)"
    );
}

#[test]
fn feature_placeholder_errors_name_the_leaf() {
    const F: Dim = Dim::FromInput;
    let f = || ShapeTemplate::with_dims(BufferKind::TimeSized, [F]);
    let build = |spec: LayoutSpec| spec.build().unwrap_err().to_string();
    let mut spec = LayoutSpec::new();
    spec.layer("A").output("default", f());
    assert_eq!(
        build(spec),
        "`A.outputs.default` has the feature placeholder F, but layer `A` has no input to take it from"
    );
    let mut spec = LayoutSpec::new();
    spec.layer("In")
        .output("default", ShapeTemplate::time_sized([2]));
    spec.layer("A")
        .input("x", ["In"])
        .input("y", ["In"])
        .parameter("W", ShapeTemplate::with_dims(BufferKind::Constant, [F]));
    assert_eq!(
        build(spec),
        "`A.parameters.W` has the feature placeholder F, but layer `A` has several inputs and none named `default` to take it from"
    );
    let mut spec = LayoutSpec::new();
    spec.layer("A")
        .input("default", ["B"])
        .output("default", f());
    spec.layer("B")
        .input("default", ["A"])
        .output("default", f());
    assert_eq!(
        build(spec),
        "`A.outputs.default` has the feature placeholder F, but its input reads outputs whose features are placeholders themselves, in a cycle"
    );
    let mut spec = LayoutSpec::new();
    spec.layer("In")
        .output("default", ShapeTemplate::time_sized([2]));
    spec.layer("A").input("default", ["In"]).output(
        "default",
        ShapeTemplate::with_dims(BufferKind::TimeSized, [F, F]),
    );
    assert_eq!(
        build(spec),
        "`A.outputs.default` has the feature placeholder F, but written 2 times: a template takes at most one"
    );
    let mut spec = LayoutSpec::new();
    spec.layer("A")
        .input("default", ["Nope"])
        .output("default", f());
    assert!(
        build(spec).starts_with("input `A.inputs.default` reads `Nope`, which is not an output")
    );
}

#[test]
fn errors_name_what_is_wrong() {
    let build = |f: &dyn Fn(&mut LayoutSpec)| {
        let mut spec = LayoutSpec::new();
        spec.layer("Input")
            .output("default", ShapeTemplate::time_sized([2]));
        f(&mut spec);
        spec.build().unwrap_err().to_string()
    };
    assert_eq!(
        build(&|s| {
            s.layer("Input");
        }),
        "duplicate layer `Input`"
    );
    assert_eq!(
        build(&|s| {
            s.layer("a.b");
        }),
        "invalid layer name `a.b`: `.` separates the segments of a path"
    );
    assert_eq!(
        build(&|s| {
            s.layer("A")
                .parameter("W", ShapeTemplate::constant([2]).with_context(1));
        }),
        "leaf `A.parameters.W` asks for context_size 1 on a constant buffer; only time-sized buffers carry context"
    );
    assert_eq!(
        build(&|s| {
            s.layer("A").parameter("W", ShapeTemplate::time_sized([2]));
        }),
        "parameter `A.parameters.W` is time-sized; parameters must be constant buffers"
    );
    assert_eq!(
        build(&|s| {
            s.layer("A")
                .output("default", ShapeTemplate::time_sized([]));
        }),
        "leaf `A.outputs.default` has no feature axis; a shape template needs at least one feature dimension"
    );
    assert!(
        build(&|s| {
            s.layer("A").input("default", ["Inptu"]);
        })
        .starts_with("input `A.inputs.default` reads `Inptu`, which is not an output of a layer")
    );
    assert_eq!(
        build(&|s| {
            s.layer("B")
                .output("default", ShapeTemplate::batch_sized([2]));
            s.layer("A").input("default", ["Input", "B"]);
        }),
        "input `A.inputs.default` concatenates `Input.outputs.default` (T, B, 2) and `B.outputs.default` (B, 2): concatenated sources must share their buffer kind"
    );

    let buffers = BufferManager::<f32>::new(test_network().build().unwrap()).unwrap();
    assert_eq!(
        buffers.view("C.inputs.defualt").unwrap_err().to_string(),
        "no view `C.inputs.defualt`: `C.inputs` has `default`"
    );
    assert_eq!(
        buffers.view("E").unwrap_err().to_string(),
        "no view `E`: `` has `parameters`, `gradients`, `Input`, `A`, `B`, `C`, `D`"
    );
    assert!(matches!(
        buffers.view("C"),
        Err(BufferError::NotAnArray { .. })
    ));
    let mut buffers = buffers;
    buffers.resize(2, 2).unwrap();
    assert_eq!(
        buffers
            .write("Input.outputs.default", &Array3::<f32>::zeros((2, 2, 3)))
            .unwrap_err(),
        BufferError::ShapeMismatch {
            path: "Input.outputs.default".into(),
            expected: vec![2, 2, 2],
            actual: vec![2, 2, 3]
        }
    );
}

fn brainstorm_mask() -> (ArrayD<f32>, ArrayD<f32>) {
    let lengths = [2usize, 3, 3, 1, 2];
    let mask = Array3::from_shape_fn((4, 5, 1), |(t, b, _)| f32::from(u8::from(t < lengths[b])));
    let x = Array::from_shape_fn((4, 5, 2), |(t, b, f)| (100 * t + 10 * b + f) as f32);
    (x.into_dyn(), mask.into_dyn())
}

#[test]
fn minibatches_cut_time_to_the_longest_sequence() {
    let (x, mask) = brainstorm_mask();
    let data = SequenceData::new(
        [("default", x.clone()), ("mask", mask.clone())],
        SequenceLengths::Mask("mask".into()),
    )
    .unwrap();
    assert_eq!(data.lengths(), &[2, 3, 3, 1, 2]);
    let shapes = |data: &SequenceData<f32>| -> Vec<Vec<usize>> {
        data.minibatches(3)
            .unwrap()
            .map(|b| b.item("default").unwrap().shape().to_vec())
            .collect()
    };
    assert_eq!(shapes(&data), vec![vec![3, 3, 2], vec![2, 2, 2]]);

    let listed = SequenceData::new(
        [("default", x.clone())],
        SequenceLengths::List(vec![2, 3, 4, 1, 2]),
    )
    .unwrap();
    assert_eq!(shapes(&listed), vec![vec![4, 3, 2], vec![2, 2, 2]]);

    // Iterating twice gives the same batches, and the stored data is untouched.
    let first: Vec<ArrayD<f32>> = data
        .minibatches(3)
        .unwrap()
        .map(|b| b.item("default").unwrap().to_owned())
        .collect();
    let second: Vec<ArrayD<f32>> = data
        .minibatches(3)
        .unwrap()
        .map(|b| b.item("default").unwrap().to_owned())
        .collect();
    assert_eq!(first, second);
    assert_eq!(first[1], x.slice(s![..2, 3..5, ..]).into_dyn());
    assert_eq!(data.item("default").unwrap(), x.view());

    let ten = SequenceData::new(
        [("x", Array3::<f32>::zeros((1, 10, 1)).into_dyn())],
        SequenceLengths::Full,
    )
    .unwrap();
    let sizes: Vec<usize> = ten
        .minibatches(3)
        .unwrap()
        .map(|b| b.batch_size())
        .collect();
    assert_eq!(sizes, [3, 3, 3, 1]);
    assert_eq!(ten.minibatches(3).unwrap().len(), 4);
}

#[test]
fn lengths_from_mask_columns() {
    let columns: [&[f32]; 5] = [
        &[1., 1., 1., 1., 1., 0., 0., 0.],
        &[1.; 8],
        &[1., 1., 1., 0., 0., 0., 0., 0.],
        &[1., 1., 1., 1., 0., 0., 0., 0.],
        &[0.; 8],
    ];
    let mask = Array3::from_shape_fn((8, 5, 1), |(t, b, _)| columns[b][t]);
    let data = SequenceData::new(
        [("mask", mask.into_dyn())],
        SequenceLengths::Mask("mask".into()),
    )
    .unwrap();
    assert_eq!(data.lengths(), &[5, 8, 3, 4, 0]);
    let gap = Array3::from_shape_vec((3, 1, 1), vec![0f32, 1., 0.]).unwrap();
    let data =
        SequenceData::new([("m", gap.into_dyn())], SequenceLengths::Mask("m".into())).unwrap();
    assert_eq!(data.lengths(), &[2]);
}

#[test]
fn sequence_data_errors() {
    let (x, _) = brainstorm_mask();
    let err = SequenceData::new(
        [
            ("x", x.clone()),
            ("y", Array3::<f32>::zeros((4, 6, 1)).into_dyn()),
        ],
        SequenceLengths::Full,
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "sequence item `y` has sequences 6, but `x` has 5"
    );
    let err =
        SequenceData::new([("x", x.clone())], SequenceLengths::Mask("mask".into())).unwrap_err();
    assert_eq!(
        err.to_string(),
        "no sequence item `mask`; the items are `x`"
    );
    let err = SequenceData::new([("x", x.clone())], SequenceLengths::List(vec![1, 2])).unwrap_err();
    assert_eq!(
        err,
        BufferError::LengthsCount {
            expected: 5,
            actual: 2
        }
    );
    let err =
        SequenceData::new([("x", x)], SequenceLengths::List(vec![1, 2, 9, 1, 1])).unwrap_err();
    assert_eq!(
        err,
        BufferError::LengthTooLong {
            index: 2,
            length: 9,
            time_steps: 4
        }
    );
    let data = SequenceData::new(
        [("x", Array3::<f32>::zeros((1, 1, 1)).into_dyn())],
        SequenceLengths::Full,
    )
    .unwrap();
    assert_eq!(data.minibatches(0).unwrap_err(), BufferError::ZeroBatchSize);
}

#[test]
fn provide_writes_batches_into_the_input_layer() {
    let (x, mask) = brainstorm_mask();
    let data = SequenceData::new(
        [("default", x.clone()), ("mask", mask)],
        SequenceLengths::Mask("mask".into()),
    )
    .unwrap();
    let mut buffers = BufferManager::<f32>::new(test_network().build().unwrap()).unwrap();
    for batch in data.minibatches(3).unwrap() {
        buffers.provide("Input", &batch).unwrap();
        assert_eq!(
            (buffers.time_steps(), buffers.batch_size()),
            (batch.time_steps(), batch.batch_size())
        );
        assert_eq!(
            buffers.view("A.inputs.default").unwrap(),
            batch.item("default").unwrap()
        );
    }
    let other = SequenceData::new([("features", x)], SequenceLengths::Full).unwrap();
    let batch = other.minibatches(2).unwrap().next().unwrap();
    assert_eq!(
        buffers.provide("Input", &batch).unwrap_err(),
        BufferError::MissingItem {
            path: "Input.outputs.default".into(),
            item: "default".into()
        }
    );
}

// ---------------------------------------------------------------------------------------------
// Properties

/// Source sizes and consumer sets that have a consecutive-ones order by construction: runs of a
/// hidden permutation of the sources, which are declared in index order.
fn layoutable() -> impl Strategy<Value = (Vec<usize>, Vec<Vec<usize>>)> {
    (2usize..9)
        .prop_flat_map(|n| {
            (
                Just((0..n).collect::<Vec<usize>>()).prop_shuffle(),
                prop::collection::vec(1usize..5, n),
                prop::collection::vec((0..n, 0..n), 1..6),
            )
        })
        .prop_map(|(hidden, sizes, runs)| {
            let sets = runs
                .into_iter()
                .map(|(a, b)| hidden[a.min(b)..=a.max(b)].to_vec())
                .collect();
            (sizes, sets)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn every_consumer_reads_one_contiguous_slice((sizes, sets) in layoutable()) {
        let mut spec = LayoutSpec::new();
        let names: Vec<String> = (0..sizes.len()).map(|i| format!("S{i}")).collect();
        for (name, &size) in names.iter().zip(&sizes) {
            spec.layer(name.as_str()).output("default", ShapeTemplate::time_sized([size]));
        }
        for (c, set) in sets.iter().enumerate() {
            spec.layer(format!("C{c}")).input("default", set.iter().map(|&s| names[s].clone()));
        }
        let layout = spec.build().unwrap();
        for (c, set) in sets.iter().enumerate() {
            let input = layout.node(format!("C{c}.inputs.default")).unwrap();
            let slice = input.slice().unwrap();
            let mut covered: Vec<(usize, usize)> = set
                .iter()
                .map(|&s| {
                    let leaf = layout.node(format!("{}.outputs.default", names[s])).unwrap();
                    let leaf = leaf.slice().unwrap();
                    prop_assert_eq!(leaf.hub(), slice.hub());
                    Ok((leaf.start(), leaf.stop()))
                })
                .collect::<Result<_, TestCaseError>>()?;
            covered.sort_unstable();
            // The sources tile the slice exactly: contiguous, no gap, nothing else inside.
            prop_assert_eq!(covered[0].0, slice.start());
            prop_assert_eq!(covered[covered.len() - 1].1, slice.stop());
            for pair in covered.windows(2) {
                prop_assert_eq!(pair[0].1, pair[1].0);
            }
            let width: usize = set.iter().map(|&s| sizes[s]).sum();
            prop_assert_eq!(slice.width(), width);
            prop_assert_eq!(input.sources().count(), set.len());
        }
    }

    #[test]
    fn order_is_the_first_valid_permutation(
        n in 1usize..8,
        raw in prop::collection::vec(prop::collection::vec(0usize..8, 0..5), 0..6),
    ) {
        let names: Vec<String> = (0..n).map(|i| i.to_string()).collect();
        let sources: Vec<&str> = names.iter().map(String::as_str).collect();
        let sets: Vec<Vec<&str>> = raw
            .iter()
            .map(|s| {
                let mut s: Vec<usize> = s.iter().map(|&e| e % n).collect();
                s.sort_unstable();
                s.dedup();
                s.into_iter().map(|e| sources[e]).collect()
            })
            .collect();
        let consumers: Vec<(&str, &[&str])> = sets.iter().map(|s| ("c", s.as_slice())).collect();
        let got = contiguous_order(&sources, &consumers).ok();
        prop_assert_eq!(got, first_valid_permutation(n, &sets, &sources));
    }

    #[test]
    fn resize_keeps_parameters(sizes in prop::collection::vec((0usize..6, 0usize..6), 1..8)) {
        let mut buffers = BufferManager::<f32>::new(test_network().build().unwrap()).unwrap();
        let expected: Vec<f32> = (0..230).map(|i| i as f32 * 0.5).collect();
        buffers.view_mut("parameters").unwrap().assign(&ndarray::aview1(&expected));
        for (t, b) in sizes {
            buffers.resize(t, b).unwrap();
            buffers.view_mut("D.outputs.default").unwrap().fill(f32::NAN);
            prop_assert_eq!(buffers.len(), 460 + 2 * t * b * 28);
            prop_assert_eq!(buffers.view("parameters").unwrap().iter().copied().collect::<Vec<_>>(), expected.clone());
        }
    }
}

fn first_valid_permutation(n: usize, sets: &[Vec<&str>], names: &[&str]) -> Option<Vec<usize>> {
    let valid = |p: &[usize]| {
        sets.iter().all(|s| {
            let mut pos: Vec<usize> = s
                .iter()
                .map(|e| {
                    let idx = names.iter().position(|x| x == e).unwrap();
                    p.iter().position(|&x| x == idx).unwrap()
                })
                .collect();
            pos.sort_unstable();
            pos.is_empty() || pos[pos.len() - 1] - pos[0] + 1 == pos.len()
        })
    };
    let mut p: Vec<usize> = (0..n).collect();
    loop {
        if valid(&p) {
            return Some(p);
        }
        let i = (0..n.saturating_sub(1)).rev().find(|&i| p[i] < p[i + 1])?;
        let j = (i + 1..n).rev().find(|&j| p[j] > p[i]).unwrap();
        p.swap(i, j);
        p[i + 1..].reverse();
    }
}

#[test]
fn error_stays_small() {
    assert!(
        std::mem::size_of::<BufferError>() <= 96,
        "{}",
        std::mem::size_of::<BufferError>()
    );
}

#[test]
fn failed_resizes_leave_the_manager_unchanged() {
    let mut buffers = BufferManager::<f32>::new(test_network().build().unwrap()).unwrap();
    buffers.resize(2, 3).unwrap();
    buffers.view_mut("parameters").unwrap().fill(1.5);
    assert_eq!(
        buffers.resize(usize::MAX, 2),
        Err(BufferError::TooLarge {
            time_steps: usize::MAX,
            batch_size: 2
        })
    );
    // Fits in usize, not in memory: the allocator is asked and refuses, nothing panics.
    assert!(matches!(
        buffers.resize(1, 1 << 56),
        Err(BufferError::Allocation { .. })
    ));
    assert_eq!((buffers.time_steps(), buffers.batch_size()), (2, 3));
    assert_eq!(
        buffers.view("D.inputs.default").unwrap().shape(),
        &[2, 3, 12]
    );
    assert!(
        buffers
            .view("parameters")
            .unwrap()
            .iter()
            .all(|&p| p == 1.5)
    );
    // Empty sizes are fine too.
    buffers.resize(0, 5).unwrap();
    assert_eq!(
        buffers.view_mut("C.inputs.default").unwrap().shape(),
        &[0, 5, 8]
    );
    let [a, b] = buffers
        .views_mut(["C.inputs.default", "C.outputs.default"])
        .unwrap();
    assert_eq!((a.len(), b.len()), (0, 0));
}
