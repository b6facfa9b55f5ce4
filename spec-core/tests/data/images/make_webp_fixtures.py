"""WebP fixtures, written by Pillow (with its bundled libwebp): `webp/kitten_lossless.webp`
and `webp/kitten_lossy.webp` from Pillow's RGB decode of `folder/cat/kitten.jpg`, and Pillow's
decode of each as `decoded/kitten_lossless.webp.npy`, `decoded/kitten_lossy.webp.npy` (uint8,
H × W × 3): the lossless one equals the source pixels, the lossy one is libwebp's decode.

Run with the fixtures' venv (see make_image_fixtures.py):
    target/tools/images/bin/python spec-core/tests/data/images/make_webp_fixtures.py
"""
import os

import numpy as np
from PIL import Image, features

HERE = os.path.dirname(os.path.abspath(__file__))
os.makedirs(os.path.join(HERE, "webp"), exist_ok=True)
rgb = np.load(os.path.join(HERE, "decoded", "cat__kitten.jpg.npy"))
image = Image.fromarray(rgb, "RGB")
for name, options in [("kitten_lossless", {"lossless": True}), ("kitten_lossy", {"quality": 80, "method": 4})]:
    path = os.path.join(HERE, "webp", f"{name}.webp")
    image.save(path, "WEBP", **options)
    decoded = np.asarray(Image.open(path).convert("RGB"))
    np.save(os.path.join(HERE, "decoded", f"{name}.webp.npy"), decoded)
    print(name, os.path.getsize(path), "bytes; libwebp", features.version("webp"))
