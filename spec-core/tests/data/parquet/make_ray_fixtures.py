"""Writes `ray/`, Parquet written by Ray Data itself, for batchspec's Parquet reader tests:
`pip install "ray[data]"`, then run from this directory `python3 make_ray_fixtures.py`. The files
are committed, so `cargo test` needs no Python.

Ray stores a tensor column as its `ray.data.arrow_tensor_v2` extension type over a LargeList
(the default): here sample i is a 2x2 float32 tensor of 4i + p + 0.5, and `targets` is i % 3.
"""

import shutil

import numpy as np
import ray

ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
images = np.arange(40, dtype=np.float32).reshape(10, 2, 2) + 0.5
ds = ray.data.from_items(
    [{"features": images[i], "targets": i % 3} for i in range(10)]
).repartition(1)
shutil.rmtree("ray", ignore_errors=True)
ds.write_parquet("ray")
ray.shutdown()
