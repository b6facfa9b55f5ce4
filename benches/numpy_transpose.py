#!/usr/bin/env python3
"""NumPy baselines for the layout-conversion benchmark (benches/transpose.rs), same cases.

Measures, for f32 arrays filled like the Rust benchmark (i % 16777213):
  copyto_memcpy       np.copyto(dst, x)                       (memcpy, preallocated)
  copyto              np.copyto(out, x.transpose(perm))       (preallocated)
  ascontiguousarray   np.ascontiguousarray(x.transpose(perm)) (allocates each call)

gbps = (bytes read + bytes written) / s = 2 x tensor bytes / median time, as in
perf-baselines.md and transpose.rs; ratio_memcpy = gbps / gbps of copyto_memcpy in the same
process. NumPy copies run on one thread. The variants run in rounds (one timed call of each
per round) after warm-up calls; each figure is the median over the rounds.

    pip install numpy
    python3 benches/numpy_transpose.py [--quick] [--cases ABCDE]

OpenBLAS is limited to one thread before NumPy is imported (it plays no part in copies, but
an idle BLAS thread pool should not compete with the measurement on a 2-core machine).
"""

import argparse
import os
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

CASES = {
    "A": ("64x224x224x3 bhwc->bchw", (64, 224, 224, 3), (0, 3, 1, 2)),
    "B": ("256x32x32x3 bhwc->bchw", (256, 32, 32, 3), (0, 3, 1, 2)),
    "C": ("8192x8192 2-D transpose", (8192, 8192), (1, 0)),
    "D": ("64x3x224x224 bchw->chwb", (64, 3, 224, 224), (1, 2, 3, 0)),
    "E": ("1024x128x64 bwc->bcw", (1024, 128, 64), (0, 2, 1)),
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="1 warm-up + 3 timed calls")
    ap.add_argument("--cases", default="ABCDE")
    args = ap.parse_args()
    quick = args.quick or os.environ.get("BATCHSPEC_BENCH_QUICK", "") not in ("", "0")
    print(
        f"# numpy {np.__version__}: f32, gbps = (bytes read + bytes written) / s; "
        "ratio_memcpy = gbps / gbps of np.copyto(dst, x) in the same process; 1 thread"
    )
    for name in args.cases:
        if name not in CASES:
            continue
        what, shape, perm = CASES[name]
        warm, reps = (1, 3) if quick else ((1, 7) if name == "C" else (2, 11))
        n = int(np.prod(shape))
        x = (np.arange(n, dtype=np.int64) % 16777213).astype(np.float32).reshape(shape)
        dst = np.ones_like(x)
        out = np.ones(tuple(shape[p] for p in perm), dtype=np.float32)
        xt = x.transpose(perm)
        variants = {
            "copyto_memcpy": lambda: np.copyto(dst, x),
            "copyto": lambda: np.copyto(out, xt),
            "ascontiguousarray": lambda: np.ascontiguousarray(xt),
        }
        for f in variants.values():
            for _ in range(warm):
                f()
        times = {k: [] for k in variants}
        for _ in range(reps):
            for k, f in variants.items():
                t0 = time.perf_counter()
                f()
                times[k].append(time.perf_counter() - t0)
        want = np.ascontiguousarray(xt)
        ok = "ok" if np.array_equal(out, want) else "WRONG"
        gbps = {k: 2 * 4 * n / sorted(v)[len(v) // 2] / 1e9 for k, v in times.items()}
        print(f"# case {name}: {what} f32, {4 * n / 1e6:.1f} MB per side, {warm} warm-up + {reps} timed calls")
        for k in variants:
            print(
                f"numpy case={name} threads=1 name={k} gbps={gbps[k]:.2f} "
                f"ratio_memcpy={gbps[k] / gbps['copyto_memcpy']:.2f}"
                + (f" result={ok}" if k == "copyto" else "")
            )


if __name__ == "__main__":
    main()
