//! What the examples that train through batchspec's `Trainer` share (`digits_resume`,
//! `digits_validation`): the model's request, a softmax regression written as a `Model`, its
//! cross-entropy cost and accuracy channel, and a plain gradient step.

use batchspec::mapping::{Channel, Cost, Model};
use batchspec::prelude::*;
use ndarray::{Array2, ArrayView1};

/// The model's input: the 64 pixels, as floats.
#[derive(DataSpec)]
pub struct Input {
    /// The pixels, 0 to 16.
    #[spec(source = "features")]
    pub x: ArcBatch<Vector<64>>,
}

/// The input and its one-hot labels, for the cost and the channel.
#[derive(DataSpec)]
pub struct Supervised {
    /// The model's input (shared with it: gathered once).
    pub input: Input,
    /// The labels, one-hot.
    #[spec(source = "targets")]
    pub y: ArcBatch<Vector<10>>,
}

/// A softmax regression of the pixels / 16.
pub struct Softmax {
    /// The weights, 64 × 10.
    pub w: Array2<f32>,
}

impl Model for Softmax {
    type Input = Input;
    type Output = Vector<10>;
}

impl Softmax {
    /// All weights 0.
    pub fn zeros() -> Self {
        Softmax {
            w: Array2::zeros((64, 10)),
        }
    }

    /// Each sample's class probabilities.
    pub fn probabilities(&self, x: &Input) -> Array2<f32> {
        let mut z = x.x.array().mapv(|v| v / 16.0).dot(&self.w);
        for mut row in z.rows_mut() {
            let max = row.fold(f32::MIN, |m, &v| m.max(v));
            row.mapv_inplace(|v| (v - max).exp());
            let sum = row.sum();
            row /= sum;
        }
        z
    }

    /// A gradient step of the mean cross-entropy on a batch, of size `rate`.
    pub fn sgd(&mut self, d: &Supervised, rate: f32) {
        let x = d.input.x.array().mapv(|v| v / 16.0);
        let g = x.t().dot(&(self.probabilities(&d.input) - d.y.array()));
        self.w.scaled_add(-rate / x.nrows().max(1) as f32, &g);
    }

    /// The share of samples whose most probable class is their label.
    pub fn accuracy(&self, d: &Supervised) -> f64 {
        let p = self.probabilities(&d.input);
        let hits = p
            .rows()
            .into_iter()
            .zip(d.y.array().rows())
            .filter(|(p, y)| argmax(*p) == argmax(*y))
            .count();
        hits as f64 / p.nrows().max(1) as f64
    }
}

fn argmax(r: ArrayView1<'_, f32>) -> usize {
    r.iter()
        .enumerate()
        .fold((0, f32::MIN), |b, (i, &v)| if v > b.1 { (i, v) } else { b })
        .0
}

/// The mean cross-entropy.
pub struct CrossEntropy;

impl Cost<Softmax> for CrossEntropy {
    type Data = Supervised;
    fn cost(&self, m: &Softmax, d: &Supervised) -> f64 {
        let p = m.probabilities(&d.input);
        let logp = p.mapv(|v| v.max(1e-12).ln()) * d.y.array();
        -f64::from(logp.sum()) / p.nrows().max(1) as f64
    }
}

/// The accuracy, as a monitoring channel.
pub struct Accuracy;

impl Channel<Softmax> for Accuracy {
    type Data = Supervised;
    fn name(&self) -> &str {
        "accuracy"
    }
    fn value(&self, m: &Softmax, d: &Supervised) -> f64 {
        m.accuracy(d)
    }
}
