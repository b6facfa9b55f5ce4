"""OpenCV's references for MXNet's ImageRecordIter augmentations, which MXNet runs with OpenCV:
the 8-bit HLS shift (`random_h/s/l`, `ImageSteps::random_hsl`) and the affine warp
(`max_rotate_angle`, `max_shear_ratio`, `max_aspect_ratio`, `min/max_random_scale`,
`min/max_img_size`, `fill_value`; `ImageSteps::random_rotate` and the others).

MXNet's ImageRecordIter shifts each pixel in OpenCV's 8-bit HLS space (hue 0..180, lightness and
saturation 0..255), clamps each channel there and converts back (`image_aug_default.cc`). This
writes, for Pillow's RGB decode of `folder/cat/c01.jpg` (`decoded/cat__c01.jpg.npy`), the
image after each shift of `SHIFTS` (in OpenCV's order: hue, lightness, saturation) with
`cv2.cvtColor(.., COLOR_RGB2HLS)` and `COLOR_HLS2RGB`, as `decoded/hls_shifts.npy` (uint8,
shifts × H × W × 3) and the shifts in `hls_shifts.json`.

The warp: for Pillow's RGB decode of `folder/cat/kitten.jpg`, MXNet's matrix
(`image_aug_default.cc`: hs = 2·scale/(1+ratio), ws = ratio·hs, the rotation and shear, centred in
the new size scale·side clamped to img_size) for each parameter set of `WARPS`, applied with
`cv2.warpAffine(.., INTER_LINEAR, BORDER_CONSTANT, fill)`, as `decoded/warp_<k>.npy`, the
parameters in `warps.json`.

Run with the fixtures' venv (see make_image_fixtures.py; opencv-python-headless 4.10.0.84):
    target/tools/images/bin/python spec-core/tests/data/images/make_opencv_fixtures.py
"""
import json
import os

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SHIFTS = [(0, 0, 0), (10, -20, 30), (-15, 25, -40), (90, 0, 0), (-7, 3, 60)]

rgb = np.load(os.path.join(HERE, "decoded", "cat__c01.jpg.npy"))
hls = cv2.cvtColor(rgb, cv2.COLOR_RGB2HLS).astype(np.int32)
limits = np.array([180, 255, 255])
out = []
for shift in SHIFTS:
    shifted = np.clip(hls + np.array(shift), 0, limits).astype(np.uint8)
    out.append(cv2.cvtColor(shifted, cv2.COLOR_HLS2RGB))
np.save(os.path.join(HERE, "decoded", "hls_shifts.npy"), np.stack(out))
with open(os.path.join(HERE, "hls_shifts.json"), "w") as f:
    json.dump(
        {
            "writer": f"opencv-python-headless {cv2.__version__}, numpy {np.__version__}",
            "image": "decoded/cat__c01.jpg.npy",
            "order": "hue, lightness, saturation (OpenCV's HLS)",
            "shifts": SHIFTS,
        },
        f,
        indent=1,
    )
print("wrote", len(SHIFTS), "shifts of", rgb.shape)

# The affine warp, as image_aug_default.cc builds its matrix.
WARPS = [
    # shear, angle (degrees), scale, ratio, min_img_size, max_img_size, fill
    (0.0, 0.0, 1.0, 1.0, 0.0, 1e10, 0),
    (0.0, 17.0, 1.0, 1.0, 0.0, 1e10, 128),
    (0.15, -25.0, 0.8, 1.2, 0.0, 1e10, 255),
    (-0.1, 40.0, 1.3, 0.85, 20.0, 60.0, 7),
]
kitten = np.load(os.path.join(HERE, "decoded", "cat__kitten.jpg.npy"))
rows, cols = kitten.shape[:2]
for k, (s, angle, scale, ratio, lo, hi, fill) in enumerate(WARPS):
    a, b = np.cos(angle / 180.0 * np.pi), np.sin(angle / 180.0 * np.pi)
    hs = 2 * scale / (1 + ratio)
    ws = ratio * hs
    new_w = int(max(lo, min(hi, scale * cols)))
    new_h = int(max(lo, min(hi, scale * rows)))
    m = np.zeros((2, 3), np.float32)
    m[0, 0] = hs * a - s * b * ws
    m[1, 0] = -b * ws
    m[0, 1] = hs * b + s * a * ws
    m[1, 1] = a * ws
    m[0, 2] = (new_w - (m[0, 0] * cols + m[0, 1] * rows)) / 2
    m[1, 2] = (new_h - (m[1, 0] * cols + m[1, 1] * rows)) / 2
    warped = cv2.warpAffine(kitten, m, (new_w, new_h), flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_CONSTANT, borderValue=(fill, fill, fill))
    np.save(os.path.join(HERE, "decoded", f"warp_{k}.npy"), warped)
with open(os.path.join(HERE, "warps.json"), "w") as f:
    json.dump(
        {
            "writer": f"opencv-python-headless {cv2.__version__} (warpAffine, INTER_LINEAR, BORDER_CONSTANT)",
            "image": "decoded/cat__kitten.jpg.npy",
            "order": "shear, angle_degrees, scale, ratio, min_img_size, max_img_size, fill",
            "warps": WARPS,
        },
        f,
        indent=1,
    )
print("wrote", len(WARPS), "warps of", kitten.shape)
