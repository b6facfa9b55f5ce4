"""Writes Parquet files the way Hugging Face `datasets` writes them, for batchspec's Parquet
reader tests: `pip install datasets pillow`, then run from this directory
`python3 make_hf_fixtures.py`. The files are committed, so `cargo test` needs no Python.

- `hf_array3d.parquet`: an `Array3D(shape=(2, 2, 1), dtype="float32")` column (stored as
  nested lists) and a `ClassLabel` column; sample i holds 4i + p + 0.5 (p in row-major order),
  label i % 3, as the pyarrow fixtures do.
- `hf_image.parquet`: an `Image()` column (a struct of encoded PNG bytes and a path): grey 2×2
  images, image i all of value i; decoded with the `parquet-image` feature, refused in words
  (naming the feature) without it.
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

# Decoded by the reader with the `parquet-image` feature:
# - `hf_image_jpeg.parquet`: RGB images 4×4 of one colour each, stored as JPEG (the bytes of a
#   JPEG file opened with PIL keep their format); image i is (40i, 80, 200 - 40i).
# - `hf_image_sizes.parquet`: grey PNG images, 2×2 but row 1 which is 3×2 (width 3): refused at
#   row 1 for a 2×2 space.
import io

def jpeg(colour):
    out = io.BytesIO()
    Pil.new("RGB", (4, 4), colour).save(out, format="JPEG", quality=95)
    return Pil.open(io.BytesIO(out.getvalue()))

jpegs = [jpeg((40 * i, 80, 200 - 40 * i)) for i in range(3)]
Dataset.from_dict({"image": jpegs, "label": [0, 1, 2]}, features=Features(
    {"image": Image(), "label": ClassLabel(num_classes=3)}
)).to_parquet("hf_image_jpeg.parquet")

sizes = [Pil.fromarray(np.full((2, 2), 7, dtype=np.uint8)), Pil.fromarray(np.full((2, 3), 7, dtype=np.uint8))]
Dataset.from_dict({"features": sizes, "targets": [0, 1]}, features=Features(
    {"features": Image(), "targets": ClassLabel(num_classes=3)}
)).to_parquet("hf_image_sizes.parquet")
