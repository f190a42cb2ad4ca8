"""check_answer speed: the C++ ClaimCoverage (default and reference mode) vs plain-Python implementations of both rules.

Run from the repository root after a build, e.g.

    PYTHONPATH=build/dev-NAME/pkg python3 benchmarks/bench_claims.py

Workload (as the issue specifies): a 10-sentence answer against 10 chunks of ~1,000 characters, real text (HaluEval /
HotpotQA knowledge paragraphs from ../shared/datasets). The answer cites 5 of the chunks (so the other 5 are checked
for missing citations against every sentence), mixes sentences copied from the chunks with hallucinated ones, has one
meta sentence and one unknown citation. Every row produces the whole report (per-sentence scores and decisions,
unknown and missing citations), in one process:

- C++ default / reference: ``ClaimCoverage(mode=...).check_answer`` through the public API (chunks as ``Chunk``
  objects, results as ``AnswerCoverage`` with ``ClaimResult`` tuples), and the core call alone.
- plain-Python reference rule: the original design written idiomatically (regex sentence split and citations,
  ``set(text.lower().split())`` per chunk computed once, set intersections), building the same result objects.
- plain-Python default rule: the oracle ``_reference_claims.Checker(mode="default").check_answer`` (each chunk
  tokenized once, stem cache warm).
"""

from __future__ import annotations

import json
import os
import platform
import re
import sys
import timeit
from collections.abc import Callable, Sequence
from pathlib import Path

from _machine import DATASETS, cpu_model

from sufficient_context import _reference_claims as rc
from sufficient_context._core import claims as core
from sufficient_context.chunks import Chunk, as_chunks
from sufficient_context.claims import META_PATTERNS, AnswerCoverage, ClaimCoverage, ClaimResult
from sufficient_context.text import STOPWORDS

CHUNK_CHARS = 1000
N_CHUNKS = 10


# ---------------------------------------------------------------------------------------------------------------------
# Workload
# ---------------------------------------------------------------------------------------------------------------------
def workload() -> tuple[str, list[Chunk]]:
    lines = (DATASETS / "halueval" / "halueval-qa-claims.jsonl").read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines if line.strip()]
    text = " ".join(r["contexts"][0]["content"] for r in rows[::2][:60])
    chunks = []
    start = 0
    for i in range(N_CHUNKS):  # ~1,000 characters, cut at a sentence end
        end = text.find(". ", start + CHUNK_CHARS - 60) + 1
        chunks.append(Chunk(content=text[start:end].strip(), id=f"S{i + 1}"))
        start = end
    hallucinated = [r["answer"] for r in rows if r["label"] == "unsupported" and len(r["answer"].split()) > 6]
    sentences = ["Based on the evidence, here is the answer."]
    for i in range(8):
        cid = i % 5
        if i % 3 == 2:
            claim = hallucinated[i].rstrip(".")
        else:
            first = chunks[cid].content.split(". ")[i % 2]
            claim = " ".join(first.split()[:14]).rstrip(".")
        sentences.append(f"{claim} [S{cid + 1}].")
    sentences.append("It was also reviewed in the press [S1][S42].")
    return " ".join(sentences), chunks


# ---------------------------------------------------------------------------------------------------------------------
# The original design in plain Python (reference rule)
# ---------------------------------------------------------------------------------------------------------------------
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_CITATION = re.compile(r"\[([A-Za-z0-9_.:#-]+(?:[ \t]*[,;][ \t]*[A-Za-z0-9_.:#-]+)*)\]")
_ID_SEP = re.compile(r"[ \t]*[,;][ \t]*")
_META = tuple(p.lower() for p in META_PATTERNS)


_STRIP = re.compile(r"\s*" + _CITATION.pattern)  # a marker and the blanks before it: "years [S1]." -> "years."


def _words(text: str) -> set[str]:
    return set(_STRIP.sub("", text).lower().split()) - STOPWORDS


def python_reference_check_answer(
    answer: str, chunks: Sequence[Chunk], min_overlap: float = 0.3, factor: float = 0.7
) -> AnswerCoverage:
    """The reference rule (API.md section 4) as a plain-Python user would write it."""
    converted = as_chunks(chunks)
    chunk_words = {c.id: _words(c.content) for c in converted}
    found_anywhere = set().union(*chunk_words.values())
    claims, unknown, cited_anywhere, word_sets = [], [], set(), []
    pos = 0
    for sentence in _SENTENCE_END.split(answer.strip()):
        start = answer.index(sentence, pos)
        pos = start + len(sentence)
        cited = list(dict.fromkeys(i for group in _CITATION.findall(sentence) for i in _ID_SEP.split(group)))
        known = [c for c in cited if c in chunk_words]
        unknown += [c for c in cited if c not in chunk_words and c not in unknown]
        cited_anywhere.update(known)
        words = _words(sentence)
        word_sets.append(words)
        overlaps = {c: (len(words & chunk_words[c]) / len(words) if words else 1.0) for c in known}
        threshold = min_overlap * factor if len(known) > 1 else min_overlap
        covering = tuple(c for c, v in overlaps.items() if v >= threshold)
        lower = sentence.lower()
        phrase = next((p for p in _META if lower.startswith(p)), None)
        meta = phrase is not None and not (_words(sentence[len(phrase) :]) & found_anywhere)
        covered = meta or bool(covering)
        reason = "meta" if meta else ("covered" if covered else "not covered")
        score = max(overlaps.values(), default=0.0)
        claims.append(
            ClaimResult(sentence, score, covered, meta, tuple(cited), covering, overlaps, threshold, reason, start, pos)
        )
    missing = tuple(
        cid
        for cid, cw in chunk_words.items()
        if cid not in cited_anywhere
        and any(w and not c.is_meta and len(w & cw) / len(w) >= min_overlap for c, w in zip(claims, word_sets))
    )
    real = [c for c in claims if not c.is_meta]
    covered_count = sum(c.is_covered for c in real)
    attributed = sum(any(i in chunk_words for i in c.citations) for c in real)
    return AnswerCoverage(
        answer=answer,
        claims=tuple(claims),
        covered_count=covered_count,
        attribution_coverage=attributed / len(real) if real else 1.0,
        supported_ratio=covered_count / len(real) if real else 1.0,
        missing_citations=missing,
        unknown_citations=tuple(unknown),
        is_grounded=covered_count == len(real) and not unknown and not missing,
        mode="reference",
    )


# ---------------------------------------------------------------------------------------------------------------------
def seconds(call: Callable[[], object]) -> float:
    """Best-of-5 seconds per call, each run long enough (~0.2 s) to swamp timer overhead."""
    timer = timeit.Timer(call)
    number, _ = timer.autorange()
    return min(timer.repeat(repeat=5, number=max(1, number))) / max(1, number)


def main() -> None:
    answer, chunks = workload()
    pairs = [(c.id, c.content) for c in chunks]
    default = ClaimCoverage()
    reference = ClaimCoverage(mode="reference")
    data = Path(rc.__file__).parent / "data"
    zipf = rc.load_zipf_table(data / "english_freq.tsv")
    oracle = rc.Checker(zipf=zipf, relations=rc.load_relations(data / "english_relations.tsv"))
    ids = [c.id for c in chunks]
    texts = [c.content for c in chunks]

    # Same answers from both implementations of each rule, checked before timing.
    cpp = default.check_answer(answer, chunks)
    ref = oracle.check_answer(answer, pairs)
    assert [c.is_covered for c in cpp.claims] == [c.is_covered for c in ref.claims]
    for x, y in zip(cpp.claims, ref.claims):
        assert all(abs(a - b) < 1e-9 for a, b in zip(x.overlaps.values(), y.overlaps.values()))
    assert list(cpp.missing_citations) == ref.missing_citations
    cpp_ref = reference.check_answer(answer, chunks)
    py_ref = python_reference_check_answer(answer, chunks)
    assert [round(c.score, 12) for c in cpp_ref.claims] == [round(c.score, 12) for c in py_ref.claims]
    assert cpp_ref.missing_citations == py_ref.missing_citations

    rows = [
        ("C++ default mode, public API", lambda: default.check_answer(answer, chunks)),
        ("C++ default mode, core call", lambda: core.check_answer(default._config, answer, ids, texts, ClaimResult)),
        ("C++ reference mode, public API", lambda: reference.check_answer(answer, chunks)),
        (
            "C++ reference mode, core call",
            lambda: core.check_answer(reference._config, answer, ids, texts, ClaimResult),
        ),
        ("plain-Python reference rule", lambda: python_reference_check_answer(answer, chunks)),
        ("plain-Python default rule (oracle)", lambda: oracle.check_answer(answer, pairs)),
    ]
    times = {name: seconds(call) for name, call in rows}
    py_ref_t = times["plain-Python reference rule"]
    py_def_t = times["plain-Python default rule (oracle)"]

    print(f"command: PYTHONPATH=... python3 {' '.join(sys.argv)}")
    print(f"machine: {cpu_model()}, {os.cpu_count()} cores; Python {platform.python_version()}")
    print(
        f"workload: {len(cpp.claims)}-sentence answer ({len(answer)} chars), {len(chunks)} chunks of "
        f"{min(len(t) for t in texts)}-{max(len(t) for t in texts)} chars; "
        f"grounded={cpp.is_grounded}, missing={list(cpp.missing_citations)}, unknown={list(cpp.unknown_citations)}"
    )
    print()
    print("| implementation | us per check_answer | vs plain-Python reference | vs plain-Python default |")
    print("|---|---:|---:|---:|")
    for name, _ in rows:
        t = times[name]
        print(f"| {name} | {t * 1e6:,.1f} | {py_ref_t / t:.1f}x | {py_def_t / t:.1f}x |")
    print()
    targets = [
        ("default mode no slower than plain-Python reference", py_ref_t / times["C++ default mode, public API"], 1.0),
        ("reference mode >= 5x faster than plain-Python reference",
         py_ref_t / times["C++ reference mode, public API"], 5.0),
        ("default mode >= 20x faster than plain-Python default",
         py_def_t / times["C++ default mode, public API"], 20.0),
    ]  # fmt: skip
    for name, ratio, target in targets:
        print(f"- {name}: {ratio:.1f}x ({'met' if ratio >= target else 'NOT met'})")


if __name__ == "__main__":
    main()
