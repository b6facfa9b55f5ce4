"""Writes `non_finite.parquet` for the tests of the readers' NaN and infinity policy, with pyarrow.

Run from this directory: `pip install pyarrow numpy && python3 make_non_finite_fixtures.py`. The
file is committed, so `cargo test` needs no Python. Six rows in row groups of 4, so the second
group starts at row 4:
- `x`: FixedSizeList<float32>[4], row i holds 4i..4i+3, but row 4 holds NaN at its third value;
- `seq`: List<float64>, row i holds i + 1 values i, i + 0.5, ...; row 5 ends with -inf;
- `y`: int64 labels i % 3.
"""

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

N = 6
x = np.arange(N * 4, dtype=np.float32).reshape(N, 4)
x[4, 2] = np.nan
seq = [[i + 0.5 * k for k in range(i + 1)] for i in range(N)]
seq[5][-1] = -np.inf
table = pa.table(
    {
        "x": pa.FixedSizeListArray.from_arrays(pa.array(x.reshape(-1)), 4),
        "seq": pa.array(seq, type=pa.list_(pa.float64())),
        "y": pa.array(np.arange(N, dtype=np.int64) % 3),
    }
)
pq.write_table(table, "non_finite.parquet", row_group_size=4)
