//! Batches split across devices (MXNet's `_split_inputs`, MXNet.jl's data parallelism): the
//! rows of each device ([`split_across`]), lent as views ([`device_views`]) or copied into the
//! caller's buffers, converted ([`load_into_devices`]).

use crate::augment::Draws;
use crate::data::error::DataError;
use crate::data::gather::GatherFrom;
use crate::iteration::DeviceSplit;
use crate::types::spec::DataSpec;

/// Splits a batch across `devices` (MXNet's `_split_inputs`): the sample ranges of each device,
/// as equal as possible (10 over 3 gives `0..4`, `4..7`, `7..10`).
///
/// # Errors
/// [`DataError::Iteration`] when there are fewer samples than devices, or no device.
pub fn split_across<Q: DataSpec>(batch: &Q, devices: usize) -> Result<DeviceSplit, DataError> {
    let n = batch.validate()?;
    Ok(DeviceSplit::new(n, devices)?)
}

/// The rows of each device of `batch` as views, without copying (MXNet.jl's data parallelism,
/// `_split_inputs` then a slice per device): one [`ViewsOf`](crate::types::spec::ViewsOf) per
/// device, the request's structure (its generated `<Request>Mapped` struct, by field name) with
/// a borrowed view at each leaf.
///
/// # Errors
/// As [`split_across`].
pub fn device_views<Q: DataSpec>(
    batch: &Q,
    devices: usize,
) -> Result<Vec<crate::types::spec::ViewsOf<'_, Q>>, DataError> {
    Ok(split_across(batch, devices)?
        .map(|rows| batch.node_views(rows))
        .collect())
}

/// Copies the rows of each device of `batch` into the caller's buffers, one per device
/// (MXNet.jl's `load_data!` / `load_label!` with `SlicedNDArray` targets): `targets[d]` receives
/// the rows of device `d`, converted to its own spaces where they differ (it is a request served
/// by `batch`). Returns the split.
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::data::load_into_devices;
///
/// #[derive(DataSpec)]
/// struct Input {
///     #[spec(source = "data")]
///     x: Batch<Vector<2>>,
/// }
/// // MXNet.jl: a batch of 10 over 3 devices is 1:4, 5:7, 8:10.
/// let batch = Input { x: Batch::new(ndarray::Array2::from_shape_fn((10, 2), |(i, _)| i as f32))? };
/// let mut devices: Vec<Input> = [4, 3, 3].iter().map(|&n| Input { x: Batch::zeros(n, 0) }).collect();
/// let split = load_into_devices(&batch, &mut devices)?;
/// assert_eq!(split.collect::<Vec<_>>(), [0..4, 4..7, 7..10]);
/// assert_eq!(devices[1].x.array().column(0).to_vec(), [4.0, 5.0, 6.0]);
/// # Ok::<(), batchspec::Error>(())
/// ```
///
/// # Errors
/// [`DataError::Iteration`] for fewer rows than devices or no device;
/// [`DataError::DeviceTargets`] when there is not one target per device, or a target does not
/// hold its device's rows (nothing is written then); a gather's error
/// ([`DataError::TimeSteps`]) for a borrowed sequence target too short.
pub fn load_into_devices<Q, T>(batch: &Q, targets: &mut [T]) -> Result<DeviceSplit, DataError>
where
    Q: DataSpec,
    T: DataSpec + GatherFrom<Q>,
{
    let split = split_across(batch, targets.len().max(1))?;
    if targets.is_empty() {
        return Err(DataError::DeviceTargets {
            reason: "no target was given".into(),
        });
    }
    for (d, (rows, target)) in split.clone().zip(targets.iter()).enumerate() {
        let holds = target.validate()?;
        if holds != rows.len() {
            return Err(DataError::DeviceTargets {
                reason: format!(
                    "the target of device {d} holds {holds} rows; its part of the batch is {} rows ({}..{})",
                    rows.len(),
                    rows.start,
                    rows.end
                ),
            });
        }
    }
    let mut indices = Vec::with_capacity(batch.validate()?.div_ceil(targets.len()));
    for (rows, target) in split.clone().zip(targets.iter_mut()) {
        indices.clear();
        indices.extend(rows.clone());
        T::gather_from(
            target,
            batch,
            &indices,
            rows.len()..rows.len(),
            Draws::default(),
        )?;
    }
    Ok(split)
}
