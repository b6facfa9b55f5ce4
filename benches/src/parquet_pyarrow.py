"""What a Python pipeline does with the Parquet benchmark's file, for comparison: pyarrow reads it
(`ParquetFile.read_row_groups`, two row groups at a time, on one thread), and NumPy serves shuffled
batches of f32 features and one-hot f32 targets from a window of two row groups, as
`ParquetStream` does. The Rust benchmark (`benches/src/parquet.rs`) runs this script on the file
it wrote, when `python3` with pyarrow and NumPy is there, and prints the ratio in the same run.

    python3 parquet_pyarrow.py FILE [BATCH] [WINDOW_ROW_GROUPS] [REPS]

Prints `pyarrow_samples_per_s=..` (the median of REPS epochs) and `pyarrow_decoder_samples_per_s=..`
(iter_batches alone, the pyarrow floor).
"""

import sys
import time

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

# One thread, as the Rust figure it is compared with (pyarrow decodes columns in parallel by
# default).
pa.set_cpu_count(1)
pa.set_io_thread_count(1)


def epoch(path, batch, window, seed):
    f = pq.ParquetFile(path)
    rng = np.random.default_rng(seed)
    served = 0
    x_out = np.empty((batch, 784), dtype=np.float32)
    y_out = np.zeros((batch, 10), dtype=np.float32)
    hot = np.arange(batch)

    def one_hot(labels, k):
        y_out[:] = 0
        y_out[hot[:k], labels] = 1

    groups = list(range(f.num_row_groups))
    rng.shuffle(groups)
    left_x = np.empty((0, 784), dtype=np.float32)
    left_y = np.empty((0,), dtype=np.int64)
    for start in range(0, len(groups), window):
        table = f.read_row_groups(
            groups[start : start + window], columns=["features", "targets"], use_threads=False
        )
        feats = table.column("features").combine_chunks()
        # The FixedSizeList's values as one (rows, 784) array, a view of Arrow's buffer.
        x = feats.values.to_numpy(zero_copy_only=False).reshape(len(feats), 784)
        y = table.column("targets").to_numpy()
        order = rng.permutation(len(x))
        pos = 0
        k = len(left_x)
        if k:
            # The rows left from the window before, then the first rows of this one.
            need = batch - k
            assert need <= len(x)
            x_out[:k] = left_x
            np.take(x, order[:need], axis=0, out=x_out[k:])
            one_hot(np.concatenate([left_y, y[order[:need]]]), batch)
            served += batch
            pos = need
        # Each batch one gather straight into the output (NumPy's best: `take` with `out`).
        while pos + batch <= len(x):
            idx = order[pos : pos + batch]
            np.take(x, idx, axis=0, out=x_out)
            one_hot(y[idx], batch)
            served += batch
            pos += batch
        left_x, left_y = x[order[pos:]], y[order[pos:]]
    if len(left_x):
        n = len(left_x)
        x_out[:n] = left_x
        one_hot(left_y, n)
        served += n
    return served


def decode(path):
    f = pq.ParquetFile(path)
    return sum(b.num_rows for b in f.iter_batches(batch_size=8192, use_threads=False))


def median_time(reps, fn):
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    times.sort()
    return times[len(times) // 2]


def main():
    path = sys.argv[1]
    batch = int(sys.argv[2]) if len(sys.argv) > 2 else 128
    window = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    reps = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    rows = pq.ParquetFile(path).metadata.num_rows
    assert epoch(path, batch, window, 0) == rows
    seeds = iter(range(1, reps + 1))
    t = median_time(reps, lambda: epoch(path, batch, window, next(seeds)))
    d = median_time(reps, lambda: decode(path))
    print(f"pyarrow_samples_per_s={rows / t:.0f} pyarrow_decoder_samples_per_s={rows / d:.0f}")


if __name__ == "__main__":
    main()
