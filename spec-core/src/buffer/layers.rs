//! Declaring what needs memory: layers with named inputs, outputs, parameters and internals.
//!
//! A [`LayoutSpec`] is a plain description, checked only when [`LayoutSpec::build`] turns it into
//! a [`BufferLayout`](super::BufferLayout); every error then names the layer and leaf at fault.

use super::template::ShapeTemplate;
use super::typed::Template;

/// The memory needs of a set of named layers: what each produces (outputs), keeps (parameters,
/// internals) and reads (inputs, each a concatenation of outputs along the feature axis).
///
/// Layers, and the leaves of each group, keep their declaration order: it is the order of the
/// layout tree, of the parameters in the parameter buffer, and the preferred order of sources in
/// a shared buffer.
///
/// ```
/// use batchspec_core::buffer::{LayoutSpec, ShapeTemplate};
///
/// let mut spec = LayoutSpec::new();
/// spec.layer("Input").output("default", ShapeTemplate::time_sized([2]));
/// spec.layer("A")
///     .input("default", ["Input"])
///     .parameter("W", ShapeTemplate::constant([3, 2]))
///     .parameter("bias", ShapeTemplate::constant([3]))
///     .output("default", ShapeTemplate::time_sized([3]));
/// let layout = spec.build()?;
/// assert_eq!(layout.node("A.parameters.bias")?.slice().unwrap().columns(), 6..9);
/// # Ok::<(), batchspec_core::buffer::BufferError>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct LayoutSpec {
    pub(crate) layers: Vec<LayerSpec>,
}

impl LayoutSpec {
    /// An empty description.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a layer named `name` and returns it for declaring its leaves.
    ///
    /// Names are checked by [`build`](Self::build): non-empty, without `.`, unique, and not
    /// `parameters` or `gradients` (the root's flat views).
    pub fn layer(&mut self, name: impl Into<String>) -> &mut LayerSpec {
        self.layers.push(LayerSpec {
            name: name.into(),
            inputs: Vec::new(),
            outputs: Vec::new(),
            parameters: Vec::new(),
            internals: Vec::new(),
        });
        let last = self.layers.len() - 1;
        &mut self.layers[last]
    }

    /// The layers declared so far, in order.
    pub fn layers(&self) -> &[LayerSpec] {
        &self.layers
    }
}

/// One layer of a [`LayoutSpec`]; its methods chain.
#[derive(Debug, Clone)]
pub struct LayerSpec {
    pub(crate) name: String,
    pub(crate) inputs: Vec<(String, Vec<String>)>,
    pub(crate) outputs: Vec<(String, ShapeTemplate)>,
    pub(crate) parameters: Vec<(String, ShapeTemplate)>,
    pub(crate) internals: Vec<(String, ShapeTemplate)>,
}

impl LayerSpec {
    /// The layer's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Declares the input `name`, reading `sources` concatenated along the feature axis.
    ///
    /// A source is written `"Layer"` (its `default` output), `"Layer.output"` or
    /// `"Layer.outputs.output"`. The sources must share their buffer kind and number of feature
    /// axes. Sources with one feature axis are concatenated along it; sources with several are
    /// concatenated along the *first* feature axis, the only one along which their row-major
    /// blocks are adjacent, so their other feature dimensions must agree.
    ///
    /// The input is a zero-copy view: the layout puts its sources side by side. Their order in
    /// the view is the order in the buffer, which the layout chooses (preferring declaration
    /// order) and reports in the tree and in [`LayoutNode::sources`](super::LayoutNode::sources).
    pub fn input<I, S>(&mut self, name: impl Into<String>, sources: I) -> &mut Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.inputs
            .push((name.into(), sources.into_iter().map(Into::into).collect()));
        self
    }

    /// Declares the output `name` with its shape template.
    pub fn output(&mut self, name: impl Into<String>, template: ShapeTemplate) -> &mut Self {
        self.outputs.push((name.into(), template));
        self
    }

    /// Declares the parameter `name`; parameters are constant, kept adjacent per layer in
    /// declaration order, and mirrored by a gradient of the same shape.
    pub fn parameter(&mut self, name: impl Into<String>, template: ShapeTemplate) -> &mut Self {
        self.parameters.push((name.into(), template));
        self
    }

    /// Declares the internal buffer `name` (forward scratch state, read by no other layer; it
    /// gets a hub of its own and no backward mirror).
    pub fn internal(&mut self, name: impl Into<String>, template: ShapeTemplate) -> &mut Self {
        self.internals.push((name.into(), template));
        self
    }
}

// Outputs typed by a space (`Template`, in `typed.rs`).
impl LayerSpec {
    /// An output whose template is that of the space `S`.
    pub fn output_of<S: Template>(&mut self, name: impl Into<String>) -> &mut Self {
        self.output(name, S::template())
    }
}
