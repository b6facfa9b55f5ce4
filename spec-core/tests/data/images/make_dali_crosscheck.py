"""What NVIDIA DALI's own readers read from the RecordIO and WebDataset fixtures: an independent
reading of the same files, for the Rust readers to agree with.

DALI's CPU pipelines (no GPU: `device_id=None`) read `rec/folder.rec`, `rec/split.rec` and
`rec/multi.rec` with `fn.readers.mxnet` (with their `.idx`), and the three WebDataset shards
with `fn.readers.webdataset` (members `jpg;png` and `cls`), in file order; for each sample they
give the encoded image's length and CRC-32 (zlib's) and the label(s). Written to
`dali.json`, with DALI's decode (`fn.decoders.image`, RGB) of the first sample of each file as
`decoded/dali_<file>_0.npy`.

Needs DALI, which installs without CUDA for CPU pipelines (~1 GB installed):
    python3 -m venv target/tools/images-bench
    target/tools/images-bench/bin/pip install nvidia-dali-cuda120 numpy pillow
    target/tools/images-bench/bin/python spec-core/tests/data/images/make_dali_crosscheck.py
"""
import json
import os
import zlib

import numpy as np
import nvidia.dali.fn as fn
import nvidia.dali.types as types
from nvidia.dali import __version__ as dali_version
from nvidia.dali import pipeline_def

HERE = os.path.dirname(os.path.abspath(__file__))


def run(build, count):
    pipe = build(batch_size=1, num_threads=1, device_id=None)
    pipe.build()
    out = []
    for _ in range(count):
        out.append([o.as_array()[0] for o in pipe.run()])
    return out


result = {"writer": f"nvidia-dali {dali_version} (CPU pipelines)", "recordio": {}, "webdataset": {}}
# split.rec's record 5 is split inside its 24-byte header (the magic in its `id`): MXNet's own
# reader joins it (make_image_fixtures.py checks that), DALI refuses it ("record payload length:
# 8 bytes, minimum is 24 bytes"), so DALI reads the first five records of that file.
for name, count in [("folder", 15), ("split", 5), ("multi", 4)]:
    rec = os.path.join(HERE, "rec", f"{name}.rec")
    idx = os.path.join(HERE, "rec", f"{name}.idx")

    @pipeline_def
    def reader():
        jpegs, labels = fn.readers.mxnet(path=[rec], index_path=[idx], random_shuffle=False, name="r")
        images = fn.decoders.image(jpegs, device="cpu", output_type=types.RGB)
        return jpegs, labels, images

    samples = run(reader, count)
    result["recordio"][f"{name}.rec"] = [
        {"len": int(j.size), "crc32": zlib.crc32(j.tobytes()), "labels": [float(v) for v in np.ravel(l)]}
        for j, l, _ in samples
    ]
    np.save(os.path.join(HERE, "decoded", f"dali_{name}.rec_0.npy"), samples[0][2])

shards = [os.path.join(HERE, "wds", f"shard-00000{i}.tar") for i in range(3)]


@pipeline_def
def wds_reader():
    images, cls = fn.readers.webdataset(paths=shards, ext=["jpg;png", "cls"], random_shuffle=False,
                                        missing_component_behavior="error")
    decoded = fn.decoders.image(images, device="cpu", output_type=types.RGB)
    return images, cls, decoded


samples = run(wds_reader, 15)
result["webdataset"]["shard-{000000..000002}.tar"] = [
    {"len": int(j.size), "crc32": zlib.crc32(j.tobytes()), "cls": bytes(c.tobytes()).decode()}
    for j, c, _ in samples
]
np.save(os.path.join(HERE, "decoded", "dali_shard_0.npy"), samples[0][2])
with open(os.path.join(HERE, "dali.json"), "w") as f:
    json.dump(result, f, indent=1)
print("wrote dali.json:", {k: len(v) for k, v in result["recordio"].items()}, len(samples), "shard samples")
