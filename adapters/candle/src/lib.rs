//! batchspec batches as [candle](https://github.com/huggingface/candle) tensors.
//!
//! A request written once with `#[derive(DataSpec)]` becomes a struct of [`Tensor`]s with the
//! same field names (`InputMapped<Tensor, Tensor>` for `Input`): each leaf a tensor of its
//! space's shape in the layout the request asked for, of the element's own dtype. The batch's
//! buffer moves into the tensor (`Tensor::from_vec`): no element is copied on the way.
//! [`Batches`] serves a dataset by a schedule as an iterator of tensor batches per epoch.
//!
//! ```
//! use batchspec::prelude::*;
//! use batchspec_candle::{IntoTensors, Tensors};
//! use candle_core::{DType, Device};
//!
//! #[derive(DataSpec)]
//! struct Input {
//!     #[spec(source = "features")]
//!     x: Batch<Vector<2>>,
//!     #[spec(source = "targets")]
//!     y: Batch<Labels<10, u32>>,
//! }
//!
//! let input = Input {
//!     x: Batch::new(ndarray::array![[1.0, 2.0], [3.0, 4.0]])?,
//!     y: Batch::new(ndarray::array![7u32, 0])?,
//! };
//! let t: Tensors<Input> = input.into_tensors(&Device::Cpu)?;
//! assert_eq!(t.x.dims(), [2, 2]);
//! assert_eq!(t.y.dtype(), DType::U32);
//! assert_eq!(t.x.to_vec2::<f32>()?, [[1.0, 2.0], [3.0, 4.0]]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]

use batchspec::data::DataError;
use batchspec::data::{AllocFlat, Dataset};
use batchspec::data::{BatchSource, ProvidedBy, Provider, SourceState};
use batchspec::iteration::Schedule;
use batchspec::types::FlatOf;
use batchspec::types::{Batch, DataSpec, Space};
use batchspec::types::{LeafForm, LeafMapper, MakeLeaf, MapSpec};
use candle_core::{Device, Tensor, WithDType};

/// The element types candle holds (candle has no `i8`, `u16` or `u64` tensors).
#[diagnostic::on_unimplemented(
    message = "candle has no tensor dtype for `{Self}`",
    label = "a leaf of this element type cannot become a candle tensor",
    note = "candle holds u8, i16, u32, i32, i64, f32 and f64: ask for one of them in the request (the provider converts)"
)]
pub trait CandleElement: batchspec::types::Element + WithDType {}

macro_rules! candle_elements {
    ($($t:ty),*) => {$(
        // Not listed by rustc under an error: the message's note names them.
        #[diagnostic::do_not_recommend]
        impl CandleElement for $t {}
    )*};
}
candle_elements!(u8, i16, u32, i32, i64, f32, f64);

/// The mapper that makes each leaf a candle tensor on a device (see [`IntoTensors`]).
#[derive(Clone, Debug)]
pub struct ToCandle {
    device: Device,
}

impl ToCandle {
    /// Makes tensors on `device`.
    pub fn new(device: &Device) -> Self {
        ToCandle {
            device: device.clone(),
        }
    }
}

impl LeafMapper for ToCandle {
    type Error = candle_core::Error;
}

impl<S: Space> LeafForm<S> for ToCandle {
    type Out = Tensor;
}

impl<S: Space> MakeLeaf<S> for ToCandle
where
    S::Elem: CandleElement,
{
    #[inline]
    fn make_leaf(&mut self, batch: Batch<S>) -> candle_core::Result<Tensor> {
        let (shape, values) = batch.into_vec();
        Tensor::from_vec(values, shape, &self.device)
    }
}

/// The tensor form of the spec `Q`: for a derived struct `Input`, `InputMapped<..>` with a
/// [`Tensor`] in each field.
pub type Tensors<Q> = <Q as MapSpec<ToCandle>>::Out;

/// A batch made into candle tensors, moving each leaf's buffer into its tensor.
///
/// Implemented for every type; the method asks for a spec of what candle holds, so that a leaf
/// candle cannot hold is reported by its element type.
pub trait IntoTensors: Sized {
    /// Every leaf as a tensor on `device`, in the spec's structure.
    ///
    /// # Errors
    /// candle's, when the device cannot hold the tensor.
    fn into_tensors(self, device: &Device) -> candle_core::Result<Tensors<Self>>
    where
        Self: MapSpec<ToCandle>;
}

impl<Q> IntoTensors for Q {
    #[inline]
    fn into_tensors(self, device: &Device) -> candle_core::Result<Tensors<Self>>
    where
        Self: MapSpec<ToCandle>,
    {
        self.map_spec(&mut ToCandle::new(device))
    }
}

/// A dataset served by a schedule as candle tensors of the request `Q`, an epoch at a time.
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::data::Dataset;
/// use batchspec::iteration::Schedule;
/// use batchspec_candle::Batches;
/// use candle_core::Device;
///
/// #[derive(DataSpec)]
/// struct Record {
///     #[spec(source = "features")]
///     x: Batch<Vector<2>>,
///     #[spec(source = "targets")]
///     y: Batch<Labels<3, u32>>,
/// }
/// let ds = Dataset::new(Record {
///     x: Batch::new(ndarray::Array2::from_shape_fn((10, 2), |(i, j)| (i * 2 + j) as f32))?,
///     y: Batch::new(ndarray::Array1::from_iter((0..10u32).map(|i| i % 3)))?,
/// })?;
/// let schedule = Schedule::builder(10).batch_size(4).shuffle(true).seed(7).build()?;
/// let mut batches = Batches::<Record, Record>::new(&ds, schedule, &Device::Cpu)?;
/// for epoch in 0..2 {
///     let sizes: Vec<usize> = batches.epoch(epoch).map(|b| b.unwrap().x.dims()[0]).collect();
///     assert_eq!(sizes, [4, 4, 2]);
/// }
/// # Ok::<(), batchspec::Error>(())
/// ```
pub struct Batches<'d, R, Q, S = Provider<'d, R, Q>> {
    source: S,
    device: Device,
    // The epoch a resume left the source in: the next `epoch` of it continues it.
    resumed: Option<u64>,
    request: core::marker::PhantomData<fn() -> (&'d R, Q)>,
}

impl<'d, R: DataSpec, Q: DataSpec> Batches<'d, R, Q>
where
    FlatOf<Q>: AllocFlat,
{
    /// Batches of `dataset` by `schedule` on `device`.
    ///
    /// # Errors
    /// [`DataError::ScheduleMismatch`] when the schedule is for another number of samples.
    pub fn new(
        dataset: &'d Dataset<R>,
        schedule: Schedule,
        device: &Device,
    ) -> Result<Self, DataError>
    where
        Q: ProvidedBy<R>,
    {
        Ok(Batches {
            source: Provider::new(dataset, schedule)?,
            device: device.clone(),
            resumed: None,
            request: core::marker::PhantomData,
        })
    }

    /// The schedule.
    pub fn schedule(&self) -> &Schedule {
        self.source.schedule()
    }
}

impl<Q: DataSpec, S: BatchSource<Q>> Batches<'static, (), Q, S> {
    /// Batches of any batchspec source of batches of `Q` (a `ParquetStream` larger than memory,
    /// a prefetched provider, a stream, ...), on `device`, from where the source stands: a
    /// source resumed from a saved state continues its epoch at the next [`Batches::epoch`] of
    /// that epoch.
    ///
    /// ```
    /// use batchspec::prelude::*;
    /// use batchspec::data::{BatchSource, Dataset, Provider};
    /// use batchspec::iteration::Schedule;
    /// use batchspec_candle::Batches;
    /// use candle_core::Device;
    /// use std::sync::Arc;
    ///
    /// #[derive(DataSpec)]
    /// struct Record {
    ///     #[spec(source = "features")]
    ///     x: Batch<Vector<2>>,
    /// }
    /// let ds = Arc::new(Dataset::new(Record { x: Batch::new(ndarray::Array2::zeros((10, 2)))? })?);
    /// let source = Provider::<Record, Record>::shared(ds, Schedule::builder(10).batch_size(4).build()?)?;
    /// let mut batches = Batches::from_source(source.prefetched(2), &Device::Cpu);
    /// let sizes: Vec<usize> = batches.epoch(0).map(|b| b.unwrap().x.dims()[0]).collect();
    /// assert_eq!(sizes, [4, 4, 2]);
    /// # Ok::<(), batchspec::Error>(())
    /// ```
    pub fn from_source(source: S, device: &Device) -> Self {
        let resumed = Some(source.state().epoch());
        Batches {
            source,
            device: device.clone(),
            resumed,
            request: core::marker::PhantomData,
        }
    }
}

impl<R, Q: DataSpec, S: BatchSource<Q>> Batches<'_, R, Q, S> {
    /// The batches of epoch `epoch` (its own shuffle, for shuffled sources), each gathered into
    /// memory of its own and moved into its tensors.
    pub fn epoch(&mut self, epoch: u64) -> Epoch<'_, Q, S> {
        if self.resumed.take() != Some(epoch) {
            self.source.start_epoch(epoch);
        }
        Epoch {
            source: &mut self.source,
            device: &self.device,
            request: core::marker::PhantomData,
        }
    }

    /// The source's state: the data side of a checkpoint.
    pub fn state(&self) -> SourceState {
        self.source.state()
    }

    /// Continues from `state`: the next [`Batches::epoch`] of the state's epoch serves the
    /// batches an uninterrupted run would have served after it.
    ///
    /// # Errors
    /// The source's: a state of another source, in words.
    pub fn resume(&mut self, state: &SourceState) -> Result<(), DataError> {
        self.source.resume(state)?;
        self.resumed = Some(state.epoch());
        Ok(())
    }
}

/// The tensor batches of one epoch (see [`Batches::epoch`]).
pub struct Epoch<'b, Q, S> {
    source: &'b mut S,
    device: &'b Device,
    request: core::marker::PhantomData<fn() -> Q>,
}

impl<Q: DataSpec + MapSpec<ToCandle>, S: BatchSource<Q>> Iterator for Epoch<'_, Q, S> {
    type Item = candle_core::Result<Tensors<Q>>;

    fn next(&mut self) -> Option<Self::Item> {
        match self.source.next_owned()? {
            Ok((q, _)) => Some(q.into_tensors(self.device)),
            Err(e) => Some(Err(candle_core::Error::wrap(e))),
        }
    }
}
