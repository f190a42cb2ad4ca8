"""``sufficient-context demo``: the three main jobs on the built-in sample corpus, through the public API only."""

from __future__ import annotations

from rich.markup import escape

from .. import __version__, similarity
from .._samples import (
    SAMPLE_ANSWER,
    SAMPLE_CHUNKS,
    SAMPLE_OFF_TOPIC_QUERY,
    SAMPLE_PARTIAL_QUERY,
    SAMPLE_QUERY,
    SAMPLE_UNANSWERED_QUERY,
)
from ..checker import SufficientContextChecker
from ..claims import ClaimCoverage
from ..gate import evaluate_retrieval
from ..retrieval import Passage, PassageIndex
from . import render


def _index() -> PassageIndex:
    index = PassageIndex()
    index.add(
        Passage(str(c["metadata"]["source_path"]), f"Section {c['metadata']['section']}", i, str(c["content"]))  # type: ignore[index]
        for i, c in enumerate(SAMPLE_CHUNKS)
    )
    return index


def run_demo() -> None:
    out = render.console()
    out.print(
        f"sufficient-context {__version__} demo (C++ core, SIMD path: {similarity.simd_path()}); "
        f"{len(SAMPLE_CHUNKS)} sample chunks of Indian statutes, built-in BM25 retrieval, no model"
    )

    out.print("\n[bold]1. Retrieval gate[/]: refuse before any model call when nothing retrieved is relevant enough")
    index = _index()
    for query in (SAMPLE_OFF_TOPIC_QUERY, SAMPLE_QUERY):
        retrieved = index.search(query, 3)
        decision = evaluate_retrieval(retrieved)
        best = "none" if decision.max_score is None else f"{decision.max_score:.2f}"
        out.print(
            f"- {escape(query)}\n  {decision.outcome} (best score {best}): "
            f"{escape(decision.message or decision.reason)}"
        )

    out.print("\n[bold]2. Sufficiency[/]: is the retrieved context enough to answer? (every level, with its reasons)")
    checker = SufficientContextChecker()
    for query in (SAMPLE_QUERY, SAMPLE_PARTIAL_QUERY, SAMPLE_UNANSWERED_QUERY):
        result = checker.check_sufficiency(query, SAMPLE_CHUNKS)
        reasons = result.missing_aspects or result.confidence_factors
        level = result.level.value
        out.print(
            f"- {escape(query)}\n  [{render._LEVEL_STYLE[level]}]{level}[/] (score {result.score:.2f}): "
            f"{escape('; '.join(reasons))}"
        )

    out.print("\n[bold]3. Claim coverage[/]: is every sentence of the answer backed by the chunk it cites?")
    report = ClaimCoverage().check_answer(SAMPLE_ANSWER, SAMPLE_CHUNKS)
    for number, claim in enumerate(report.claims, start=1):
        score = "" if claim.is_meta else f" (score {claim.score:.2f})"
        out.print(f"{number}. {escape(claim.sentence)}\n   {claim.status}{score}: {escape(claim.reason)}")
    verdict = "grounded" if report.is_grounded else "not grounded"
    out.print(
        f"\nAnswer: {verdict}; {report.covered_count} of {report.claim_count} claim sentences supported "
        f"(supported_ratio {report.supported_ratio:.2f}), attribution_coverage "
        f"{report.attribution_coverage:.2f}"
    )
