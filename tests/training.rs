//! Pylearn2's "big picture": a training algorithm combines the data specs of a model, its costs
//! and its monitoring channels, flattens them with de-duplication, iterates over the dataset and
//! nests each batch back for every consumer. Checked with the traits: what each consumer gets
//! against a provider of its own request (an independent gather), how many leaves each batch
//! gathers, and a model trained through it.

use batchspec::data::Dataset;
use batchspec::data::Provider;
use batchspec::data::Trainer;
use batchspec::data::{Control, CsvLog, EarlyStopping, Event, Every, Watch};
use batchspec::iteration::{LastBatch, Schedule};
use batchspec::mapping::{Channel, Cost, Model};
use batchspec::prelude::*;
use ndarray::{Array1, Array2, Array4};

/// 4×4 grey images whose bright quadrant is the label, and a source no consumer reads.
#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    image: Batch<image![4, 4, 1; BHWC, u8]>,
    #[spec(source = "targets")]
    label: Batch<Labels<4, u8>>,
    #[spec(source = "weights")]
    weight: Batch<Vector<1>>,
}

fn record(n: usize) -> Record {
    let labels: Vec<u8> = (0..n).map(|i| (i * 7 % 4) as u8).collect();
    let image = Array4::from_shape_fn((n, 4, 4, 1), |(i, h, w, _)| {
        let q = (h / 2) * 2 + w / 2;
        let noise = ((i * 31 + h * 7 + w * 3) % 17) as u8;
        if q == usize::from(labels[i]) {
            200 + noise
        } else {
            20 + noise
        }
    });
    Record {
        image: Batch::new(image).unwrap(),
        label: Batch::new(Array1::from(labels)).unwrap(),
        // Each sample's id: read by the resume tests' channel only.
        weight: Batch::new(Array2::from_shape_fn((n, 1), |(i, _)| i as f32)).unwrap(),
    }
}

#[derive(DataSpec)]
struct Input {
    #[spec(source = "features")]
    x: ArcBatch<Vector<16>>,
}

/// The model's input and the targets in the model's output space (Pylearn2's example 3).
#[derive(DataSpec)]
struct Supervised {
    input: Input,
    #[spec(source = "targets")]
    targets: ArcBatch<Vector<4>>,
}

/// The targets as labels: another space of the same source.
#[derive(DataSpec)]
struct TargetLabels {
    #[spec(source = "targets")]
    labels: ArcBatch<Labels<4>>,
}

struct Linear {
    w: Array2<f32>,
}

impl Model for Linear {
    type Input = Input;
    type Output = Vector<4>;
}

impl Linear {
    fn scores(&self, input: &Input) -> Array2<f32> {
        input.x.array().mapv(|v| v / 255.0).dot(&self.w)
    }
    fn probabilities(&self, input: &Input) -> Array2<f32> {
        let mut z = self.scores(input);
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
impl Cost<Linear> for CrossEntropy {
    type Data = Supervised;
    fn cost(&self, model: &Linear, data: &Supervised) -> f64 {
        let p = model.probabilities(&data.input);
        let n = p.nrows().max(1) as f64;
        -f64::from((p.mapv(|v| v.max(1e-12).ln()) * data.targets.array()).sum()) / n
    }
}

/// An L1 penalty: Pylearn2's `(NullSpace(), '')`, no data.
struct L1(f32);
impl Cost<Linear> for L1 {
    type Data = Null;
    fn cost(&self, model: &Linear, _: &Null) -> f64 {
        f64::from(self.0 * model.w.mapv(f32::abs).sum())
    }
}

/// The share of samples whose highest score is their label.
struct Accuracy;
impl Channel<Linear> for Accuracy {
    type Data = Supervised;
    fn name(&self) -> &str {
        "accuracy"
    }
    fn value(&self, model: &Linear, data: &Supervised) -> f64 {
        accuracy(&model.scores(&data.input), data.targets.array().view())
    }
}

/// The mean label, read as labels.
struct MeanLabel;
impl Channel<Linear> for MeanLabel {
    type Data = TargetLabels;
    fn name(&self) -> &str {
        "mean label"
    }
    fn value(&self, _: &Linear, data: &TargetLabels) -> f64 {
        data.labels.array().mapv(|l| l as f64).mean().unwrap_or(0.0)
    }
}

fn accuracy(scores: &Array2<f32>, one_hot: ndarray::ArrayView2<f32>) -> f64 {
    let argmax = |r: ndarray::ArrayView1<f32>| {
        r.iter()
            .enumerate()
            .fold((0, f32::MIN), |b, (i, &v)| if v > b.1 { (i, v) } else { b })
            .0
    };
    let hits = scores
        .rows()
        .into_iter()
        .zip(one_hot.rows())
        .filter(|(s, t)| argmax(*s) == argmax(*t))
        .count();
    hits as f64 / scores.nrows().max(1) as f64
}

type Costs = (CrossEntropy, L1);
type Channels = (Accuracy, MeanLabel);

fn schedule(n: usize, last: LastBatch) -> Schedule {
    Schedule::builder(n)
        .batch_size(16)
        .shuffle(true)
        .seed(3)
        .last_batch(last)
        .build()
        .unwrap()
}

#[test]
fn every_consumer_gets_its_data_from_the_unique_leaves_once() {
    let ds = Dataset::new(record(40)).unwrap();
    let mut trainer = Trainer::<Record, Linear, Costs, Channels>::new(
        &ds,
        schedule(40, LastBatch::Short),
        (CrossEntropy, L1(0.0)),
        (Accuracy, MeanLabel),
    )
    .unwrap();
    // input.x, xent (x, targets), accuracy (x, targets), mean label (targets as labels): six
    // leaves, three unique; the source `weights` is read by nobody and never gathered.
    assert_eq!((trainer.leaves(), trainer.unique_leaves()), (6, 3));

    // The same batches, gathered independently for each request by providers of the schedule.
    let mut supervised =
        Provider::<Record, Supervised>::new(&ds, schedule(40, LastBatch::Short)).unwrap();
    let mut labels =
        Provider::<Record, TargetLabels>::new(&ds, schedule(40, LastBatch::Short)).unwrap();
    let model = Linear {
        w: Array2::from_shape_fn((16, 4), |(i, k)| ((i * 5 + k * 3) % 7) as f32 - 3.0),
    };
    let mut sizes = vec![];
    while let Some(data) = trainer.next_data() {
        let want = supervised.next_batch().unwrap();
        let want_labels = labels.next_batch().unwrap();
        assert_eq!(data.input.x.array(), want.batch.input.x.array());
        assert_eq!(data.costs.0.targets.array(), want.batch.targets.array());
        assert_eq!(
            data.channels.1.labels.array(),
            want_labels.batch.labels.array()
        );
        // Nested back from one gather: the model, the cost and the channel share one buffer.
        let x = data.input.x.array().as_ptr();
        assert_eq!(data.costs.0.input.x.array().as_ptr(), x);
        assert_eq!(data.channels.0.input.x.array().as_ptr(), x);
        assert_eq!(
            data.costs.0.targets.array().as_ptr(),
            data.channels.0.targets.array().as_ptr()
        );
        // The channels' values are those computed on the independent gather.
        assert_eq!(
            Accuracy.value(&model, &data.channels.0),
            accuracy(
                &model.scores(&want.batch.input),
                want.batch.targets.array().view()
            )
        );
        sizes.push(data.input.x.len());
    }
    assert!(supervised.next_batch().is_none());
    assert_eq!(sizes, [16, 16, 8]);
}

#[test]
fn a_step_reports_costs_and_channels_and_gathers_each_leaf_once() {
    let ds = Dataset::new(record(40)).unwrap();
    let mut trainer = Trainer::<Record, Linear, Costs, Channels>::new(
        &ds,
        schedule(40, LastBatch::Pad),
        (CrossEntropy, L1(0.5)),
        (Accuracy, MeanLabel),
    )
    .unwrap();
    let mut model = Linear {
        w: Array2::from_elem((16, 4), 0.25),
    };
    let mut steps = vec![];
    while let Some(report) = trainer.step(&mut model, |_, _, _| {}) {
        steps.push(report);
    }
    // A padded last batch is served with its samples only.
    assert_eq!(
        steps.iter().map(|s| s.samples).collect::<Vec<_>>(),
        [16, 16, 8]
    );
    for s in &steps {
        assert_eq!(s.leaves_gathered, 3);
        // A uniform model: cross-entropy ln 4, the L1 penalty 0.5 × 64 × 0.25, whatever the data.
        assert!((s.costs[0] - 4f64.ln()).abs() < 1e-6, "{s:?}");
        assert_eq!(s.costs[1], 8.0);
        assert!((s.cost() - (4f64.ln() + 8.0)).abs() < 1e-6);
        assert_eq!(s.channels[0].0, "accuracy");
        assert_eq!(s.channels[1].0, "mean label");
    }
    // The mean label over the epoch, weighted by samples, is the dataset's.
    trainer.start_epoch(0);
    let epoch = trainer.epoch(&mut model, |_, _, _| {});
    let mean = ds.fields().label.array().mapv(f64::from).mean().unwrap();
    assert_eq!((epoch.steps, epoch.samples), (3, 40));
    assert!((epoch.channels[1].1 - mean).abs() < 1e-12, "{epoch:?}");
}

#[test]
fn training_through_the_trainer_learns() {
    let ds = Dataset::new(record(64)).unwrap();
    let mut trainer = Trainer::<Record, Linear, Costs, Channels>::new(
        &ds,
        schedule(64, LastBatch::Short),
        (CrossEntropy, L1(1e-4)),
        (Accuracy, MeanLabel),
    )
    .unwrap();
    let mut model = Linear {
        w: Array2::zeros((16, 4)),
    };
    let first = trainer.epoch(&mut model, |_, _, _| {});
    let update = |m: &mut Linear,
                  costs: &Costs,
                  data: &batchspec::data::StepData<Linear, Costs, Channels>| {
        let xent = &data.costs.0;
        let p = m.probabilities(&xent.input);
        let n = p.nrows().max(1) as f32;
        let delta = (p - xent.targets.array()) / n;
        let x = xent.input.x.array().mapv(|v| v / 255.0);
        let grad = x.t().dot(&delta) + m.w.mapv(|w| costs.1.0 * w.signum());
        m.w.scaled_add(-0.5, &grad);
    };
    let mut last = first.clone();
    for _ in 0..30 {
        last = trainer.epoch(&mut model, update);
    }
    assert!(last.cost() < first.cost() / 4.0, "{first:?} -> {last:?}");
    assert!(last.channels[0].1 > 0.95, "{last:?}");
}

/// A ragged source served batch by batch: each batch padded to its own longest sample, as a
/// provider pads it.
#[test]
fn ragged_sources_are_served_padded_per_batch() {
    #[derive(DataSpec)]
    struct Text {
        #[spec(source = "tokens")]
        tokens: Ragged<IndexSeq<30>>,
    }
    #[derive(DataSpec)]
    struct Tokens {
        #[spec(source = "tokens")]
        tokens: ArcBatch<IndexSeq<30>>,
    }
    struct Bigram;
    impl Model for Bigram {
        type Input = Tokens;
        type Output = Vector<30>;
    }
    let samples = [
        vec![0i64],
        vec![1, 2, 3, 4],
        vec![5, 6, 7],
        vec![7, 8, 9, 10, 11],
        vec![13, 14],
        vec![21, 22],
    ];
    let ds = Dataset::new(Text {
        tokens: Ragged::from_flat_samples(&samples).unwrap(),
    })
    .unwrap();
    let sched = || Schedule::builder(6).batch_size(2).build().unwrap();
    let mut trainer = Trainer::<Text, Bigram, (), ()>::new(&ds, sched(), (), ()).unwrap();
    #[derive(DataSpec)]
    struct Padded {
        #[spec(source = "tokens")]
        tokens: Batch<IndexSeq<30>>,
    }
    let mut provider = Provider::<Text, Padded>::new(&ds, sched()).unwrap();
    let mut shapes = vec![];
    while let Some(data) = trainer.next_data() {
        let want = provider.next_batch().unwrap();
        assert_eq!(data.input.tokens.array(), want.batch.tokens.array());
        shapes.push(data.input.tokens.shape().to_vec());
    }
    assert_eq!(shapes, [[2, 4], [2, 5], [2, 2]]);
}

/// The ids of a batch's samples (the record's "weights" hold each sample's id).
#[derive(DataSpec)]
struct SampleIds {
    #[spec(source = "weights")]
    ids: ArcBatch<Vector<1>>,
}

struct Ids;
impl Channel<Linear> for Ids {
    type Data = SampleIds;
    fn name(&self) -> &str {
        "ids"
    }
    fn value(&self, _: &Linear, data: &SampleIds) -> f64 {
        f64::from(data.ids.array().sum())
    }
}

type Watched = (Accuracy, Ids);
type Served = Vec<(u64, Vec<usize>)>;

/// A gradient step of the cross-entropy on the batch, and the batch's (epoch, sample ids).
fn update(
    epoch: u64,
    served: &mut Served,
) -> impl FnMut(&mut Linear, &Costs, &batchspec::data::StepData<Linear, Costs, Watched>) + '_ {
    move |m, _, data| {
        let x = data.input.x.array().mapv(|v| v / 255.0);
        let p = m.probabilities(&data.input);
        let g = x.t().dot(&(p - data.costs.0.targets.array()));
        m.w.scaled_add(-0.5 / x.nrows() as f32, &g);
        let ids = data
            .channels
            .1
            .ids
            .array()
            .iter()
            .map(|&v| v as usize)
            .collect();
        served.push((epoch, ids));
    }
}

/// A run of the dataset's trainer stopped mid-epoch (after its checkpoint hook saved the data's
/// state to disk and the model was saved beside it), restarted from the file by a new trainer,
/// serves the same (epoch, sample ids) sequence as the uninterrupted run and ends with the same
/// weights, bit for bit; so does a trainer of a prefetched source.
#[test]
fn a_run_stopped_mid_epoch_resumes_from_its_checkpoint_identically() {
    let ds = Dataset::new(record(70)).unwrap();
    let (epochs, every, crash) = (3u64, 4u64, 11u64);
    let fresh = || {
        Trainer::<Record, Linear, Costs, Watched>::new(
            &ds,
            schedule(70, LastBatch::Short),
            (CrossEntropy, L1(0.0)),
            (Accuracy, Ids),
        )
        .unwrap()
    };
    let model = || Linear {
        w: Array2::zeros((16, 4)),
    };
    // Uninterrupted.
    let (mut whole, mut m) = (Served::new(), model());
    let mut t = fresh();
    for _ in 0..epochs {
        let e = t.state().data.epoch();
        t.epoch(&mut m, update(e, &mut whole));
    }
    // Stopped after `crash` steps; the last checkpoint was at step 8.
    let dir = std::env::temp_dir().join(format!("batchspec-trainer-resume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("data-state.json");
    let (mut served, mut m2) = (Served::new(), model());
    let mut saved_model = None;
    let mut t = fresh();
    let to = file.clone();
    t.checkpoint_every(every, move |state| {
        std::fs::write(&to, serde_json::to_string(state).unwrap()).unwrap()
    });
    while t.steps() < crash {
        let e = t.state().data.epoch();
        if t.step(&mut m2, update(e, &mut served)).is_none() {
            t.start_epoch(e + 1);
        }
        if t.steps() % every == 0 {
            saved_model = Some(m2.w.clone());
        }
    }
    drop(t);
    // A new trainer, from the files.
    let state: batchspec::data::TrainerState =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(state.step, 8);
    served.truncate(state.step as usize);
    let mut m3 = Linear {
        w: saved_model.unwrap(),
    };
    let mut t = fresh();
    t.resume(&state).unwrap();
    while t.state().data.epoch() < epochs {
        let e = t.state().data.epoch();
        t.epoch(&mut m3, update(e, &mut served));
    }
    assert_eq!(served, whole, "the (epoch, sample ids) sequence");
    assert_eq!(m3.w, m.w, "the final weights");
    let _ = std::fs::remove_dir_all(&dir);

    // The same with a trainer of a prefetched source (a provider of the record).
    let shared = std::sync::Arc::new(Dataset::new(record(70)).unwrap());
    let source = || {
        Provider::<Record, Record>::shared(shared.clone(), schedule(70, LastBatch::Short))
            .unwrap()
            .prefetched(2)
    };
    let fresh = || {
        Trainer::<Record, Linear, Costs, Watched>::from_source(
            source(),
            (CrossEntropy, L1(0.0)),
            (Accuracy, Ids),
        )
    };
    let (mut whole2, mut m) = (Served::new(), model());
    let mut t = fresh();
    for _ in 0..epochs {
        let e = t.state().data.epoch();
        t.epoch(&mut m, update(e, &mut whole2)).unwrap();
    }
    assert_eq!(
        whole2, whole,
        "a source serves what the dataset's trainer serves"
    );
    let (mut served, mut m2) = (Served::new(), model());
    let mut t = fresh();
    let mut checkpoint = None;
    while t.steps() < crash {
        let e = t.state().data.epoch();
        match t.step(&mut m2, update(e, &mut served)) {
            None => t.start_epoch(e + 1),
            Some(r) => drop(r.unwrap()),
        }
        if t.steps() == 6 {
            checkpoint = Some((t.state(), m2.w.clone()));
        }
    }
    let (state, w) = checkpoint.unwrap();
    served.truncate(6);
    let mut m3 = Linear { w };
    let mut t = fresh();
    t.resume(&state).unwrap();
    while t.state().data.epoch() < epochs {
        let e = t.state().data.epoch();
        t.epoch(&mut m3, update(e, &mut served)).unwrap();
    }
    assert_eq!(served, whole);
    assert_eq!(m3.w, m.w);
}

/// A gradient step of the cross-entropy, as the learning test takes it.
fn sgd(
    rate: f32,
) -> impl FnMut(&mut Linear, &Costs, &batchspec::data::StepData<Linear, Costs, Channels>) {
    move |m, _, data| {
        let xent = &data.costs.0;
        let p = m.probabilities(&xent.input);
        let delta = (p - xent.targets.array()) / xent.input.x.len().max(1) as f32;
        let x = xent.input.x.array().mapv(|v| v / 255.0);
        m.w.scaled_add(-rate, &x.t().dot(&delta));
    }
}

/// The validation set's costs and channels computed by hand on the whole set (the reference of
/// a monitor's report: means over samples, batch by batch weighted).
fn by_hand(model: &Linear, validation: &Record) -> (f64, f64) {
    let n = validation.label.len();
    let x = validation
        .image
        .array()
        .to_shape((n, 16))
        .unwrap()
        .mapv(f32::from);
    let mut one_hot = Array2::<f32>::zeros((n, 4));
    for (i, &l) in validation.label.array().iter().enumerate() {
        one_hot[[i, usize::from(l)]] = 1.0;
    }
    let input = Input {
        x: ArcBatch::new(x.into_shared()).unwrap(),
    };
    let data = Supervised {
        input,
        targets: ArcBatch::new(one_hot.clone().into_shared()).unwrap(),
    };
    (
        CrossEntropy.cost(model, &data),
        accuracy(&model.scores(&data.input), one_hot.view()),
    )
}

#[test]
fn a_monitoring_source_is_evaluated_on_its_timescale_with_the_model_as_it_is() {
    let train = Dataset::new(record(64)).unwrap();
    let held_out = Dataset::new(record(24)).unwrap();
    let validation = Provider::<Record, Record>::new(
        &held_out,
        Schedule::builder(24).batch_size(24).build().unwrap(),
    )
    .unwrap();
    let mut trainer = Trainer::<Record, Linear, Costs, Channels>::new(
        &train,
        schedule(64, LastBatch::Short),
        (CrossEntropy, L1(0.0)),
        (Accuracy, MeanLabel),
    )
    .unwrap();
    trainer.monitor("validation", validation, Every::Epochs(1));
    let every_3 = Provider::<Record, Record>::new(
        &held_out,
        Schedule::builder(24).batch_size(5).build().unwrap(),
    )
    .unwrap();
    trainer.monitor("every 3 steps", every_3, Every::Updates(3));
    let mut model = Linear {
        w: Array2::zeros((16, 4)),
    };
    for _ in 0..3 {
        trainer.epoch(&mut model, sgd(0.5));
    }
    let reports = trainer.monitored();
    let by_epoch: Vec<_> = reports.iter().filter(|r| r.name == "validation").collect();
    assert_eq!(by_epoch.len(), 3);
    assert_eq!(
        by_epoch
            .iter()
            .map(|r| (r.epoch, r.step))
            .collect::<Vec<_>>(),
        vec![(0, 4), (1, 8), (2, 12)]
    );
    // The last report: the model as it is now, on the whole held-out set, against a plain
    // computation over the set (cost 1 is the L1 of weight 0).
    let last = by_epoch[2].report.as_ref().unwrap();
    let (xent, acc) = by_hand(
        &model,
        &held_out.select(&(0..24).collect::<Vec<_>>()).unwrap(),
    );
    assert_eq!(last.samples, 24);
    assert!((last.costs[0] - xent).abs() < 1e-5, "{last:?} vs {xent}");
    assert!((last.channel("accuracy").unwrap() - acc).abs() < 1e-9);
    // Batches of 5 over 24 samples: means weighted by samples, the same values.
    let steps: Vec<u64> = reports
        .iter()
        .filter(|r| r.name == "every 3 steps")
        .map(|r| r.step)
        .collect();
    assert_eq!(steps, vec![3, 6, 9, 12]);
    let at_12 = reports.iter().rfind(|r| r.name == "every 3 steps").unwrap();
    let at_12 = at_12.report.as_ref().unwrap();
    assert_eq!((at_12.steps, at_12.samples), (5, 24));
    assert!((at_12.costs[0] - xent).abs() < 1e-5);
    assert!(
        (at_12.channel("mean label").unwrap() - last.channel("mean label").unwrap()).abs() < 1e-9
    );
    // Taken, they are the trainer's no more.
    let taken = trainer.take_monitored();
    assert_eq!(taken.len(), 7);
    assert!(trainer.monitored().is_empty());
}

#[test]
fn early_stopping_stops_when_the_watched_channel_stops_improving() {
    let train = Dataset::new(record(64)).unwrap();
    // A validation set whose labels are the training set's moved by one quadrant: the better
    // the model learns the training set, the worse its validation cost.
    let mut shifted = record(24);
    shifted.label = Batch::new(shifted.label.array().mapv(|l| (l + 1) % 4)).unwrap();
    let held_out = Dataset::new(shifted).unwrap();
    let validation = Provider::<Record, Record>::new(
        &held_out,
        Schedule::builder(24).batch_size(8).build().unwrap(),
    )
    .unwrap();
    let mut trainer = Trainer::<Record, Linear, Costs, Channels>::new(
        &train,
        schedule(64, LastBatch::Short),
        (CrossEntropy, L1(0.0)),
        (Accuracy, MeanLabel),
    )
    .unwrap();
    let mut moments = Vec::new();
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let record = seen.clone();
    trainer
        .monitor("validation", validation, Every::Epochs(1))
        .hook(
            Every::Epochs(1),
            EarlyStopping::new("validation", Watch::Cost, 2),
        )
        .hook(Every::Epochs(1), move |e: &Event<'_>| {
            record.lock().unwrap().push((
                e.epoch,
                e.step,
                e.monitors.len(),
                e.epoch_report.is_some(),
            ));
            Control::Continue
        });
    let ended = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let end = ended.clone();
    trainer.hook(Every::End, move |e: &Event<'_>| {
        end.lock()
            .unwrap()
            .push((e.step, e.epoch_report.map(|r| r.steps)));
        Control::Continue
    });
    let mut model = Linear {
        w: Array2::zeros((16, 4)),
    };
    let epochs = trainer.fit(&mut model, 50, sgd(0.5));
    moments.extend(seen.lock().unwrap().iter().copied());
    // The first evaluation is the best (the model only gets worse on the shifted labels); the
    // run stops after two more that do not improve (a patience of 2): three epochs.
    assert_eq!(epochs.len(), 3, "{moments:?}");
    let why = trainer.stopped().expect("stopped");
    assert!(
        why.contains("the cost of monitor `validation` has not improved")
            && why.contains("(step 4) for 2 evaluations"),
        "{why}"
    );
    assert_eq!(
        moments,
        vec![(0, 4, 1, true), (1, 8, 1, true), (2, 12, 1, true)]
    );
    // The end's hook ran once, after the stop, with the last epoch's report.
    assert_eq!(*ended.lock().unwrap(), vec![(12, Some(4))]);
    // A stopped trainer serves no more steps.
    assert!(trainer.step(&mut model, |_, _, _| {}).is_none());
}

#[test]
fn a_csv_log_holds_every_value_of_every_moment() {
    let train = Dataset::new(record(40)).unwrap();
    let held_out = Dataset::new(record(8)).unwrap();
    let mut trainer = Trainer::<Record, Linear, Costs, Channels>::new(
        &train,
        schedule(40, LastBatch::Short),
        (CrossEntropy, L1(1e-3)),
        (Accuracy, MeanLabel),
    )
    .unwrap();
    let path = std::env::temp_dir().join(format!("batchspec-log-{}.csv", std::process::id()));
    trainer
        .monitor(
            "held out",
            Provider::<Record, Record>::new(
                &held_out,
                Schedule::builder(8).batch_size(8).build().unwrap(),
            )
            .unwrap(),
            Every::Epochs(1),
        )
        .hook(Every::Updates(1), CsvLog::create(&path).unwrap())
        .hook(
            Every::Epochs(1),
            CsvLog::create(path.with_extension("epochs.csv")).unwrap(),
        );
    let mut model = Linear {
        w: Array2::zeros((16, 4)),
    };
    let report = trainer.epoch(&mut model, sgd(0.5));
    // No field holds a comma or a quote: lines split on commas, after the header.
    let rows = |p: &std::path::Path| -> Vec<Vec<String>> {
        let text = std::fs::read_to_string(p).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("step,epoch,source,name,value"));
        lines
            .map(|l| l.split(',').map(str::to_owned).collect())
            .collect()
    };
    let steps_log = rows(&path);
    // Per step: samples, cost, cost 0, cost 1, accuracy, mean label.
    assert_eq!(steps_log.len(), report.steps * 6);
    assert_eq!(steps_log[0], ["1", "0", "train", "samples", "16"]);
    let names: Vec<&str> = steps_log[..6].iter().map(|r| r[3].as_str()).collect();
    assert_eq!(
        names,
        [
            "samples",
            "cost",
            "cost 0",
            "cost 1",
            "accuracy",
            "mean label"
        ]
    );
    // The epoch's means, from the log's values weighted by their samples.
    let value = |r: &Vec<String>| r[4].parse::<f64>().unwrap();
    let (mut weighted, mut samples) = ([0.0; 5], 0.0);
    for step in steps_log.chunks(6) {
        let n = value(&step[0]);
        samples += n;
        for (w, r) in weighted.iter_mut().zip(&step[1..]) {
            *w += n * value(r);
        }
    }
    assert_eq!(samples, 40.0);
    assert!((weighted[1] / samples - report.costs[0]).abs() < 1e-9);
    assert!((weighted[3] / samples - report.channels[0].1).abs() < 1e-9);
    let epochs_log = rows(&path.with_extension("epochs.csv"));
    // One epoch's end: the training means and the monitor's (6 values each).
    assert_eq!(epochs_log.len(), 12);
    assert_eq!(epochs_log[2][..4], ["3", "0", "train epoch", "cost 0"]);
    assert_eq!(value(&epochs_log[2]), report.costs[0]);
    assert_eq!(epochs_log[7][2..4], ["held out", "cost"]);
    assert_eq!(
        value(&epochs_log[7]),
        trainer.monitored()[0].report.as_ref().unwrap().cost()
    );
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(path.with_extension("epochs.csv"));
}
