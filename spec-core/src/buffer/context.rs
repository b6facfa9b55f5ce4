//! The context steps of recurrent buffers: a [`BufferManager`]'s time-sized hubs carry the last
//! steps of the previous chunk in their context rows, in place or through a [`SavedContext`]
//! across a resize, and start new sequences from zeros.

use super::error::BufferError;
use super::manager::BufferManager;

/// Context steps copied out of a [`BufferManager`] by [`save_context`](BufferManager::save_context),
/// to be written back with [`apply_context`](BufferManager::apply_context) after a resize.
#[derive(Debug, Clone, PartialEq)]
pub struct SavedContext<E = f32> {
    layout: u64,
    batch_size: usize,
    data: Vec<E>,
}

impl<E> Default for SavedContext<E> {
    fn default() -> Self {
        SavedContext {
            layout: 0,
            batch_size: 0,
            data: Vec::new(),
        }
    }
}

impl<E> SavedContext<E> {
    /// The batch size the context was saved for.
    pub fn batch_size(&self) -> usize {
        self.batch_size
    }
}

impl<E: Copy + Default> BufferManager<E> {
    /// Carries the context over in place, for a next chunk with the same (T, B): every forward
    /// time-sized hub with context k gets, in its k context rows, the last k steps of the
    /// sequence so far (its T real steps preceded by its current context), so that step -1 is
    /// the last real step. Call it between the chunks of long sequences, before writing the next
    /// chunk. When the next chunk has another T, use [`save_context`](Self::save_context) before
    /// and [`apply_context`](Self::apply_context) after the resize instead.
    pub fn carry_context(&mut self) {
        let (t, row) = (self.arena.time_steps, self.arena.batch_size);
        for (h, hub) in self.layout.hubs().iter().enumerate() {
            let k = hub.context_size();
            if hub.is_backward() || k == 0 {
                continue;
            }
            let r = row * hub.width();
            let off = self.arena.offsets[h];
            let region = &mut self.data[off..off + self.arena.lens[h]];
            let kept = k.saturating_sub(t); // old context rows still among the last k steps
            if kept > 0 && t > 0 {
                region.copy_within(2 * t * r..(2 * t + kept) * r, t * r);
            }
            let from = (t + kept - k) * r;
            region.copy_within(from..t * r, (t + kept) * r);
        }
    }

    /// Copies the context a next chunk needs (for each forward time-sized hub with context k,
    /// the last k steps, as [`carry_context`](Self::carry_context) would place them) out of the
    /// buffers, so that it survives a resize to another T.
    pub fn save_context(&self) -> SavedContext<E> {
        let mut saved = SavedContext::default();
        self.save_context_into(&mut saved);
        saved
    }

    /// [`save_context`](Self::save_context) into an existing value, reusing its memory.
    pub fn save_context_into(&self, saved: &mut SavedContext<E>) {
        saved.layout = self.layout.id();
        saved.batch_size = self.arena.batch_size;
        saved.data.clear();
        let t = self.arena.time_steps;
        for (h, hub) in self.layout.hubs().iter().enumerate() {
            let k = hub.context_size();
            if hub.is_backward() || k == 0 {
                continue;
            }
            let r = self.arena.batch_size * hub.width();
            let off = self.arena.offsets[h];
            let region = &self.data[off..off + self.arena.lens[h]];
            let kept = k.saturating_sub(t);
            if kept > 0 {
                saved
                    .data
                    .extend_from_slice(&region[2 * t * r..(2 * t + kept) * r]);
            }
            saved
                .data
                .extend_from_slice(&region[(t + kept - k) * r..t * r]);
        }
    }

    /// Writes a saved context into the context rows of the current buffers (after a resize to
    /// the next chunk's T; B must be unchanged).
    ///
    /// # Errors
    /// [`BufferError::ContextBatchMismatch`], or [`BufferError::ForeignLayout`] for a context
    /// saved from another layout.
    pub fn apply_context(&mut self, saved: &SavedContext<E>) -> Result<(), BufferError> {
        if saved.layout != self.layout.id() {
            return Err(BufferError::ForeignLayout {
                what: "saved context",
            });
        }
        if saved.batch_size != self.arena.batch_size {
            return Err(BufferError::ContextBatchMismatch {
                saved: saved.batch_size,
                current: self.arena.batch_size,
            });
        }
        let t = self.arena.time_steps;
        let mut at = 0;
        for (h, hub) in self.layout.hubs().iter().enumerate() {
            let k = hub.context_size();
            if hub.is_backward() || k == 0 {
                continue;
            }
            let n = k * self.arena.batch_size * hub.width();
            let off = self.arena.offsets[h] + t * self.arena.batch_size * hub.width();
            self.data[off..off + n].copy_from_slice(&saved.data[at..at + n]);
            at += n;
        }
        Ok(())
    }

    /// Zeroes (sets to `E::default()`) the context rows of every time-sized hub, forward and
    /// backward: the start of new sequences, where step -1 is all zeros.
    pub fn clear_context(&mut self) {
        let t = self.arena.time_steps;
        for (h, hub) in self.layout.hubs().iter().enumerate() {
            let k = hub.context_size();
            if k == 0 || (hub.is_backward() && !self.arena.backward) {
                continue;
            }
            let r = self.arena.batch_size * hub.width();
            let off = self.arena.offsets[h];
            self.data[off + t * r..off + (t + k) * r].fill(E::default());
        }
    }
}
