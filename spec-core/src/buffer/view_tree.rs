//! The tree of named views a layout build assembles (`"C.inputs.default"`,
//! `"A.parameters.W"`): nodes added under their parents, given a slice when their children tile
//! one range of one hub, and put in Brainstorm's sibling order.

use super::hubs::{Hub, HubSlice, Node};
use super::template::{BufferKind, ShapeTemplate};

pub(super) struct Tree {
    pub(super) nodes: Vec<Node>,
    pub(super) pending_sources: Vec<(u32, Vec<usize>, bool)>,
}

impl Default for Tree {
    fn default() -> Self {
        Tree {
            nodes: vec![Node {
                name: String::new(),
                path: String::new(),
                parent: None,
                children: Vec::new(),
                slice: None,
                template: None,
                is_array: false,
                sources: Vec::new(),
            }],
            pending_sources: Vec::new(),
        }
    }
}

impl Tree {
    pub(super) fn add(
        &mut self,
        parent: u32,
        name: &str,
        slice: Option<HubSlice>,
        template: Option<ShapeTemplate>,
        is_array: bool,
        sources: Vec<u32>,
    ) -> u32 {
        let index = self.nodes.len() as u32;
        let parent_path = &self.nodes[parent as usize].path;
        let path = if parent_path.is_empty() {
            name.to_owned()
        } else {
            format!("{parent_path}.{name}")
        };
        self.nodes.push(Node {
            name: name.to_owned(),
            path,
            parent: Some(parent),
            children: Vec::new(),
            slice,
            template,
            is_array,
            sources,
        });
        self.nodes[parent as usize].children.push(index);
        index
    }

    /// Gives a view node a slice (and a flat template) when its children tile one range of one
    /// hub in order.
    pub(super) fn close(&mut self, node: u32, hubs: &[Hub]) {
        let children = &self.nodes[node as usize].children;
        let mut slice: Option<HubSlice> = None;
        for &c in children {
            let Some(s) = self.nodes[c as usize].slice else {
                return;
            };
            slice = match slice {
                None => Some(s),
                Some(acc) if acc.hub == s.hub && acc.stop == s.start => Some(HubSlice {
                    stop: s.stop,
                    ..acc
                }),
                Some(_) => return,
            };
        }
        if let Some(s) = slice {
            let hub = &hubs[s.hub];
            let template = ShapeTemplate::new(hub.kind, [s.width()]);
            let template = if hub.kind == BufferKind::TimeSized {
                template.with_context(hub.context_size)
            } else {
                template
            };
            let n = &mut self.nodes[node as usize];
            n.slice = Some(s);
            n.template = Some(template);
        }
    }

    /// Puts a layer's groups in Brainstorm's sibling order.
    pub(super) fn reorder_groups(&mut self, layer: u32) {
        const ORDER: [&str; 7] = [
            "inputs",
            "outputs",
            "parameters",
            "internals",
            "input_deltas",
            "output_deltas",
            "gradients",
        ];
        let mut children = std::mem::take(&mut self.nodes[layer as usize].children);
        children.sort_by_key(|&c| {
            ORDER
                .iter()
                .position(|&g| g == self.nodes[c as usize].name)
                .unwrap_or(ORDER.len())
        });
        self.nodes[layer as usize].children = children;
    }
}
