"""Writes the Parquet fixtures of batchspec's Parquet reader tests with pyarrow itself.

Run from this directory: `pip install pyarrow numpy && python3 make_fixtures.py`. The files are
committed, so `cargo test` needs no Python. Values are small integers or exact binary fractions,
so every test can state them; each file's row groups are smaller than the file, so the reader
crosses row-group boundaries.
"""

import os
import shutil

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

N = 10  # rows
# Sample i is a 2x2 grey image (or a vector of 4) with values 4i, 4i+1, 4i+2, 4i+3 (+ 0.5).
images = np.arange(N * 4, dtype=np.float32).reshape(N, 2, 2) + 0.5
labels = np.arange(N, dtype=np.int64) % 3


def write(name, table, **kw):
    pq.write_table(table, name, row_group_size=3, **kw)


# Arrow's canonical tensor: fixed_shape_tensor over FixedSizeList<float32>[4], shape [2, 2]
# with dim_names H, W; snappy (pyarrow's default codec).
tensor = pa.fixed_shape_tensor(pa.float32(), [2, 2], dim_names=["H", "W"])
x = pa.ExtensionArray.from_storage(
    tensor, pa.FixedSizeListArray.from_arrays(pa.array(images.reshape(-1)), 4)
)
write("tensor.parquet", pa.table({"features": x, "targets": pa.array(labels)}))

# A plain FixedSizeList<float64>[4] (no extension), int32 labels, uncompressed.
write(
    "fixed_size_list.parquet",
    pa.table(
        {
            "features": pa.FixedSizeListArray.from_arrays(
                pa.array(images.reshape(-1).astype(np.float64)), 4
            ),
            "targets": pa.array(labels.astype(np.int32)),
        }
    ),
    compression="none",
)

# Ray Data's storage of tensors (`ray.data.arrow_tensor_v2`): a LargeList<float32> whose rows
# all have the tensor's length, and u8 labels.
write(
    "large_list.parquet",
    pa.table(
        {
            "features": pa.array(
                [list(map(float, r)) for r in images.reshape(N, 4)],
                type=pa.large_list(pa.float32()),
            ),
            "targets": pa.array(labels.astype(np.uint8)),
        }
    ),
)

# A directory laid out as Spark writes one: part files ordered by name, with _SUCCESS and .crc
# files beside them (written here by pyarrow; the reader must skip the others).
shutil.rmtree("spark_dir", ignore_errors=True)
os.makedirs("spark_dir")
for part, rows in enumerate([range(0, 4), range(4, 7), range(7, 10)]):
    rows = list(rows)
    t = pa.table(
        {
            "features": pa.FixedSizeListArray.from_arrays(
                pa.array(images[rows].reshape(-1)), 4
            ),
            "targets": pa.array(labels[rows]),
        }
    )
    pq.write_table(t, f"spark_dir/part-{part:05d}-0d1e.c000.snappy.parquet", row_group_size=2)
    open(f"spark_dir/.part-{part:05d}-0d1e.c000.snappy.parquet.crc", "wb").write(b"crc")
open("spark_dir/_SUCCESS", "wb").close()

# Mistakes, one per file.
bad_labels = labels.copy()
bad_labels[7] = -1
write("label_minus_one.parquet", pa.table({"features": x, "targets": pa.array(bad_labels)}))
nulls = pa.array([int(v) if i != 5 else None for i, v in enumerate(labels)], type=pa.int64())
write("null_label.parquet", pa.table({"features": x, "targets": nulls}))
ragged = [list(map(float, r)) for r in images.reshape(N, 4)]
ragged[4] = ragged[4][:3]
write(
    "ragged.parquet",
    pa.table({"features": pa.array(ragged, type=pa.list_(pa.float32())), "targets": pa.array(labels)}),
)
write("strings.parquet", pa.table({"features": x, "targets": pa.array([str(v) for v in labels])}))

# A tensor stored channels first (C, H, W): fills a `bchw` image, and is refused for `bhwc`.
chw = np.arange(N * 8, dtype=np.float32).reshape(N, 2, 2, 2)
chw_type = pa.fixed_shape_tensor(pa.float32(), [2, 2, 2], dim_names=["C", "H", "W"])
write(
    "tensor_chw.parquet",
    pa.table(
        {
            "features": pa.ExtensionArray.from_storage(
                chw_type, pa.FixedSizeListArray.from_arrays(pa.array(chw.reshape(-1)), 8)
            )
        }
    ),
)

# zstd, Polars' default codec: read only with the `parquet-zstd` feature.
write("zstd.parquet", pa.table({"features": x, "targets": pa.array(labels)}), compression="zstd")

# Row groups of uneven sizes (33 rows in 9 groups), for sharding: `id` is the row number.
sizes = [5, 3, 7, 1, 4, 3, 2, 6, 2]
schema = pa.schema([("id", pa.int64())])
with pq.ParquetWriter("uneven.parquet", schema) as writer:
    start = 0
    for size in sizes:
        writer.write_table(pa.table({"id": pa.array(range(start, start + size), type=pa.int64())}))
        start += size

# Nested lists (as Hugging Face stores ArrayXD) with one inner list short, in row 6.
nested = [[[float(4 * i + 2 * h + w) + 0.5 for w in range(2)] for h in range(2)] for i in range(N)]
nested[6][1] = nested[6][1][:1]
write(
    "ragged_nested.parquet",
    pa.table({"features": pa.array(nested, type=pa.list_(pa.list_(pa.float32())))}),
)
