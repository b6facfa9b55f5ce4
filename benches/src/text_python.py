"""The text benchmark's Python baseline: Hugging Face `datasets` doing what run_clm.py does to
prepare causal-LM batches from a Parquet file of documents, timed end to end.

    python benches/src/text_python.py PARQUET TOKENIZER_JSON T NUM_PROC [REPEATS]

e.g. `target/tools/text/bin/python benches/src/text_python.py
text/tests/data/shakespeare-train.parquet text/tests/data/tokenizer.json 128 2`.

The venv it runs in (the one text/tests/data/make_text_fixtures.py uses; transformers is
optional, see below):

    python3 -m venv target/tools/text
    target/tools/text/bin/pip install tokenizers==0.23.3 datasets==5.2.0 pyarrow==26.0.1
    target/tools/text/bin/pip install transformers==5.24.0     # optional

The path, timed as one (time.perf_counter; imports excluded, the tokenizer's loading included):

1. `datasets.load_dataset("parquet", data_files=PARQUET, split="train", keep_in_memory=True)`
   with `datasets.disable_caching()` and a fresh, empty cache directory per repeat (a temporary
   directory, removed afterwards), so no repeat reuses the previous one's Arrow files;
2. tokenize: `map(tokenize, batched=True, num_proc=..., remove_columns=["text"],
   keep_in_memory=True)`, where tokenize is run_clm.py's `tokenizer(examples["text"])` with
   `transformers.PreTrainedTokenizerFast(tokenizer_file=TOKENIZER_JSON)` if transformers is
   installed, else the `tokenizers` package's `Tokenizer.encode_batch` giving the same
   `input_ids` and `attention_mask` (the tokenizer has no post-processor, so no special token
   is added either way);
3. group: run_clm.py's `group_texts` (per map batch of 1000 rows: concatenate, drop the
   remainder, cut into chunks of T, labels = a copy of input_ids) with
   `map(group_texts, batched=True, num_proc=..., keep_in_memory=True)`;
4. iterate: `with_format("numpy").iter(batch_size=8)`, each column taken as an int64 array of
   shape (8, T) (the last batch may be shorter), as a loader that hands out arrays would.

NUM_PROC 1 is run in the main process (map's num_proc=None): datasets 5 starts a pool even for
num_proc=1. TOKENIZERS_PARALLELISM is set to false for every run, so that num_proc=1 is one
thread, not the tokenizers' Rayon pool (datasets sets it to false in its workers anyway).

Prints one JSON line per repeat (REPEATS, default 3, in the same process): tool, version
(datasets'), tokenizer (which one tokenized), num_proc, T, seconds, tokens (the input_ids in
the grouped rows: rows * T), tokens_per_s, non_padding (1.0: grouping packs, nothing is padded).
"""

import os

os.environ["TOKENIZERS_PARALLELISM"] = "false"
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")

import json  # noqa: E402
import shutil  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from itertools import chain  # noqa: E402

import datasets  # noqa: E402
import numpy as np  # noqa: E402

try:
    import transformers
    from transformers import PreTrainedTokenizerFast
except ImportError:
    transformers = None
import tokenizers  # noqa: E402


def make_tokenize(tokenizer_file):
    if transformers is not None:
        tokenizer = PreTrainedTokenizerFast(tokenizer_file=tokenizer_file)

        def tokenize(examples):
            return tokenizer(examples["text"])
    else:
        tokenizer = tokenizers.Tokenizer.from_file(tokenizer_file)

        def tokenize(examples):
            encodings = tokenizer.encode_batch(examples["text"])
            return {"input_ids": [e.ids for e in encodings],
                    "attention_mask": [e.attention_mask for e in encodings]}
    return tokenize


def make_group_texts(block_size):
    # run_clm.py's group_texts.
    def group_texts(examples):
        concatenated_examples = {k: list(chain(*examples[k])) for k in examples.keys()}
        total_length = len(concatenated_examples[list(examples.keys())[0]])
        total_length = (total_length // block_size) * block_size
        result = {
            k: [t[i: i + block_size] for i in range(0, total_length, block_size)]
            for k, t in concatenated_examples.items()
        }
        result["labels"] = result["input_ids"].copy()
        return result
    return group_texts


def run(parquet, tokenizer_file, block_size, num_proc):
    nproc = num_proc if num_proc > 1 else None
    cache_dir = tempfile.mkdtemp(prefix="text_python_")
    try:
        start = time.perf_counter()
        ds = datasets.load_dataset("parquet", data_files=parquet, split="train",
                                   cache_dir=cache_dir, keep_in_memory=True)
        tokenize = make_tokenize(tokenizer_file)
        ds = ds.map(tokenize, batched=True, num_proc=nproc, remove_columns=["text"],
                    keep_in_memory=True)
        ds = ds.map(make_group_texts(block_size), batched=True, num_proc=nproc,
                    keep_in_memory=True)
        rows = 0
        check = 0
        for batch in ds.with_format("numpy").iter(batch_size=8):
            input_ids = np.asarray(batch["input_ids"], dtype=np.int64)
            attention_mask = np.asarray(batch["attention_mask"], dtype=np.int64)
            labels = np.asarray(batch["labels"], dtype=np.int64)
            assert input_ids.shape[1:] == (block_size,) == labels.shape[1:]
            rows += input_ids.shape[0]
            check += int(input_ids[0, 0]) + int(attention_mask[-1, -1]) + int(labels[-1, 0])
        seconds = time.perf_counter() - start
    finally:
        shutil.rmtree(cache_dir, ignore_errors=True)
    return seconds, rows * block_size, check


def main():
    if len(sys.argv) not in (5, 6):
        sys.exit(__doc__.split("\n\n")[1])
    parquet, tokenizer_file = sys.argv[1], sys.argv[2]
    block_size, num_proc = int(sys.argv[3]), int(sys.argv[4])
    repeats = int(sys.argv[5]) if len(sys.argv) == 6 else 3
    datasets.disable_caching()
    datasets.disable_progress_bars()
    datasets.logging.set_verbosity_error()
    tokenizer = (f"transformers {transformers.__version__}" if transformers is not None
                 else f"tokenizers {tokenizers.__version__}")
    for _ in range(repeats):
        seconds, tokens, _check = run(parquet, tokenizer_file, block_size, num_proc)
        print(json.dumps({
            "tool": "datasets", "version": datasets.__version__, "tokenizer": tokenizer,
            "num_proc": num_proc, "T": block_size, "seconds": round(seconds, 4),
            "tokens": tokens, "tokens_per_s": round(tokens / seconds, 1), "non_padding": 1.0,
        }), flush=True)


if __name__ == "__main__":
    main()
