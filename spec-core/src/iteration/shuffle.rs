//! Portable, seeded shuffling: the same permutation for the same `(seed, epoch)` everywhere.
//!
//! Nothing here depends on `rand`'s own algorithms, which may change between releases: the
//! generator is the named xoshiro256++ ([`Xoshiro256PlusPlus`]), its seed is derived below by
//! SplitMix64, bounded draws are Lemire's method, and the shuffle is a plain Fisher–Yates. All
//! draws are `u64`, so 32-bit and 64-bit platforms agree.

use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, SeedableRng};

/// SplitMix64's increment, the odd integer closest to 2^64 / φ.
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function (Stafford's "Mix13" variant).
const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One SplitMix64 step: advance the state by [`GAMMA`], return the mixed state.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(GAMMA);
    mix64(*state)
}

/// The generator of one `(seed, epoch, stream)`: xoshiro256++ with a documented seeding.
///
/// The mixing, so that other implementations can reproduce it (`splitmix64(x)` advances `x` by
/// `0x9E3779B97F4A7C15` and returns SplitMix64's mix of the new `x`):
///
/// ```text
/// a = splitmix64(seed)                 // the state after one step from `seed`
/// b = splitmix64(a ^ epoch)
/// s = b ^ stream
/// w0, w1, w2, w3 = four successive splitmix64 outputs from state s
/// generator = Xoshiro256PlusPlus::from_seed(w0.to_le_bytes() ++ .. ++ w3.to_le_bytes())
/// ```
///
/// `stream` separates independent uses of one `(seed, epoch)`. A
/// [`Schedule`](super::Schedule) uses stream `4 * part_index + purpose`, with purpose 0 for the
/// permutation of samples, 1 for the order of batches and 2 for with-replacement draws; so an
/// unsharded schedule's shuffled epoch `e` is [`permutation`]`(n, seed, e)`.
///
/// ```
/// use batchspec_core::iteration::epoch_rng;
/// use rand::Rng;
///
/// let mut a = epoch_rng(7, 3, 0);
/// let mut b = epoch_rng(7, 3, 0);
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert_ne!(epoch_rng(7, 3, 0).next_u64(), epoch_rng(7, 4, 0).next_u64());
/// ```
pub fn epoch_rng(seed: u64, epoch: u64, stream: u64) -> Xoshiro256PlusPlus {
    let mut state = seed;
    let a = splitmix64(&mut state);
    let mut state = a ^ epoch;
    let b = splitmix64(&mut state);
    let mut state = b ^ stream;
    let mut bytes = [0u8; 32];
    for word in bytes.chunks_exact_mut(8) {
        word.copy_from_slice(&splitmix64(&mut state).to_le_bytes());
    }
    Xoshiro256PlusPlus::from_seed(bytes)
}

/// A uniform draw from `0..bound`, without modulo bias (Lemire's multiply-and-reject method).
///
/// Takes the high 64 bits of `x * bound` for a fresh `x = rng.next_u64()`, rejecting the `x`
/// whose low 64 bits fall below `2^64 mod bound`. `bound = 0` returns 0 (after one draw), so
/// the function is total.
///
/// ```
/// use batchspec_core::iteration::{below, epoch_rng};
///
/// let mut rng = epoch_rng(0, 0, 0);
/// assert!((0..1000).all(|_| below(&mut rng, 6) < 6));
/// ```
pub fn below<R: Rng + ?Sized>(rng: &mut R, bound: u64) -> u64 {
    let wide = |x: u64| u128::from(x) * u128::from(bound);
    let mut m = wide(rng.next_u64());
    // `m as u64` keeps the low half of the product on purpose.
    if (m as u64) < bound {
        let threshold = bound.wrapping_neg() % bound;
        while (m as u64) < threshold {
            m = wide(rng.next_u64());
        }
    }
    (m >> 64) as u64
}

/// Shuffles `items` in place: Fisher–Yates (Durstenfeld), from the last position down.
///
/// For `i` from `len - 1` down to 1, swaps `items[i]` with `items[below(rng, i + 1)]`. Every
/// permutation is equally likely; the result depends only on the generator's `next_u64` values.
pub fn shuffle<T, R: Rng + ?Sized>(items: &mut [T], rng: &mut R) {
    for i in (1..items.len()).rev() {
        // `below(_, i + 1) <= i`, and `i` is a `usize`, so the draw fits back in one.
        let j = below(rng, i as u64 + 1) as usize;
        items.swap(i, j);
    }
}

/// Writes `offset..offset + n` into `out` and shuffles it with `rng` (reusing `out`'s memory).
pub(crate) fn fill_shuffled<R: Rng + ?Sized>(
    out: &mut Vec<usize>,
    offset: usize,
    n: usize,
    rng: &mut R,
) {
    out.clear();
    out.extend(offset..offset + n);
    shuffle(out, rng);
}

/// Writes the permutation of `0..n` for `(seed, epoch)` into `out`, reusing its memory.
///
/// This is [`shuffle`] of `0..n` with [`epoch_rng`]`(seed, epoch, 0)`, the order in which an
/// unsharded [`Order::Shuffled`](super::Order::Shuffled) schedule visits samples in epoch
/// `epoch`.
pub fn permutation_into(out: &mut Vec<usize>, n: usize, seed: u64, epoch: u64) {
    fill_shuffled(out, 0, n, &mut epoch_rng(seed, epoch, 0));
}

/// The permutation of `0..n` for `(seed, epoch)`; see [`permutation_into`].
///
/// ```
/// use batchspec_core::iteration::permutation;
///
/// let p = permutation(10, 42, 0);
/// let mut sorted = p.clone();
/// sorted.sort_unstable();
/// assert_eq!(sorted, (0..10).collect::<Vec<_>>());
/// assert_eq!(p, permutation(10, 42, 0));
/// assert_ne!(p, permutation(10, 42, 1));
/// ```
pub fn permutation(n: usize, seed: u64, epoch: u64) -> Vec<usize> {
    let mut out = Vec::with_capacity(n);
    permutation_into(&mut out, n, seed, epoch);
    out
}
