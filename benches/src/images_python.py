"""The image benchmark's Python baselines: JPEG files decoded, randomly resized-cropped to
224×224, randomly flipped and normalized into float32 batches (B, 3, 224, 224), as `images.rs`
does in Rust, in the same run. Three pipelines:

* `pillow`: Pillow + NumPy in one process (torchvision's `RandomResizedCrop` re-implemented,
  since torchvision cannot be installed without torch);
* `pool`: the same per-image work in a `multiprocessing.Pool(W)` that sends back uint8 HWC
  crops, the parent stacking, converting and normalizing them (the usual DataLoader-like
  pattern);
* `dali`: NVIDIA DALI's CPU pipeline with W threads, if `nvidia.dali` is importable.

The venv it runs in (`images.rs` makes it at target/tools/images-bench):

    python3 -m venv target/tools/images-bench
    target/tools/images-bench/bin/pip install pillow numpy
    target/tools/images-bench/bin/pip install nvidia-dali-cuda120     # optional, ~1 GB installed

Usage:

    python images_python.py --requirements [core|optional|all]
        The pip requirements, one per line: the core ones, then the optional ones (all by
        default). Works from a bare python3, before the venv exists.
    python images_python.py make DIR N SEED
        Writes N JPEG files DIR/img00000.jpg, ... (quality 90, RGB), each a random crop of one of
        scikit-learn's two bundled photos (china.jpg, flower.jpg, 640×427); the same files for
        the same SEED (and the same Pillow). The photos are taken from an installed
        scikit-learn, else read out of its wheel (`pip download scikit-learn --no-deps`), and
        kept in DIR/../photos for the next time. Prints one JSON line.
    python images_python.py run DIR [--batch 32] [--size 224] [--epochs E] [--workers W]
                            [--pipeline pillow|pool|dali]
        Runs the pipeline over every file of DIR (sorted) in batches (the last one may be
        short) for E epochs after one warm-up batch, and prints one JSON line: pipeline,
        workers, images (over the timed epochs), seconds, images_per_s, checksum (the sum of the
        first batch of the first timed epoch), warmup_seconds (the warm-up batch, not counted).

Per image, in `pillow` and `pool`: decode to RGB; torchvision's `RandomResizedCrop.get_params`
(scale (0.08, 1), ratio (3/4, 4/3)) drawn from a NumPy generator seeded with (epoch, index);
crop and resize to SIZE×SIZE with Pillow's bilinear filter in one call (`resize(box=...)`);
a horizontal flip with probability 0.5 (from the same generator); then float32, /255, ImageNet
mean and std, HWC → CHW (per image into the batch in `pillow`, per batch in `pool`'s parent). The two pipelines give the same batches, so the same
checksum. DALI draws its own random numbers, so its checksum differs.
"""

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile

try:
    import numpy as np
    from PIL import Image
except ImportError:  # `--requirements` must work before the venv exists
    np = Image = None

CORE_REQUIREMENTS = ["pillow", "numpy"]
OPTIONAL_REQUIREMENTS = ["nvidia-dali-cuda120"]

PHOTOS = ["china.jpg", "flower.jpg"]
MEAN = (0.485, 0.456, 0.406)
STD = (0.229, 0.224, 0.225)
SCALE = (0.08, 1.0)
RATIO = (3.0 / 4.0, 4.0 / 3.0)


# ---------------------------------------------------------------------------------------------
# make: the benchmark's JPEG files


def find_photos(cache):
    """The paths of the two photos in `cache`, copied there first from scikit-learn."""
    if all(os.path.isfile(os.path.join(cache, p)) for p in PHOTOS):
        return "cache"
    os.makedirs(cache, exist_ok=True)
    # An installed scikit-learn, found without importing it (an import takes seconds).
    import importlib.util

    spec = importlib.util.find_spec("sklearn")
    if spec is not None and spec.submodule_search_locations:
        images = os.path.join(list(spec.submodule_search_locations)[0], "datasets", "images")
        if all(os.path.isfile(os.path.join(images, p)) for p in PHOTOS):
            for p in PHOTOS:
                shutil.copyfile(os.path.join(images, p), os.path.join(cache, p))
            return "sklearn"
    # Else scikit-learn's wheel, downloaded (not installed) and read as the zip it is.
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "scikit-learn", "--no-deps",
             "--only-binary", ":all:", "-d", tmp, "-q"],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        wheel = next(os.path.join(tmp, f) for f in os.listdir(tmp) if f.endswith(".whl"))
        with zipfile.ZipFile(wheel) as z:
            for p in PHOTOS:
                with open(os.path.join(cache, p), "wb") as f:
                    f.write(z.read(f"sklearn/datasets/images/{p}"))
    return "wheel"


def make(out_dir, n, seed):
    out_dir = os.path.abspath(out_dir)
    cache = os.path.join(os.path.dirname(out_dir), "photos")
    source = find_photos(cache)
    photos = [Image.open(os.path.join(cache, p)).convert("RGB") for p in PHOTOS]
    os.makedirs(out_dir, exist_ok=True)
    rng = np.random.default_rng(seed)
    for i in range(n):
        photo = photos[int(rng.integers(len(photos)))]
        width, height = photo.size
        # Each side between 200 pixels and the photo's short side (427), drawn apart, so the
        # aspect ratio varies from about 1:2 to 2:1.
        w = int(rng.integers(200, min(width, height) + 1))
        h = int(rng.integers(200, min(width, height) + 1))
        x = int(rng.integers(0, width - w + 1))
        y = int(rng.integers(0, height - h + 1))
        crop = photo.crop((x, y, x + w, y + h))
        crop.save(os.path.join(out_dir, f"img{i:05d}.jpg"), "JPEG", quality=90)
    print(json.dumps({"dir": out_dir, "images": n, "seed": seed, "photos": source}))


# ---------------------------------------------------------------------------------------------
# The per-image work of `pillow` and `pool`


def random_resized_crop_params(rng, width, height):
    """torchvision's `RandomResizedCrop.get_params`, with a NumPy generator instead of torch's:
    (top, left, h, w)."""
    area = height * width
    log_ratio = (math.log(RATIO[0]), math.log(RATIO[1]))
    for _ in range(10):
        target_area = area * rng.uniform(SCALE[0], SCALE[1])
        aspect_ratio = math.exp(rng.uniform(log_ratio[0], log_ratio[1]))
        w = int(round(math.sqrt(target_area * aspect_ratio)))
        h = int(round(math.sqrt(target_area / aspect_ratio)))
        if 0 < w <= width and 0 < h <= height:
            i = int(rng.integers(0, height - h + 1))
            j = int(rng.integers(0, width - w + 1))
            return i, j, h, w
    # Fallback to the central crop, its ratio clamped to RATIO.
    in_ratio = width / height
    if in_ratio < min(RATIO):
        w = width
        h = int(round(w / min(RATIO)))
    elif in_ratio > max(RATIO):
        h = height
        w = int(round(h * max(RATIO)))
    else:
        w = width
        h = height
    return (height - h) // 2, (width - w) // 2, h, w


def crop_one(job):
    """One image: decoded, resized-cropped, maybe flipped, as uint8 HWC (size, size, 3)."""
    path, epoch, index, size = job
    rng = np.random.default_rng((epoch, index))
    with Image.open(path) as img:
        img = img.convert("RGB")
    top, left, h, w = random_resized_crop_params(rng, img.width, img.height)
    # Crop and resize in one call. torchvision's `resized_crop` crops, then resizes: the same
    # bilinear kernel, except at the crop's edges, where `box` lets the filter read the pixels
    # just outside the crop (a separate crop clamps to its own edge).
    img = img.resize((size, size), Image.Resampling.BILINEAR, box=(left, top, left + w, top + h))
    if rng.random() < 0.5:  # torchvision's RandomHorizontalFlip(0.5)
        img = img.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
    return np.asarray(img)


def normalize(crops, out):
    """uint8 (k, H, W, 3) → float32 (k, 3, H, W) into `out`: /255, then ImageNet mean and std."""
    for c in range(3):
        plane = out[:, c]
        plane[...] = crops[..., c]
        plane /= 255.0
        plane -= MEAN[c]
        plane /= STD[c]


# ---------------------------------------------------------------------------------------------
# The pipelines: each yields the batches of one epoch as float32 (k, 3, size, size) arrays
# (`pillow` and `pool` fill one buffer again for each batch, as a training loop would).


class PillowPipeline:
    """Everything in this process, one image after the other into the batch."""

    def __init__(self, files, batch, size, workers):
        if workers != 1:
            raise SystemExit("the pillow pipeline runs in one process: --workers 1")
        self.files, self.batch, self.size = files, batch, size
        self.out = np.empty((batch, 3, size, size), dtype=np.float32)

    def batches(self, epoch, limit=None):
        starts = range(0, len(self.files), self.batch)
        for start in starts[:limit]:
            names = self.files[start : start + self.batch]
            out = self.out[: len(names)]
            for k, path in enumerate(names):
                normalize(crop_one((path, epoch, start + k, self.size))[None], out[k : k + 1])
            yield out

    def close(self):
        pass


class PoolPipeline:
    """The per-image work in a process pool; the parent stacks and normalizes each batch."""

    def __init__(self, files, batch, size, workers):
        import multiprocessing

        self.files, self.batch, self.size = files, batch, size
        self.pool = multiprocessing.Pool(workers)
        self.out = np.empty((batch, 3, size, size), dtype=np.float32)

    def batches(self, epoch, limit=None):
        starts = range(0, len(self.files), self.batch)
        for start in starts[:limit]:
            names = self.files[start : start + self.batch]
            jobs = [(path, epoch, start + k, self.size) for k, path in enumerate(names)]
            crops = np.stack(self.pool.map(crop_one, jobs))
            out = self.out[: len(names)]
            normalize(crops, out)
            yield out

    def close(self):
        self.pool.close()
        self.pool.join()


class DaliPipeline:
    """DALI on the CPU with W threads: the encoded files fed by an external source (so that an
    epoch ends exactly and its last batch may be short), decoded, random-resized-cropped (the
    same scale and ratio ranges, DALI's own draws), mirrored with probability 0.5 and
    normalized into CHW float32; every output copied into a NumPy array, as the others give."""

    def __init__(self, files, batch, size, workers):
        from nvidia.dali import fn, pipeline_def, types

        self.files, self.batch = files, batch
        self.limit = None

        def source():
            # One epoch. With cycle="raise", `pipe.run()` raises StopIteration after it and
            # `pipe.reset()` calls this again for the next one.
            starts = range(0, len(files), batch)
            for start in starts[: self.limit]:
                yield [np.fromfile(p, dtype=np.uint8) for p in files[start : start + batch]]

        @pipeline_def(batch_size=batch, num_threads=workers, device_id=None, seed=0)
        def pipeline():
            jpegs = fn.external_source(
                source=source, cycle="raise", device="cpu", dtype=types.UINT8
            )
            images = fn.decoders.image(jpegs, device="cpu", output_type=types.RGB)
            images = fn.random_resized_crop(
                images, size=size, random_area=SCALE, random_aspect_ratio=RATIO
            )
            return fn.crop_mirror_normalize(
                images,
                mirror=fn.random.coin_flip(),
                mean=[m * 255 for m in MEAN],
                std=[s * 255 for s in STD],
                output_layout="CHW",
                dtype=types.FLOAT,
            )

        self.pipe = pipeline()
        self.pipe.build()

    def batches(self, epoch, limit=None):
        # The source is read again from its start after a reset; `limit` cuts the epoch short
        # (the warm-up batch). The pipeline prefetches, so a cut epoch is drained before reset.
        self.limit = limit
        while True:
            try:
                (out,) = self.pipe.run()
            except StopIteration:
                break
            yield out.as_array()
        self.pipe.reset()

    def close(self):
        del self.pipe


PIPELINES = {"pillow": PillowPipeline, "pool": PoolPipeline, "dali": DaliPipeline}


def run(args):
    files = sorted(
        os.path.join(args.dir, f)
        for f in os.listdir(args.dir)
        if os.path.isfile(os.path.join(args.dir, f))
    )
    if args.pipeline == "dali":
        try:
            import nvidia.dali  # noqa: F401
        except Exception as e:  # not installed, or its libraries do not load
            print(json.dumps({"pipeline": "dali", "skipped": f"nvidia.dali: {e}"}))
            return
    # Start-up (the pool's processes, DALI's build) is not timed, nor is the warm-up batch.
    pipeline = PIPELINES[args.pipeline](files, args.batch, args.size, args.workers)
    try:
        t = time.perf_counter()
        for _ in pipeline.batches(0, limit=1):
            pass
        warmup = time.perf_counter() - t

        images, checksum = 0, None
        t = time.perf_counter()
        for epoch in range(args.epochs):
            for out in pipeline.batches(epoch):
                assert out.dtype == np.float32 and out.shape[1:] == (3, args.size, args.size)
                if checksum is None:
                    checksum = float(out.sum(dtype=np.float64))
                images += len(out)
        seconds = time.perf_counter() - t
    finally:
        pipeline.close()
    print(
        json.dumps(
            {
                "pipeline": args.pipeline,
                "workers": args.workers,
                "images": images,
                "seconds": round(seconds, 4),
                "images_per_s": round(images / seconds, 1),
                "checksum": checksum,
                "warmup_seconds": round(warmup, 4),
            }
        )
    )


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "--requirements":
        which = sys.argv[2] if len(sys.argv) > 2 else "all"
        lines = {
            "core": CORE_REQUIREMENTS,
            "optional": OPTIONAL_REQUIREMENTS,
            "all": CORE_REQUIREMENTS + OPTIONAL_REQUIREMENTS,
        }[which]
        print("\n".join(lines))
        return
    if np is None:
        raise SystemExit("needs pillow and numpy: pip install pillow numpy")

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("make", help="write the benchmark's JPEG files")
    p.add_argument("dir")
    p.add_argument("n", type=int)
    p.add_argument("seed", type=int)
    p = sub.add_parser("run", help="time a pipeline over the files of DIR")
    p.add_argument("dir")
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--size", type=int, default=224)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--pipeline", choices=sorted(PIPELINES), default="pillow")
    args = parser.parse_args()
    if args.command == "make":
        make(args.dir, args.n, args.seed)
    else:
        run(args)


if __name__ == "__main__":
    main()
