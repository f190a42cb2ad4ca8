"""Text engine throughput: C++ tokenizing and the C++ term pipeline vs a pure-Python pipeline, one process.

Run from the repository root after a build, e.g.

    PYTHONPATH=build/dev-NAME/pkg python3 benchmarks/bench_text.py [--mb 4] [--baseline-mb 0.5]

The corpus is the unique `content` strings of /work/shared/datasets/squad2/squad2-sufficiency.jsonl (read in place,
repeated up to --mb), or deterministic generated English prose when that file is missing. Rows:

- C++ tokenize: `_core.text.count_tokens` (tokenizing alone; one crossing, no Python objects per token).
- C++ tokenize + list: `sufficient_context.text.tokenize`, building a `Token` per token.
- C++ terms: `sufficient_context.text.terms` (tokenize, fold, stop words, Porter2 stem, list of str).
- C++ sentences: `_core.sentences.split_sentences` (the sentence scanner; a (start, end) tuple per sentence).
- Python regex sentences: `re.split` after `. ! ?` and whitespace (what a user writes without a splitter; it knows
  no abbreviations, numbers, citations or line breaks).
- Python regex tokenize: `re.findall` of words on the lowercased text.
- Python terms: regex tokenize + stop-word set + snowballstemmer's pure-Python EnglishStemmer per token (the
  baseline of the issue), and the same with a dict memoizing stems (what a careful Python user would add).
The Python pipelines are slow, so they run on the first --baseline-mb of the corpus; every rate is MB/s of UTF-8
input, single-threaded (so also per core), best of --repeat runs.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import shlex
import sys
import time
from collections.abc import Callable

from _machine import DATASETS, cpu_model
from snowballstemmer import EnglishStemmer

from sufficient_context import text as sctext
from sufficient_context._core import sentences as core_sentences
from sufficient_context._core import text as core

SQUAD = DATASETS / "squad2" / "squad2-sufficiency.jsonl"
WORD_RE = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")
SENTENCE_RE = re.compile(r"(?<=[.!?])\s+")


def load_corpus(megabytes: float) -> tuple[str, str]:
    """The benchmark text (about `megabytes` of UTF-8) and where it came from."""
    target = int(megabytes * 1_000_000)
    if SQUAD.exists():
        seen: dict[str, None] = {}
        with SQUAD.open(encoding="utf-8") as f:
            for line in f:
                for context in json.loads(line).get("contexts", []):
                    seen.setdefault(context["content"], None)
        unique = "\n\n".join(seen)
        source = f"SQuAD 2.0 contexts ({len(seen)} unique, {len(unique.encode()) / 1e6:.2f} MB, repeated)"
    else:
        unique = generated_prose(target)
        source = "generated English prose (seeded)"
    text = unique
    while len(text.encode()) < target:
        text += "\n\n" + unique
    return text[:target], source


def generated_prose(size: int) -> str:
    rng = random.Random(20240601)
    vocab = [
        "the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "was", "with", "be", "by", "on",
        "not", "he", "this", "are", "or", "his", "from", "at", "which", "but", "have", "an", "they", "you", "were",
        "her", "she", "there", "been", "one", "all", "we", "their", "has", "would", "when", "if", "can", "more",
        "no", "other", "its", "time", "people", "evidence", "context", "retrieval", "answer", "question", "passage",
        "section", "court", "penalty", "procedure", "definition", "report", "government", "university", "century",
        "population", "language", "history", "system", "river", "music", "empire", "war", "church", "city",
        ").split("
    ]  # fmt: skip
    out: list[str] = []
    length = 0
    while length < size:
        words = [rng.choice(vocab) for _ in range(rng.randint(6, 24))]
        if rng.random() < 0.3:
            words.insert(rng.randrange(len(words)), f"{rng.randint(1, 99_999):,}")
        sentence = " ".join(words).capitalize() + ". "
        out.append(sentence)
        length += len(sentence)
    return "".join(out)


def best_seconds(fn: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def python_terms(text: str, stop: frozenset[str], stem_word: Callable[[str], str]) -> list[str]:
    return [stem_word(t) for t in WORD_RE.findall(text.lower()) if t not in stop]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=4.0, help="corpus size for the C++ rows (MB)")
    parser.add_argument("--baseline-mb", type=float, default=0.5, help="corpus prefix for the Python rows (MB)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    text, source = load_corpus(args.mb)
    small = text[: int(args.baseline_mb * 1_000_000)]
    mb = len(text.encode()) / 1e6
    small_mb = len(small.encode()) / 1e6
    stop = sctext.STOPWORDS
    stemmer = EnglishStemmer()  # the pure-Python class, never PyStemmer's C extension

    memo: dict[str, str] = {}

    def memo_stem(word: str) -> str:
        stemmed = memo.get(word)
        if stemmed is None:
            stemmed = memo[word] = stemmer.stemWord(word)
        return stemmed

    timed: list[tuple[str, str, float, Callable[[], object], int]] = [  # (key, label, MB, call, repeats)
        ("tok", "C++ tokenize (`count_tokens`)", mb, lambda: core.count_tokens(text), args.repeat),
        ("tok-list", "C++ tokenize + list of `Token`", mb, lambda: sctext.tokenize(text), args.repeat),
        ("terms", "C++ terms (tokenize, fold, stop words, stem)", mb, lambda: sctext.terms(text), args.repeat),
        ("sent", "C++ sentences (`split_sentences`)", mb, lambda: core_sentences.split_sentences(text), args.repeat),
        ("base-sent", "Python regex sentences", small_mb, lambda: SENTENCE_RE.split(small), args.repeat),
        ("base-tok", "Python regex tokenize", small_mb, lambda: WORD_RE.findall(small.lower()), args.repeat),
        ("base", "Python terms (regex, stop set, snowballstemmer)", small_mb,
         lambda: python_terms(small, stop, stemmer.stemWord), 1),
        ("base-memo", "Python terms, memoized stems", small_mb,
         lambda: python_terms(small, stop, memo_stem), args.repeat),
    ]  # fmt: skip
    python_terms(small, stop, memo_stem)  # warm the memo: the memoized variant's steady state
    rows = [(key, label, size / best_seconds(call, repeats)) for key, label, size, call, repeats in timed]
    rate = {key: r for key, _, r in rows}
    tokens = core.count_tokens(text)
    print(f"corpus: {source}; {mb:.2f} MB, {tokens:,} tokens (C++ rows); Python rows on the first {small_mb:.2f} MB")
    print(f"CPU: {cpu_model()}; cores: {os.cpu_count()}; Python {platform.python_version()}; single-threaded")
    print(f"command: PYTHONPATH=... python3 {' '.join(shlex.quote(a) for a in sys.argv)}")
    print()
    print("| pipeline | MB/s | vs Python terms | vs Python terms (memoized) |")
    print("|---|---:|---:|---:|")
    for _, what, r in rows:
        print(f"| {what} | {r:,.1f} | {r / rate['base']:,.1f}x | {r / rate['base-memo']:,.1f}x |")
    print()
    print(f"targets: C++ terms >= 20x Python terms: {rate['terms'] / rate['base']:.1f}x; "
          f"C++ tokenizing alone >= 50 MB/s per core: {rate['tok']:.0f} MB/s")  # fmt: skip


if __name__ == "__main__":
    main()
