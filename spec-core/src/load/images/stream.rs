//! Batches of a record from a collection of encoded images, decoded on worker threads.

use crate::augment::Draws;
use crate::data::batch_source::{BatchInfo, BatchSource};
use crate::data::dataset::{LeafSource, LoadRecord};
use crate::data::elastic::{EpochCursor, Step};
use crate::data::error::{DataError, SourceError};
use crate::data::state::{SourceState, fingerprint};
use crate::iteration::Schedule;
use crate::load::convert::{batch_from_samples, convert_values};
use crate::load::error::{LoadError, LoadReason, Place};
use crate::load::images::render::{Field, Out, Worker};
use crate::load::images::steps::ImageSteps;
use crate::load::images::{EncodedImages, SourceKind, bad, error_at};
use crate::types::axis::Layout;
use crate::types::batch::Batch;
use crate::types::elem::Element;
use crate::types::space::Space;
use crate::types::spec::Described;
use std::sync::{Arc, Mutex};

/// Batches of the record `R` from a collection of encoded images ([`ImageFolder`],
/// [`WebDataset`], [`RecordIo`], or any [`EncodedImages`]), in the order and shares of a
/// [`Schedule`] (shuffled by its seed and the epoch, sharded by its rank, its last-batch
/// policy), each image read, decoded, brought to its field's size and augmented by
/// [`ImageSteps`] on [`workers`](Self::workers) threads, and written once into the field's
/// layout and element type. Label fields (`Index`, `Labels`, a `Vector` of a label per value)
/// take the collection's labels, converted exactly and checked as any loader checks them (a
/// class index of an `Index<10>` field is in `0..10`); a model that asks for one-hot labels
/// or other layouts gets them through
/// [`into_request`](crate::data::BatchSource::into_request).
///
/// Every sample's values are a function of the sample, the seed and the epoch alone: the
/// batches are the same at any number of workers, and a state taken at any batch resumes with
/// exactly the batches that would have come next (the schedule's state: epoch, batches served,
/// seed, ranks, and fingerprints of the collection, the steps and the record).
///
/// The record is checked when the stream is made: each field's source is one the collection
/// has, image fields are images (`h`, `w`, `c` axes, 1, 3 or 4 channels) of a float type when
/// the steps compute fractions, and every sample has each source read.
///
/// [`ImageFolder`]: crate::load::images::ImageFolder
/// [`WebDataset`]: crate::load::images::WebDataset
/// [`RecordIo`]: crate::load::images::RecordIo
pub struct ImageStream<R> {
    images: Arc<dyn EncodedImages>,
    steps: Arc<ImageSteps>,
    cursor: EpochCursor,
    rows: Vec<usize>,
    pool: Vec<Worker>,
    leaves: Vec<Described>,
    lent: Option<R>,
}

impl<R> ImageStream<R> {
    /// A stream of the record `R` from `images`, by `steps` and `schedule` (of
    /// `images.len()` samples), on one worker: the thread that asks for batches.
    ///
    /// # Errors
    /// [`LoadError::NoSource`] for a field whose source the collection does not have;
    /// [`LoadError::File`] for a field the steps cannot fill, or a sample without a source read;
    /// [`DataError::ScheduleMismatch`] for a schedule of another number of samples.
    pub fn new(
        images: impl EncodedImages + 'static,
        steps: ImageSteps,
        schedule: Schedule,
    ) -> Result<Self, LoadError>
    where
        // On the function, not the impl: a record that cannot be read is then reported as
        // such, at the call, not as a missing `new`.
        R: LoadRecord,
    {
        if schedule.num_samples() != images.len() {
            return Err(DataError::ScheduleMismatch {
                schedule: schedule.num_samples(),
                dataset: images.len(),
            }
            .into());
        }
        let leaves = R::describe(0);
        let images: Arc<dyn EncodedImages> = Arc::new(images);
        // Every field checked once, here: a record of no samples read through the checks.
        let mut check = Reader {
            images: &*images,
            steps: &steps,
            rows: &[],
            size: 0,
            draws: Draws::default(),
            pool: &mut [],
        };
        R::load_record(&mut check, &mut leaves.iter())?;
        for leaf in &leaves {
            images.check_source(leaf.source)?;
        }
        let identity = SourceState::new("images", 0)
            .with_request::<R>()
            .with_data(fingerprint(&[
                &images.fingerprint().to_le_bytes(),
                format!("{steps:?}").as_bytes(),
            ]));
        Ok(ImageStream {
            images,
            steps: Arc::new(steps),
            rows: Vec::with_capacity(schedule.batch_size()),
            cursor: EpochCursor::new(schedule, &identity),
            pool: vec![Worker::default()],
            leaves,
            lent: None,
        })
    }

    /// Decodes on `workers` threads (0: as many as the machine's available parallelism), the
    /// thread that asks for batches being one of them; a batch's images are dealt to them one
    /// at a time as each finishes its last.
    #[must_use]
    pub fn workers(mut self, workers: usize) -> Self {
        let workers = match workers {
            0 => std::thread::available_parallelism().map_or(1, usize::from),
            n => n,
        };
        self.pool.resize_with(workers, Worker::default);
        self.pool.truncate(workers);
        self
    }

    /// The collection.
    pub fn images(&self) -> &dyn EncodedImages {
        &*self.images
    }

    /// The steps.
    pub fn steps(&self) -> &ImageSteps {
        &self.steps
    }

    fn read(&mut self, step: &Step) -> Result<R, LoadError>
    where
        R: LoadRecord,
    {
        let draws = Draws::new(self.cursor.schedule().seed(), self.cursor.index());
        self.images.prefetch(&self.rows[..step.filled])?;
        let mut reader = Reader {
            images: &*self.images,
            steps: &self.steps,
            rows: &self.rows[..step.filled],
            size: step.size,
            draws,
            pool: &mut self.pool,
        };
        R::load_record(&mut reader, &mut self.leaves.iter())
    }
}

/// A batch being read: the collection's samples `rows`, then zeros to `size` rows; the draws
/// of a row are by its index in the collection, or by `draws.globals` when given.
pub(crate) struct Reader<'a> {
    images: &'a dyn EncodedImages,
    steps: &'a ImageSteps,
    rows: &'a [usize],
    size: usize,
    draws: Draws<'a>,
    pool: &'a mut [Worker],
}

impl<'a> Reader<'a> {
    pub(crate) fn new(
        images: &'a dyn EncodedImages,
        steps: &'a ImageSteps,
        rows: &'a [usize],
        size: usize,
        draws: Draws<'a>,
        pool: &'a mut [Worker],
    ) -> Self {
        Reader {
            images,
            steps,
            rows,
            size,
            draws,
            pool,
        }
    }

    fn no_source(&self, leaf: &Described) -> LoadError {
        LoadError::NoSource {
            loader: "the image collection".to_owned(),
            source_name: leaf.source,
            field: leaf.field.clone(),
            serves: self.images.sources(),
        }
    }

    /// The image field of `S`, checked against the steps.
    fn field<S: Space>(&self, leaf: &Described) -> Result<Field, LoadError> {
        let fail = |message: String| field_error(leaf, bad(message));
        let field = Field::new(<S::Layout as Layout>::LETTERS, S::SHAPE)
            .filter(|_| S::TIME_AXIS.is_none())
            .ok_or_else(|| {
                fail(format!(
                    "the source holds encoded images; the field is {}, not an image of rows, columns and channels",
                    S::describe()
                ))
            })?;
        if !matches!(field.channels, 1 | 3 | 4) {
            return Err(fail(format!(
                "the field's images have {} channels; decoded images have 1 (grey), 3 (RGB) or 4 (RGBA)",
                field.channels
            )));
        }
        self.steps
            .check(field.rows, field.cols, field.channels, S::Elem::FLOAT)
            .map_err(|m| fail(format!("{m} (the field is {})", S::describe())))?;
        Ok(field)
    }
}

impl LeafSource for Reader<'_> {
    type Error = LoadError;

    fn read_leaf<S: Space>(&mut self, leaf: &Described) -> Result<Batch<S>, LoadError> {
        let source = leaf.source;
        let kind = self
            .images
            .kind(source)
            .ok_or_else(|| self.no_source(leaf))?;
        let at =
            |index: usize, reason: LoadReason| error_at(self.images.place(index), source, reason);
        let values = match kind {
            SourceKind::Image => {
                let field = self.field::<S>(leaf)?;
                // Written once, by the workers (`Unfilled`): no zero fill on this thread first.
                let mut out = batchspec_kernel::Unfilled::new(self.size * field.values());
                let budget = self.steps.budget(field.rows * field.cols);
                let job = Job {
                    images: self.images,
                    steps: self.steps,
                    field,
                    draws: self.draws,
                    source,
                    // An encoded image within the budget: at most 8 bytes a pixel (16-bit RGBA
                    // PNG, stored), and its headers.
                    limit: budget.saturating_mul(8).saturating_add(1 << 20),
                };
                job.run(self.rows, &mut out, self.pool)?;
                out.finish().map_err(|e| {
                    field_error(leaf, bad(format!("the batch was not written whole: {e}")))
                })?
            }
            SourceKind::Labels => {
                let per = S::FEATURES.unwrap_or(1);
                if S::TIME_AXIS.is_some() {
                    return Err(field_error(
                        leaf,
                        bad(format!(
                            "the source holds a few numbers a sample; the field is {}, a sequence",
                            S::describe()
                        )),
                    ));
                }
                let mut values = Vec::with_capacity(self.size * per);
                let mut labels = Vec::new();
                for &index in self.rows {
                    self.images.read_labels(index, source, &mut labels)?;
                    if labels.len() != per {
                        return Err(at(
                            index,
                            bad(format!(
                                "the sample has {} label{} ({:?}); a sample of {} holds {per}",
                                labels.len(),
                                if labels.len() == 1 { "" } else { "s" },
                                labels,
                                S::describe()
                            )),
                        ));
                    }
                    values.extend_from_slice(&labels);
                }
                let mut converted = match convert_values::<S, f64>(values) {
                    Err(reason) => return Err(at(self.rows.first().copied().unwrap_or(0), reason)),
                    Ok(Err((i, reason))) => return Err(at(self.rows[i / per], reason)),
                    Ok(Ok(v)) => v,
                };
                converted.resize(self.size * per, S::Elem::ZERO);
                converted
            }
        };
        batch_from_samples::<S>(self.size, values).map_err(|reason| field_error(leaf, reason))
    }
}

/// The image work of one field of a batch.
struct Job<'a> {
    images: &'a dyn EncodedImages,
    steps: &'a ImageSteps,
    field: Field,
    draws: Draws<'a>,
    source: &'static str,
    limit: u64,
}

impl Job<'_> {
    /// Reads and renders the samples `rows` into their places of `out`, dealt to the workers of
    /// `pool` (the calling thread is the first), each written whole by its worker, and the
    /// places after them (a last batch's padding) as zeros; the error of the earliest sample
    /// that failed.
    fn run<E: Element>(
        &self,
        rows: &[usize],
        out: &mut batchspec_kernel::Unfilled<E>,
        pool: &mut [Worker],
    ) -> Result<(), LoadError> {
        let mut slots: Vec<_> = out.parts(self.field.values()).collect();
        for padding in slots.split_off(rows.len().min(slots.len())) {
            padding.fill(E::ZERO);
        }
        let jobs = Mutex::new(slots.into_iter().zip(rows.iter().copied()).enumerate());
        let failed: Mutex<Option<(usize, LoadError)>> = Mutex::new(None);
        let work = |worker: &mut Worker| {
            loop {
                let next = jobs.lock().map(|mut j| j.next());
                let Ok(Some((at, (slot, index)))) = next else {
                    return;
                };
                let one = || -> Result<(), LoadError> {
                    self.images
                        .read_image(index, self.source, self.limit, &mut worker.bytes)?;
                    worker
                        .render(
                            self.steps,
                            &self.field,
                            &self.draws,
                            index as u64,
                            Out::Unwritten(slot),
                        )
                        .map_err(|m| error_at(self.images.place(index), self.source, bad(m)))
                };
                let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(one))
                    .unwrap_or_else(|payload| {
                        let message = crate::data::error::panic_text(&*payload).unwrap_or_default();
                        Err(error_at(
                            self.images.place(index),
                            self.source,
                            bad(format!("decoding the image panicked: {message}")),
                        ))
                    });
                if let Err(e) = result
                    && let Ok(mut first) = failed.lock()
                    && first.as_ref().is_none_or(|(f, _)| at < *f)
                {
                    *first = Some((at, e));
                }
            }
        };
        match pool {
            [] => {}
            [one] => work(one),
            [first, rest @ ..] => std::thread::scope(|scope| {
                for worker in rest {
                    scope.spawn(|| work(worker));
                }
                work(first);
            }),
        }
        match failed.into_inner() {
            Ok(None) => Ok(()),
            Ok(Some((_, e))) => Err(e),
            Err(poisoned) => Err(poisoned.into_inner().map_or_else(
                || unreachable!("a poisoned lock holds an error"),
                |(_, e)| e,
            )),
        }
    }
}

/// An error at the field `leaf` of the record, for its source.
fn field_error(leaf: &Described, reason: LoadReason) -> LoadError {
    error_at(
        (
            std::path::PathBuf::from(format!("field `{}`", leaf.field)),
            Place::File,
        ),
        leaf.source,
        reason,
    )
}

fn read_error(e: LoadError) -> DataError {
    DataError::Read(SourceError::new(e))
}

fn info_of(step: &Step) -> BatchInfo {
    BatchInfo {
        count_samples: step.count,
        pad: step.size.saturating_sub(step.count).max(step.pad),
    }
}

#[diagnostic::do_not_recommend]
impl<R: LoadRecord> BatchSource<R> for ImageStream<R> {
    type Lent<'a>
        = &'a R
    where
        Self: 'a;

    fn next_batch(&mut self) -> Option<Result<(&R, BatchInfo), DataError>> {
        let step = self.cursor.advance(&mut self.rows)?;
        match self.read(&step) {
            Ok(batch) => Some(Ok((&*self.lent.insert(batch), info_of(&step)))),
            Err(e) => Some(Err(read_error(e))),
        }
    }

    fn next_owned(&mut self) -> Option<Result<(R, BatchInfo), DataError>> {
        let step = self.cursor.advance(&mut self.rows)?;
        Some(
            self.read(&step)
                .map(|b| (b, info_of(&step)))
                .map_err(read_error),
        )
    }

    fn start_epoch(&mut self, epoch: u64) {
        self.cursor.start_epoch(epoch);
    }

    fn state(&self) -> SourceState {
        self.cursor.state()
    }

    fn resume(&mut self, state: &SourceState) -> Result<(), DataError> {
        self.cursor.resume(state, &mut self.rows)
    }

    fn samples_per_epoch(&self) -> Option<usize> {
        self.cursor.schedule().num_examples()
    }
}
