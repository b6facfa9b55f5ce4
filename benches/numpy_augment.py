"""The standard CIFAR training augmentation in NumPy, vectorized per batch as its users write it,
on the shapes of benches/src/augment.rs: 50000 random 32x32x3 u8 images, batch 256, one shuffled
epoch; pad 4 (zeros), a random 32x32 crop per sample, a random horizontal flip per sample,
normalize per channel, bhwc u8 -> bchw f32.

python3 benches/numpy_augment.py  (needs numpy; one thread: OPENBLAS/OMP threads do not apply)
"""
import time

import numpy as np

N, H, W, C, BATCH, PAD, REPS = 50_000, 32, 32, 3, 256, 4, 5
X = (np.arange(N * H * W * C, dtype=np.int64) % 251).astype(np.uint8).reshape(N, H, W, C)
MEAN = np.array([125.3, 123.0, 113.9], dtype=np.float32)
STD = np.array([63.0, 62.1, 66.7], dtype=np.float32)
rng = np.random.default_rng(42)


def augment(xb):
    b = xb.shape[0]
    padded = np.pad(xb, ((0, 0), (PAD, PAD), (PAD, PAD), (0, 0)))
    oy = rng.integers(0, 2 * PAD + 1, size=b)
    ox = rng.integers(0, 2 * PAD + 1, size=b)
    rows = oy[:, None] + np.arange(H)[None, :]            # (b, H)
    cols = ox[:, None] + np.arange(W)[None, :]            # (b, W)
    flip = rng.random(b) < 0.5
    cols = np.where(flip[:, None], cols[:, ::-1], cols)   # a flip is a reversed column index
    crops = padded[np.arange(b)[:, None, None], rows[:, :, None], cols[:, None, :]]  # (b, H, W, C)
    out = (crops.astype(np.float32) - MEAN) / STD
    return np.ascontiguousarray(out.transpose(0, 3, 1, 2))


def plain(xb):
    return np.ascontiguousarray(xb.transpose(0, 3, 1, 2).astype(np.float32))


def epoch(f):
    idx = rng.permutation(N)
    s = 0.0
    for start in range(0, N, BATCH):
        out = f(X[idx[start:start + BATCH]])
        s += out[0, 0, 0, 0]
    return s


def timed(f):
    epoch(f)
    ts = []
    for _ in range(REPS):
        t = time.perf_counter()
        epoch(f)
        ts.append(time.perf_counter() - t)
    return sorted(ts)[len(ts) // 2]


a = timed(augment)
p = timed(plain)
print(f"case=numpy_augment threads=1 samples_per_s={N / a:.0f}")
print(f"case=numpy_plain_gather threads=1 samples_per_s={N / p:.0f} (X[idx], bhwc u8 -> bchw f32)")
