//! Training with a validation set and early stopping, as Pylearn2's monitor and Brainstorm's
//! hooks do it: batchspec's `Trainer` fits a softmax regression to 120 of the digits (few, so
//! that it overfits), a monitoring source (the held-out digits, a `Provider` of another dataset)
//! is evaluated at the end of every epoch with the model as it is, a `CsvLog` writes every
//! step's and every evaluation's values to `target/digits_validation.csv` (long form: step,
//! epoch, source, name, value; plot it with any tool), and an `EarlyStopping` hook stops the run
//! when the validation cost has not improved for 10 epochs. The curves are printed as a table.
//!
//! The example fails if the run is not stopped early, if the best held-out accuracy is below
//! 0.85, or if the log does not hold one validation cost per epoch.
//!
//! `cargo run --release -p batchspec-quickstart --example digits_validation`

use batchspec::data::{CsvLog, Dataset, EarlyStopping, Every, Provider, StepData, Trainer, Watch};
use batchspec::iteration::{Schedule, permutation};
use batchspec::mapping::{Channel, Cost, Model};
use batchspec::prelude::*;
use batchspec_quickstart::{Digits, load_digits};
use ndarray::Array2;

#[derive(DataSpec)]
struct Input {
    #[spec(source = "features")]
    x: ArcBatch<Vector<64>>,
}

#[derive(DataSpec)]
struct Supervised {
    input: Input,
    #[spec(source = "targets")]
    y: ArcBatch<Vector<10>>,
}

struct Softmax {
    w: Array2<f32>,
}

impl Model for Softmax {
    type Input = Input;
    type Output = Vector<10>;
}

impl Softmax {
    fn probabilities(&self, x: &Input) -> Array2<f32> {
        let mut z = x.x.array().mapv(|v| v / 16.0).dot(&self.w);
        for mut row in z.rows_mut() {
            let max = row.fold(f32::MIN, |m, &v| m.max(v));
            row.mapv_inplace(|v| (v - max).exp());
            let sum = row.sum();
            row /= sum;
        }
        z
    }
}

struct CrossEntropy;
impl Cost<Softmax> for CrossEntropy {
    type Data = Supervised;
    fn cost(&self, m: &Softmax, d: &Supervised) -> f64 {
        let p = m.probabilities(&d.input);
        let logp = p.mapv(|v| v.max(1e-12).ln()) * d.y.array();
        -f64::from(logp.sum()) / p.nrows().max(1) as f64
    }
}

/// The share of samples whose most probable class is their label.
struct Accuracy;
impl Channel<Softmax> for Accuracy {
    type Data = Supervised;
    fn name(&self) -> &str {
        "accuracy"
    }
    fn value(&self, m: &Softmax, d: &Supervised) -> f64 {
        let p = m.probabilities(&d.input);
        let argmax = |r: ndarray::ArrayView1<f32>| {
            r.iter()
                .enumerate()
                .fold((0, f32::MIN), |b, (i, &v)| if v > b.1 { (i, v) } else { b })
                .0
        };
        let y = d.y.array();
        let hits = p
            .rows()
            .into_iter()
            .zip(y.rows())
            .filter(|(p, y)| argmax(p.view()) == argmax(y.view()))
            .count();
        hits as f64 / p.nrows().max(1) as f64
    }
}

type Step = StepData<Softmax, (CrossEntropy,), (Accuracy,)>;

const TRAIN: usize = 120;
const MAX_EPOCHS: u64 = 400;
const PATIENCE: usize = 10;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let digits = load_digits()?;
    let order = permutation(digits.len(), 2026, 0);
    let train = Dataset::new(digits.select(&order[..TRAIN])?)?;
    let held_out = Dataset::new(digits.select(&order[TRAIN..])?)?;
    let schedule = Schedule::builder(train.len())
        .batch_size(20)
        .shuffle(true)
        .seed(7)
        .build()?;
    let mut trainer = Trainer::<Digits, Softmax, (CrossEntropy,), (Accuracy,)>::new(
        &train,
        schedule,
        (CrossEntropy,),
        (Accuracy,),
    )?;
    let validation = Provider::<Digits, Digits>::new(
        &held_out,
        Schedule::builder(held_out.len()).batch_size(256).build()?,
    )?;
    let log = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../target")
        .join("digits_validation.csv");
    trainer
        .monitor("validation", validation, Every::Epochs(1))
        .hook(Every::Updates(1), CsvLog::create(&log)?)
        .hook(
            Every::Epochs(1),
            CsvLog::create(log.with_extension("epochs.csv"))?,
        )
        .hook(
            Every::Epochs(1),
            EarlyStopping::new("validation", Watch::Cost, PATIENCE),
        );
    let mut model = Softmax {
        w: Array2::zeros((64, 10)),
    };
    // Plain SGD with a large step: the 120 digits are learned by heart, and the held-out cost
    // turns up.
    let update = |m: &mut Softmax, _: &(CrossEntropy,), d: &Step| {
        let x = d.input.x.array().mapv(|v| v / 16.0);
        let g = x
            .t()
            .dot(&(m.probabilities(&d.input) - d.costs.0.y.array()));
        m.w.scaled_add(-2.0 / x.nrows() as f32, &g);
    };
    let epochs = trainer.fit(&mut model, MAX_EPOCHS, update);

    println!("epoch | train cost | train acc | valid cost | valid acc");
    let validation: Vec<_> = trainer
        .monitored()
        .iter()
        .map(|m| m.report.clone())
        .collect::<Result<_, _>>()?;
    for (e, (t, v)) in epochs.iter().zip(&validation).enumerate() {
        if e % 10 == 0 || e + 1 == epochs.len() {
            println!(
                "{e:5} | {:10.4} | {:9.3} | {:10.4} | {:9.3}",
                t.cost(),
                t.channels[0].1,
                v.cost(),
                v.channels[0].1
            );
        }
    }
    let best = validation
        .iter()
        .enumerate()
        .min_by(|a, b| a.1.cost().total_cmp(&b.1.cost()))
        .map(|(e, v)| (e, v.cost(), v.channels[0].1))
        .ok_or("no validation pass")?;
    println!(
        "best validation cost {:.4} at epoch {} (accuracy {:.3}); {}",
        best.1,
        best.0,
        best.2,
        trainer.stopped().unwrap_or("not stopped")
    );
    println!(
        "log: target/digits_validation.csv (every step) and target/digits_validation.epochs.csv"
    );

    let stopped = trainer.stopped().ok_or("the run was not stopped early")?;
    if epochs.len() as u64 >= MAX_EPOCHS || !stopped.contains("has not improved") {
        return Err(format!("stopped after {} epochs: {stopped}", epochs.len()).into());
    }
    if best.2 < 0.85 {
        return Err(format!("the best held-out accuracy is {:.3}, below 0.85", best.2).into());
    }
    let logged = std::fs::read_to_string(log.with_extension("epochs.csv"))?
        .lines()
        .filter(|l| l.contains(",validation,cost,"))
        .count();
    if logged != epochs.len() {
        return Err(format!(
            "{logged} validation costs logged for {} epochs",
            epochs.len()
        )
        .into());
    }
    Ok(())
}
