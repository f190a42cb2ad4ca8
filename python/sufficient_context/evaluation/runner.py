"""Evaluate a JSON Lines file of RAG turns with the package's own checks: the sufficiency checker on every row's
query and contexts, and claim coverage on every row's answer. Rows stream through in batches (each batch scored in
C++ threads), results go to a JSONL file as they come, and only fixed-size accumulators stay in memory."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import IO, Any

from ..checker import SufficiencyResult, SufficientContextChecker
from ..claims import ClaimCoverage
from ..sentences import citation_ids
from .rows import Row, RowError, Source, read_rows
from .summary import Summary

BATCH = 256


def _claims_of(coverage: ClaimCoverage, rows: list[Row], threads: int) -> list[dict[str, Any]]:
    """Each answer's verdict. An answer with citation markers is checked sentence by sentence against what each
    sentence cites (``check_answer``); one without any is checked as one claim against all of its row's chunks
    (``check_claim``) and graded on support alone (its score against the threshold), as an evaluation file of plain
    answers means it."""
    out: list[dict[str, Any]] = [{} for _ in rows]
    cited = [i for i, r in enumerate(rows) if citation_ids(r.answer or "")]
    reports = coverage.check_answers(
        [rows[i].answer or "" for i in cited], [rows[i].chunks for i in cited], threads=threads
    )
    for i, report in zip(cited, reports):
        claims = [c for c in report.claims if not c.is_meta]
        out[i] = {
            "score": min((c.score for c in claims), default=1.0),
            "grounded": report.is_grounded,
            "supported_ratio": report.supported_ratio,
            "attribution_coverage": report.attribution_coverage,
            "uncovered": [
                {"sentence": c.sentence, "score": c.score, "reason": c.reason} for c in claims if not c.is_covered
            ],
        }
    for i, row in enumerate(rows):
        if out[i] or row.answer is None:
            continue
        claim = coverage.check_claim(row.answer, row.chunks)
        # Uncited, check_claim calls it uncovered ("cite it"); an eval file of plain answers grades support alone.
        supported = claim.is_meta or claim.score >= claim.threshold
        out[i] = {
            "score": claim.score,
            "grounded": supported,
            "supported_ratio": 1.0 if supported else 0.0,
            "attribution_coverage": None,
            "uncovered": []
            if supported
            else [{"sentence": claim.sentence, "score": claim.score, "reason": claim.reason}],
        }
    return out


def _batches(items: Iterable[Row | RowError], size: int) -> Iterator[list[Row | RowError]]:
    batch: list[Row | RowError] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def score_batch(
    batch: list[Row | RowError],
    *,
    checker: SufficientContextChecker | None,
    coverage: ClaimCoverage | None,
    threads: int,
) -> tuple[list[tuple[Row, dict[str, Any]]], list[tuple[int, str]]]:
    """Score one batch: each good row with its result record (input order), and the bad rows as (line, message)
    in line order. The one scoring path of every engine (this runner, the Ray stage of ``sufficient_context.scale``),
    so their results are identical. A check given as None is not run (its key is left out of the record)."""
    good = [r for r in batch if isinstance(r, Row)]
    bad = [(r.line, r.message) for r in batch if isinstance(r, RowError)]
    results: list[SufficiencyResult | None]
    claims: list[dict[str, Any]]
    try:
        results = [None] * len(good)
        if checker is not None:
            results[:] = checker.check_batch([r.query for r in good], [r.chunks for r in good], threads=threads)
        claims = [{}] * len(good) if coverage is None else _claims_of(coverage, good, threads)
    except (TypeError, ValueError):
        # One bad row fails a whole batch call; score the batch row by row to find it and keep the rest.
        results, claims, kept = [], [], []
        for row in good:
            try:
                results.append(None if checker is None else checker.check_sufficiency(row.query, row.chunks))
                claims.extend([{}] if coverage is None else _claims_of(coverage, [row], 1))
                kept.append(row)
            except (TypeError, ValueError) as exc:
                bad.append((row.line, str(exc)))
        good = kept
    scored: list[tuple[Row, dict[str, Any]]] = []
    for row, result, claim in zip(good, results, claims):
        record: dict[str, Any] = {"line": row.line, "id": row.id, "kind": row.kind, "label": row.label}
        if result is not None:
            record["sufficiency"] = {
                "score": result.score,
                "level": result.level.value,
                "missing_terms": result.missing_terms,
                "missing_aspects": result.missing_aspects,
            }
        if claim:
            record["claims"] = claim
        scored.append((row, record))
    return scored, sorted(bad)


def tally(summary: Summary, record: dict[str, Any], check: str) -> None:
    """Add one row's record to `summary`; `check` is the check its label grades (``Row.check``)."""
    summary.rows += 1
    suff = record.get("sufficiency")
    if suff is not None:
        level = suff["level"]
        label = record["label"] if check == "sufficiency" else None
        summary.sufficiency.add(suff["score"], level, level == "sufficient", label, record["kind"])
    claim = record.get("claims")
    if claim is not None:
        claims_label = record["label"] if check == "claims" else None
        outcome = "grounded" if claim["grounded"] else "not_grounded"
        summary.claims.add(claim["score"], outcome, claim["grounded"], claims_label, record["kind"])
        summary.claims.supported_sum += Fraction(claim["supported_ratio"])
        if claim["attribution_coverage"] is not None:
            summary.claims.attribution_sum += Fraction(claim["attribution_coverage"])
            summary.claims.attribution_rows += 1


def evaluate_rows(
    rows: Iterable[Row | RowError],
    *,
    checker: SufficientContextChecker | None = None,
    coverage: ClaimCoverage | None = None,
    threads: int | None = None,
    on_row: Callable[[dict[str, Any]], None] | None = None,
    on_batch: Callable[[int], None] | None = None,
) -> Summary:
    """Score `rows` (from :func:`read_rows`), calling `on_row` with each row's result and `on_batch` with the
    number of rows each batch held; returns the summary."""
    checker = checker or SufficientContextChecker()
    coverage = coverage or ClaimCoverage()
    threads = threads or os.cpu_count() or 1
    summary = Summary(thresholds_of(checker, coverage))
    for batch in _batches(rows, BATCH):
        scored, bad = score_batch(batch, checker=checker, coverage=coverage, threads=threads)
        for line, message in bad:
            summary.bad(line, message)
        for row, record in scored:
            tally(summary, record, row.check)
            if on_row is not None:
                on_row(record)
        if on_batch is not None:
            on_batch(len(batch))
    return summary


def thresholds_of(checker: SufficientContextChecker, coverage: ClaimCoverage) -> dict[str, float]:
    sufficient, partial = checker.thresholds
    return {"sufficient": sufficient, "partial": partial, "min_overlap": coverage.min_overlap}


def evaluate_file(
    source: Source,
    out_dir: str | os.PathLike[str] | None = None,
    *,
    checker: SufficientContextChecker | None = None,
    coverage: ClaimCoverage | None = None,
    threads: int | None = None,
    report: bool = True,
    progress: Callable[[int], None] | None = None,
) -> Summary:
    """Evaluate a JSONL file. With `out_dir`, write ``results.jsonl`` (one line per row), ``summary.json`` and
    (``report=True``, needs the ``[report]`` extra for its plots) ``report.html``. `progress` is called with the
    bytes read so far after each batch."""
    out = None if out_dir is None else Path(out_dir)
    handle: IO[str] | None = None
    outputs = () if out is None else (out / "results.jsonl", out / "summary.json", out / "report.html")
    if out is not None and out.exists() and not out.is_dir():
        raise ValueError(f"out_dir: {os.fspath(out)!r} is not a folder")
    if isinstance(source, (str, os.PathLike)):
        for output in outputs:
            if output.exists() and os.path.samefile(source, output):
                raise ValueError(f"out_dir: {os.fspath(output)!r} is the input file; writing it would erase the input")
    partial = None
    stream = open(source, "rb") if isinstance(source, (str, os.PathLike)) else source  # noqa: SIM115
    try:
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)
            for output in outputs:  # a previous run's files never sit beside this run's results
                output.unlink(missing_ok=True)
            # Named .partial until every row is written: an interrupted run leaves no complete-looking results.jsonl.
            partial = out / "results.jsonl.partial"
            handle = open(partial, "w", encoding="utf-8")  # noqa: SIM115 - closed in finally
        write: Callable[[dict[str, Any]], None] | None = None
        if handle is not None:
            out_handle = handle

            def write(record: dict[str, Any]) -> None:
                out_handle.write(json.dumps(record, ensure_ascii=False) + "\n")

        on_batch = None if progress is None else (lambda _n: progress(stream.tell()))
        summary = evaluate_rows(
            read_rows(stream), checker=checker, coverage=coverage, threads=threads, on_row=write, on_batch=on_batch
        )
    finally:
        if handle is not None:
            handle.close()
        if stream is not source:
            stream.close()
    if out is not None and partial is not None:
        partial.replace(out / "results.jsonl")
        (out / "summary.json").write_text(json.dumps(summary.to_dict(), indent=2) + "\n", encoding="utf-8")
        if report:
            from .report import write_report

            name = os.fspath(source) if isinstance(source, (str, os.PathLike)) else getattr(source, "name", "stream")
            write_report(summary, out / "report.html", title=f"Evaluation of {name}")
    return summary
