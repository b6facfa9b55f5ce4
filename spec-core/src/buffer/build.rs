//! Building a [`BufferLayout`] from a [`LayoutSpec`]: checking names and templates, resolving
//! inputs, grouping leaves into hubs, ordering each hub, and assembling the tree of views (its
//! placeholders resolved first by `placeholders`, the tree kept by `view_tree`).

use std::collections::HashMap;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};

use super::consecutive::consecutive_order;
use super::error::{BufferError, ConcatRule};
use super::hubs::{BufferLayout, Hub, HubSlice, HubSource, ViewId};
use super::layers::LayoutSpec;
use super::placeholders::{parse_source, resolve_placeholders};
use super::template::{BufferKind, ShapeTemplate};
use super::view_tree::Tree;

static NEXT_LAYOUT_ID: AtomicU64 = AtomicU64::new(1);

/// Checks `spec` and computes its layout.
impl LayoutSpec {
    /// Checks the description and computes its layout: hubs, slices and the tree of views.
    ///
    /// # Errors
    /// Invalid or repeated names, malformed templates (no feature axis, context on a non-time
    /// buffer, non-constant parameters), inputs reading unknown or incompatible sources, and
    /// [`BufferError::Unlayoutable`] when no order of a hub's sources gives every input a
    /// contiguous slice.
    pub fn build(&self) -> Result<BufferLayout, BufferError> {
        build(self)
    }
}

fn build(spec: &LayoutSpec) -> Result<BufferLayout, BufferError> {
    let resolved = resolve_placeholders(spec)?;
    Builder::new(resolved.as_ref().unwrap_or(spec))?.finish()
}

fn check_name(what: &'static str, name: &str) -> Result<(), BufferError> {
    let reason = if name.is_empty() {
        "names must not be empty"
    } else if name.contains('.') {
        "`.` separates the segments of a path"
    } else {
        return Ok(());
    };
    Err(BufferError::InvalidName {
        what,
        name: name.to_owned(),
        reason,
    })
}

fn check_unique<'a>(
    what: &'static str,
    prefix: &str,
    names: impl Iterator<Item = &'a str>,
) -> Result<(), BufferError> {
    let mut seen: Vec<&str> = Vec::new();
    for name in names {
        check_name(what, name)?;
        if seen.contains(&name) {
            return Err(BufferError::Duplicate {
                what,
                path: format!("{prefix}{name}"),
            });
        }
        seen.push(name);
    }
    Ok(())
}

fn check_template(path: &str, template: &ShapeTemplate) -> Result<usize, BufferError> {
    if template.features().is_empty() {
        return Err(BufferError::NoFeatureAxis {
            path: path.to_owned(),
        });
    }
    if template.context_size() > 0 && template.kind() != BufferKind::TimeSized {
        return Err(BufferError::ContextOnNonTime {
            path: path.to_owned(),
            kind: template.kind(),
            context_size: template.context_size(),
        });
    }
    template
        .checked_feature_size()
        .ok_or_else(|| BufferError::LeafTooLarge {
            path: path.to_owned(),
        })
}

/// A leaf that occupies columns of a forward hub: an output, an internal or a parameter.
struct Leaf<'s> {
    layer: usize,
    group: Group,
    name: &'s str,
    path: String,
    template: &'s ShapeTemplate,
    width: usize,
    hub: usize,
    columns: Range<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Group {
    Output,
    Internal,
    Parameter,
}

struct Input<'s> {
    layer: usize,
    name: &'s str,
    path: String,
    sources: Vec<usize>,
    features: Vec<usize>,
}

/// A forward hub before it is placed: its kind, members (leaf indices) and what it mirrors.
struct Draft {
    kind: BufferKind,
    members: Vec<usize>,
    group: Group,
}

struct Builder<'s> {
    spec: &'s LayoutSpec,
    leaves: Vec<Leaf<'s>>,
    inputs: Vec<Input<'s>>,
}

fn find_root(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

impl<'s> Builder<'s> {
    fn new(spec: &'s LayoutSpec) -> Result<Self, BufferError> {
        check_unique("layer", "", spec.layers.iter().map(|l| l.name.as_str()))?;
        for layer in &spec.layers {
            if layer.name == "parameters" || layer.name == "gradients" {
                return Err(BufferError::InvalidName {
                    what: "layer",
                    name: layer.name.clone(),
                    reason: "`parameters` and `gradients` are the root's flat views",
                });
            }
            let l = &layer.name;
            check_unique(
                "input",
                &format!("{l}.inputs."),
                layer.inputs.iter().map(|(n, _)| n.as_str()),
            )?;
            check_unique(
                "output",
                &format!("{l}.outputs."),
                layer.outputs.iter().map(|(n, _)| n.as_str()),
            )?;
            check_unique(
                "parameter",
                &format!("{l}.parameters."),
                layer.parameters.iter().map(|(n, _)| n.as_str()),
            )?;
            check_unique(
                "internal",
                &format!("{l}.internals."),
                layer.internals.iter().map(|(n, _)| n.as_str()),
            )?;
        }

        // Leaves in declaration order: per layer its outputs, internals, then parameters.
        let mut leaves = Vec::new();
        for (li, layer) in spec.layers.iter().enumerate() {
            let groups = [
                (Group::Output, "outputs", &layer.outputs),
                (Group::Internal, "internals", &layer.internals),
                (Group::Parameter, "parameters", &layer.parameters),
            ];
            for (group, group_name, list) in groups {
                for (name, template) in list {
                    let path = format!("{}.{group_name}.{name}", layer.name);
                    let width = check_template(&path, template)?;
                    if group == Group::Parameter && template.kind() != BufferKind::Constant {
                        return Err(BufferError::ParameterNotConstant {
                            path,
                            kind: template.kind(),
                        });
                    }
                    leaves.push(Leaf {
                        layer: li,
                        group,
                        name,
                        path,
                        template,
                        width,
                        hub: usize::MAX,
                        columns: 0..0,
                    });
                }
            }
        }

        let mut builder = Builder {
            spec,
            leaves,
            inputs: Vec::new(),
        };
        builder.resolve_inputs()?;
        Ok(builder)
    }

    fn output_named(&self, layer: &str, output: &str) -> Option<usize> {
        self.leaves.iter().position(|l| {
            l.group == Group::Output && l.name == output && self.spec.layers[l.layer].name == layer
        })
    }

    fn resolve_inputs(&mut self) -> Result<(), BufferError> {
        let spec = self.spec;
        for (li, layer) in spec.layers.iter().enumerate() {
            for (name, refs) in &layer.inputs {
                let path = format!("{}.inputs.{name}", layer.name);
                if refs.is_empty() {
                    return Err(BufferError::EmptyInput { input: path });
                }
                let mut sources = Vec::with_capacity(refs.len());
                for r in refs {
                    let leaf = parse_source(r)
                        .and_then(|(l, o)| self.output_named(l, o))
                        .ok_or_else(|| BufferError::UnknownSource {
                            input: path.clone(),
                            source_path: r.clone(),
                            expected: "an output of a layer (write `Layer` for its `default` output, or `Layer.output`)",
                        })?;
                    if sources.contains(&leaf) {
                        return Err(BufferError::RepeatedSource {
                            input: path,
                            source_path: self.leaves[leaf].path.clone(),
                        });
                    }
                    sources.push(leaf);
                }
                let features = self.concatenated_features(&path, &sources)?;
                self.inputs.push(Input {
                    layer: li,
                    name,
                    path,
                    sources,
                    features,
                });
            }
        }
        Ok(())
    }

    fn concatenated_features(
        &self,
        input: &str,
        sources: &[usize],
    ) -> Result<Vec<usize>, BufferError> {
        let first = &self.leaves[sources[0]];
        let mut features = first.template.features().to_vec();
        for &s in &sources[1..] {
            let other = &self.leaves[s];
            let (a, b) = (first.template, other.template);
            let rule = if a.kind() != b.kind() {
                Some(ConcatRule::SameKind)
            } else if a.features().len() != b.features().len() {
                Some(ConcatRule::SameRank)
            } else if a.features()[1..] != b.features()[1..] {
                Some(ConcatRule::SameTrailingDims)
            } else {
                None
            };
            if let Some(rule) = rule {
                return Err(BufferError::IncompatibleSources {
                    input: input.to_owned(),
                    first: first.path.clone(),
                    first_shape: Box::new(a.clone()),
                    other: other.path.clone(),
                    other_shape: Box::new(b.clone()),
                    rule,
                });
            }
            features[0] = features[0].checked_add(b.features()[0]).ok_or_else(|| {
                BufferError::LeafTooLarge {
                    path: input.to_owned(),
                }
            })?;
        }
        Ok(features)
    }

    /// Groups leaves into forward hubs: all parameters together, outputs by forward closure,
    /// each internal alone; sorted into arena order.
    fn drafts(&self) -> Vec<Draft> {
        let n = self.leaves.len();
        let mut parent: Vec<usize> = (0..n).collect();
        for input in &self.inputs {
            let a = find_root(&mut parent, input.sources[0]);
            for &s in &input.sources[1..] {
                let b = find_root(&mut parent, s);
                parent[b] = a;
            }
        }
        let mut drafts: Vec<Draft> = Vec::new();
        let params: Vec<usize> = (0..n)
            .filter(|&i| self.leaves[i].group == Group::Parameter)
            .collect();
        if !params.is_empty() {
            drafts.push(Draft {
                kind: BufferKind::Constant,
                members: params,
                group: Group::Parameter,
            });
        }
        let mut draft_of_root: HashMap<usize, usize> = HashMap::new();
        for i in 0..n {
            let leaf = &self.leaves[i];
            match leaf.group {
                Group::Parameter => {}
                Group::Internal => drafts.push(Draft {
                    kind: leaf.template.kind(),
                    members: vec![i],
                    group: Group::Internal,
                }),
                Group::Output => {
                    let root = find_root(&mut parent, i);
                    match draft_of_root.get(&root) {
                        Some(&d) => drafts[d].members.push(i),
                        None => {
                            draft_of_root.insert(root, drafts.len());
                            drafts.push(Draft {
                                kind: leaf.template.kind(),
                                members: vec![i],
                                group: Group::Output,
                            });
                        }
                    }
                }
            }
        }
        // Stable: parameters stay first among constants, others keep declaration order.
        drafts.sort_by_key(|d| d.kind);
        drafts
    }

    fn finish(mut self) -> Result<BufferLayout, BufferError> {
        let mut drafts = self.drafts();

        // Order each output hub so every input reading it is contiguous.
        for draft in &mut drafts {
            if draft.group != Group::Output || draft.members.len() < 2 {
                continue;
            }
            let local = |leaf: usize| draft.members.iter().position(|&m| m == leaf);
            let readers: Vec<&Input<'_>> = self
                .inputs
                .iter()
                .filter(|i| local(i.sources[0]).is_some())
                .collect();
            let sets: Vec<Vec<usize>> = readers
                .iter()
                .map(|i| i.sources.iter().filter_map(|&s| local(s)).collect())
                .collect();
            let order = consecutive_order(draft.members.len(), &sets).map_err(|conflict| {
                conflict.into_error(
                    |s| self.leaves[draft.members[s]].path.clone(),
                    |c| readers[c].path.clone(),
                    &sets,
                )
            })?;
            draft.members = order.into_iter().map(|k| draft.members[k]).collect();
        }

        // Forward hubs, then their mirrors.
        let mut hubs: Vec<Hub> = Vec::with_capacity(2 * drafts.len());
        for (h, draft) in drafts.iter().enumerate() {
            let mut width = 0usize;
            let mut context_size = 0;
            for &m in &draft.members {
                let leaf = &mut self.leaves[m];
                let start = width;
                width = width
                    .checked_add(leaf.width)
                    .ok_or_else(|| BufferError::LeafTooLarge {
                        path: leaf.path.clone(),
                    })?;
                leaf.hub = h;
                leaf.columns = start..width;
                context_size = context_size.max(leaf.template.context_size());
            }
            hubs.push(Hub {
                kind: draft.kind,
                width,
                context_size,
                backward: false,
                sources: Vec::new(),
            });
        }
        let mut mirror: Vec<Option<usize>> = vec![None; hubs.len()];
        for (h, draft) in drafts.iter().enumerate() {
            if draft.group != Group::Internal {
                mirror[h] = Some(hubs.len());
                let forward = &hubs[h];
                hubs.push(Hub {
                    backward: true,
                    ..forward.clone()
                });
            }
        }

        let mut tree = Tree::default();
        let effective = |template: &ShapeTemplate, hub: &Hub| {
            if template.kind() == BufferKind::TimeSized {
                template.clone().with_context(hub.context_size)
            } else {
                template.clone()
            }
        };

        // Root: every parameter and every gradient as one flat array.
        let mut forward_node = vec![u32::MAX; self.leaves.len()];
        let mut backward_node = vec![u32::MAX; self.leaves.len()];
        if drafts.first().is_some_and(|d| d.group == Group::Parameter) {
            for (name, hub) in [("parameters", 0), ("gradients", mirror[0].unwrap_or(0))] {
                let width = hubs[hub].width;
                tree.add(
                    0,
                    name,
                    Some(HubSlice {
                        hub,
                        start: 0,
                        stop: width,
                    }),
                    Some(ShapeTemplate::constant([width])),
                    true,
                    Vec::new(),
                );
            }
        }

        for (li, layer) in self.spec.layers.iter().enumerate() {
            let layer_node = tree.add(0, &layer.name, None, None, false, Vec::new());
            let leaves_of = |group: Group| {
                self.leaves
                    .iter()
                    .enumerate()
                    .filter(move |(_, l)| l.layer == li && l.group == group)
            };
            let inputs: Vec<&Input<'_>> = self.inputs.iter().filter(|i| i.layer == li).collect();

            for backward in [false, true] {
                if inputs.is_empty() {
                    break;
                }
                let group_name = if backward { "input_deltas" } else { "inputs" };
                let group = tree.add(layer_node, group_name, None, None, false, Vec::new());
                for input in &inputs {
                    let fwd_hub = self.leaves[input.sources[0]].hub;
                    let hub = if backward {
                        mirror[fwd_hub].unwrap_or(fwd_hub)
                    } else {
                        fwd_hub
                    };
                    let mut sources: Vec<usize> = input.sources.clone();
                    sources.sort_by_key(|&s| self.leaves[s].columns.start);
                    let start = self.leaves[sources[0]].columns.start;
                    let stop = sources
                        .iter()
                        .map(|&s| self.leaves[s].columns.end)
                        .max()
                        .unwrap_or(start);
                    let kind = self.leaves[sources[0]].template.kind();
                    let template = effective(
                        &ShapeTemplate::new(kind, input.features.clone()),
                        &hubs[hub],
                    );
                    // Source nodes are filled in once every output node exists.
                    let node = tree.add(
                        group,
                        input.name,
                        Some(HubSlice { hub, start, stop }),
                        Some(template),
                        true,
                        Vec::new(),
                    );
                    tree.pending_sources.push((node, sources, backward));
                }
                tree.close(group, &hubs);
            }

            let groups = [
                (Group::Output, "outputs", false),
                (Group::Parameter, "parameters", false),
                (Group::Internal, "internals", false),
                (Group::Output, "output_deltas", true),
                (Group::Parameter, "gradients", true),
            ];
            // `reorder_groups` below restores Brainstorm's sibling order (inputs, outputs,
            // parameters, internals, input_deltas, output_deltas, gradients).
            for (group_kind, group_name, backward) in groups {
                let members: Vec<usize> = leaves_of(group_kind).map(|(i, _)| i).collect();
                if members.is_empty() {
                    continue;
                }
                let group = tree.add(layer_node, group_name, None, None, false, Vec::new());
                for i in members {
                    let leaf = &self.leaves[i];
                    let hub = if backward {
                        mirror[leaf.hub].unwrap_or(leaf.hub)
                    } else {
                        leaf.hub
                    };
                    let node = tree.add(
                        group,
                        leaf.name,
                        Some(HubSlice {
                            hub,
                            start: leaf.columns.start,
                            stop: leaf.columns.end,
                        }),
                        Some(effective(leaf.template, &hubs[hub])),
                        true,
                        Vec::new(),
                    );
                    if backward {
                        backward_node[i] = node;
                    } else {
                        forward_node[i] = node;
                    }
                }
                tree.close(group, &hubs);
            }
            tree.reorder_groups(layer_node);
            tree.close(layer_node, &hubs);
        }

        for (node, sources, backward) in std::mem::take(&mut tree.pending_sources) {
            let table = if backward {
                &backward_node
            } else {
                &forward_node
            };
            tree.nodes[node as usize].sources = sources.iter().map(|&s| table[s]).collect();
        }

        let id = NEXT_LAYOUT_ID.fetch_add(1, Ordering::Relaxed);
        for (i, leaf) in self.leaves.iter().enumerate() {
            let source = |node: u32| HubSource {
                leaf: ViewId { layout: id, node },
                columns: leaf.columns.clone(),
            };
            hubs[leaf.hub].sources.push(source(forward_node[i]));
            if let Some(m) = mirror[leaf.hub] {
                hubs[m].sources.push(source(backward_node[i]));
            }
        }
        for hub in &mut hubs {
            hub.sources.sort_by_key(|s| s.columns.start);
        }

        let paths = tree
            .nodes
            .iter()
            .enumerate()
            .skip(1)
            .map(|(i, n)| (n.path.clone(), i as u32))
            .collect();
        Ok(BufferLayout {
            id,
            hubs,
            nodes: tree.nodes,
            paths,
        })
    }
}
