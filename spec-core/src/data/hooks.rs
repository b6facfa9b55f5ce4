//! What a [`Trainer`](crate::data::Trainer) runs on a timescale, after Brainstorm's hooks and
//! Pylearn2's monitor: monitoring sources evaluated every N steps or epochs
//! ([`MonitorReport`]), and [`Hook`]s (a log a user can plot, [`CsvLog`]; an early stopper,
//! [`EarlyStopping`]; any closure) that see each moment as an [`Event`] and may stop the run.

use crate::data::error::DataError;
use crate::data::state::SourceState;
use serde::{Deserialize, Serialize};

/// What one training step reports, for the model as it was before its update.
#[derive(Debug, Clone, PartialEq)]
pub struct StepReport {
    /// The samples of the batch.
    pub samples: usize,
    /// Each cost's value, in order.
    pub costs: Vec<f64>,
    /// Each channel's name and value, in order.
    pub channels: Vec<(String, f64)>,
    /// The leaves gathered for the batch: the unique (source, space) pairs of the combined
    /// request, each gathered once.
    pub leaves_gathered: usize,
}

impl StepReport {
    /// The sum of the costs (what a training algorithm minimizes).
    pub fn cost(&self) -> f64 {
        self.costs.iter().sum()
    }
}

/// What an epoch (or a monitoring pass) reports: each cost and channel averaged over its
/// samples (each step's value weighted by its samples).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EpochReport {
    /// The steps (batches) taken.
    pub steps: usize,
    /// The samples served.
    pub samples: usize,
    /// Each cost's mean, in order.
    pub costs: Vec<f64>,
    /// Each channel's name and mean, in order.
    pub channels: Vec<(String, f64)>,
}

impl EpochReport {
    /// The sum of the mean costs.
    pub fn cost(&self) -> f64 {
        self.costs.iter().sum()
    }

    /// The mean of the channel named `name`.
    pub fn channel(&self, name: &str) -> Option<f64> {
        self.channels.iter().find(|(n, _)| n == name).map(|c| c.1)
    }

    /// Adds a batch of `samples` samples with these values (sums, until [`finish`](Self::finish)).
    pub(crate) fn add(&mut self, samples: usize, costs: &[f64], channels: &[(String, f64)]) {
        let w = samples as f64;
        if self.steps == 0 {
            self.costs = vec![0.0; costs.len()];
            self.channels = channels.iter().map(|(n, _)| (n.clone(), 0.0)).collect();
        }
        for (sum, v) in self.costs.iter_mut().zip(costs) {
            *sum += w * v;
        }
        for ((_, sum), (_, v)) in self.channels.iter_mut().zip(channels) {
            *sum += w * v;
        }
        self.steps += 1;
        self.samples = self.samples.saturating_add(samples);
    }

    /// The sums made means.
    pub(crate) fn finish(mut self) -> Self {
        if self.samples > 0 {
            let n = self.samples as f64;
            self.costs.iter_mut().for_each(|c| *c /= n);
            self.channels.iter_mut().for_each(|(_, c)| *c /= n);
        }
        self
    }
}

/// Where a [`Trainer`](crate::data::Trainer) stands: the steps it took (over all epochs) and its
/// data's position. Saved beside the model's checkpoint
/// ([`Trainer::checkpoint_every`](crate::data::Trainer::checkpoint_every)), it makes a restarted
/// run continue with exactly the batches the uninterrupted run would have served.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrainerState {
    /// The steps taken since the first epoch.
    pub step: u64,
    /// The data's position.
    pub data: SourceState,
}

/// A timescale: every `n` training steps (updates), every `n` epochs (Brainstorm's
/// `timescale` and `interval`), or once at the end of [`Trainer::fit`]. An `n` of 0 is taken as
/// 1.
///
/// [`Trainer::fit`]: crate::data::Trainer::fit
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Every {
    /// After every `n`-th update (training step), counted since the first epoch.
    Updates(u64),
    /// At the end of every `n`-th epoch.
    Epochs(u64),
    /// Once, when `fit` ends (its last epoch done, or a hook stopped the run).
    End,
}

/// A moment of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Moment {
    /// After a step.
    Update,
    /// At the end of this epoch.
    EpochEnd(u64),
    /// At the end of `fit`.
    End,
}

impl Every {
    /// Whether `moment`, after `steps` steps, is on this timescale.
    pub(crate) fn due(self, steps: u64, moment: Moment) -> bool {
        match (self, moment) {
            (Every::Updates(n), Moment::Update) => steps.is_multiple_of(n.max(1)),
            (Every::Epochs(n), Moment::EpochEnd(epoch)) => (epoch + 1).is_multiple_of(n.max(1)),
            (Every::End, Moment::End) => true,
            _ => false,
        }
    }
}

/// A monitoring source's pass at one moment: its name, when, and each cost and channel
/// averaged over its samples (Pylearn2's monitoring dataset), or the source's error.
#[derive(Debug, Clone, PartialEq)]
pub struct MonitorReport {
    /// The name the source was given.
    pub name: String,
    /// The steps taken when it was evaluated.
    pub step: u64,
    /// The epoch being trained (or that just ended).
    pub epoch: u64,
    /// The means over the pass, or the error that stopped it.
    pub report: Result<EpochReport, DataError>,
}

/// A hook's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Control {
    /// Go on training.
    Continue,
    /// Stop the run, for this reason (in words): the trainer serves no more steps.
    Stop(String),
}

/// A moment of the run a hook sees: after a step, at an epoch's end, or at the end of `fit`.
#[derive(Debug)]
pub struct Event<'e> {
    /// The steps taken since the first epoch.
    pub step: u64,
    /// The epoch being trained, or the epoch that just ended.
    pub epoch: u64,
    /// The step just taken (a step's moment).
    pub step_report: Option<&'e StepReport>,
    /// The epoch that just ended (an epoch's moment).
    pub epoch_report: Option<&'e EpochReport>,
    /// The monitoring sources evaluated at this moment.
    pub monitors: &'e [MonitorReport],
    /// Where the trainer stands (the data side of a checkpoint).
    pub state: &'e TrainerState,
}

/// What a trainer runs on a timescale ([`Trainer::hook`](crate::data::Trainer::hook)): any
/// `FnMut(&Event) -> Control`, or one of the hooks here.
pub trait Hook: Send {
    /// Runs at a moment of the run.
    fn run(&mut self, event: &Event<'_>) -> Control;
}

impl<F: FnMut(&Event<'_>) -> Control + Send> Hook for F {
    fn run(&mut self, event: &Event<'_>) -> Control {
        self(event)
    }
}

/// A log of the run a user can plot: one CSV row per value, in long form
/// (`step,epoch,source,name,value`: source `train` for a step's values, `train epoch` for an
/// epoch's means, a monitor's name for its pass; names `cost` for the sum of the costs, `cost 0`,
/// `cost 1`, ... for each cost, the channels' names, and `samples`). Flushed at every moment, so
/// a run killed mid-way leaves what it logged.
pub struct CsvLog {
    path: std::path::PathBuf,
    out: csv::Writer<std::fs::File>,
}

impl CsvLog {
    /// A log written to `path` (created, or emptied), with its header.
    ///
    /// # Errors
    /// The file's, naming it.
    pub fn create(path: impl AsRef<std::path::Path>) -> std::io::Result<Self> {
        let path = path.as_ref().to_path_buf();
        let named = |e: std::io::Error| {
            std::io::Error::new(e.kind(), format!("the log {}: {e}", path.display()))
        };
        let mut out = csv::Writer::from_writer(std::fs::File::create(&path).map_err(named)?);
        out.write_record(["step", "epoch", "source", "name", "value"])
            .map_err(|e| named(e.into()))?;
        Ok(CsvLog { path, out })
    }

    fn write(&mut self, event: &Event<'_>) -> Result<(), csv::Error> {
        let (step, epoch) = (event.step.to_string(), event.epoch.to_string());
        let mut rows: Vec<(&str, String, f64)> = Vec::new();
        let mut values =
            |source: &'static str, samples: usize, costs: &[f64], channels: &[(String, f64)]| {
                rows.push((source, "samples".into(), samples as f64));
                rows.push((source, "cost".into(), costs.iter().sum()));
                for (i, c) in costs.iter().enumerate() {
                    rows.push((source, format!("cost {i}"), *c));
                }
                for (n, v) in channels {
                    rows.push((source, n.clone(), *v));
                }
            };
        if let Some(s) = event.step_report {
            values("train", s.samples, &s.costs, &s.channels);
        }
        if let Some(e) = event.epoch_report {
            values("train epoch", e.samples, &e.costs, &e.channels);
        }
        for (source, name, value) in rows {
            self.out.write_record([
                step.as_str(),
                epoch.as_str(),
                source,
                &name,
                &value.to_string(),
            ])?;
        }
        for m in event.monitors {
            let Ok(r) = &m.report else { continue };
            let mut write = |name: &str, value: f64| {
                self.out.write_record([
                    step.as_str(),
                    epoch.as_str(),
                    m.name.as_str(),
                    name,
                    &value.to_string(),
                ])
            };
            write("samples", r.samples as f64)?;
            write("cost", r.cost())?;
            for (i, c) in r.costs.iter().enumerate() {
                write(&format!("cost {i}"), *c)?;
            }
            for (n, v) in &r.channels {
                write(n, *v)?;
            }
        }
        self.out.flush()?;
        Ok(())
    }
}

impl Hook for CsvLog {
    /// Writes the moment's values; a log that cannot be written stops the run (its values would
    /// be lost), naming the file.
    fn run(&mut self, event: &Event<'_>) -> Control {
        match self.write(event) {
            Ok(()) => Control::Continue,
            Err(e) => Control::Stop(format!(
                "the log {} could not be written: {e}",
                self.path.display()
            )),
        }
    }
}

/// What an [`EarlyStopping`] watches in its monitor's reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Watch {
    /// The sum of the costs.
    Cost,
    /// The channel of this name.
    Channel(String),
}

/// Stops the run when a monitored value has not improved for `patience` evaluations in a row
/// (Brainstorm's `EarlyStopper`, Keras' `EarlyStopping`): lower is better, unless
/// [`maximize`](Self::maximize)d; an improvement is by more than [`min_delta`](Self::min_delta).
/// It keeps the best value and the step it was seen at. A monitor that failed, or a channel its
/// report lacks, stops the run too, in words (a watched value that cannot be read would let the
/// run go on unwatched).
#[derive(Debug, Clone)]
pub struct EarlyStopping {
    monitor: String,
    watch: Watch,
    patience: usize,
    min_delta: f64,
    maximize: bool,
    best: Option<(f64, u64)>,
    waited: usize,
}

impl EarlyStopping {
    /// Watches `watch` in the reports of the monitor named `monitor`; the run stops after
    /// `patience` evaluations in a row that do not improve on the best (Keras' meaning; a
    /// patience of 0 acts as 1).
    pub fn new(monitor: impl Into<String>, watch: Watch, patience: usize) -> Self {
        EarlyStopping {
            monitor: monitor.into(),
            watch,
            patience,
            min_delta: 0.0,
            maximize: false,
            best: None,
            waited: 0,
        }
    }

    /// An improvement must beat the best by more than `delta`.
    pub fn min_delta(mut self, delta: f64) -> Self {
        self.min_delta = delta.abs();
        self
    }

    /// Higher is better (an accuracy).
    pub fn maximize(mut self) -> Self {
        self.maximize = true;
        self
    }

    /// The best value seen and the step it was seen at.
    pub fn best(&self) -> Option<(f64, u64)> {
        self.best
    }

    fn name(&self) -> String {
        match &self.watch {
            Watch::Cost => "the cost".to_owned(),
            Watch::Channel(c) => format!("channel `{c}`"),
        }
    }
}

impl Hook for EarlyStopping {
    fn run(&mut self, event: &Event<'_>) -> Control {
        let Some(m) = event.monitors.iter().find(|m| m.name == self.monitor) else {
            return Control::Continue;
        };
        let report = match &m.report {
            Ok(r) => r,
            Err(e) => {
                return Control::Stop(format!(
                    "monitor `{}` failed, so {} cannot be watched: {e}",
                    self.monitor,
                    self.name()
                ));
            }
        };
        let value = match &self.watch {
            Watch::Cost => report.cost(),
            Watch::Channel(c) => match report.channel(c) {
                Some(v) => v,
                None => {
                    return Control::Stop(format!(
                        "monitor `{}` reports no channel `{c}` (it has {:?})",
                        self.monitor,
                        report.channels.iter().map(|c| &c.0).collect::<Vec<_>>()
                    ));
                }
            },
        };
        let better = |best: f64| {
            if self.maximize {
                value > best + self.min_delta
            } else {
                value < best - self.min_delta
            }
        };
        match self.best {
            Some((best, _)) if !better(best) => {
                self.waited += 1;
                if self.waited >= self.patience.max(1) {
                    let (best, at) = self.best.unwrap_or((best, 0));
                    return Control::Stop(format!(
                        "{} of monitor `{}` has not improved on {best} (step {at}) for {} evaluations",
                        self.name(),
                        self.monitor,
                        self.waited
                    ));
                }
            }
            _ => {
                self.best = Some((value, event.step));
                self.waited = 0;
            }
        }
        Control::Continue
    }
}
