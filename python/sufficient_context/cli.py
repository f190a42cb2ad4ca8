"""Command line: `sufficient-context demo` (more commands arrive with the checks they run).

Exit codes: 0 success, 2 usage or input error.
"""

from __future__ import annotations

import argparse
import sys
import zlib
from collections.abc import Sequence
from typing import TextIO

import numpy as np

from . import __version__, similarity, text
from ._samples import SAMPLE_ANSWER, SAMPLE_CHUNKS, SAMPLE_QUERY, SAMPLE_UNANSWERED_QUERY
from .checker import SufficientContextChecker
from .chunks import as_chunks
from .claims import ClaimCoverage

_HASH_DIM = 512


def _hashed_term_vector(terms: Sequence[str]) -> np.ndarray:
    """Bag of stemmed terms hashed into a fixed-size vector (crc32: stable across processes, unlike hash())."""
    vector = np.zeros(_HASH_DIM, dtype=np.float32)
    for term in terms:
        vector[zlib.crc32(term.encode()) % _HASH_DIM] += 1.0
    return vector


def run_demo(out: TextIO | None = None) -> int:
    """Print a readable check of the sample query against the sample chunks, using both C++ engines."""
    write = (out or sys.stdout).write
    chunks = as_chunks(SAMPLE_CHUNKS)
    query_terms = list(dict.fromkeys(text.terms(SAMPLE_QUERY)))
    chunk_terms = [text.terms(chunk.content) for chunk in chunks]

    matrix = np.stack([_hashed_term_vector(terms) for terms in chunk_terms])
    cosines = similarity.cosine_many(_hashed_term_vector(query_terms), matrix)

    write(f"sufficient-context {__version__} demo (C++ core, SIMD path: {similarity.simd_path()})\n\n")
    write(f"Query: {SAMPLE_QUERY}\n")
    write(f"Key terms (folded, stop words removed, stemmed): {', '.join(query_terms)}\n\n")
    write(f"{'chunk':<12} {'terms':>5}  {'cosine':>6}  query terms found\n")
    found_anywhere: set[str] = set()
    for chunk, terms, cosine in zip(chunks, chunk_terms, cosines):
        present = [term for term in query_terms if term in set(terms)]
        found_anywhere.update(present)
        write(f"{chunk.id:<12} {len(terms):>5}  {cosine:>6.3f}  {', '.join(present) or '-'}\n")
    missing = [term for term in query_terms if term not in found_anywhere]
    write(f"\nCoverage: {len(query_terms) - len(missing)}/{len(query_terms)} key terms found in the chunks")
    write(f"; missing: {', '.join(missing)}\n" if missing else "; none missing\n")

    write("\nIs the context enough to answer? (SufficientContextChecker, default scoring, no model)\n")
    checker = SufficientContextChecker()
    for query in (SAMPLE_QUERY, SAMPLE_UNANSWERED_QUERY):
        result = checker.check_sufficiency(query, SAMPLE_CHUNKS)
        reasons = result.missing_aspects or result.confidence_factors
        write(f"- {query}\n  {result.level.value} (score {result.score:.2f}): {'; '.join(reasons)}\n")

    write("\nIs every sentence of the answer backed by what it cites? (ClaimCoverage, default mode)\n")
    report = ClaimCoverage().check_answer(SAMPLE_ANSWER, SAMPLE_CHUNKS)
    for number, claim in enumerate(report.claims, start=1):
        score = "" if claim.is_meta else f" (score {claim.score:.2f})"
        write(f"{number}. {claim.sentence}\n   {claim.status}{score}: {claim.reason}\n")
    verdict = "grounded" if report.is_grounded else "not grounded"
    write(
        f"\nAnswer: {verdict}; {report.covered_count} of {report.claim_count} claim sentences supported "
        f"(supported_ratio {report.supported_ratio:.2f}), attribution_coverage {report.attribution_coverage:.2f}\n"
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="sufficient-context", description=__doc__)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("demo", help="check a built-in sample query, chunks and answer")
    args = parser.parse_args(argv)
    if args.command == "demo":
        return run_demo()
    parser.error(f"unknown command {args.command!r}")
    return 2


if __name__ == "__main__":
    sys.exit(main())
