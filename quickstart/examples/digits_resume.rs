//! A training run stopped mid-epoch and restarted from its checkpoint, in three processes: the
//! digits are trained by batchspec's `Trainer` (a softmax regression, plain SGD), whose
//! `checkpoint_every` hook writes the data's state (a `TrainerState`, JSON) beside the model's
//! weights every 10 steps. One process trains without a stop; a second is killed mid-epoch
//! (`process::exit` at step 67, in the second epoch); a third restarts from the files it left
//! (step 60) and trains to the end. The sequence of (epoch, sample ids) the two runs served,
//! and their final weights and held-out accuracy, must be identical: the example fails
//! otherwise.
//!
//! `cargo run --release -p batchspec-quickstart --example digits_resume`

use batchspec::data::{Dataset, StepData, Trainer, TrainerState};
use batchspec::iteration::{Schedule, permutation};
use batchspec::mapping::Channel;
use batchspec::prelude::*;
use batchspec_quickstart::load_digits;
use batchspec_quickstart::trainer::{CrossEntropy, Softmax};
use ndarray::Array2;
use std::path::{Path, PathBuf};
use std::process::Command;

const EPOCHS: u64 = 3;
const EVERY: u64 = 10;
const KILLED_AT: u64 = 67;

/// The digits with each sample's id (its row in the file).
#[derive(DataSpec)]
struct Numbered {
    #[spec(source = "features")]
    image: Batch<image![8, 8, 1; BHWC, u8]>,
    #[spec(source = "targets")]
    label: Batch<Index<10, 1, u8>>,
    #[spec(source = "id")]
    id: Batch<Vector<1>>,
}

#[derive(DataSpec)]
struct Ids {
    #[spec(source = "id")]
    id: ArcBatch<Vector<1>>,
}

/// The sum of the batch's ids: a channel, so that each step's data holds the ids.
struct SampleIds;
impl Channel<Softmax> for SampleIds {
    type Data = Ids;
    fn name(&self) -> &str {
        "ids"
    }
    fn value(&self, _: &Softmax, d: &Ids) -> f64 {
        f64::from(d.id.array().sum())
    }
}

type Step = StepData<Softmax, (CrossEntropy,), (SampleIds,)>;

/// One process's run in `dir`: from the start, or from the checkpoint there; stopped at
/// `stop` steps if given. Each step's (epoch, ids) is appended to `served.txt`.
fn run(dir: &Path, resume: bool, stop: Option<u64>) -> Result<(), Box<dyn std::error::Error>> {
    let digits = load_digits()?;
    let n = digits.len();
    let ids = ndarray::Array2::from_shape_fn((n, 1), |(i, _)| i as f32);
    let digits = digits.into_fields();
    let all = Dataset::new(Numbered {
        image: digits.image,
        label: digits.label,
        id: Batch::new(ids)?,
    })?;
    let order = permutation(n, 2026, 0);
    let train = Dataset::new(all.select(&order[..n * 4 / 5])?)?;
    let test = Dataset::new(all.select(&order[n * 4 / 5..])?)?;
    let schedule = Schedule::builder(train.len())
        .batch_size(32)
        .shuffle(true)
        .seed(7)
        .build()?;
    let mut trainer = Trainer::<Numbered, Softmax, (CrossEntropy,), (SampleIds,)>::new(
        &train,
        schedule,
        (CrossEntropy,),
        (SampleIds,),
    )?;
    let mut model = Softmax::zeros();
    if resume {
        let state: TrainerState =
            serde_json::from_str(&std::fs::read_to_string(dir.join("data.json"))?)?;
        let w: Vec<f32> = serde_json::from_str(&std::fs::read_to_string(dir.join("model.json"))?)?;
        model.w = Array2::from_shape_vec((64, 10), w)?;
        trainer.resume(&state)?;
        println!(
            "  resumed at step {} (epoch {}, batch {})",
            state.step,
            state.data.epoch(),
            state.data.batches()
        );
        // The served log keeps the steps the checkpoint covers.
        let log = std::fs::read_to_string(dir.join("served.txt"))?;
        let kept: Vec<&str> = log.lines().take(state.step as usize).collect();
        std::fs::write(dir.join("served.txt"), kept.join("\n") + "\n")?;
    } else {
        std::fs::write(dir.join("served.txt"), "")?;
    }
    // The hook writes the data's state beside the step; the model is saved at the same step.
    let data_file = dir.join("data.json");
    trainer.checkpoint_every(EVERY, move |state| {
        let json = serde_json::to_string(state).expect("a state serializes");
        std::fs::write(&data_file, json).expect("the checkpoint directory is writable");
    });
    let mut served = String::new();
    while trainer.state().data.epoch() < EPOCHS {
        let epoch = trainer.state().data.epoch();
        let update = |m: &mut Softmax, _: &(CrossEntropy,), d: &Step| {
            m.sgd(&d.costs.0, 0.5);
            let ids: Vec<String> = d
                .channels
                .0
                .id
                .array()
                .iter()
                .map(|v| v.to_string())
                .collect();
            served.push_str(&format!("{epoch} {}\n", ids.join(",")));
        };
        if trainer.step(&mut model, update).is_none() {
            trainer.start_epoch(epoch + 1);
            continue;
        }
        append(&dir.join("served.txt"), &std::mem::take(&mut served))?;
        if trainer.steps().is_multiple_of(EVERY) {
            std::fs::write(
                dir.join("model.json"),
                serde_json::to_string(&model.w.iter().collect::<Vec<_>>())?,
            )?;
        }
        if stop == Some(trainer.steps()) {
            println!(
                "  killed at step {} (epoch {epoch}, mid-epoch)",
                trainer.steps()
            );
            std::process::exit(0);
        }
    }
    let held_out = Schedule::builder(test.len())
        .batch_size(test.len())
        .build()?;
    let mut eval = Trainer::<Numbered, Softmax, (CrossEntropy,), ()>::new(
        &test,
        held_out,
        (CrossEntropy,),
        (),
    )?;
    let data = eval.next_data().ok_or("no held-out batch")?;
    let accuracy = model.accuracy(&data.costs.0);
    let weights: Vec<u32> = model.w.iter().map(|v| v.to_bits()).collect();
    std::fs::write(
        dir.join("final.json"),
        serde_json::to_string(&(accuracy, weights))?,
    )?;
    println!(
        "  held-out accuracy {accuracy:.4} after {} steps",
        trainer.steps()
    );
    Ok(())
}

fn append(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    std::fs::OpenOptions::new()
        .append(true)
        .open(path)?
        .write_all(text.as_bytes())
}

/// Runs this example again as a process of its own.
fn child(args: &[&str]) -> Result<(), Box<dyn std::error::Error>> {
    let status = Command::new(std::env::current_exe()?).args(args).status()?;
    if !status.success() {
        return Err(format!("the child {args:?} failed: {status}").into());
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["whole", dir] => return run(Path::new(dir), false, None),
        ["killed", dir] => return run(Path::new(dir), false, Some(KILLED_AT)),
        ["resumed", dir] => return run(Path::new(dir), true, None),
        _ => {}
    }
    let root = std::env::temp_dir().join(format!("batchspec-digits-resume-{}", std::process::id()));
    let (whole, stopped): (PathBuf, PathBuf) = (root.join("whole"), root.join("stopped"));
    std::fs::create_dir_all(&whole)?;
    std::fs::create_dir_all(&stopped)?;
    println!("an uninterrupted run of {EPOCHS} epochs:");
    child(&["whole", whole.to_str().ok_or("a temporary path in UTF-8")?])?;
    println!("a run killed mid-epoch, then a new process from its checkpoint:");
    child(&[
        "killed",
        stopped.to_str().ok_or("a temporary path in UTF-8")?,
    ])?;
    child(&[
        "resumed",
        stopped.to_str().ok_or("a temporary path in UTF-8")?,
    ])?;
    let read = |d: &Path, f: &str| std::fs::read_to_string(d.join(f));
    let (a, b) = (read(&whole, "served.txt")?, read(&stopped, "served.txt")?);
    let (fa, fb) = (read(&whole, "final.json")?, read(&stopped, "final.json")?);
    std::fs::remove_dir_all(&root)?;
    let steps = a.lines().count();
    if a != b {
        return Err("the resumed run served other batches than the uninterrupted one".into());
    }
    if fa != fb {
        return Err("the resumed run ended with other weights or accuracy".into());
    }
    println!(
        "identical: the {steps} steps' (epoch, sample ids), the final weights (bit for bit) and the accuracy"
    );
    Ok(())
}
