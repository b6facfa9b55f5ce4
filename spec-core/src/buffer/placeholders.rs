//! Placeholder feature sizes of a [`LayoutSpec`] (Brainstorm's `'F'`, [`Dim::FromInput`]) resolved
//! from what each layer's input reads, and the syntax of an input's source names.
//!
//! [`Dim::FromInput`]: super::Dim::FromInput

use super::error::BufferError;
use super::layers::LayoutSpec;

/// The output a source of an input names: `"Layer"` (its `default` output), `"Layer.output"` or
/// `"Layer.outputs.output"`.
pub(super) fn parse_source(source: &str) -> Option<(&str, &str)> {
    let parts: Vec<&str> = source.split('.').collect();
    match parts.as_slice() {
        [l] => Some((*l, "default")),
        [l, o] | [l, "outputs", o] => Some((*l, *o)),
        _ => None,
    }
}

/// The description with every placeholder `F` replaced by the feature dimensions of its
/// layer's input (`None` when it holds none). Layers are resolved as their inputs' sources are,
/// in rounds, so a chain of placeholders resolves in any declaration order; a cycle of them,
/// or a placeholder in a layer without a unique input, is an error naming the leaf.
pub(super) fn resolve_placeholders(spec: &LayoutSpec) -> Result<Option<LayoutSpec>, BufferError> {
    let has = |l: &super::layers::LayerSpec| {
        [&l.outputs, &l.internals, &l.parameters]
            .into_iter()
            .flatten()
            .any(|(_, t)| t.has_placeholder())
    };
    if !spec.layers.iter().any(has) {
        return Ok(None);
    }
    let mut spec = spec.clone();
    // The path of the first leaf of a layer holding a placeholder.
    let first_path = |l: &super::layers::LayerSpec| {
        let groups = [
            ("outputs", &l.outputs),
            ("internals", &l.internals),
            ("parameters", &l.parameters),
        ];
        groups
            .into_iter()
            .find_map(|(g, list)| {
                list.iter()
                    .find(|(_, t)| t.has_placeholder())
                    .map(|(n, _)| format!("{}.{g}.{n}", l.name))
            })
            .unwrap_or_default()
    };
    for l in &spec.layers {
        for (g, list) in [
            ("outputs", &l.outputs),
            ("internals", &l.internals),
            ("parameters", &l.parameters),
        ] {
            if let Some((n, t)) = list.iter().find(|(_, t)| t.placeholders() > 1) {
                return Err(BufferError::Placeholder {
                    path: format!("{}.{g}.{n}", l.name),
                    reason: format!(
                        "written {} times: a template takes at most one",
                        t.placeholders()
                    ),
                });
            }
        }
    }
    loop {
        let mut progress = false;
        let mut waiting = None;
        for li in 0..spec.layers.len() {
            let layer = &spec.layers[li];
            if !has(layer) {
                continue;
            }
            let input = match layer.inputs.as_slice() {
                [] => None,
                [only] => Some(only),
                several => several.iter().find(|(n, _)| n == "default"),
            };
            let Some((input_name, refs)) = input else {
                let reason = if layer.inputs.is_empty() {
                    format!("layer `{}` has no input to take it from", layer.name)
                } else {
                    format!(
                        "layer `{}` has several inputs and none named `default` to take it from",
                        layer.name
                    )
                };
                return Err(BufferError::Placeholder {
                    path: first_path(layer),
                    reason,
                });
            };
            let input_path = format!("{}.inputs.{input_name}", layer.name);
            if refs.is_empty() {
                return Err(BufferError::EmptyInput { input: input_path });
            }
            // The features of the input: its sources' concatenated along the first feature axis
            // (sources that do not concatenate are reported by the layout with both shapes).
            let mut features: Option<Vec<usize>> = None;
            let mut ready = true;
            for r in refs {
                let template = parse_source(r).and_then(|(l, o)| {
                    spec.layers
                        .iter()
                        .find(|x| x.name == l)
                        .and_then(|x| x.outputs.iter().find(|(n, _)| n == o))
                        .map(|(_, t)| t)
                });
                let Some(template) = template else {
                    return Err(BufferError::UnknownSource {
                        input: input_path,
                        source_path: r.clone(),
                        expected: "an output of a layer (write `Layer` for its `default` output, or `Layer.output`)",
                    });
                };
                if template.has_placeholder() {
                    ready = false;
                    break;
                }
                match &mut features {
                    None => features = Some(template.features().to_vec()),
                    Some(f) => {
                        if let (Some(a), Some(&b)) = (f.first_mut(), template.features().first()) {
                            *a = a.saturating_add(b);
                        }
                    }
                }
            }
            let (true, Some(features)) = (ready, features) else {
                waiting.get_or_insert_with(|| first_path(layer));
                continue;
            };
            let layer = &mut spec.layers[li];
            for list in [
                &mut layer.outputs,
                &mut layer.internals,
                &mut layer.parameters,
            ] {
                for (_, t) in list.iter_mut() {
                    *t = t.resolved(&features);
                }
            }
            progress = true;
        }
        match waiting {
            None => return Ok(Some(spec)),
            Some(path) if !progress => {
                return Err(BufferError::Placeholder {
                    path,
                    reason: "its input reads outputs whose features are placeholders themselves, in a cycle".to_owned(),
                });
            }
            Some(_) => {}
        }
    }
}
