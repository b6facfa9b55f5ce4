//! Splitting one batch across devices for data parallelism (MXNet.jl `_split_inputs`).

use std::iter::FusedIterator;
use std::ops::Range;

use super::IterationError;

/// The contiguous parts of one batch, one per device: sizes differ by at most one, the larger
/// parts first (MXNet.jl `_split_inputs`).
///
/// The ranges are row positions within the batch (`0..batch_size`), not sample indices.
///
/// ```
/// use batchspec_core::iteration::DeviceSplit;
///
/// // MXNet.jl: _split_inputs(10, 3) == [1:4, 5:7, 8:10]
/// assert_eq!(DeviceSplit::new(10, 3)?.collect::<Vec<_>>(), [0..4, 4..7, 7..10]);
/// assert_eq!(DeviceSplit::new(3, 2)?.collect::<Vec<_>>(), [0..2, 2..3]);
/// assert!(DeviceSplit::new(2, 3).is_err());
/// # Ok::<(), batchspec_core::iteration::IterationError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceSplit {
    batch_size: usize,
    devices: usize,
    front: usize,
    back: usize,
}

impl DeviceSplit {
    /// Splits a batch of `batch_size` rows across `devices` devices.
    ///
    /// # Errors
    ///
    /// [`IterationError::ZeroDevices`] if `devices` is 0,
    /// [`IterationError::BatchSmallerThanDevices`] if `batch_size < devices` (MXNet.jl asserts
    /// `batch_size >= n_devices`).
    pub fn new(batch_size: usize, devices: usize) -> Result<Self, IterationError> {
        if devices == 0 {
            return Err(IterationError::ZeroDevices { batch_size });
        }
        if batch_size < devices {
            return Err(IterationError::BatchSmallerThanDevices {
                batch_size,
                devices,
            });
        }
        Ok(DeviceSplit {
            batch_size,
            devices,
            front: 0,
            back: devices,
        })
    }

    /// The size of the batch being split.
    pub fn batch_size(&self) -> usize {
        self.batch_size
    }

    /// The number of devices.
    pub fn devices(&self) -> usize {
        self.devices
    }

    /// The rows of device `device`, or `None` if `device >= devices`.
    pub fn part(&self, device: usize) -> Option<Range<usize>> {
        (device < self.devices).then(|| self.start(device)..self.start(device + 1))
    }

    /// Where the rows of device `device` start, for `device <= devices`: the first
    /// `batch_size % devices` devices take one extra row.
    fn start(&self, device: usize) -> usize {
        let per = self.batch_size / self.devices;
        let extra = self.batch_size % self.devices;
        // `per * device + min(device, extra) <= batch_size` for `device <= devices`.
        per * device + device.min(extra)
    }
}

impl Iterator for DeviceSplit {
    type Item = Range<usize>;

    fn next(&mut self) -> Option<Range<usize>> {
        if self.front == self.back {
            return None;
        }
        let part = self.part(self.front);
        self.front += 1;
        part
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let len = self.back - self.front;
        (len, Some(len))
    }
}

impl DoubleEndedIterator for DeviceSplit {
    fn next_back(&mut self) -> Option<Range<usize>> {
        if self.front == self.back {
            return None;
        }
        self.back -= 1;
        self.part(self.back)
    }
}

impl ExactSizeIterator for DeviceSplit {}

impl FusedIterator for DeviceSplit {}
