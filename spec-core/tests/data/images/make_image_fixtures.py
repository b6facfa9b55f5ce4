"""Writes batchspec's image-source test fixtures with the real Python tools (Pillow, webdataset,
MXNet's im2rec.py and mxnet.recordio). The files are committed, so `cargo test` needs no Python.

How to run (from the repository root):

    python3 -m venv target/tools/images
    target/tools/images/bin/pip install mxnet==1.9.1 'numpy<1.24' pillow \
        'opencv-python-headless==4.10.0.84' webdataset==1.0.2 scikit-learn
    target/tools/images/bin/python spec-core/tests/data/images/make_image_fixtures.py

Versions the committed files were written with: mxnet 1.9.1, numpy 1.23.5, pillow 13.0.0
(libjpeg-turbo 3.2.0, zlib 1.2.13), opencv-python-headless 4.10.0.84, webdataset 1.0.2,
scikit-learn 1.7.2 (only for its two bundled photos). mxnet 1.9.1 still uses `np.bool`, hence
numpy<1.24; im2rec.py imports cv2, hence opencv. The script is deterministic (fixed seeds, fixed
tar mtime) and re-runnable: it deletes and rewrites everything it writes, and a second run gives
byte-identical files.

What it writes, next to itself:

- `folder/`: an ImageFolder tree (torchvision semantics), classes bird, cat, dog; 15 small images
  cut from scikit-learn's china.jpg and flower.jpg (CC-BY 2.0), 20..64 px a side, mostly JPEG
  (Pillow, quality 90, 4:2:0), plus a grey (L) PNG, an RGBA PNG, an RGB PNG, an upper-case `.JPG`,
  a `.jpeg`, an image in a nested folder (`cat/indoor/`), and `dog/notes.txt` (not an image).
- `folder.json`: the listing torchvision's ImageFolder makes of it (classes, then per image in
  ImageFolder order: class index, size, mode, format, ...), and which files in `decoded/` hold
  what.
- `decoded/`: Pillow's decode of every image converted to RGB (`<path with / as __>.npy`, uint8
  HxWx3), the grey PNG also as its 1-channel decode (`..._L.npy`, uint8 HxW), and for two JPEGs
  Pillow's `resize((16, 16), Image.BILINEAR)` of the RGB image (`..._resized16.npy`).
- `wds/`: WebDataset shards written by webdataset's TarWriter: shard-000000..2.tar (6, 5, 4
  samples of the folder images, in ImageFolder order), dotted.tar (keys with a directory part
  and dots) and dotted_key.tar (a dot in the writer's key, which moves the cut between key and
  extension); `wds.json` lists each shard's samples as webdataset reads them back.
- `rec/`: MXNet RecordIO: folder.lst/.rec/.idx by im2rec.py (`--list --recursive --no-shuffle`,
  then `--pass-through`), multi.rec/.idx (mxnet.recordio.pack with 3 float labels, flag 3),
  split.rec/.idx (payloads holding the RecordIO magic at 4-aligned offsets, so the writer splits
  them into cflag 1/2/3 parts); `rec.json` lists each file's records and their physical parts.
"""

import hashlib
import io
import json
import os
import random
import shutil
import struct
import subprocess
import sys
import tarfile

import numpy as np
from PIL import Image, JpegImagePlugin, features

import mxnet as mx
import sklearn.datasets
import webdataset as wds

HERE = os.path.dirname(os.path.abspath(__file__))
FOLDER = os.path.join(HERE, "folder")
DECODED = os.path.join(HERE, "decoded")
WDS = os.path.join(HERE, "wds")
REC = os.path.join(HERE, "rec")
OUTPUTS = [FOLDER, DECODED, WDS, REC] + [
    os.path.join(HERE, f) for f in ("folder.json", "wds.json", "rec.json")
]

PHOTOS = os.path.join(os.path.dirname(sklearn.datasets.__file__), "images")
IM2REC = os.path.join(os.path.dirname(mx.__file__), "tools", "im2rec.py")

MAGIC = 0xCED7230A
MAGIC_BYTES = struct.pack("<I", MAGIC)  # 0A 23 D7 CE
WDS_MTIME = 1700000000.25  # fixed, and not an integer: every tar member gets a PAX header
SEED = 20240611

# torchvision.datasets.folder.IMG_EXTENSIONS, matched case-insensitively.
IMG_EXTENSIONS = (".jpg", ".jpeg", ".png", ".ppm", ".bmp", ".pgm", ".tif", ".tiff", ".webp")

# The images: path under folder/, (width, height), kind. kind: jpeg | L | RGBA | RGB (PNGs).
IMAGES = [
    ("bird/b01.jpg", (48, 32), "jpeg"),
    ("bird/b02.jpg", (24, 40), "jpeg"),
    ("bird/b03.jpeg", (64, 64), "jpeg"),
    ("bird/b04_grey.png", (33, 21), "L"),
    ("bird/b05.jpg", (20, 20), "jpeg"),
    ("cat/c01.jpg", (56, 44), "jpeg"),
    ("cat/c02.jpg", (37, 29), "jpeg"),
    ("cat/c03_rgba.png", (30, 30), "RGBA"),
    # "kitten" sorts after "indoor": ImageFolder still lists it before cat/indoor/c04.jpg
    # (files of cat/ first, then those of cat/indoor/), unlike a sort of whole paths.
    ("cat/kitten.jpg", (45, 63), "jpeg"),
    ("cat/indoor/c04.jpg", (40, 24), "jpeg"),
    # Upper-case name and extension: sorts before lower-case names (code-point order).
    ("dog/Puppy.JPG", (50, 36), "jpeg"),
    ("dog/d01.jpg", (64, 48), "jpeg"),
    ("dog/d02.jpg", (28, 52), "jpeg"),
    ("dog/d03_rgb.png", (26, 34), "RGB"),
    ("dog/d04.jpg", (60, 22), "jpeg"),
]
NOT_IMAGES = {"dog/notes.txt": "Notes about the dog pictures; not an image, ImageFolder skips it.\n"}
RESIZED16 = ["bird/b01.jpg", "cat/kitten.jpg"]
SHARD_SIZES = [6, 5, 4]
# Where the crops are cut (left, top, right, bottom): the pagoda and trees of china.jpg, the
# dahlia of flower.jpg (not the flat sky or the blurred background). A box of scale * the image's
# size is cut at a random place inside the region and, when scale > 1, shrunk with LANCZOS.
REGIONS = {"china.jpg": (40, 30, 400, 420), "flower.jpg": (165, 85, 450, 360)}


def sha256(b):
    return hashlib.sha256(b).hexdigest()


def write_json(name, obj):
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(obj, f, indent=1)
        f.write("\n")


def npy_name(path, suffix=""):
    return path.replace("/", "__") + suffix + ".npy"


def f32(x):
    """A float as stored in f32, back as the Python float it is, plus its bits in hex."""
    b = struct.pack("<f", x)
    return struct.unpack("<f", b)[0], "0x%08x" % struct.unpack("<I", b)[0]


# ---------------------------------------------------------------------------------------------
# folder/ and folder.json


def make_folder():
    rng = random.Random(SEED)
    photos = {
        n: Image.open(os.path.join(PHOTOS, n)).convert("RGB") for n in ("china.jpg", "flower.jpg")
    }
    for p in photos.values():
        assert p.size == (640, 427), p.size
        # The photos carry an sRGB ICC profile (and flower.jpg Photoshop data), which Pillow's
        # PNG writer would copy into every PNG, even the grey one. The fixtures carry none.
        p.info = {}
    sources = {}
    for i, (path, (w, h), kind) in enumerate(IMAGES):
        photo = "china.jpg" if i % 2 == 0 else "flower.jpg"
        rx0, ry0, rx1, ry1 = REGIONS[photo]
        scale = rng.choice([s for s in (1, 2, 3, 4) if w * s <= rx1 - rx0 and h * s <= ry1 - ry0])
        bw, bh = w * scale, h * scale
        x0 = rng.randrange(rx0, rx1 - bw + 1)
        y0 = rng.randrange(ry0, ry1 - bh + 1)
        box = (x0, y0, x0 + bw, y0 + bh)
        im = photos[photo].crop(box)
        if scale != 1:
            im = im.resize((w, h), Image.LANCZOS)
        full = os.path.join(FOLDER, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        if kind == "jpeg":
            im.save(full, format="JPEG", quality=90)
        elif kind == "L":
            im.convert("L").save(full, format="PNG")
        elif kind == "RGBA":
            yy, xx = np.mgrid[0:h, 0:w]
            r = np.hypot((xx - (w - 1) / 2) / (w / 2), (yy - (h - 1) / 2) / (h / 2))
            alpha = np.clip(255 * (1.2 - r), 0, 255).astype(np.uint8)  # opaque centre, clear corners
            im = im.convert("RGBA")
            im.putalpha(Image.fromarray(alpha, "L"))
            im.save(full, format="PNG")
        elif kind == "RGB":
            im.save(full, format="PNG")
        else:
            raise AssertionError(kind)
        sources[path] = {"photo": photo, "box": list(box), "scale": scale}
    for path, text in NOT_IMAGES.items():
        with open(os.path.join(FOLDER, path), "w") as f:
            f.write(text)
    return sources


def torchvision_listing(root):
    """torchvision.datasets.ImageFolder's find_classes + make_dataset, restated."""
    classes = sorted(e.name for e in os.scandir(root) if e.is_dir())
    samples = []
    for ci, c in enumerate(classes):
        for dirpath, _, fnames in sorted(os.walk(os.path.join(root, c), followlinks=True)):
            for fname in sorted(fnames):
                if fname.lower().endswith(IMG_EXTENSIONS):
                    samples.append((os.path.relpath(os.path.join(dirpath, fname), root), ci))
    return classes, samples


def make_folder_json(sources):
    classes, samples = torchvision_listing(FOLDER)
    assert classes == ["bird", "cat", "dog"]
    assert sorted(p for p, _ in samples) == sorted(p for p, _, _ in IMAGES)
    os.makedirs(DECODED)
    entries = []
    for path, ci in samples:
        full = os.path.join(FOLDER, path)
        data = open(full, "rb").read()
        im = Image.open(full)
        im.load()
        assert "icc_profile" not in im.info and "exif" not in im.info, (path, im.info.keys())
        e = {
            "path": path,
            "class_index": ci,
            "class": classes[ci],
            "width": im.width,
            "height": im.height,
            "mode": im.mode,
            "format": im.format,
            "bytes": len(data),
            "sha256": sha256(data),
        }
        if im.format == "JPEG":
            sampling = JpegImagePlugin.get_sampling(im)
            e["jpeg_subsampling"] = {0: "4:4:4", 1: "4:2:2", 2: "4:2:0"}[sampling]
        rgb = im.convert("RGB")
        arr = np.asarray(rgb, dtype=np.uint8)
        assert arr.shape == (im.height, im.width, 3)
        e["decoded_rgb"] = "decoded/" + npy_name(path)
        np.save(os.path.join(HERE, e["decoded_rgb"]), arr)
        if im.mode == "L":
            e["decoded_l"] = "decoded/" + npy_name(path, "_L")
            grey = np.asarray(im, dtype=np.uint8)
            assert grey.shape == (im.height, im.width)
            np.save(os.path.join(HERE, e["decoded_l"]), grey)
        if path in RESIZED16:
            e["resized16"] = "decoded/" + npy_name(path, "_resized16")
            small = np.asarray(rgb.resize((16, 16), Image.BILINEAR), dtype=np.uint8)
            assert small.shape == (16, 16, 3)
            np.save(os.path.join(HERE, e["resized16"]), small)
        e["source"] = sources[path]
        entries.append(e)
    write_json(
        "folder.json",
        {
            "root": "folder",
            "writer": "Pillow %s (JPEG quality 90 via libjpeg-turbo %s; PNG via zlib %s)"
            % (Image.__version__, features.version("libjpeg_turbo"), features.version("zlib")),
            "convention": "torchvision.datasets.ImageFolder: classes = sorted names of the "
            "immediate sub-directories of root, class_index = position in that list; samples = "
            "class by class, each class directory walked recursively, directories in sorted order "
            "of their path (so a class's own files come before those of its sub-folders), files "
            "sorted by name within a directory (Python str order = code points: upper case before "
            "lower case); a file is an image when its lower-cased name ends with one of "
            "extensions. Nested sub-folders do not make classes.",
            "extensions": list(IMG_EXTENSIONS),
            "classes": classes,
            "class_to_idx": {c: i for i, c in enumerate(classes)},
            "ignored": sorted(NOT_IMAGES),
            "decoded_note": "decoded_rgb: Pillow's Image.open(path).convert('RGB') as a uint8 "
            "HxWx3 .npy (what torchvision's default loader returns). RGBA->RGB drops alpha (no "
            "blending with a background); L->RGB repeats the grey value. decoded_l: the grey PNG's "
            "own 1-channel decode, uint8 HxW. JPEG decoders differ by a few values per channel "
            "(IDCT, chroma upsampling): compare JPEGs with a tolerance, PNGs exactly.",
            "source_note": "source: the image was cut from that scikit-learn photo (640x427, "
            "CC-BY 2.0) as box (left, top, right, bottom) and, when scale > 1, shrunk by that factor "
            "with Image.LANCZOS before being saved.",
            "resized16": RESIZED16,
            "resized16_note": "Pillow's rgb.resize((16, 16), Image.BILINEAR) with the default "
            "reducing_gap=None: when downscaling this is an antialiased filter, a triangle (tent) "
            "kernel stretched by the scale factor, not the 2x2-tap bilinear of OpenCV's "
            "INTER_LINEAR. Per axis, with scale = in/out and f = max(scale, 1): output pixel i "
            "has centre c = (i + 0.5) * scale, taps x in [max(int(c - f + 0.5), 0), "
            "min(int(c + f + 0.5), in)), weight w(x) = max(0, 1 - |(x - c + 0.5) / f|), "
            "normalised to sum 1, then made fixed-point k = round(w * 2^22) (half away from "
            "zero); the output is clip((2^21 + sum k * v) >> 22, 0, 255). Two passes, each "
            "rounded to uint8: horizontal (width) first, then vertical. A numpy restatement of "
            "exactly this reproduces both files bit for bit.",
            "images": entries,
        },
    )
    return classes, samples


# ---------------------------------------------------------------------------------------------
# wds/ and wds.json


def read_members(tar_path):
    """The tar's members as tarfile reads them (each with the PAX records that preceded it)."""
    with tarfile.open(tar_path) as tf:
        return tf.getmembers()


def make_wds(samples):
    os.makedirs(WDS)
    assert sum(SHARD_SIZES) == len(samples)
    shards = []
    n = 0
    for si, size in enumerate(SHARD_SIZES):
        name = "shard-%06d.tar" % si
        listing = []
        with wds.TarWriter(os.path.join(WDS, name), mtime=WDS_MTIME) as w:
            for path, ci in samples[n : n + size]:
                key = "sample%06d" % n
                data = open(os.path.join(FOLDER, path), "rb").read()
                ext = "png" if path.lower().endswith(".png") else "jpg"
                w.write({"__key__": key, ext: data, "cls": ci, "json": {"path": path, "label": ci}})
                listing.append({"key": key, "writer_key": key, "cls": ci, "source": path})
                n += 1
        shards.append(("shards", name, listing))

    # dotted.tar: keys with a directory part and dots.
    def folder_bytes(path):
        return open(os.path.join(FOLDER, path), "rb").read()

    def mask(path):
        # A segmentation-like mask: the image's grey values thresholded to 0/255 (mode L);
        # handed to TarWriter as a PIL image, so webdataset's own encoder writes the PNG.
        g = np.asarray(Image.open(os.path.join(FOLDER, path)).convert("L"))
        return Image.fromarray(np.where(g >= 128, 255, 0).astype(np.uint8), "L")

    dotted = []
    with wds.TarWriter(os.path.join(WDS, "dotted.tar"), mtime=WDS_MTIME) as w:
        plan = [
            # writer __key__, sample dict (without __key__), source, cls
            ("a/b", {"jpg": folder_bytes("bird/b01.jpg"), "seg.png": mask("bird/b01.jpg"), "cls": 0},
             "bird/b01.jpg", 0),
            ("a/c", {"jpg": folder_bytes("cat/c01.jpg"), "seg.png": mask("cat/c01.jpg"), "cls": 1},
             "cat/c01.jpg", 1),
            # A dot in the directory part: the key is still everything up to the first dot of
            # the base name. The member's extension is upper case (JPG); webdataset lower-cases
            # extensions when it groups members (group_by_keys(lcase=True)).
            ("v1.0/train/x",
             {"JPG": folder_bytes("dog/d01.jpg"), "cls": 2,
              "json": {"path": "dog/d01.jpg", "label": 2}},
             "dog/d01.jpg", 2),
        ]
        for key, sample, src, ci in plan:
            w.write(dict(sample, __key__=key))
            dotted.append({"writer_key": key, "cls": ci, "source": src})
    shards.append(("shards", "dotted.tar", dotted))

    # dotted_key.tar, a pitfall kept apart from the shards above: a dot in the writer's key. The
    # reader cuts the key at that dot, so the first sample is read back as key "a/d" with
    # extensions "v2.cls" and "v2.jpg" (no "cls", no "jpg"); the second one is ordinary.
    pitfall = []
    with wds.TarWriter(os.path.join(WDS, "dotted_key.tar"), mtime=WDS_MTIME) as w:
        for key, src, ci in [("a/d.v2", "dog/d04.jpg", 2), ("a/e", "bird/b02.jpg", 0)]:
            w.write({"__key__": key, "jpg": folder_bytes(src), "cls": ci})
            pitfall.append({"writer_key": key, "cls": ci, "source": src})
    shards.append(("pitfalls", "dotted_key.tar", pitfall))

    # Read every shard back: tarfile for the members, webdataset's pipeline for the samples.
    writer = "webdataset %s TarWriter(path, mtime=%r)" % (wds.__version__, WDS_MTIME)
    out = {"writer": writer, "shards": {}, "pitfalls": {}}
    for group, name, listing in shards:
        path = os.path.join(WDS, name)
        members = read_members(path)
        for m in members:
            assert m.isfile()
            assert m.pax_headers == {"mtime": repr(WDS_MTIME)}, m.pax_headers
            assert m.uname == "bigdata" and m.gname == "bigdata" and m.mode == 0o444
        # The raw tar: each member is a PAX 'x' header + its data block, then the ustar header.
        raw = open(path, "rb").read()
        blocks = [raw[i : i + 512] for i in range(0, len(raw), 512)]
        typeflags = [b[156:157] for b in blocks if b[257:262] == b"ustar"]
        assert typeflags == [b"x", b"0"] * len(members), typeflags

        ds = wds.WebDataset(path, shardshuffle=False, empty_check=False)
        read = list(ds)
        assert len(read) == len(listing), (name, len(read))
        by_name = {m.name: m for m in members}
        with tarfile.open(path) as tf:
            contents = {m.name: tf.extractfile(m).read() for m in members}
        order = [m.name for m in members]
        for entry, sample in zip(listing, read):
            key = sample["__key__"]
            exts = [k for k in sample if not k.startswith("__")]
            names = [n for n in order if wds.tariterators.base_plus_ext(n)[0] == key]
            if "key" in entry:
                assert entry["key"] == key
            entry["key"] = key
            entry["members"] = [
                {
                    "name": n,
                    "ext": wds.tariterators.base_plus_ext(n)[1],
                    "ext_as_read": wds.tariterators.base_plus_ext(n)[1].lower(),
                    "size": by_name[n].size,
                    "sha256": sha256(contents[n]),
                }
                for n in names
            ]
            assert [m["ext_as_read"] for m in entry["members"]] == exts, (exts, entry)
            for m in entry["members"]:
                v = sample[m["ext_as_read"]]
                assert v == contents[m["name"]]
                if m["ext_as_read"] in ("jpg", "png", "v2.jpg"):
                    assert v == open(os.path.join(FOLDER, entry["source"]), "rb").read()
                if m["ext_as_read"].endswith("cls"):
                    assert v == str(entry["cls"]).encode()
                if m["ext_as_read"] == "json":
                    assert json.loads(v) == {"path": entry["source"], "label": entry["cls"]}
                if m["ext"] == "seg.png":
                    seg = Image.open(io.BytesIO(v))
                    m["image"] = {
                        "format": seg.format, "mode": seg.mode, "width": seg.width, "height": seg.height
                    }
        out[group][name] = {"bytes": len(raw), "tar_blocks": len(blocks), "samples": listing}
    out["notes"] = [
        "Samples are runs of consecutive tar members with the same key; key = member name up to "
        "the first '.' of its base name (directory part kept, dots in it allowed), extension = "
        "the rest (it may hold dots: 'seg.png'); webdataset lower-cases the extension "
        "(ext_as_read). 'writer_key' is the __key__ handed to TarWriter; 'key' what webdataset "
        "reads back (they differ for 'a/d.v2').",
        "'shards' hold well-formed samples: each has a cls member and one image member (jpg or "
        "png; in dotted.tar also seg.png, a mask) whose bytes are the source file's. 'pitfalls' "
        "hold what webdataset reads but a sample-per-key reader may not expect: in "
        "dotted_key.tar the writer key 'a/d.v2' becomes key 'a/d' with members 'v2.cls' and "
        "'v2.jpg', so that sample has no 'cls' and no 'jpg'.",
        "TarWriter writes a sample's members in sorted order of their extension (cls, jpg, json).",
        "cls members hold the class index as ASCII decimal (b'3'); json members hold "
        "json.dumps({'path': ..., 'label': ...}); jpg/png members hold the folder file's bytes "
        "unchanged; seg.png members are PNGs (mode L, 0/255) encoded by webdataset itself.",
        "Every member is preceded by a PAX extended header (typeflag 'x', name "
        "'././@PaxHeader', record 'mtime=1700000000.25') because Python's tarfile writes "
        "PAX_FORMAT by default (TarWriter's own format= argument is not passed on) and the mtime "
        "is not an integer; member headers are ustar ('ustar\\x0000'), mode 0444, uid/gid 0, "
        "uname/gname 'bigdata'. The archive ends with two zero blocks, padded to a multiple of "
        "10240 bytes.",
    ]
    write_json("wds.json", out)


# ---------------------------------------------------------------------------------------------
# rec/ and rec.json


def parse_rec(path):
    """Reads a .rec file byte by byte: its physical parts and the logical records they make."""
    raw = open(path, "rb").read()
    pos, parts, records, cur = 0, [], [], None
    while pos < len(raw):
        magic, lrec = struct.unpack_from("<II", raw, pos)
        assert magic == MAGIC, (path, pos)
        cflag, length = lrec >> 29, lrec & ((1 << 29) - 1)
        data = raw[pos + 8 : pos + 8 + length]
        padded = (length + 3) // 4 * 4
        assert raw[pos + 8 + length : pos + 8 + padded] == b"\0" * (padded - length)
        parts.append({"offset": pos, "cflag": cflag, "length": length})
        if cflag in (0, 1):
            assert cur is None
            cur = {"offset": pos, "data": data, "parts": [parts[-1]]}
        else:
            assert cur is not None and cflag in (2, 3)
            cur["data"] += MAGIC_BYTES + data
            cur["parts"].append(parts[-1])
        if cflag in (0, 3):
            records.append(cur)
            cur = None
        pos += 8 + padded
    assert pos == len(raw) and cur is None
    return records


def read_idx(path):
    with open(path) as f:
        return [(int(k), int(o)) for k, o in (line.rstrip("\n").split("\t") for line in f)]


def describe_rec(name, sources, notes):
    """Checks a .rec/.idx pair three ways (raw bytes, MXNet's reader, the idx) and describes it."""
    rec_path, idx_path = os.path.join(REC, name + ".rec"), os.path.join(REC, name + ".idx")
    raw_records = parse_rec(rec_path)
    idx = read_idx(idx_path)
    assert [o for _, o in idx] == [r["offset"] for r in raw_records], name
    reader = mx.recordio.MXIndexedRecordIO(idx_path, rec_path, "r")
    assert reader.keys == [k for k, _ in idx]
    seq = mx.recordio.MXRecordIO(rec_path, "r")
    out = []
    for (key, offset), r in zip(idx, raw_records):
        buf = reader.read_idx(key)
        assert buf == r["data"] == seq.read()
        header, img = mx.recordio.unpack(buf)
        flag, label0, rid, rid2 = struct.unpack_from("<IfQQ", buf)
        assert (flag, rid, rid2) == (header.flag, header.id, header.id2)
        e = {"key": key, "offset": offset, "record_len": len(buf), "flag": flag}
        if flag == 0:
            e["label"], e["label_bits"] = f32(label0)
            assert e["label"] == header.label
        else:
            assert label0 == 0.0
            labels = struct.unpack_from("<%df" % flag, buf, 24)
            assert list(labels) == [float(x) for x in header.label]
            e["header_label"] = label0
            e["labels"] = list(labels)
            e["labels_bits"] = [f32(x)[1] for x in labels]
        e["id"], e["id2"] = rid, rid2
        e["image_offset"] = 24 + 4 * flag
        e["image_len"] = len(img)
        e["image_sha256"] = sha256(img)
        e["image_format"] = Image.open(io.BytesIO(img)).format
        # "source": the folder file whose bytes the image is, unchanged; "derived_from": the
        # folder file the image was made from (split.rec's JPEGs with a COM segment added).
        src = sources[key]
        if img == open(os.path.join(FOLDER, src), "rb").read():
            e["source"] = src
        else:
            e["derived_from"] = src
        if key in notes:
            e["note"] = notes[key]
        e["parts"] = r["parts"]
        out.append(e)
    assert seq.read() is None
    reader.close()
    seq.close()
    return out


def jpeg_with_comment(jpeg, comment):
    """The JPEG with a COM segment right after SOI; the comment starts at byte 6 of the file."""
    assert jpeg[:2] == b"\xff\xd8"
    assert len(comment) + 2 < 65536
    return jpeg[:2] + b"\xff\xfe" + struct.pack(">H", len(comment) + 2) + comment + jpeg[2:]


def make_rec(samples):
    os.makedirs(REC)
    prefix = os.path.join(REC, "folder")
    run = lambda *args: subprocess.run(
        [sys.executable, IM2REC, *args, prefix, FOLDER], check=True, capture_output=True, text=True
    ).stdout
    listed = run("--list", "--recursive", "--no-shuffle")
    run("--pass-through")
    lst = open(prefix + ".lst").read().splitlines()
    label_map = [line.rsplit(" ", 1) for line in listed.splitlines() if line.strip()]
    lst_rows = [line.split("\t") for line in lst]
    folder_sources = {int(i): p for i, _, p in lst_rows}

    # multi.rec: 3 float labels per record (pack() sets flag = number of labels, label = 0).
    cls_of = dict(samples)
    multi_paths = ["bird/b02.jpg", "cat/kitten.jpg", "dog/Puppy.JPG", "cat/indoor/c04.jpg"]
    multi_labels = [[0.0, 1.0, 0.5], [1.0, 0.25, -2.0], [2.0, 0.1, 1e-3], [1.0, 3.0, 100.0]]
    w = mx.recordio.MXIndexedRecordIO(
        os.path.join(REC, "multi.idx"), os.path.join(REC, "multi.rec"), "w"
    )
    for i, (p, lab) in enumerate(zip(multi_paths, multi_labels)):
        data = open(os.path.join(FOLDER, p), "rb").read()
        header = mx.recordio.IRHeader(flag=3, label=lab, id=i, id2=0)
        w.write_idx(i, mx.recordio.pack(header, data))
    w.close()
    multi_sources = dict(enumerate(multi_paths))

    # split.rec: payloads holding the magic 0A 23 D7 CE. The record is 24 header bytes + the
    # JPEG; the COM comment starts at JPEG byte 6, i.e. record byte 30, so comment byte c is at
    # record offset 30 + c: c = 2 mod 4 is 4-aligned (split), any other c is not (no split).
    def jpg(p):
        return open(os.path.join(FOLDER, p), "rb").read()

    def com(layout):
        """layout: [(comment offset, bytes)] over a filler of b'batchspec' bytes."""
        n = max(o + len(b) for o, b in layout) + 6
        c = bytearray((b"batchspec-" * (n // 10 + 1))[:n])
        for o, b in layout:
            c[o : o + len(b)] = b
        return bytes(c)

    split_plan = []  # (key, source, jpeg bytes, id, note)
    split_plan.append((0, "dog/d02.jpg", jpg("dog/d02.jpg"), 0, "plain record (cflag 0)"))
    split_plan.append((
        1, "bird/b05.jpg", jpeg_with_comment(jpg("bird/b05.jpg"), com([(10, MAGIC_BYTES)])), 1,
        "COM segment with the magic once at record offset 40: parts cflag 1, 3",
    ))
    split_plan.append((
        2, "cat/c02.jpg",
        jpeg_with_comment(jpg("cat/c02.jpg"), com([(6, MAGIC_BYTES), (18, MAGIC_BYTES * 2)])), 2,
        "COM segment with the magic at record offsets 36, 48 and 52 (the last two adjacent): "
        "parts cflag 1, 2, 2 (the second one empty), 3",
    ))
    split_plan.append((
        3, "bird/b03.jpeg",
        jpeg_with_comment(jpg("bird/b03.jpeg"), com([(4, MAGIC_BYTES), (9, MAGIC_BYTES)])), 3,
        "COM segment with the magic at record offsets 34 and 39, neither 4-aligned: "
        "not split (cflag 0)",
    ))
    # The magic as the last 4 bytes of a record whose length is a multiple of 4: after the JPEG's
    # EOI (decoders stop at EOI); the COM segment's length is chosen to align the end.
    base = jpg("dog/d04.jpg")
    trailing = jpeg_with_comment(base, b"batchspec"[: 4 + (-len(base)) % 4]) + MAGIC_BYTES
    assert (24 + len(trailing)) % 4 == 0
    split_plan.append((
        4, "dog/d04.jpg", trailing, 4,
        "the magic is the record's last 4 bytes (appended after the JPEG's EOI; a COM segment pads "
        "the length to a multiple of 4): parts cflag 1, then 3 with length 0",
    ))
    split_plan.append((
        5, "cat/c01.jpg", jpg("cat/c01.jpg"), MAGIC,
        "header id = 0xCED7230A, so the magic is at record offset 8 (inside the 24-byte IRHeader): "
        "parts cflag 1 (length 8), 3; the header must be read after joining the parts",
    ))
    split_plan.append((
        6, "dog/d01.jpg", jpg("dog/d01.jpg"), 6, "plain record after the split ones (cflag 0)"
    ))
    w = mx.recordio.MXIndexedRecordIO(
        os.path.join(REC, "split.idx"), os.path.join(REC, "split.rec"), "w"
    )
    for key, src, data, rid, _ in split_plan:
        w.write_idx(key, mx.recordio.pack(mx.recordio.IRHeader(0, float(cls_of[src]), rid, 0), data))
    w.close()
    split_sources = {k: s for k, s, _, _, _ in split_plan}
    split_notes = {k: n for k, _, _, _, n in split_plan}

    folder_records = describe_rec("folder", folder_sources, {})
    multi_records = describe_rec("multi", multi_sources, {})
    split_records = describe_rec("split", split_sources, split_notes)

    # The checks the fixtures exist for.
    for e, (i, lab, p) in zip(folder_records, lst_rows):
        assert e["key"] == int(i) and e["label"] == float(lab) and e["id"] == int(i) and e["flag"] == 0
        assert e["image_sha256"] == sha256(open(os.path.join(FOLDER, p), "rb").read())  # pass-through
    assert [p for _, _, p in lst_rows] == [p for p, _ in samples]  # same order as ImageFolder
    for e, p, lab in zip(multi_records, multi_paths, multi_labels):
        assert e["flag"] == 3 and e["header_label"] == 0.0
        assert e["labels"] == [f32(x)[0] for x in lab]
        assert e["image_sha256"] == sha256(open(os.path.join(FOLDER, p), "rb").read())
    cflags = {e["key"]: [(q["cflag"], q["length"]) for q in e["parts"]] for e in split_records}
    assert [c for c, _ in cflags[0]] == [0] and [c for c, _ in cflags[6]] == [0]
    assert [c for c, _ in cflags[1]] == [1, 3]
    assert [c for c, _ in cflags[2]] == [1, 2, 2, 3] and cflags[2][2][1] == 0
    assert [c for c, _ in cflags[3]] == [0]
    assert [c for c, _ in cflags[4]] == [1, 3] and cflags[4][1][1] == 0
    assert [c for c, _ in cflags[5]] == [1, 3] and cflags[5][0][1] == 8
    for e in split_records:
        data = split_plan[e["key"]][2]
        assert e["image_sha256"] == sha256(data)
        assert ("source" in e) == (e["key"] in (0, 5, 6)), e
        if e["key"] == 3:
            assert MAGIC_BYTES in data
    assert sum(q["cflag"] != 0 for e in split_records for q in e["parts"]) == 10, "no split happened"

    write_json(
        "rec.json",
        {
            "writer": "mxnet %s (mxnet/tools/im2rec.py and mxnet.recordio)" % mx.__version__,
            "format": "dmlc RecordIO: per physical part, u32 magic 0xCED7230A (LE), u32 lrec = "
            "cflag << 29 | length, length data bytes, zero padding to a multiple of 4. cflag 0 = "
            "whole record; a record whose data holds the magic at a 4-aligned offset is cut there, "
            "the magic dropped, into parts cflag 1 (first), 2 (middle), 3 (last), which a reader "
            "joins with the magic between them. Parts may be empty. The .idx is text lines "
            "'key\\toffset' (offset of the record's first part). A record's data = IRHeader "
            "'<IfQQ' (flag u32, label f32, id u64, id2 u64; 24 bytes), then flag f32 labels when "
            "flag > 0 (the header label is then 0), then the image bytes.",
            "files": {
                "folder.rec": {
                    "idx": "folder.idx",
                    "lst": "folder.lst",
                    "commands": [
                        "python im2rec.py --list --recursive --no-shuffle rec/folder folder",
                        "python im2rec.py --pass-through rec/folder folder",
                    ],
                    "lst_lines": lst,
                    "im2rec_label_map": {d: float(v) for d, v in label_map},
                    "notes": "im2rec --recursive gives a label to every directory that holds an "
                    "image, in os.walk order (directories and files sorted, top-down): bird 0, cat 1, "
                    "cat/indoor 2, dog 3 -- so the nested folder becomes its own class and dog is 3, "
                    "unlike ImageFolder (dog 2, cat/indoor/c04.jpg in cat). The .lst row is "
                    "'index\\tlabel\\tpath' with the label printed '%f' (1.000000); the record header "
                    "holds it as f32, flag 0, id = the .lst index, id2 0; --pass-through packs the "
                    "file's bytes unchanged. Without --no-shuffle the list is shuffled "
                    "(random.seed(100)); the .idx keys are the .lst indices either way. Extensions "
                    "are matched lower-cased (.jpg .jpeg .png), so Puppy.JPG is in; notes.txt is not.",
                    "records": folder_records,
                },
                "multi.rec": {
                    "idx": "multi.idx",
                    "writer": "MXIndexedRecordIO.write_idx(i, recordio.pack(IRHeader(flag=3, "
                    "label=[3 floats], id=i, id2=0), jpeg_bytes))",
                    "records": multi_records,
                },
                "split.rec": {
                    "idx": "split.idx",
                    "writer": "MXIndexedRecordIO.write_idx(key, recordio.pack(IRHeader(0, label, "
                    "id, 0), image_bytes)), label = the source's ImageFolder class index. Records "
                    "with 'source' hold that folder file's bytes unchanged; those with "
                    "'derived_from' hold that JPEG with a COM segment (holding the magic) inserted "
                    "after SOI (and, for key 4, the magic appended after EOI): compare them by "
                    "image_len and image_sha256.",
                    "records": split_records,
                },
            },
        },
    )


def main():
    for p in OUTPUTS:
        if os.path.isdir(p):
            shutil.rmtree(p)
        elif os.path.exists(p):
            os.remove(p)
    sources = make_folder()
    _, samples = make_folder_json(sources)
    make_wds(samples)
    make_rec(samples)
    total = 0
    for dirpath, _, fnames in os.walk(HERE):
        total += sum(os.path.getsize(os.path.join(dirpath, f)) for f in fnames)
    print("wrote %d images; %d bytes under %s" % (len(samples), total, HERE))


if __name__ == "__main__":
    main()
