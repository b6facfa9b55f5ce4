//! batchspec batches as [burn](https://burn.dev) tensors, and batchspec providers as burn's
//! `DataLoader`.
//!
//! A request written once with `#[derive(DataSpec)]` becomes a struct of tensors with the same
//! field names: each leaf a [`Tensor`] of its space's rank, in the layout the request asked for
//! (`bchw` images for convolutions), float elements as `Float` tensors of their own dtype,
//! labels (index spaces) and the lengths of padded sequences as `Int` tensors of the device's
//! integer dtype (what `argmax`, `equal` and the losses use: `i32` on flex), other integer
//! elements (`u8` images) as `Int` tensors of their own dtype. The batch's buffer moves into the tensor (`TensorData::new(Vec, shape)`);
//! the backend takes it from there (flex keeps it when the dtype is the device's own); labels of
//! another width are converted to the device's integers once, here, in one vectorized pass.
//!
//! ```
//! use batchspec::prelude::*;
//! use batchspec_burn::{IntoTensors, Tensors};
//! use burn::tensor::{Device, Int, Tensor};
//!
//! #[derive(DataSpec)]
//! struct Input {
//!     #[spec(source = "features")]
//!     image: Batch<image![2, 2, 1; BCHW, f32]>,
//!     #[spec(source = "targets")]
//!     label: Batch<Labels<10, i64>>,
//! }
//!
//! let input = Input {
//!     image: Batch::new(ndarray::Array4::from_shape_fn((3, 1, 2, 2), |(b, _, h, w)| (b * 4 + h * 2 + w) as f32))?,
//!     label: Batch::new(ndarray::array![7i64, 0, 9])?,
//! };
//! let t: Tensors<Input> = input.into_tensors(&Device::flex());
//! let image: Tensor<4> = t.image; // `InputMapped<Tensor<4>, Tensor<1, Int>>`, fields by name
//! let label: Tensor<1, Int> = t.label; // the device's integer dtype (i32 on flex)
//! assert_eq!(image.dims(), [3, 1, 2, 2]);
//! assert_eq!(label.into_data().try_to_vec::<i32>().unwrap(), [7, 0, 9]);
//! # Ok::<(), batchspec::Error>(())
//! ```
//!
//! [`SpecLoader`] is burn's [`DataLoader`] over a batchspec [`Dataset`] and [`Schedule`]:
//! a new epoch (a new shuffle) at every `iter()`, shards, prefetch on a thread, `slice` and
//! `to_device`, so burn's `Learner` trains from it. [`SpecBatcher`] is a [`Batcher`] for code
//! that keeps burn's own `Dataset`.
#![forbid(unsafe_code)]

use batchspec::data::DataError;
use batchspec::data::{AllocFlat, Dataset};
use batchspec::data::{BatchSource, Prefetch, Provider};
use batchspec::data::{GatherFrom, GatherSame, ProvidedBy};
use batchspec::iteration::Schedule;
use batchspec::mapping::{ServeCache, ServeFrom, serve};
use batchspec::types::FlatOf;
use batchspec::types::{Batch, DataSpec, Lengths, Space};
use batchspec::types::{HNil, Pair};
use batchspec::types::{LeafForm, LeafMapper, MakeLeaf, MapSpec};
use burn::data::dataloader::batcher::Batcher;
use burn::data::dataloader::{DataLoader, DataLoaderIterator, Progress};
use burn::data::dataset::DatasetError;
use burn::tensor::kind::Basic;
use burn::tensor::{DType, Device, Float, Int, IntDType, Tensor, TensorData};
use core::convert::Infallible;
use core::marker::PhantomData;
use std::any::Any;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// The element types burn holds, with the tensor kind each becomes.
#[diagnostic::on_unimplemented(
    message = "burn has no tensor element for `{Self}`",
    label = "a leaf of this element type cannot become a burn tensor"
)]
pub trait BurnElement: batchspec::types::Element + burn::tensor::Element {
    /// `Float` for floats, `Int` for integers.
    type Kind: Basic;
    /// The tensor's dtype: the element's own.
    const DTYPE: DType;

    /// `values` as the integers of `to`, each converted exactly, as the data of a tensor of
    /// `shape`; `None` when one does not fit (or for floats): burn converts them then. The labels
    /// of a batch take the device's integer dtype this way, in one pass the compiler vectorizes
    /// (burn's own conversion takes a value at a time).
    #[doc(hidden)]
    fn ints_as(values: &[Self], to: IntDType, shape: &[usize]) -> Option<TensorData> {
        let _ = (values, to, shape);
        None
    }
}

/// The values of `values` as `B`, when every one fits: checked first, then converted (two
/// passes without a branch on the values, which the compiler vectorizes).
fn exact_ints<A: Copy, B: burn::tensor::Element + TryFrom<A> + Default>(
    values: &[A],
    shape: &[usize],
) -> Option<TensorData> {
    let fits = values
        .iter()
        .fold(true, |ok, &v| ok & B::try_from(v).is_ok());
    if !fits {
        return None;
    }
    // Every value fits (checked above): the default is never taken.
    let out: Vec<B> = values
        .iter()
        .map(|&v| B::try_from(v).unwrap_or_default())
        .collect();
    Some(TensorData::new(out, shape.to_vec()))
}

macro_rules! burn_elements {
    ($($t:ty => $k:ident, $d:ident;)*) => {$(
        impl BurnElement for $t {
            type Kind = $k;
            const DTYPE: DType = DType::$d;
            fn ints_as(values: &[$t], to: IntDType, shape: &[usize]) -> Option<TensorData> {
                burn_elements!(@ints $k $t, values, to, shape)
            }
        }
    )*};
    (@ints Float $t:ty, $v:ident, $to:ident, $s:ident) => {{
        let _ = ($v, $to, $s);
        None
    }};
    (@ints Int $t:ty, $v:ident, $to:ident, $s:ident) => {
        match $to {
            IntDType::I32 => exact_ints::<$t, i32>($v, $s),
            IntDType::I64 => exact_ints::<$t, i64>($v, $s),
            _ => None,
        }
    };
}
burn_elements! {
    f32 => Float, F32;
    f64 => Float, F64;
    u8 => Int, U8;
    i8 => Int, I8;
    u16 => Int, U16;
    i16 => Int, I16;
    u32 => Int, U32;
    i32 => Int, I32;
    u64 => Int, U64;
    i64 => Int, I64;
}

/// The rank of a batch's array (ndarray's `Ix1` to `Ix6`) as the rank of a burn tensor.
#[diagnostic::on_unimplemented(
    message = "burn tensors of rank `{Self}` are not supported here",
    label = "batches of rank 1 to 6 become burn tensors"
)]
pub trait BurnRank: ndarray::Dimension {
    /// The tensor of this rank and kind `K`.
    type Tensor<K: Basic>;
    /// The tensor of `data` on `device`, of `dtype` (`None`: the device's default for `K`).
    fn tensor<K: Basic>(data: TensorData, device: &Device, dtype: Option<DType>)
    -> Self::Tensor<K>;
}

macro_rules! burn_ranks {
    ($($n:literal),*) => {$(
        impl BurnRank for ndarray::Dim<[usize; $n]> {
            type Tensor<K: Basic> = Tensor<$n, K>;
            #[inline]
            fn tensor<K: Basic>(data: TensorData, device: &Device, dtype: Option<DType>) -> Tensor<$n, K> {
                match dtype {
                    Some(dtype) => Tensor::from_data(data, (device, dtype)),
                    None => Tensor::from_data(data, device),
                }
            }
        }
    )*};
}
burn_ranks!(1, 2, 3, 4, 5, 6);

/// The mapper that makes each leaf a burn tensor on a device (see [`IntoTensors`]).
#[derive(Clone, Debug)]
pub struct ToBurn {
    device: Device,
    // The device's integer dtype, which labels take.
    ints: IntDType,
}

impl ToBurn {
    /// Makes tensors on `device`.
    pub fn new(device: &Device) -> Self {
        ToBurn {
            device: device.clone(),
            ints: device.settings().int_dtype,
        }
    }
}

impl LeafMapper for ToBurn {
    type Error = Infallible;
}

/// The tensor a batch of the space `S` becomes.
pub type LeafTensor<S> =
    <<S as Space>::Dim as BurnRank>::Tensor<<<S as Space>::Elem as BurnElement>::Kind>;

impl<S: Space> LeafForm<S> for ToBurn
where
    S::Elem: BurnElement,
    S::Dim: BurnRank,
{
    type Out = LeafTensor<S>;
}

impl<S: Space> MakeLeaf<S> for ToBurn
where
    S::Elem: BurnElement,
    S::Dim: BurnRank,
{
    #[inline]
    fn make_leaf(&mut self, batch: Batch<S>) -> Result<Self::Out, Infallible> {
        let (shape, values) = batch.into_vec();
        // Labels (and the lengths of padded sequences, which index and mask the same
        // tensors) take the device's integer dtype, so that they meet `argmax`, `equal` and the
        // losses without a cast (burn refuses to mix integer dtypes: flex's default is `i32`);
        // a label type of another width is converted once, here (else by burn). Every other leaf
        // keeps its own dtype.
        let counts = S::MAX_LABELS.is_some() || S::KIND == <Lengths as Space>::KIND;
        if counts
            && DType::from(self.ints) != <S::Elem as BurnElement>::DTYPE
            && let Some(data) = S::Elem::ints_as(&values, self.ints, &shape)
        {
            let dtype = Some(DType::from(self.ints));
            return Ok(<S::Dim as BurnRank>::tensor(data, &self.device, dtype));
        }
        let data = TensorData::new(values, shape);
        let dtype = (!counts).then_some(<S::Elem as BurnElement>::DTYPE);
        Ok(<S::Dim as BurnRank>::tensor(data, &self.device, dtype))
    }
}

/// The tensor form of the spec `Q`: for a derived struct `Input`, `InputMapped<..>` with a
/// tensor in each field (`Tensors<(A, B)>` is a tuple of the two).
pub type Tensors<Q> = <Q as MapSpec<ToBurn>>::Out;

/// A batch made into burn tensors, moving each leaf's buffer into its tensor.
///
/// Implemented for every type; the method asks for a spec (a derived struct, a tuple of them, or
/// one batch), so that anything else is reported where the method is called.
pub trait IntoTensors: Sized {
    /// Every leaf as a tensor on `device`, in the spec's structure.
    fn into_tensors(self, device: &Device) -> Tensors<Self>
    where
        Self: MapSpec<ToBurn>;
}

impl<Q> IntoTensors for Q {
    #[inline]
    fn into_tensors(self, device: &Device) -> Tensors<Self>
    where
        Self: MapSpec<ToBurn>,
    {
        to_tensors(self, &mut ToBurn::new(device))
    }
}

/// `q`'s leaves as tensors by `mapper` (a loader keeps one for its epoch).
#[inline]
fn to_tensors<Q: MapSpec<ToBurn>>(q: Q, mapper: &mut ToBurn) -> Tensors<Q> {
    match q.map_spec(mapper) {
        Ok(t) => t,
        Err(never) => match never {},
    }
}

/// A request `Self` whose batches burn's loaders make into tensors from the record `R`: the one
/// bound generic code names on the request to build a [`SpecLoader`] and iterate it (the record,
/// when generic too, adds `R: StreamRecord + Sync`: the loader gathers on threads from a shared
/// dataset, and a bound on the request cannot carry the record's own).
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::data::{Dataset, StreamRecord};
/// use batchspec::iteration::Schedule;
/// use batchspec_burn::{BurnRequest, SpecLoader};
/// use burn::data::dataloader::DataLoader;
/// use burn::tensor::Device;
/// use std::sync::Arc;
///
/// /// The batches of an epoch of any request, prefetched.
/// fn batches<R: StreamRecord + Sync, Q: BurnRequest<R>>(ds: Arc<Dataset<R>>) -> Result<usize, batchspec::Error> {
///     let schedule = Schedule::builder(ds.len()).batch_size(4).build()?;
///     let loader = SpecLoader::<R, Q>::new(ds, schedule, &Device::flex())?.prefetch(2);
///     Ok(loader.iter().count())
/// }
///
/// #[derive(DataSpec)]
/// struct Record {
///     #[spec(source = "features")]
///     x: Batch<Vector<2>>,
/// }
/// let ds = Arc::new(Dataset::new(Record { x: Batch::zeros(10, 0) })?);
/// assert_eq!(batches::<Record, Record>(ds)?, 3);
/// # Ok::<(), batchspec::Error>(())
/// ```
///
/// [`ProvidedBy<R>`](batchspec::data::ProvidedBy) with a tensor form for every field
/// (`MapSpec<ToBurn>`: a ragged field has none), `Send + 'static`. Implemented for every
/// request that meets them.
pub trait BurnRequest<R>: ProvidedBy<R> + MapSpec<ToBurn, Out: 'static> + Send + 'static {}

impl<R, Q> BurnRequest<R> for Q
where
    Q: ProvidedBy<R> + MapSpec<ToBurn> + Send + 'static,
    Tensors<Q>: 'static,
{
}

/// A batchspec dataset and schedule as burn's [`DataLoader`]: each `iter()` is the next epoch of
/// the schedule (a fresh shuffle for shuffled schedules, the same one whatever thread serves
/// it), of the schedule's shard, as tensors of the request `Q` on the loader's device.
///
/// Batches follow the schedule's last-batch policy; with `LastBatch::Short` (the default) the
/// last batch holds only its samples. burn's batches carry no padding count, so `Pad` gives
/// padding rows as if they were samples (zero for `Pad`, repeated samples for `RollOver`):
/// prefer `Short` or `Drop` for burn.
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::data::Dataset;
/// use batchspec::iteration::Schedule;
/// use batchspec_burn::SpecLoader;
/// use burn::data::dataloader::DataLoader;
/// use burn::tensor::Device;
/// use std::sync::Arc;
///
/// #[derive(DataSpec)]
/// struct Record {
///     #[spec(source = "features")]
///     x: Batch<Vector<2>>,
///     #[spec(source = "targets")]
///     y: Batch<Labels<3, i64>>,
/// }
/// let ds = Arc::new(Dataset::new(Record {
///     x: Batch::new(ndarray::Array2::from_shape_fn((10, 2), |(i, j)| (i * 2 + j) as f32))?,
///     y: Batch::new(ndarray::Array1::from_iter((0..10i64).map(|i| i % 3)))?,
/// })?);
/// let schedule = Schedule::builder(10).batch_size(4).shuffle(true).seed(7).build()?;
/// let loader = SpecLoader::<Record, Record>::new(ds, schedule, &Device::flex())?;
/// assert_eq!(loader.num_items(), 10);
/// let sizes: Vec<usize> = loader.iter().map(|b| b.unwrap().x.dims()[0]).collect();
/// assert_eq!(sizes, [4, 4, 2]);
/// # Ok::<(), batchspec::Error>(())
/// ```
pub struct SpecLoader<R, Q> {
    dataset: Arc<Dataset<R>>,
    schedule: Schedule,
    device: Device,
    ahead: usize,
    // The epoch the next `iter()` serves; shared with the loaders `to_device` makes, so that a
    // learner moving the loader keeps counting.
    next_epoch: Arc<AtomicU64>,
    items: usize,
    // A slice of no samples: no batches.
    empty: bool,
    // The provider of the last epoch served on the caller's thread, kept for the next `iter()`
    // (making one checks the pair, fingerprints the request and allocates: a twentieth of an
    // epoch of the digits), or the prefetching worker of the last epoch read to its end, running
    // on into the next. Shared with the loader's clones; type-erased (a
    // `Provider<'static, R, Q>` or a `Worker<Q>`), so that the struct does not bound `R`.
    idle: Idle,
    request: PhantomData<fn() -> Q>,
}

/// What a loader keeps between epochs ([`SpecLoader`]'s `idle`): the provider of an epoch served
/// on the caller's thread and the worker of a prefetched one, each type-erased, each in a slot
/// of its own (a loader and its clone may serve both ways).
#[derive(Default)]
struct Slots {
    provider: Option<Box<dyn Any + Send>>,
    worker: Option<Box<dyn Any + Send>>,
}

type Idle = Arc<Mutex<Slots>>;

/// The loader's slots, locked.
fn slots(idle: &Idle) -> std::sync::MutexGuard<'_, Slots> {
    idle.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What `slot` keeps, as a `T`.
fn take_kept<T: 'static>(slot: &mut Option<Box<dyn Any + Send>>) -> Option<Box<T>> {
    slot.take().and_then(|kept| kept.downcast::<T>().ok())
}

impl<R, Q> Clone for SpecLoader<R, Q> {
    fn clone(&self) -> Self {
        SpecLoader {
            dataset: Arc::clone(&self.dataset),
            schedule: self.schedule.clone(),
            device: self.device.clone(),
            ahead: self.ahead,
            next_epoch: Arc::clone(&self.next_epoch),
            items: self.items,
            empty: self.empty,
            idle: Arc::clone(&self.idle),
            request: PhantomData,
        }
    }
}

impl<R: DataSpec, Q: DataSpec> SpecLoader<R, Q>
where
    FlatOf<Q>: AllocFlat,
{
    /// A loader of the request `Q` from `dataset`, by `schedule`, on `device`, starting at
    /// epoch 0, serving on the caller's thread (see [`SpecLoader::prefetch`]).
    ///
    /// # Errors
    /// [`DataError::ScheduleMismatch`] when the schedule is for another number of samples.
    pub fn new(
        dataset: Arc<Dataset<R>>,
        schedule: Schedule,
        device: &Device,
    ) -> Result<Self, DataError>
    where
        Q: GatherFrom<R> + MapSpec<ToBurn>,
    {
        // The pair is checked here, once (the same check as `Provider::new`), and that every
        // field of the request has a tensor form (a ragged field has none: reported here, not
        // at `iter()`).
        Provider::<R, Q>::unbuffered(&dataset, schedule.clone())?;
        let items = items_per_epoch(&schedule);
        Ok(SpecLoader {
            dataset,
            schedule,
            device: device.clone(),
            ahead: 0,
            next_epoch: Arc::new(AtomicU64::new(0)),
            items,
            empty: false,
            idle: Idle::default(),
            request: PhantomData,
        })
    }

    /// Gathers batches on a thread of their own (0: on the caller's thread): batchspec's
    /// `Prefetch` of owned batches, each batch's memory moving into its tensors, at most
    /// `ahead + 1` batches made before they are asked for. The order is the schedule's, whatever
    /// the timing; an error, or a panic of the thread, is an item of the iterator, never a quiet
    /// end of the epoch. The thread lives from epoch to epoch (as torch's persistent workers):
    /// once an epoch has been read to its end, it goes on making the next epoch's first batches,
    /// which the next `iter()` serves; an epoch left early, or an `iter()` for another epoch
    /// (after [`start_epoch`](Self::start_epoch), or while a clone's epoch holds the thread),
    /// starts a new thread.
    pub fn prefetch(mut self, ahead: usize) -> Self {
        self.ahead = ahead;
        self
    }

    /// The next `iter()` serves epoch `epoch` (to resume a run).
    pub fn start_epoch(&self, epoch: u64) {
        self.next_epoch.store(epoch, Ordering::SeqCst);
    }

    /// The epoch the next `iter()` serves (the number of `iter()` calls so far, from a fresh
    /// loader; its clones and the loaders `to_device` makes count together, `slice`'s start
    /// from the count they were made at).
    pub fn next_epoch(&self) -> u64 {
        self.next_epoch.load(Ordering::SeqCst)
    }

    /// The schedule.
    pub fn schedule(&self) -> &Schedule {
        &self.schedule
    }
}

/// The samples an epoch serves (padding rows not counted).
fn items_per_epoch(schedule: &Schedule) -> usize {
    let mut epoch = schedule.epoch(0);
    let mut rows = Vec::with_capacity(schedule.batch_size());
    let mut n = 0;
    while let Some(batch) = epoch.next_into(&mut rows) {
        n += batch.count_samples();
    }
    n
}

impl<R, Q> DataLoader<Tensors<Q>> for SpecLoader<R, Q>
where
    R: DataSpec + Send + Sync + 'static,
    Q: DataSpec + GatherFrom<R> + MapSpec<ToBurn> + Send + 'static,
    FlatOf<Q>: AllocFlat,
    FlatOf<R>: AllocFlat,
    R: GatherSame,
    Tensors<Q>: 'static,
{
    fn iter<'a>(&'a self) -> Box<dyn DataLoaderIterator<Tensors<Q>> + 'a> {
        let epoch = self.next_epoch.fetch_add(1, Ordering::SeqCst);
        let source = if self.empty {
            Source::Failed(None)
        } else if self.ahead == 0 {
            // The provider of an epoch before, else a new one (the first `iter()`, or one while
            // another clone's epoch holds it).
            let kept = take_kept::<Provider<'static, R, Q>>(&mut slots(&self.idle).provider);
            let made = match kept {
                Some(p) => Ok(p),
                None => Provider::<R, Q>::shared_unbuffered(
                    Arc::clone(&self.dataset),
                    self.schedule.clone(),
                )
                .map(Box::new),
            };
            match made {
                Ok(mut p) => {
                    p.start_epoch(epoch);
                    Source::Here(Kept {
                        provider: Some(p),
                        idle: Arc::clone(&self.idle),
                    })
                }
                Err(e) => Source::Failed(Some(e)),
            }
        } else {
            // The worker of an epoch before, if it ran on into this one (it serves the epochs
            // after the one it started with, `ahead` batches ahead, across their boundaries),
            // else a new one.
            let kept = take_kept::<Worker<Q>>(&mut slots(&self.idle).worker);
            // (A worker for another epoch stops here, the slots unlocked.)
            let kept = kept.filter(|w| w.next == epoch && w.ahead == self.ahead);
            let prefetch = match kept {
                Some(w) => w.prefetch,
                None => Prefetch::owned_provider(
                    Arc::clone(&self.dataset),
                    self.schedule.clone(),
                    epoch..u64::MAX,
                    self.ahead,
                ),
            };
            Source::Thread(Ahead {
                worker: Some(Worker {
                    prefetch,
                    next: epoch + 1,
                    ahead: self.ahead,
                }),
                left: self.schedule.epoch(epoch).num_batches(),
                idle: Arc::clone(&self.idle),
            })
        };
        Box::new(LoaderIter {
            source,
            tensors: ToBurn::new(&self.device),
            processed: 0,
            total: self.items,
        })
    }

    fn num_items(&self) -> usize {
        self.items
    }

    fn to_device(&self, device: &Device) -> Arc<dyn DataLoader<Tensors<Q>>> {
        let mut moved = self.clone();
        moved.device = device.clone();
        Arc::new(moved)
    }

    fn slice(&self, start: usize, end: usize) -> Arc<dyn DataLoader<Tensors<Q>>> {
        Arc::new(self.sliced(start, end))
    }
}

impl<R: DataSpec + GatherSame, Q: DataSpec> SpecLoader<R, Q>
where
    FlatOf<Q>: AllocFlat,
    FlatOf<R>: AllocFlat,
{
    /// Samples `start..end` of the loader's samples (of its shard) as a loader of their own,
    /// with the same batch size, order and last-batch policy: burn's `slice`. The rows are
    /// copied once, into a dataset of their own. A range past the end is cut at the end.
    fn sliced(&self, start: usize, end: usize) -> Self {
        let range = self.schedule.sample_range();
        let lo = range.start + start.min(range.len());
        let hi = range.start + end.min(range.len()).max(start.min(range.len()));
        let s = &self.schedule;
        let made = self
            .dataset
            .slice(lo..hi)
            .and_then(Dataset::new)
            .and_then(|d| {
                let schedule = Schedule::builder(d.len())
                    .batch_size(s.batch_size())
                    .order(s.order())
                    .last_batch(s.last_batch())
                    .seed(s.seed())
                    .build()?;
                Ok((d, schedule))
            });
        match made {
            Ok((d, schedule)) => SpecLoader {
                items: items_per_epoch(&schedule),
                dataset: Arc::new(d),
                schedule,
                device: self.device.clone(),
                ahead: self.ahead,
                next_epoch: Arc::new(AtomicU64::new(self.next_epoch.load(Ordering::SeqCst))),
                empty: false,
                idle: Idle::default(),
                request: PhantomData,
            },
            // An empty slice (or one the schedule refuses): a loader of no batches.
            Err(_) => SpecLoader {
                items: 0,
                dataset: Arc::clone(&self.dataset),
                schedule: self.schedule.clone(),
                device: self.device.clone(),
                ahead: 0,
                next_epoch: Arc::new(AtomicU64::new(0)),
                empty: true,
                idle: Idle::default(),
                request: PhantomData,
            },
        }
    }
}

/// A provider serving an epoch, given back to its loader's slot when the epoch's iterator is
/// dropped (the next `iter()` starts its next epoch).
struct Kept<R: Send + Sync + 'static, Q: Send + 'static> {
    provider: Option<Box<Provider<'static, R, Q>>>,
    idle: Idle,
}

impl<R: Send + Sync + 'static, Q: Send + 'static> Drop for Kept<R, Q> {
    fn drop(&mut self) {
        if let Some(p) = self.provider.take() {
            let slot = &mut slots(&self.idle).provider;
            if slot.is_none() {
                *slot = Some(p);
            }
        }
    }
}

/// A prefetching loader's worker: the core's `Prefetch` of owned batches over the epochs from
/// the one it started with on (each tensor keeps its batch's memory), `ahead` batches ahead.
struct Worker<Q: Send + 'static> {
    prefetch: Prefetch<Q>,
    // The epoch it serves once the current one is read.
    next: u64,
    ahead: usize,
}

/// An epoch served by a worker: its `left` batches, then the worker goes back to its loader's
/// slot, already making the next epoch's first batches (the next `iter()` takes it if it asks
/// for that epoch). An epoch left early, or ended by an error, stops the worker.
struct Ahead<Q: Send + 'static> {
    worker: Option<Worker<Q>>,
    left: usize,
    idle: Idle,
}

impl<Q: Send + 'static> Drop for Ahead<Q> {
    fn drop(&mut self) {
        if self.left == 0
            && let Some(w) = self.worker.take()
        {
            let slot = &mut slots(&self.idle).worker;
            if slot.is_none() {
                *slot = Some(Box::new(w));
            }
        }
    }
}

enum Source<R: Send + Sync + 'static, Q: Send + 'static> {
    Here(Kept<R, Q>),
    Thread(Ahead<Q>),
    Failed(Option<DataError>),
}

struct LoaderIter<R: Send + Sync + 'static, Q: Send + 'static> {
    source: Source<R, Q>,
    // The mapper into tensors on the loader's device, made once per epoch (it reads the
    // device's settings, a look-up burn makes in a hashed registry).
    tensors: ToBurn,
    processed: usize,
    total: usize,
}

impl<R, Q> Iterator for LoaderIter<R, Q>
where
    R: DataSpec + Send + Sync + 'static,
    Q: DataSpec + MapSpec<ToBurn> + Send + 'static,
    FlatOf<Q>: AllocFlat,
{
    type Item = Result<Tensors<Q>, DatasetError>;

    fn next(&mut self) -> Option<Self::Item> {
        let (q, info) = match &mut self.source {
            Source::Here(Kept {
                provider: Some(p), ..
            }) => p.next_owned()?,
            Source::Here(_) => return None,
            Source::Thread(a) => {
                if a.left == 0 {
                    return None;
                }
                let received = a.worker.as_mut().and_then(|w| w.prefetch.next_owned());
                match received {
                    Some(Ok(b)) => {
                        a.left -= 1;
                        b
                    }
                    // An error ends the epoch, and the worker with it (it is not kept); so does
                    // a worker that stopped before the epoch's end.
                    Some(Err(e)) => {
                        a.worker = None;
                        return Some(Err(DatasetError::new(e)));
                    }
                    None => {
                        a.worker = None;
                        return None;
                    }
                }
            }
            Source::Failed(e) => return e.take().map(|e| Err(DatasetError::new(e))),
        };
        self.processed += info.count_samples;
        Some(Ok(to_tensors(q, &mut self.tensors)))
    }
}

impl<R, Q> DataLoaderIterator<Tensors<Q>> for LoaderIter<R, Q>
where
    R: DataSpec + Send + Sync + 'static,
    Q: DataSpec + MapSpec<ToBurn> + Send + 'static,
    FlatOf<Q>: AllocFlat,
{
    fn progress(&self) -> Progress {
        Progress::new(self.processed, self.total, Some("samples".into()))
    }
}

/// Any batchspec source of batches as burn's [`DataLoader`]: a `ParquetStream` larger than
/// memory, a prefetched provider, a stream, a generator, or any of these taken, skipped or
/// mapped. Each `iter()` serves an epoch of the source, as tensors of the request `Q` on the
/// loader's device, each batch's memory moved into its tensors; the first continues the epoch
/// the source stands in (so a source resumed from a saved state continues where it was), the
/// next ones start the following epochs. The loader's clones and the loaders `to_device` makes
/// share the source (and its position).
///
/// `num_items` is the source's samples per epoch where it knows them (a provider, a Parquet
/// stream), else 0; burn's `slice` (the learner's split across devices) is the `SpecLoader`'s:
/// a source cannot be cut into independent parts, so a sliced `SourceLoader` serves one error
/// saying so.
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::data::{BatchSource, Dataset, Provider};
/// use batchspec::iteration::Schedule;
/// use batchspec_burn::SourceLoader;
/// use burn::data::dataloader::DataLoader;
/// use burn::tensor::Device;
/// use std::sync::Arc;
///
/// #[derive(DataSpec)]
/// struct Record {
///     #[spec(source = "features")]
///     x: Batch<Vector<2>>,
/// }
/// let ds = Arc::new(Dataset::new(Record { x: Batch::new(ndarray::Array2::zeros((10, 2)))? })?);
/// let source = Provider::<Record, Record>::shared(ds, Schedule::builder(10).batch_size(4).build()?)?;
/// let loader = SourceLoader::new(source.prefetched(2), &Device::flex());
/// assert_eq!(loader.num_items(), 10);
/// for _epoch in 0..2 {
///     let sizes: Vec<usize> = loader.iter().map(|b| b.unwrap().x.dims()[0]).collect();
///     assert_eq!(sizes, [4, 4, 2]);
/// }
/// # Ok::<(), batchspec::Error>(())
/// ```
pub struct SourceLoader<S, Q> {
    source: Arc<std::sync::Mutex<S>>,
    device: Device,
    // The epoch the next `iter()` serves, and whether it continues the one the source stands in.
    next_epoch: Arc<AtomicU64>,
    continues: Arc<std::sync::atomic::AtomicBool>,
    items: usize,
    sliced: bool,
    request: PhantomData<fn() -> Q>,
}

impl<S, Q> Clone for SourceLoader<S, Q> {
    fn clone(&self) -> Self {
        SourceLoader {
            source: Arc::clone(&self.source),
            device: self.device.clone(),
            next_epoch: Arc::clone(&self.next_epoch),
            continues: Arc::clone(&self.continues),
            items: self.items,
            sliced: self.sliced,
            request: PhantomData,
        }
    }
}

impl<S: BatchSource<Q>, Q> SourceLoader<S, Q> {
    /// A loader of the batches of `source` on `device`, from where the source stands.
    pub fn new(source: S, device: &Device) -> Self
    where
        Q: MapSpec<ToBurn>,
    {
        let epoch = source.state().epoch();
        SourceLoader {
            items: source.samples_per_epoch().unwrap_or(0),
            source: Arc::new(std::sync::Mutex::new(source)),
            device: device.clone(),
            next_epoch: Arc::new(AtomicU64::new(epoch)),
            continues: Arc::new(std::sync::atomic::AtomicBool::new(true)),
            sliced: false,
            request: PhantomData,
        }
    }

    /// The source's state (after the batches served so far): the data side of a checkpoint.
    pub fn state(&self) -> batchspec::data::SourceState {
        lock(&self.source).state()
    }

    /// The epoch the next `iter()` serves.
    pub fn next_epoch(&self) -> u64 {
        self.next_epoch.load(Ordering::SeqCst)
    }
}

/// The source, even if a thread panicked while it held it (the source then stands where the
/// panic left it, and its next epoch starts afresh).
fn lock<S>(source: &std::sync::Mutex<S>) -> std::sync::MutexGuard<'_, S> {
    source
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl<S, Q> DataLoader<Tensors<Q>> for SourceLoader<S, Q>
where
    S: BatchSource<Q> + Send + 'static,
    Q: DataSpec + MapSpec<ToBurn> + 'static,
    Tensors<Q>: 'static,
{
    fn iter<'a>(&'a self) -> Box<dyn DataLoaderIterator<Tensors<Q>> + 'a> {
        if self.sliced {
            return Box::new(SourceIter::<S, Q> {
                source: None,
                tensors: ToBurn::new(&self.device),
                processed: 0,
                total: 0,
                refused: true,
                request: PhantomData,
            });
        }
        let epoch = self.next_epoch.fetch_add(1, Ordering::SeqCst);
        let mut source = lock(&self.source);
        if !self.continues.swap(false, Ordering::SeqCst) || source.state().epoch() != epoch {
            source.start_epoch(epoch);
        }
        let processed = usize::try_from(source.state().samples()).unwrap_or(0);
        Box::new(SourceIter {
            source: Some(source),
            tensors: ToBurn::new(&self.device),
            processed,
            total: self.items,
            refused: false,
            request: PhantomData,
        })
    }

    fn num_items(&self) -> usize {
        self.items
    }

    fn to_device(&self, device: &Device) -> Arc<dyn DataLoader<Tensors<Q>>> {
        let mut moved = self.clone();
        moved.device = device.clone();
        Arc::new(moved)
    }

    fn slice(&self, _start: usize, _end: usize) -> Arc<dyn DataLoader<Tensors<Q>>> {
        let mut sliced = self.clone();
        sliced.sliced = true;
        Arc::new(sliced)
    }
}

struct SourceIter<'a, S, Q> {
    // `None` for a sliced loader, which serves an error instead.
    source: Option<std::sync::MutexGuard<'a, S>>,
    // The mapper into tensors on the loader's device, made once per epoch (it reads the
    // device's settings, a look-up burn makes in a hashed registry).
    tensors: ToBurn,
    processed: usize,
    total: usize,
    refused: bool,
    request: PhantomData<fn() -> Q>,
}

impl<S, Q> Iterator for SourceIter<'_, S, Q>
where
    S: BatchSource<Q>,
    Q: DataSpec + MapSpec<ToBurn>,
{
    type Item = Result<Tensors<Q>, DatasetError>;

    fn next(&mut self) -> Option<Self::Item> {
        let Some(source) = &mut self.source else {
            // A sliced loader serves its error, once, and nothing else.
            if !std::mem::take(&mut self.refused) {
                return None;
            }
            return Some(Err(DatasetError::new(std::io::Error::other(
                "a SourceLoader cannot be sliced: its source serves one sequence of batches, which cannot be cut into independent parts (split the data into one source per device, or use a SpecLoader of a dataset)",
            ))));
        };
        match source.next_owned()? {
            Ok((q, info)) => {
                self.processed += info.count_samples;
                Some(Ok(to_tensors(q, &mut self.tensors)))
            }
            Err(e) => Some(Err(DatasetError::new(e))),
        }
    }
}

impl<S, Q> DataLoaderIterator<Tensors<Q>> for SourceIter<'_, S, Q>
where
    S: BatchSource<Q>,
    Q: DataSpec + MapSpec<ToBurn>,
{
    fn progress(&self) -> Progress {
        Progress::new(self.processed, self.total, Some("samples".into()))
    }
}

/// burn's [`Batcher`] for items that are batchspec records (usually of one sample, as
/// `Dataset::get` gives them): the items are converted to the request `Q` (layouts and element
/// types as the request asks), stacked along the batch axis, and made tensors. For code that
/// keeps burn's `Dataset` and `DataLoaderBuilder`; [`SpecLoader`] gathers straight from the
/// dataset instead, without an item per sample.
///
/// # Panics
/// When the items are sequences of different lengths: they cannot be stacked, and burn's
/// `Batcher` cannot return an error.
pub struct SpecBatcher<Q> {
    request: PhantomData<fn() -> Q>,
}

impl<Q> SpecBatcher<Q> {
    /// A batcher of the request `Q`.
    pub fn new() -> Self {
        SpecBatcher {
            request: PhantomData,
        }
    }
}

impl<Q> Default for SpecBatcher<Q> {
    fn default() -> Self {
        Self::new()
    }
}

impl<Q> Clone for SpecBatcher<Q> {
    fn clone(&self) -> Self {
        Self::new()
    }
}

impl<R, Q> Batcher<R, Tensors<Q>> for SpecBatcher<Q>
where
    Q: DataSpec + ServeFrom<R> + MapSpec<ToBurn>,
    FlatOf<Q>: Stack,
{
    fn batch(&self, items: Vec<R>, device: &Device) -> Tensors<Q> {
        let mut cache = ServeCache::new();
        let flats: Vec<FlatOf<Q>> = items
            .iter()
            .map(|item| {
                cache.clear();
                serve::<R, Q>(item, &mut cache).flatten()
            })
            .collect();
        Q::nest(Stack::stack(flats)).into_tensors(device)
    }
}

/// The flat form of a spec, stacked item after item along each leaf's batch axis.
pub trait Stack: Sized {
    /// The leaves of every part, stacked.
    fn stack(parts: Vec<Self>) -> Self;
}

impl Stack for HNil {
    fn stack(_: Vec<Self>) -> Self {
        HNil
    }
}

impl<S: Space> Stack for Batch<S>
where
    S::Dim: ndarray::RemoveAxis,
{
    fn stack(parts: Vec<Self>) -> Self {
        let views: Vec<_> = parts.iter().map(|h| h.array_view()).collect();
        if views.is_empty() {
            return <Batch<S> as AllocFlat>::alloc(0, 0);
        }
        match ndarray::concatenate(ndarray::Axis(S::BATCH_AXIS), &views) {
            Ok(a) => Batch::new(a).unwrap_or_else(|e| panic!("stacking items: {e}")),
            Err(e) => {
                panic!("the items cannot be stacked (sequences of different lengths?): {e}")
            }
        }
    }
}

impl<A: Stack, B: Stack> Stack for Pair<A, B> {
    fn stack(parts: Vec<Self>) -> Self {
        let mut firsts = Vec::with_capacity(parts.len());
        let mut seconds = Vec::with_capacity(parts.len());
        for p in parts {
            firsts.push(p.first);
            seconds.push(p.second);
        }
        Pair {
            first: A::stack(firsts),
            second: B::stack(seconds),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::exact_ints;

    #[test]
    fn labels_convert_exactly_or_are_left_to_burn() {
        let fits = exact_ints::<i64, i32>(&[0, -3, 7, i64::from(i32::MAX)], &[2, 2]).unwrap();
        assert_eq!(fits.shape().to_vec(), [2, 2]);
        assert_eq!(fits.try_to_vec::<i32>().unwrap(), [0, -3, 7, i32::MAX]);
        // One value that does not fit, wherever it is: none are converted here.
        assert!(exact_ints::<i64, i32>(&[1, 1 << 31, 2], &[3]).is_none());
        assert!(exact_ints::<i64, i32>(&[i64::from(i32::MIN) - 1], &[1]).is_none());
        assert!(exact_ints::<u64, i64>(&[0, 1 << 63], &[2]).is_none());
        assert!(
            exact_ints::<u8, i32>(&[], &[0])
                .unwrap()
                .try_to_vec::<i32>()
                .unwrap()
                .is_empty()
        );
    }
}
