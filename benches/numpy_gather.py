"""NumPy's shuffled minibatch gather on the shapes of benches/gather.rs: X[idx], y[idx].

python3 benches/numpy_gather.py  (needs numpy; unset OPENBLAS_CORETYPE for a fair run)

Measured as the Rust bench measures: rounds that time a memcpy of X (np.copyto) and one epoch
each, one after the other; the ratio is taken within a round, and its median and range printed.
"""
import time

import numpy as np

N, F, BATCH, ROUNDS = 60_000, 784, 128, 15
X = (np.arange(N * F, dtype=np.int64) % 16_777_213).astype(np.float32).reshape(N, F)
y = (np.arange(N) % 10).astype(np.uint8)
rng = np.random.default_rng(42)


def epoch():
    idx = rng.permutation(N)
    s = 0.0
    for start in range(0, N, BATCH):
        b = idx[start:start + BATCH]
        xb, yb = X[b], y[b]
        s += xb[0, 0] + yb[0]
    return s


def memcpy(dst):
    np.copyto(dst, X)


def secs(f, *args):
    t = time.perf_counter()
    f(*args)
    return time.perf_counter() - t


dst = np.empty_like(X)
memcpy(dst)
epoch()
m, g = [], []
for _ in range(ROUNDS):
    m.append(secs(memcpy, dst))
    g.append(secs(epoch))
ratios = sorted(a / b for a, b in zip(m, g))
med = lambda v: sorted(v)[len(v) // 2]
print(f"case=gather impl=numpy threads=1 samples_per_s={N / med(g):.0f} gbps={(X.nbytes + y.nbytes) / med(g) / 1e9:.2f} "
      f"ratio_memcpy={med(ratios):.2f} [{ratios[0]:.2f}-{ratios[-1]:.2f}] memcpy_gbps={X.nbytes / med(m) / 1e9:.2f}")
