"""The remote benchmark's Python side: the same part files read from the same S3-compatible server
with pyarrow's S3 filesystem (`pyarrow.fs.S3FileSystem`), two row groups at a time in a shuffled
order, and served as shuffled batches of f32 features and one-hot f32 targets with NumPy, as
`ParquetStream` serves them in `remote.rs`. One thread, as the Rust figure.

    python remote_pyarrow.py ENDPOINT BUCKET PREFIX [BATCH] [WINDOW_ROW_GROUPS] [REPS]

Prints `pyarrow_s3_samples_per_s=..` (the median of REPS epochs).
"""

import sys
import time

import numpy as np
import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq

pa.set_cpu_count(1)
pa.set_io_thread_count(1)


def epoch(fs, paths, batch, window, seed):
    rng = np.random.default_rng(seed)
    files = [pq.ParquetFile(fs.open_input_file(p)) for p in paths]
    groups = [(f, g) for f in range(len(files)) for g in range(files[f].num_row_groups)]
    rng.shuffle(groups)
    x_out = np.empty((batch, 784), dtype=np.float32)
    y_out = np.zeros((batch, 10), dtype=np.float32)
    served = 0
    for start in range(0, len(groups), window):
        xs, ys = [], []
        for f, g in groups[start : start + window]:
            table = files[f].read_row_groups([g], columns=["features", "targets"], use_threads=False)
            feats = table.column("features").combine_chunks()
            xs.append(feats.values.to_numpy(zero_copy_only=False).reshape(len(feats), 784))
            ys.append(table.column("targets").to_numpy())
        x = np.concatenate(xs)
        y = np.concatenate(ys)
        order = rng.permutation(len(x))
        for b in range(0, len(x), batch):
            idx = order[b : b + batch]
            k = len(idx)
            np.take(x, idx, axis=0, out=x_out[:k])
            y_out[:] = 0
            y_out[np.arange(k), y[idx]] = 1
            served += k
    return served


def main():
    endpoint, bucket, prefix = sys.argv[1:4]
    batch = int(sys.argv[4]) if len(sys.argv) > 4 else 128
    window = int(sys.argv[5]) if len(sys.argv) > 5 else 2
    reps = int(sys.argv[6]) if len(sys.argv) > 6 else 3
    host = endpoint.split("://", 1)[1]
    fs = pafs.S3FileSystem(
        access_key="testing",
        secret_key="testing",
        region="us-east-1",
        scheme="http",
        endpoint_override=host,
    )
    infos = fs.get_file_info(pafs.FileSelector(f"{bucket}/{prefix}", recursive=False))
    paths = sorted(i.path for i in infos if i.path.endswith(".parquet"))
    times = []
    for rep in range(reps + 1):
        t = time.perf_counter()
        served = epoch(fs, paths, batch, window, rep)
        if rep:
            times.append(time.perf_counter() - t)
    times.sort()
    print(f"pyarrow_s3_samples_per_s={served / times[len(times) // 2]:.0f}")


if __name__ == "__main__":
    main()
