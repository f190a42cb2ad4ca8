"""Terminal output of the commands (rich): one function per result type. JSON output bypasses rich entirely."""

from __future__ import annotations

import json
import sys
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..checker import SufficiencyResult
from ..claims import AnswerCoverage
from ..pipeline import GroundedAnswer

_LEVEL_STYLE = {"sufficient": "bold green", "partial": "bold yellow", "insufficient": "bold red"}


def console() -> Console:
    # highlight=False: numbers and paths in reasons are data, not syntax; soft_wrap: the terminal wraps, not us.
    return Console(file=sys.stdout, highlight=False, soft_wrap=True)


def print_json(document: Any) -> None:
    # Non-ASCII as \uXXXX escapes when stdout is not UTF-8 (LC_ALL=C): still valid JSON, nothing lost.
    utf8 = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "") == "utf8"
    sys.stdout.write(json.dumps(document, ensure_ascii=not utf8, indent=2) + "\n")


def sufficiency(result: SufficiencyResult, thresholds: tuple[float, float], verbose: bool) -> None:
    out = console()
    level = result.level.value
    out.print(
        f"[{_LEVEL_STYLE[level]}]{level}[/] score {result.score:.3f} "
        f"(sufficient >= {thresholds[0]:g}, partial >= {thresholds[1]:g})"
    )
    if result.confidence_factors:
        out.print("[bold]Factors[/]")
        for factor in result.confidence_factors:
            out.print(f"  + {escape(factor)}")
    if result.missing_aspects:
        out.print("[bold]Missing[/]")
        for aspect in result.missing_aspects:
            out.print(f"  - {escape(aspect)}")
    if verbose:
        table = Table("signal", "value", title="Signals")
        for name, value in result.signals.items():
            table.add_row(name, f"{value:.3f}")
        out.print(table)
        out.print(f"covered terms: {escape(', '.join(result.covered_terms) or '-')}")
        out.print(f"missing terms: {escape(', '.join(result.missing_terms) or '-')}")


def claims(report: AnswerCoverage, verbose: bool) -> None:
    out = console()
    table = Table("#", "verdict", "score", "sentence", "reason", show_lines=verbose)
    for number, claim in enumerate(report.claims, start=1):
        style = "green" if claim.is_covered else ("cyan" if claim.is_meta else "red")
        sentence = claim.sentence if verbose or len(claim.sentence) <= 70 else claim.sentence[:67] + "..."
        table.add_row(
            str(number),
            f"[{style}]{claim.status}[/]",
            "" if claim.is_meta else f"{claim.score:.2f}",
            escape(sentence),
            escape(claim.reason),
        )
    out.print(table)
    verdict = "[bold green]grounded[/]" if report.is_grounded else "[bold red]not grounded[/]"
    out.print(
        f"{verdict}: {report.covered_count} of {report.claim_count} claim sentences supported "
        f"(supported_ratio {report.supported_ratio:.2f}), attribution_coverage "
        f"{report.attribution_coverage:.2f}"
    )
    if report.unknown_citations:
        out.print(f"citations naming no chunk: {escape(', '.join(report.unknown_citations))}")
    if report.missing_citations:
        out.print(f"chunks used but not cited: {escape(', '.join(report.missing_citations))}")


def validation_block(result: GroundedAnswer, retrieved: int) -> list[tuple[str, str]]:
    """The original design's validation block, as (label, value) rows."""
    sufficiency = result.sufficiency or {}
    level = sufficiency.get("level")
    cited = ", ".join(f"[{s['label']}] {s['id']}" for s in result.sources) or "none"
    coverage = result.attribution_coverage
    citations = "n/a" if coverage is None else f"{coverage:.0%} of claim sentences cite a retrieved chunk"
    return [
        (
            "Evidence Sufficient",
            "n/a"
            if level is None
            else f"{'yes' if level == 'sufficient' else 'no'} ({level}, score {sufficiency.get('score', 0.0):.2f})",
        ),
        ("Grounded", "yes" if grounded(result) else "no"),
        ("Citations", citations),
        ("Cited Sources", cited),
        ("Uncovered Claims", str(len(result.removed_sentences) + len(result.unsupported_sentences))),
        ("Retrieved Chunks", str(retrieved)),
        ("Status", result.status),
    ]


def grounded(result: GroundedAnswer) -> bool:
    """Every sentence left in the answer is supported and cites a retrieved chunk (nothing generated: not grounded)."""
    return (
        result.attribution_coverage is not None
        and not result.unsupported_sentences
        and bool(result.meets_attribution_target)
    )


def answer(result: GroundedAnswer, retrieved: int, verbose: bool) -> None:
    out = console()
    out.print(escape(result.text))
    out.print()
    table = Table(show_header=False, title="Validation")
    for label, value in validation_block(result, retrieved):
        table.add_row(f"[bold]{label}[/]", escape(value))
    out.print(table)
    if verbose:
        for sentence in result.removed_sentences:
            out.print(f"[red]removed:[/] {escape(sentence)}")
        for sentence in result.unsupported_sentences:
            out.print(f"[red]unsupported:[/] {escape(sentence)}")
        out.print(f"gate: {escape(str(result.gating))}")


def evaluation(summary: dict[str, Any], out_dir: str | None, *, report: bool = True) -> None:
    out = console()
    rows, bad = summary["rows"], summary["bad_rows"]
    out.print(f"{rows} row{'' if rows == 1 else 's'} evaluated, {bad} bad row{'' if bad == 1 else 's'}")
    shown = summary["bad_row_examples"][:5]
    for example in shown:
        out.print(f"  [red]line {example['line']}[/]: {escape(example['error'])}")
    if bad > len(shown):
        where = "summary.json lists" if out_dir else "--json shows"
        out.print(f"  (the first {len(shown)} of {bad}; {where} the first {len(summary['bad_row_examples'])})")
    for check in ("sufficiency", "claims"):
        section = summary.get(check)
        if not section:
            continue
        table = Table("measure", "value", title=check)
        counts = section.get("levels") or section.get("grounded") or {}
        for name, count in counts.items():
            table.add_row(name, str(count))
        table.add_row("score mean", _num(section["score"]["mean"]))
        if section.get("labelled"):
            table.add_row("AUROC", _num(section.get("auroc")))
            table.add_row("accuracy", _num(section["confusion"]["accuracy"]))
            table.add_row("balanced accuracy", _num(section["confusion"]["balanced_accuracy"]))
        out.print(table)
        if section.get("by_kind"):
            kinds = Table("kind", "rows", "AUROC", "accuracy", title=f"{check} per kind")
            for kind, k in section["by_kind"].items():
                kinds.add_row(escape(kind), str(k["rows"]), _num(k["auroc"]), _num(k["confusion"]["accuracy"]))
            if section.get("other_kinds"):
                k = section["other_kinds"]
                name = f"(other kinds, after the first {len(section['by_kind'])})"
                kinds.add_row(name, str(k["rows"]), _num(k["auroc"]), _num(k["confusion"]["accuracy"]))
            out.print(kinds)
    if out_dir:
        written = "results.jsonl, summary.json and report.html" if report else "results.jsonl and summary.json"
        out.print(f"wrote {escape(out_dir)}/{written}")


def _num(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.3f}"
