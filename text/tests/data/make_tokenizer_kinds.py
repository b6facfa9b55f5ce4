"""Writes two more tokenizers of other kinds than `tokenizer.json` (a byte-level BPE), trained by
Hugging Face `tokenizers` on the training documents of `shakespeare-train.parquet` (written by
`make_text_fixtures.py`), and the ids the Python package gives for the 37 texts of `small.jsonl`
with each, so that the Rust side is tested against what the package really writes and encodes
for a WordPiece and a Unigram model, their normalizers and post-processor, and so that the text
fuzzer (`text/examples/fuzz_text.rs`) damages these kinds too.

How to run it (from the repository root; the venv of `make_text_fixtures.py`):

    python3 -m venv target/tools/text
    target/tools/text/bin/pip install tokenizers==0.23.3 pyarrow==26.0.1
    target/tools/text/bin/python text/tests/data/make_tokenizer_kinds.py

Made with Python 3.11, tokenizers 0.23.3, pyarrow 26.0.1. It writes next to itself only. It is
not byte for byte repeatable: the trainers walk hash maps, so tokens of equal rank (the
WordPiece's `##` letters, say) take their ids in another order on another run. A run's three
files agree with each other (the ids are those of the tokenizers it wrote, re-read), which is
what the tests use; the committed files are one run's.

The files:

* wordpiece.json: BERT's pipeline: normalizer BertNormalizer (lowercase, accents stripped,
  Chinese characters split), pre-tokenizer BertPreTokenizer, model WordPiece (unk `[UNK]`,
  prefix `##`), post-processor TemplateProcessing `[CLS] $A [SEP]`, decoder WordPiece;
  vocab_size 1024 with `[PAD]`, `[UNK]`, `[CLS]`, `[SEP]` at ids 0..3.
* unigram.json: a SentencePiece-like pipeline: normalizer Sequence [NFKC, Replace(" {2,}" -> " ")],
  pre-tokenizer Metaspace, model Unigram (unk `<unk>`), decoder Metaspace; vocab_size 1024 with
  `<pad>`, `<unk>`, `<eos>` at ids 0..2.
* kinds-ids.json: {"tokenizers_version": ..., "wordpiece": [[...], ...], "wordpiece_special":
  [[...], ...], "unigram": [[...], ...]}: for each text of `small.jsonl`, in order,
  `encode(text, add_special_tokens=False).ids` (and `=True` for the WordPiece's template).
"""

import json
import sys
from pathlib import Path

import pyarrow.parquet as pq
import tokenizers
from tokenizers import (Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers,
                        processors, trainers)

OUT = Path(__file__).resolve().parent
VOCAB_SIZE = 1024
VERSIONS = {"tokenizers": "0.23.3"}


def main():
    if tokenizers.__version__ != VERSIONS["tokenizers"]:
        print(f"warning: tokenizers {tokenizers.__version__}, the files were made with "
              f"{VERSIONS['tokenizers']}", file=sys.stderr)
    docs = pq.read_table(OUT / "shakespeare-train.parquet").column("text").to_pylist()
    with open(OUT / "small.jsonl", encoding="utf-8") as f:
        small = [json.loads(line)["text"] for line in f if line.strip()]

    wp = Tokenizer(models.WordPiece(unk_token="[UNK]", continuing_subword_prefix="##"))
    wp.normalizer = normalizers.BertNormalizer(lowercase=True)
    wp.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    wp.decoder = decoders.WordPiece()
    special = ["[PAD]", "[UNK]", "[CLS]", "[SEP]"]
    wp.train_from_iterator(docs, trainer=trainers.WordPieceTrainer(
        vocab_size=VOCAB_SIZE, special_tokens=special, show_progress=False), length=len(docs))
    wp.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", wp.token_to_id("[CLS]")), ("[SEP]", wp.token_to_id("[SEP]"))])
    for i, s in enumerate(special):
        assert wp.token_to_id(s) == i, (s, wp.token_to_id(s))
    wp.save(str(OUT / "wordpiece.json"), pretty=False)

    ug = Tokenizer(models.Unigram())
    ug.normalizer = normalizers.Sequence([normalizers.NFKC(),
                                          normalizers.Replace(Regex(" {2,}"), " ")])
    ug.pre_tokenizer = pre_tokenizers.Metaspace()
    ug.decoder = decoders.Metaspace()
    special = ["<pad>", "<unk>", "<eos>"]
    ug.train_from_iterator(docs, trainer=trainers.UnigramTrainer(
        vocab_size=VOCAB_SIZE, special_tokens=special, unk_token="<unk>", show_progress=False),
        length=len(docs))
    for i, s in enumerate(special):
        assert ug.token_to_id(s) == i, (s, ug.token_to_id(s))
    ug.save(str(OUT / "unigram.json"), pretty=False)

    # Re-read from the files, as users do.
    wp = Tokenizer.from_file(str(OUT / "wordpiece.json"))
    ug = Tokenizer.from_file(str(OUT / "unigram.json"))
    ids = {
        "tokenizers_version": tokenizers.__version__,
        "wordpiece": [wp.encode(t, add_special_tokens=False).ids for t in small],
        "wordpiece_special": [wp.encode(t, add_special_tokens=True).ids for t in small],
        "unigram": [ug.encode(t, add_special_tokens=False).ids for t in small],
    }
    with open(OUT / "kinds-ids.json", "w", encoding="utf-8", newline="\n") as f:
        json.dump(ids, f)
        f.write("\n")
    for name in ["wordpiece.json", "unigram.json", "kinds-ids.json"]:
        print(name, (OUT / name).stat().st_size, "bytes")


if __name__ == "__main__":
    main()
