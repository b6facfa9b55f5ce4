//! The consumers of data in a training loop, after Pylearn2's "big picture": a model declares
//! what it reads and what it predicts, a cost and a monitoring channel declare the data they
//! need. A training step serves all their requests from one record, each unique leaf once
//! ([`Server`](crate::mapping::serve::Server)), with every structure check already done by the compiler.

use crate::types::space::Space;
use crate::types::spec::DataSpec;

/// A model: the spec it reads (Pylearn2's input space and source) and the space of its output.
pub trait Model {
    /// What the model reads.
    type Input: DataSpec;
    /// The space of the model's predictions (Pylearn2's output space).
    type Output: Space;
}

/// A cost of the model `M`: the data it needs, which may be a spec with no leaves (an L1
/// penalty needs none).
pub trait Cost<M: Model> {
    /// What the cost reads.
    type Data: DataSpec;
    /// The cost of `model` on `data`.
    fn cost(&self, model: &M, data: &Self::Data) -> f64;
}

/// A monitoring channel: a value computed from data, reported during training.
pub trait Channel<M: Model> {
    /// What the channel reads.
    type Data: DataSpec;
    /// The channel's name.
    fn name(&self) -> &str;
    /// The value on `data`.
    fn value(&self, model: &M, data: &Self::Data) -> f64;
}
