//! Allocation of a record's leaves: [`AllocFlat`] makes zero-filled leaves for a number of
//! samples (what selections, providers and streams gather into), and [`SpareBuffers`] keeps
//! the memory of leaves served, for the next ones to be read into.

use crate::data::dataset::memory::{HUGE_PAGE_LEAF, advise_values};
use crate::types::batch::{ArcBatch, Batch};
use crate::types::elem::Element;
use crate::types::hlist::{HNil, Pair};
use crate::types::ragged::Ragged;
use crate::types::space::Space;
use crate::types::spec::{DataSpec, FlatOf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Flat forms of owned leaves ([`FlatOf`](crate::types::FlatOf) of a record or request), allocated for a number of
/// samples: owned batches, shared batches and ragged leaves, and [`Pair`]s of them.
pub trait AllocFlat: Sized {
    /// Zero-filled leaves of `batch` samples (and `time` steps for sequence spaces).
    fn alloc(batch: usize, time: usize) -> Self;

    /// Leaves of `batch` samples for a gather to fill, without zero-filling them first: owned
    /// batches hold no samples until the gather makes them (writing each value once where the
    /// conversion is a row copy or a cast, or into zeros otherwise), ragged leaves are empty.
    /// What owned batches given away are gathered into ([`Provider::next_owned`]); only a
    /// request's gather ([`GatherFrom`]) fills them.
    ///
    /// [`Provider::next_owned`]: crate::data::Provider::next_owned
    /// [`GatherFrom`]: crate::data::GatherFrom
    fn unfilled(batch: usize, time: usize) -> Self {
        Self::alloc(batch, time)
    }

    /// Gives the leaves' memory to `spare`, for the next leaves of their element types to be
    /// read into without asking the system for (and page-faulting) new memory; leaves that do
    /// not own their memory alone are dropped.
    fn recycle(self, spare: &mut SpareBuffers) {
        let _ = spare;
    }
}

/// Vectors of leaf values kept for reuse: a stream reading window after window into leaves of
/// the same sizes gives each window's memory back once it is served, so reading the next one
/// touches memory that is already mapped. At most `limit` vectors are kept (the largest).
pub struct SpareBuffers {
    kept: Vec<Box<dyn core::any::Any + Send>>,
    // The capacity of each kept vector, in bytes.
    bytes: Vec<usize>,
    limit: usize,
}

impl core::fmt::Debug for SpareBuffers {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "SpareBuffers({} of at most {})",
            self.kept.len(),
            self.limit
        )
    }
}

impl SpareBuffers {
    /// Keeps at most `limit` vectors.
    pub const fn new(limit: usize) -> Self {
        SpareBuffers {
            kept: Vec::new(),
            bytes: Vec::new(),
            limit,
        }
    }

    /// Keeps `values`' memory (its contents are dropped); past the limit, the smallest vector
    /// kept is freed.
    pub fn put<E: Element>(&mut self, mut values: Vec<E>) {
        values.clear();
        if values.capacity() == 0 || self.limit == 0 {
            return;
        }
        self.bytes
            .push(values.capacity() * core::mem::size_of::<E>());
        self.kept.push(Box::new(values));
        if self.kept.len() > self.limit
            && let Some((smallest, _)) = self.bytes.iter().enumerate().min_by_key(|&(_, b)| *b)
        {
            self.kept.swap_remove(smallest);
            self.bytes.swap_remove(smallest);
        }
    }

    /// An empty vector of `E` with the largest capacity kept, if one is.
    pub fn take<E: Element>(&mut self) -> Option<Vec<E>> {
        let (at, _) = self
            .kept
            .iter()
            .enumerate()
            .filter_map(|(i, b)| b.downcast_ref::<Vec<E>>().map(|v| (i, v.capacity())))
            .max_by_key(|&(_, c)| c)?;
        self.bytes.swap_remove(at);
        self.kept
            .swap_remove(at)
            .downcast::<Vec<E>>()
            .ok()
            .map(|b| *b)
    }

    /// Keeps at most `limit` vectors from now on (those past it freed, the smallest first).
    pub fn set_limit(&mut self, limit: usize) {
        self.limit = limit;
        while self.kept.len() > self.limit
            && let Some((smallest, _)) = self.bytes.iter().enumerate().min_by_key(|&(_, b)| *b)
        {
            self.kept.swap_remove(smallest);
            self.bytes.swap_remove(smallest);
        }
    }

    /// The bytes of memory kept.
    pub fn bytes(&self) -> usize {
        self.bytes.iter().sum()
    }

    /// Moves every vector kept to `to`, which keeps from now on at least as many as this kept
    /// (past its limit, the smallest are freed).
    pub fn pass_to(&mut self, to: &mut SpareBuffers) {
        let limit = to.limit.max(self.limit);
        to.kept.append(&mut self.kept);
        to.bytes.append(&mut self.bytes);
        to.set_limit(limit);
    }

    /// Frees every vector kept; the bytes freed.
    pub fn release(&mut self) -> usize {
        let freed = self.bytes();
        self.kept.clear();
        self.bytes.clear();
        freed
    }
}

/// How long the memory of leaves let go of lingers for the next reads of the process
/// ([`SpareBuffers::linger`]) unless `BATCHSPEC_LINGER_MS` gives another time (0: freed at
/// once): a second, the time jemalloc keeps freed memory by default in pyarrow.
const LINGER: Duration = Duration::from_secs(1);

/// The memory let go of by the files dropped, process-wide: the next streams of any files read
/// into it for [`LINGER`] after the last was let go of, and then a thread frees it.
static LINGERING: Mutex<Lingering> = Mutex::new(Lingering {
    spare: SpareBuffers::new(0),
    until: None,
    sweeper: false,
});

struct Lingering {
    spare: SpareBuffers,
    // When the memory is freed: `LINGER` after the last vectors came.
    until: Option<Instant>,
    // Whether a thread is waiting to free it.
    sweeper: bool,
}

/// The time memory lingers: [`LINGER`], or `BATCHSPEC_LINGER_MS` (read once).
fn linger_time() -> Duration {
    static TIME: std::sync::OnceLock<Duration> = std::sync::OnceLock::new();
    *TIME.get_or_init(|| {
        std::env::var("BATCHSPEC_LINGER_MS")
            .ok()
            .and_then(|ms| ms.trim().parse::<u64>().ok())
            .map_or(LINGER, Duration::from_millis)
    })
}

/// Frees the lingering memory once its time has passed: what the thread [`SpareBuffers::linger`]
/// starts does, waking when the time is up, until it finds nothing newer.
fn sweep() {
    loop {
        let wait = {
            let Ok(mut lingering) = LINGERING.lock() else {
                return;
            };
            let now = Instant::now();
            match lingering.until {
                Some(until) if until > now => until - now,
                _ => {
                    // Freed outside the lock: dropping vectors of hundreds of megabytes
                    // unmaps them, which takes a while.
                    let freed = core::mem::replace(&mut lingering.spare, SpareBuffers::new(0));
                    lingering.until = None;
                    lingering.sweeper = false;
                    drop(lingering);
                    drop(freed);
                    return;
                }
            }
        };
        std::thread::sleep(wait);
    }
}

impl SpareBuffers {
    /// Lets the vectors kept linger process-wide for the next reads, of any files, to take
    /// ([`take_lingering`](Self::take_lingering)): for a second after the last came (or
    /// `BATCHSPEC_LINGER_MS`), then a thread frees them. What files dropped do with the memory
    /// their streams passed on: a loop that opens its files afresh for each epoch then reads
    /// into memory already mapped, as one that keeps them does, and a process done with its
    /// files holds that memory a second longer. At most as many vectors linger as the largest
    /// limit of those let go of (the smallest freed first).
    pub fn linger(&mut self) {
        if self.kept.is_empty() {
            return;
        }
        let time = linger_time();
        let Ok(mut lingering) = LINGERING.lock() else {
            self.release();
            return;
        };
        if time.is_zero() {
            drop(lingering);
            self.release();
            return;
        }
        self.pass_to(&mut lingering.spare);
        lingering.until = Some(Instant::now() + time);
        if !lingering.sweeper {
            let started = std::thread::Builder::new()
                .name("batchspec-linger".into())
                .spawn(sweep);
            if started.is_ok() {
                lingering.sweeper = true;
            } else {
                // No thread to free it later: freed now.
                lingering.spare.release();
                lingering.until = None;
            }
        }
    }

    /// An empty vector of `E` from the memory lingering process-wide
    /// ([`linger`](Self::linger)): the largest, if one is.
    pub fn take_lingering<E: Element>() -> Option<Vec<E>> {
        LINGERING.lock().ok()?.spare.take()
    }

    /// The bytes of memory lingering process-wide ([`linger`](Self::linger)).
    pub fn lingering() -> usize {
        LINGERING
            .lock()
            .map_or(0, |lingering| lingering.spare.bytes())
    }

    /// Frees the memory lingering process-wide ([`linger`](Self::linger)) now, and gives its
    /// size in bytes.
    pub fn release_lingering() -> usize {
        let freed = LINGERING
            .lock()
            .map(|mut lingering| core::mem::replace(&mut lingering.spare, SpareBuffers::new(0)));
        freed.map_or(0, |mut freed| freed.release())
    }
}

/// A batch of `rows` samples that `gather` fills: its leaves unfilled first
/// ([`AllocFlat::unfilled`], each value written once where the conversion can), then, if a leaf
/// came out of another size (a `GatherFrom` written by hand that writes into leaves of the
/// batch's size only), zeros of the batch's size gathered into again.
///
/// # Errors
/// The gather's.
pub(crate) fn gather_owned<Q: DataSpec, E>(
    rows: usize,
    mut gather: impl FnMut(&mut Q) -> Result<(), E>,
) -> Result<Q, E>
where
    FlatOf<Q>: AllocFlat,
{
    let mut out = Q::nest(FlatOf::<Q>::unfilled(rows, 0));
    gather(&mut out)?;
    if out.validate().ok() != Some(rows) {
        out = Q::nest(FlatOf::<Q>::alloc(rows, 0));
        gather(&mut out)?;
    }
    Ok(out)
}

impl AllocFlat for HNil {
    fn alloc(_: usize, _: usize) -> Self {
        HNil
    }
}

/// A zero-filled batch, its memory advised for 2 MB pages before anything is written to it when
/// it is large: the zeros come from the system untouched, so the pages are 2 MB from the first
/// write on.
fn zeros_advised<S: Space>(batch: usize, time: usize) -> Batch<S> {
    let out = Batch::<S>::zeros(batch, time);
    if let Some(values) = out.array().as_slice_memory_order() {
        advise_values(values, HUGE_PAGE_LEAF, false);
    }
    out
}

impl<S: Space> AllocFlat for Batch<S> {
    fn alloc(batch: usize, time: usize) -> Self {
        zeros_advised(batch, time)
    }

    fn unfilled(_: usize, _: usize) -> Self {
        Batch::<S>::zeros(0, 0)
    }

    fn recycle(self, spare: &mut SpareBuffers) {
        let (values, _) = self.into_array().into_raw_vec_and_offset();
        spare.put(values);
    }
}

impl<S: Space> AllocFlat for ArcBatch<S> {
    fn alloc(batch: usize, time: usize) -> Self {
        ArcBatch::<S>::from_checked(zeros_advised::<S>(batch, time).into_array().into_shared())
    }

    fn unfilled(_: usize, _: usize) -> Self {
        ArcBatch::<S>::from_checked(Batch::<S>::zeros(0, 0).into_array().into_shared())
    }
}

impl<S: Space> AllocFlat for Ragged<S> {
    fn alloc(batch: usize, _: usize) -> Self {
        Ragged::empty(batch)
    }

    fn recycle(self, spare: &mut SpareBuffers) {
        spare.put(self.into_values());
    }
}

impl<A: AllocFlat, B: AllocFlat> AllocFlat for Pair<A, B> {
    fn alloc(batch: usize, time: usize) -> Self {
        Pair {
            first: A::alloc(batch, time),
            second: B::alloc(batch, time),
        }
    }

    fn unfilled(batch: usize, time: usize) -> Self {
        Pair {
            first: A::unfilled(batch, time),
            second: B::unfilled(batch, time),
        }
    }

    fn recycle(self, spare: &mut SpareBuffers) {
        self.first.recycle(spare);
        self.second.recycle(spare);
    }
}

#[cfg(test)]
mod tests {
    use super::SpareBuffers;

    #[test]
    fn spare_buffers_keep_the_largest_up_to_their_limit_by_element_type() {
        let mut spare = SpareBuffers::new(2);
        spare.put(vec![1.0f32; 10]);
        spare.put(vec![1u8; 1000]);
        spare.put(vec![1.0f32; 100]);
        // Three put, two kept: the 40-byte f32 vector is the smallest and freed.
        assert_eq!(spare.bytes(), 1000 + 400);
        assert!(spare.take::<f64>().is_none());
        let v = spare.take::<f32>().unwrap();
        assert!(v.is_empty() && v.capacity() >= 100);
        assert!(spare.take::<f32>().is_none());
        assert_eq!(spare.take::<u8>().unwrap().capacity(), 1000);
        assert_eq!(spare.bytes(), 0);
        SpareBuffers::new(0).put(vec![1i64; 8]);
    }

    #[test]
    fn a_lower_limit_frees_the_smallest_vectors_kept() {
        let mut spare = SpareBuffers::new(4);
        for n in [30, 10, 40, 20] {
            spare.put(vec![0u8; n]);
        }
        assert_eq!(spare.bytes(), 100);
        spare.set_limit(2);
        assert_eq!(spare.bytes(), 70);
        spare.put(vec![0u8; 5]);
        assert_eq!(spare.bytes(), 70, "past the limit, the smallest is freed");
        spare.set_limit(3);
        spare.put(vec![0u8; 5]);
        assert_eq!(spare.bytes(), 75);
    }

    #[test]
    fn vectors_passed_on_keep_the_larger_limit_and_the_largest_vectors() {
        let mut from = SpareBuffers::new(3);
        for n in [30, 10, 40] {
            from.put(vec![0u8; n]);
        }
        let mut to = SpareBuffers::new(1);
        to.put(vec![0.0f32; 5]);
        from.pass_to(&mut to);
        assert_eq!(from.bytes(), 0);
        // Four vectors, a limit of three: the 10 bytes freed.
        assert_eq!(to.bytes(), 30 + 40 + 20);
        assert_eq!(to.take::<f32>().unwrap().capacity(), 5);
        assert_eq!(to.take::<u8>().unwrap().capacity(), 40);
        let mut small = SpareBuffers::new(1);
        small.put(vec![0u8; 7]);
        small.pass_to(&mut to);
        assert_eq!(
            to.bytes(),
            30 + 7,
            "a lower limit passed on does not lower the receiver's"
        );
        assert_eq!(to.release(), 37);
        assert_eq!(to.bytes(), 0);
    }
}
