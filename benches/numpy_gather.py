"""NumPy's shuffled minibatch gather on the shapes of benches/gather.rs: X[idx], y[idx].

python3 benches/numpy_gather.py  (needs numpy; unset OPENBLAS_CORETYPE for a fair run)
"""
import time

import numpy as np

N, F, BATCH, REPS = 60_000, 784, 128, 9
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


def timed(f, *args):
    f(*args)
    f(*args)
    ts = []
    for _ in range(REPS):
        t = time.perf_counter()
        f(*args)
        ts.append(time.perf_counter() - t)
    return sorted(ts)[len(ts) // 2]


dst = np.empty_like(X)
m = timed(memcpy, dst)
g = timed(epoch)
print(f"case=gather impl=numpy threads=1 samples_per_s={N / g:.0f} gbps={(X.nbytes + y.nbytes) / g / 1e9:.2f} "
      f"ratio_memcpy={m / g:.2f} memcpy_gbps={X.nbytes / m / 1e9:.2f}")
