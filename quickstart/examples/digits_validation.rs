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
use batchspec_quickstart::trainer::{Accuracy, CrossEntropy, Softmax};
use batchspec_quickstart::{Digits, load_digits};

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
    let mut model = Softmax::zeros();
    // Plain SGD with a large step: the 120 digits are learned by heart, and the held-out cost
    // turns up.
    let update = |m: &mut Softmax, _: &(CrossEntropy,), d: &Step| m.sgd(&d.costs.0, 2.0);
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
