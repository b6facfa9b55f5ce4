"""Writes Parquet files the way Hugging Face `datasets` writes them, for batchspec's Parquet
reader tests: `pip install datasets pillow`, then run from this directory
`python3 make_hf_fixtures.py`. The files are committed, so `cargo test` needs no Python.

- `hf_array3d.parquet`: an `Array3D(shape=(2, 2, 1), dtype="float32")` column (stored as
  nested lists) and a `ClassLabel` column; sample i holds 4i + p + 0.5 (p in row-major order),
  label i % 3, as the pyarrow fixtures do.
- `hf_image.parquet`: an `Image()` column (a struct of encoded PNG bytes and a path), which the
  reader does not decode yet and must refuse in words.
"""

import numpy as np
from datasets import Array3D, ClassLabel, Dataset, Features, Image
from PIL import Image as Pil

images = np.arange(40, dtype=np.float32).reshape(10, 2, 2, 1) + 0.5
ds = Dataset.from_dict(
    {"features": images.tolist(), "targets": [i % 3 for i in range(10)]},
    features=Features(
        {"features": Array3D(shape=(2, 2, 1), dtype="float32"), "targets": ClassLabel(num_classes=3)}
    ),
)
ds.to_parquet("hf_array3d.parquet")

pngs = [Pil.fromarray(np.full((2, 2), i, dtype=np.uint8)) for i in range(3)]
Dataset.from_dict({"features": pngs, "targets": [0, 1, 2]}, features=Features(
    {"features": Image(), "targets": ClassLabel(num_classes=3)}
)).to_parquet("hf_image.parquet")
