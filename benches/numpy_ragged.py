"""NumPy on the shapes of benches/src/ragged.rs: 4096 sequences of 1..512 steps of 64 f32
features, shuffled batches of 32.

python3 benches/numpy_ragged.py  (needs numpy)

Two ways NumPy users pad:
  * per batch, to the batch's longest: np.zeros, then one slice assignment per sequence;
  * fixed-size: every sequence stored padded to 512 steps, then X[idx] per batch.
"""
import time

import numpy as np

N, F, MAX, BATCH, REPS = 4096, 64, 512, 32, 9
lengths = [(i * 7919 + 13) % MAX + 1 for i in range(N)]
seqs = [(np.arange(l * F) % 1000).astype(np.float32).reshape(l, F) for l in lengths]
rng = np.random.default_rng(42)


def per_batch():
    idx = rng.permutation(N)
    s = 0.0
    for start in range(0, N, BATCH):
        b = idx[start:start + BATCH]
        longest = max(lengths[i] for i in b)
        out = np.zeros((len(b), longest, F), dtype=np.float32)
        for j, i in enumerate(b):
            out[j, :lengths[i]] = seqs[i]
        s += out[0, 0, 0]
    return s


X = np.zeros((N, MAX, F), dtype=np.float32)
for i, q in enumerate(seqs):
    X[i, :len(q)] = q


def fixed():
    idx = rng.permutation(N)
    s = 0.0
    for start in range(0, N, BATCH):
        xb = X[idx[start:start + BATCH]]
        s += xb[0, 0, 0]
    return s


def timed(f):
    f()
    f()
    ts = []
    for _ in range(REPS):
        t = time.perf_counter()
        f()
        ts.append(time.perf_counter() - t)
    return sorted(ts)[len(ts) // 2]


a = timed(per_batch)
b = timed(fixed)
print(f"case=ragged_pad_longest impl=numpy threads=1 samples_per_s={N / a:.0f}")
print(f"case=fixed_pad_512 impl=numpy threads=1 samples_per_s={N / b:.0f}")
