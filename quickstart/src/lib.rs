//! What the quickstart and its Parquet example share: the digits record (scikit-learn's digits,
//! 1797 grey 8×8 images of 10 classes, shipped inside the smartcore crate), the request a softmax
//! regression asks for, and the model; `trainer`, what the examples that train through
//! batchspec's `Trainer` share.
#![forbid(unsafe_code)]

pub mod trainer;

use batchspec::data::Dataset;
use batchspec::prelude::*;
use ndarray::{Array1, Array2, Array4, ArrayView2, Axis};

/// What the dataset stores.
#[derive(DataSpec)]
pub struct Digits {
    #[spec(source = "features")]
    pub image: Batch<image![8, 8, 1; BHWC, u8]>,
    #[spec(source = "targets")]
    pub label: Batch<Index<10, 1, u8>>,
}

/// What the model and its cost ask for: flat f32 features, one-hot targets.
#[derive(DataSpec)]
pub struct Supervised<const D: usize, const K: usize> {
    #[spec(source = "features")]
    pub x: Batch<Vector<D>>,
    #[spec(source = "targets")]
    pub y: Batch<Vector<K>>,
}

/// A gradient summed over `count` samples (several can be added: data-parallel training).
pub struct Gradient {
    /// Of the weights.
    pub w: Array2<f32>,
    /// Of the biases.
    pub b: Array1<f32>,
    /// The summed loss.
    pub loss: f32,
    /// The samples summed over.
    pub count: usize,
}

impl Gradient {
    /// Adds `other`'s sums to these.
    pub fn add(&mut self, other: &Gradient) {
        self.w += &other.w;
        self.b += &other.b;
        self.loss += other.loss;
        self.count += other.count;
    }
}

/// Softmax regression from `D` features to `K` classes.
pub struct Softmax<const D: usize, const K: usize> {
    w: Array2<f32>,
    b: Array1<f32>,
    scale: f32,
}

impl<const D: usize, const K: usize> Softmax<D, K> {
    pub fn new(scale: f32) -> Self {
        Softmax {
            w: Array2::zeros((D, K)),
            b: Array1::zeros(K),
            scale,
        }
    }

    pub fn probabilities(&self, x: ArrayView2<'_, f32>) -> Array2<f32> {
        let mut z = (&x * self.scale).dot(&self.w) + &self.b;
        for mut row in z.rows_mut() {
            let max = row.fold(f32::MIN, |m, &v| m.max(v));
            row.mapv_inplace(|v| (v - max).exp());
            let sum = row.sum();
            row /= sum;
        }
        z
    }

    /// One SGD step on the first `count` rows (the rest is padding); returns their mean loss.
    pub fn step(&mut self, data: &Supervised<D, K>, count: usize, rate: f32, l2: f32) -> f32 {
        let g = self.gradient(data, count);
        self.apply(&g, rate, l2);
        g.loss / count.max(1) as f32
    }

    /// The gradient of the summed loss over the first `count` rows of `data` (the rest is
    /// padding), and that loss.
    pub fn gradient(&self, data: &Supervised<D, K>, count: usize) -> Gradient {
        // The first `count` rows (no `s!`: its expansion allows `unsafe`, which this crate
        // forbids).
        let rows = ndarray::Slice::from(..count);
        let x = data.x.array().slice_axis(ndarray::Axis(0), rows);
        let t = data.y.array().slice_axis(ndarray::Axis(0), rows);
        let p = self.probabilities(x);
        let loss = -(p.mapv(|v| v.max(1e-12).ln()) * t).sum();
        let delta = p - t;
        Gradient {
            w: x.t().dot(&delta) * self.scale,
            b: delta.sum_axis(Axis(0)),
            loss,
            count,
        }
    }

    /// One SGD step along `g` (a sum over `g.count` samples, so divided by it), with L2 decay.
    pub fn apply(&mut self, g: &Gradient, rate: f32, l2: f32) {
        let n = g.count.max(1) as f32;
        let grad_w = &g.w / n + &self.w * l2;
        self.w.scaled_add(-rate, &grad_w);
        self.b.scaled_add(-rate / n, &g.b);
    }

    /// The rows of `data` whose most probable class is the target's.
    pub fn correct(&self, data: &Supervised<D, K>) -> usize {
        let p = self.probabilities(data.x.array().view());
        let argmax = |row: ndarray::ArrayView1<'_, f32>| {
            row.iter()
                .enumerate()
                .fold(
                    (0, f32::MIN),
                    |best, (i, &v)| if v > best.1 { (i, v) } else { best },
                )
                .0
        };
        p.rows()
            .into_iter()
            .zip(data.y.array().rows())
            .filter(|(p, t)| argmax(p.view()) == argmax(t.view()))
            .count()
    }
}

/// Reads the digits from smartcore's copy of scikit-learn's file, checking every value.
pub fn load_digits() -> Result<Dataset<Digits>, Box<dyn std::error::Error>> {
    let raw = smartcore::dataset::digits::load_dataset();
    let (n, f) = (raw.num_samples, raw.num_features);
    let pixel = |v: f32| -> Result<u8, String> {
        if v.fract() == 0.0 && (0.0..=255.0).contains(&v) {
            Ok(v as u8)
        } else {
            Err(format!("pixel {v} is not a byte"))
        }
    };
    let pixels: Vec<u8> = raw
        .data
        .iter()
        .map(|&v| pixel(v))
        .collect::<Result<_, _>>()?;
    let labels: Vec<u8> = raw
        .target
        .iter()
        .map(|&v| pixel(v))
        .collect::<Result<_, _>>()?;
    let image = Array4::from_shape_vec((n, 8, 8, f / 64), pixels)?;
    let label = Array2::from_shape_vec((n, 1), labels)?;
    // Shape and label checks happen here, once: a label outside 0..10 would be an error.
    Ok(Dataset::new(Digits {
        image: Batch::new(image)?,
        label: Batch::new(label)?,
    })?)
}
