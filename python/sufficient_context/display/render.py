"""Render result objects to HTML through the Jinja2 templates in ``templates/`` (one per result type)."""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from typing import Any

import jinja2
from markupsafe import Markup

from ..assembly import CAVEAT, LOW_CONFIDENCE_BANNER
from ..checker import SufficiencyResult
from ..claims import AnswerCoverage, ClaimResult
from ..gate import RetrievalDecision
from ..pipeline.envelope import GroundedAnswer
from ..query_types import EvidenceSufficiency
from ..sentences import citation_ids, split_sentences

__all__ = ["Comparison", "compare", "render_html", "summary_text"]

_TEMPLATES: tuple[tuple[type, str], ...] = (
    (SufficiencyResult, "sufficiency.html.j2"),
    (ClaimResult, "claim.html.j2"),
    (AnswerCoverage, "answer_coverage.html.j2"),
    (RetrievalDecision, "retrieval.html.j2"),
    (EvidenceSufficiency, "evidence.html.j2"),
    (GroundedAnswer, "grounded_answer.html.j2"),
)
# Verdict words of every view -> badge colour; anything else is neutral grey.
_TONES = {
    "covered": "good", "supported": "good", "grounded": "good", "sufficient": "good", "answered": "good",
    "normal": "good", "partial": "fair", "answered_with_caveat": "fair", "weak_evidence": "fair",
    "uncovered": "poor", "unsupported": "poor", "removed": "poor", "not grounded": "poor", "insufficient": "poor",
    "insufficient_evidence": "poor", "no_evidence": "poor",
}  # fmt: skip


def _tone(value: float) -> str:
    """A bar's colour from its own value (NaN reads as poor)."""
    return "good" if value >= 0.8 else "fair" if value >= 0.5 else "poor"


def _width(value: float) -> str:
    return f"{max(0.0, min(1.0, value)) * 100 if math.isfinite(value) else 0.0:.1f}%"


def _num(value: float, digits: int = 2) -> str:
    return f"{value:.{digits}f}"


def _pct(value: float) -> str:
    return f"{value:.0%}"


@functools.cache
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("sufficient_context.display", "templates"),  # works from an installed wheel
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,  # a misspelt field fails loudly instead of rendering empty
    )
    env.filters.update(tone=_tone, width=_width, num=_num, pct=_pct, status_tone=lambda s: _TONES.get(s, "neutral"))
    return env


def _no_view(result: object) -> TypeError:
    supported = ", ".join(kind.__name__ for kind, _ in _TEMPLATES)
    return TypeError(f"no notebook view for {type(result).__name__}; expected one of {supported}")


def _template_for(result: object) -> str:
    for kind, name in _TEMPLATES:
        if isinstance(result, kind):
            return name
    raise _no_view(result)


def _render(result: object, standalone: bool) -> str:
    context: dict[str, Any] = {}
    if isinstance(result, GroundedAnswer):
        context = _grounded_context(result)
    template = _environment().get_template(_template_for(result))
    return template.render(r=result, standalone=standalone, **context)


def render_html(result: object) -> str:
    """The notebook view of one result (its CSS included): what ``_repr_html_`` returns."""
    return _render(result, standalone=True)


# -- GroundedAnswer: the envelope keeps sentences, not claim results; rebuild one row per sentence -----------------


def _where(source: dict[str, Any]) -> str:
    parts = [str(source.get("document") or source["id"])]
    section = str(source.get("section") or "")
    if section:
        parts.append(f"Section {section}" if section[0].isdigit() else section)
    if source.get("page"):
        parts.append(f"p. {source['page']}")
    return ", ".join(parts)


def _grounded_context(a: GroundedAnswer) -> dict[str, Any]:
    by_label = {str(s.get("label")): s for s in a.sources}

    def cites(sentence: str) -> list[str]:
        out = []
        for label in citation_ids(sentence):
            source = by_label.get(label)
            score = None if source is None else source.get("score")
            named = label if source is None else f"{label} = {source['id']}"
            out.append(named if score is None else f"{named} ({score:.2f})")
        return out

    rows: list[dict[str, Any]] = []
    if a.claims:  # the pipeline's own validation of every generated sentence
        for claim in a.claims:
            status = str(claim["status"])
            if status == "uncovered":
                verdict = "unsupported" if claim["kept"] else "removed"
            else:
                verdict = "supported" if status == "covered" else "meta"
            score = None if status == "meta" else claim["score"]
            reason = str(claim["reason"])
            if verdict == "removed":
                reason = f"Removed from the answer: {reason}"
            elif verdict == "unsupported":
                reason = f"Kept and flagged: {reason}"
            rows.append({"sentence": claim["sentence"], "verdict": verdict, "cites": cites(claim["sentence"]),
                         "reason": reason, "score": score, "threshold": claim["threshold"]})  # fmt: skip
    elif not a.refused:  # a refusal's answer is the decline message: no generated sentences to list
        body = a.answer[: -len(CAVEAT)] if a.answer.endswith(CAVEAT) else a.answer
        flagged = set(a.unsupported_sentences)
        for sentence in split_sentences(body):
            text, cited = sentence.text, cites(sentence.text)
            if text in flagged:
                verdict, reason = "unsupported", "Not supported by the chunks it cites; kept and flagged."
            elif cited:
                verdict, reason = "supported", "Passed claim validation: the chunks it cites back it."
            else:
                verdict, reason = "meta", "No claim to check (a meta statement)."
            rows.append({"sentence": text, "verdict": verdict, "cites": cited, "reason": reason, "score": None})
    for text in a.removed_sentences:
        if a.claims:
            break  # listed above with their scores
        rows.append({"sentence": text, "verdict": "removed", "cites": cites(text), "score": None,
                     "reason": "The cited chunks do not support it; removed from the answer."})  # fmt: skip
    why = []
    if a.gating:
        why.append(f"Retrieval gate: {a.gating.get('outcome')}. {a.gating.get('reason', '')}".strip())
    if a.sufficiency is not None:
        missing = "; ".join(str(m) for m in a.sufficiency.get("missing", ()))
        why.append(f"Sufficiency: {a.sufficiency['level']}" + (f"; missing: {missing}" if missing else "."))
    if a.meets_attribution_target is False:
        why.append("Attribution is below the target: some claim sentences cite no retrieved chunk.")
    sources = [{"label": s.get("label", ""), "where": _where(s), "score": s.get("score"), "id": s["id"]}
               for s in a.sources]  # fmt: skip
    banner = LOW_CONFIDENCE_BANNER if a.text.startswith(LOW_CONFIDENCE_BANNER) else ""
    return {"rows": rows, "sources": sources, "why": why, "banner": banner}


# -- text summaries and compare ------------------------------------------------------------------------------------


def summary_text(result: object) -> str:
    """One line of plain text about a result (what ``compare`` prints)."""
    if isinstance(result, SufficiencyResult):
        missing = f"; missing terms: {', '.join(result.missing_terms)}" if result.missing_terms else ""
        return f"{result.level.value} (score {result.score:.3f}){missing}"
    if isinstance(result, ClaimResult):
        return f"{result.status} (score {result.score:.2f}, threshold {result.threshold:.2f}): {result.reason}"
    if isinstance(result, AnswerCoverage):
        verdict = "grounded" if result.is_grounded else "not grounded"
        return (f"{verdict}: supported {result.covered_count}/{result.claim_count}, "
                f"attribution {result.attribution_coverage:.0%}")  # fmt: skip
    if isinstance(result, RetrievalDecision):
        return f"{result.outcome}: {result.reason}"
    if isinstance(result, EvidenceSufficiency):
        verdict = "sufficient" if result.is_sufficient else "insufficient"
        return f"{verdict} ({result.query_type} query): {result.reason}"
    if isinstance(result, GroundedAnswer):
        answer = result.answer if len(result.answer) <= 100 else result.answer[:99] + "…"  # one line per card
        return f"{result.status} (confidence {result.confidence:.2f}): {answer}"
    raise _no_view(result)


class Comparison:
    """Several results side by side: a row of cards in a notebook, one line each as text."""

    __slots__ = ("labels", "results")

    def __init__(self, results: Sequence[object], labels: Sequence[str]) -> None:
        self.results = tuple(results)
        self.labels = tuple(labels)

    def _repr_html_(self) -> str:
        # Each card was rendered with autoescape on, so it is safe markup for the page around it.
        cards = [(label, Markup(_render(r, standalone=False))) for label, r in zip(self.labels, self.results)]
        return _environment().get_template("compare.html.j2").render(cards=cards, standalone=True)

    def __str__(self) -> str:
        return "\n".join(f"{label}: {summary_text(r)}" for label, r in zip(self.labels, self.results))

    def __repr__(self) -> str:
        return f"Comparison(labels={list(self.labels)!r})"


def compare(results: Iterable[object], labels: Iterable[str] | None = None) -> Comparison:
    """Show `results` side by side (any mix of result types); `labels` name the cards (default: their types).

    Raises TypeError for a result without a view or a label that is not a str, ValueError when the numbers of
    results and labels differ.
    """
    items = list(results)
    for result in items:
        _template_for(result)
    if labels is None:
        names = [f"{i}. {type(r).__name__}" for i, r in enumerate(items, start=1)]
    else:
        names = list(labels)
        if not all(isinstance(name, str) for name in names):
            raise TypeError("labels must be str")
        if len(names) != len(items):
            raise ValueError(f"got {len(items)} results but {len(names)} labels")
    return Comparison(items, names)
