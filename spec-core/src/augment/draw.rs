//! The randomness of augmentations: counter-based, so that every choice is a pure function of
//! `(seed, epoch, sample, step)` and the same sample is augmented the same way whichever thread,
//! prefetcher or rank gathers it, and in whatever order.
//!
//! The mixing function is SplitMix64's finalizer (Steele, Lea and Flood, "Fast splittable
//! pseudorandom number generators", 2014), applied to the words of the key in turn.

/// SplitMix64's finalizer: a bijection of `u64` whose outputs pass BigCrush for counter inputs.
#[inline]
pub(crate) const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The golden-ratio increment of SplitMix64.
const GOLDEN: u64 = 0x9e37_79b9_7f4a_7c15;

/// What the random choices of a batch depend on besides the sample and the step: the seed of
/// the run and the epoch, and how a row of the record being gathered becomes a global sample
/// index. A provider passes its schedule's seed and the epoch it serves (its rows are the
/// dataset's); a selection outside a provider uses `Draws::default()` (seed 0, epoch 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Draws<'a> {
    /// The seed of the run.
    pub seed: u64,
    /// The epoch.
    pub epoch: u64,
    /// Added to a sample's row to make its global index: 0 for a provider (its rows are the
    /// dataset's); for a stream, the samples it served before the batch this epoch.
    pub first: u64,
    /// The global index of each row of the record gathered from, when its rows are not the
    /// dataset's (a `ParquetStream`'s window: the row's file and place in it); `first` is
    /// added to it.
    pub globals: Option<&'a [u64]>,
}

impl Draws<'_> {
    /// The draws of epoch `epoch` of a run seeded with `seed`.
    pub const fn new(seed: u64, epoch: u64) -> Draws<'static> {
        Draws {
            seed,
            epoch,
            first: 0,
            globals: None,
        }
    }

    /// The global sample index of row `row` of the record gathered from.
    #[inline]
    pub fn global(&self, row: usize) -> u64 {
        let g = match self.globals {
            Some(g) => g.get(row).copied().unwrap_or(row as u64),
            None => row as u64,
        };
        g.wrapping_add(self.first)
    }

    /// The key of the choices of step `step` for row `row` of the record gathered from.
    #[inline]
    pub(crate) fn key(&self, row: u64, step: u64) -> u64 {
        self.key_of(self.global(row as usize), step)
    }

    /// The key of the choices of step `step` for the sample of global index `global`.
    #[inline]
    pub(crate) const fn key_of(&self, global: u64, step: u64) -> u64 {
        let a = mix64(self.seed ^ GOLDEN);
        let b = mix64(a ^ self.epoch.wrapping_mul(GOLDEN));
        let c = mix64(b ^ global);
        mix64(c ^ step.wrapping_add(1).wrapping_mul(GOLDEN))
    }
}

/// The `k`-th 64-bit draw of a key.
#[inline]
pub(crate) const fn bits(key: u64, k: u64) -> u64 {
    mix64(key ^ k.wrapping_add(1).wrapping_mul(GOLDEN))
}

/// The `k`-th uniform draw of a key, in `[0, 1)` (53 bits).
#[inline]
pub(crate) fn uniform(key: u64, k: u64) -> f64 {
    (bits(key, k) >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// The `k`-th draw of a key as an integer in `0..n` (Lemire's multiply-shift; `n > 0`).
#[inline]
pub(crate) fn below(key: u64, k: u64, n: usize) -> usize {
    ((u128::from(bits(key, k)) * n as u128) >> 64) as usize
}

/// A standard normal value from the draws `2k` and `2k + 1` of a key (Box-Muller).
#[inline]
pub(crate) fn gauss(key: u64, k: u64) -> f64 {
    let u1 = 1.0 - uniform(key, 2 * k); // in (0, 1]
    let u2 = uniform(key, 2 * k + 1);
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// A Gamma(`alpha`, 1) value from the draws of a key starting at `k` (Marsaglia and Tsang,
/// 2000; for `alpha < 1` the boost `Gamma(alpha + 1) · U^(1/alpha)`).
fn gamma(key: u64, mut k: u64, alpha: f64) -> f64 {
    if alpha < 1.0 {
        let u = 1.0 - uniform(key, k);
        return gamma(key, k + 1, alpha + 1.0) * u.powf(1.0 / alpha);
    }
    let d = alpha - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    // Accepts with probability above 0.95 per round; bounded for safety.
    for _ in 0..1000 {
        let x = gauss(key, k);
        let u = uniform(key, 2 * k + 2_000_000);
        k += 1;
        let v = 1.0 + c * x;
        if v <= 0.0 {
            continue;
        }
        let v = v * v * v;
        if u < 1.0 - 0.0331 * x * x * x * x || u.ln() < 0.5 * x * x + d * (1.0 - v + v.ln()) {
            return d * v;
        }
    }
    alpha
}

/// A Beta(`alpha`, `alpha`) value of a key (mixup's λ), from two Gamma draws.
pub(crate) fn beta(key: u64, alpha: f64) -> f64 {
    let a = gamma(key, 0, alpha);
    let b = gamma(mix64(key ^ 0x5bd1_e995), 0, alpha);
    if a + b > 0.0 { a / (a + b) } else { 0.5 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniform_draws_cover_the_interval_evenly() {
        let key = Draws::new(7, 3).key(11, 2);
        let mut bins = [0usize; 10];
        for k in 0..100_000 {
            let u = uniform(key, k);
            assert!((0.0..1.0).contains(&u));
            bins[(u * 10.0) as usize] += 1;
        }
        for b in bins {
            assert!((9_500..10_500).contains(&b), "{bins:?}");
        }
    }

    #[test]
    fn normal_draws_have_mean_zero_and_variance_one() {
        let key = Draws::new(1, 0).key(0, 4);
        let n = 200_000;
        let xs: Vec<f64> = (0..n).map(|k| gauss(key, k)).collect();
        let mean = xs.iter().sum::<f64>() / n as f64;
        let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n as f64;
        assert!(mean.abs() < 0.01, "{mean}");
        assert!((var - 1.0).abs() < 0.02, "{var}");
    }

    #[test]
    fn beta_draws_have_the_mean_and_variance_of_beta() {
        for alpha in [0.2, 1.0, 2.0] {
            let n = 20_000;
            let xs: Vec<f64> = (0..n)
                .map(|r| beta(Draws::new(5, 1).key(r, 6), alpha))
                .collect();
            assert!(xs.iter().all(|x| (0.0..=1.0).contains(x)));
            let mean = xs.iter().sum::<f64>() / n as f64;
            let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n as f64;
            // Beta(a, a): mean 1/2, variance 1 / (4 (2a + 1)).
            let want = 1.0 / (4.0 * (2.0 * alpha + 1.0));
            assert!((mean - 0.5).abs() < 0.01, "alpha {alpha}: mean {mean}");
            assert!(
                (var - want).abs() < 0.1 * want,
                "alpha {alpha}: var {var} vs {want}"
            );
        }
    }

    #[test]
    fn keys_differ_in_every_word() {
        let d = Draws::new(1, 2);
        let k = d.key(3, 4);
        assert_ne!(k, Draws::new(0, 2).key(3, 4));
        assert_ne!(k, Draws::new(1, 3).key(3, 4));
        assert_ne!(k, d.key(4, 4));
        assert_ne!(k, d.key(3, 5));
        assert_eq!(k, Draws::new(1, 2).key(3, 4));
    }
}
