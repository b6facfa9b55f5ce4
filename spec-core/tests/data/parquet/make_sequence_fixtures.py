"""Writes the Parquet fixtures of ragged leaves (sequences of different lengths) with pyarrow.

Run from this directory: `pip install pyarrow && python3 make_sequence_fixtures.py` (written
with pyarrow 26.0.1). The files are committed, so `cargo test` needs no Python. Row groups of 3
rows, so the reader crosses row-group boundaries.

sequences.parquet, 7 rows; row i has length L[i] = [3, 0, 1, 4, 2, 5, 1][i]:
  tokens  List<int64>:                      step t of row i is 10 * i + t
  frames  List<FixedSizeList<float32, 2>>:  step t of row i is [i + t / 4, -(i + t / 4)]
  nested  List<List<float64>>:              the same values as frames, inner lists of 2
  wide    LargeList<int32>:                 the same values as tokens
  targets int64:                            i % 3
bad_steps.parquet: `frames` as List<List<float32>> whose row 4 has a step of 3 values.
bad_label.parquet: `tokens` whose row 5 holds the id 99 (the tests' IndexSeq<60> refuses it).
"""

import pyarrow as pa
import pyarrow.parquet as pq

L = [3, 0, 1, 4, 2, 5, 1]
tokens = [[10 * i + t for t in range(n)] for i, n in enumerate(L)]
frames = [[[i + t / 4, -(i + t / 4)] for t in range(n)] for i, n in enumerate(L)]


def write(name, table):
    pq.write_table(table, name, row_group_size=3)


write(
    "sequences.parquet",
    pa.table(
        {
            "tokens": pa.array(tokens, type=pa.list_(pa.int64())),
            "frames": pa.array(frames, type=pa.list_(pa.list_(pa.float32(), 2))),
            "nested": pa.array(frames, type=pa.list_(pa.list_(pa.float64()))),
            "wide": pa.array(tokens, type=pa.large_list(pa.int32())),
            "targets": pa.array([i % 3 for i in range(len(L))], type=pa.int64()),
        }
    ),
)

bad = [list(map(list, r)) for r in frames]
bad[4][1] = bad[4][1] + [9.0]
write("bad_steps.parquet", pa.table({"frames": pa.array(bad, type=pa.list_(pa.list_(pa.float32())))}))

bad_tokens = [list(r) for r in tokens]
bad_tokens[5][2] = 99
write("bad_label.parquet", pa.table({"tokens": pa.array(bad_tokens, type=pa.list_(pa.int64()))}))
