"""The result envelope of one grounded answer: what a gateway serialises as it is."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["STATUSES", "GroundedAnswer"]

STATUSES = ("answered", "answered_with_caveat", "insufficient_evidence", "no_evidence")
"""``answered``: sufficient context, grounded answer. ``answered_with_caveat``: answered on partial context, weak
retrieval or with the sufficiency check off-policy (the caveat or banner says which). ``insufficient_evidence``:
declined because the context cannot answer, or nothing generated survived validation. ``no_evidence``: the retrieval
gate stopped it; no model was called."""


@dataclass(frozen=True)
class GroundedAnswer:
    """The envelope of one ``GroundedAnswerer.answer`` call.

    Attributes
    ----------
    status : str
        One of :data:`STATUSES`.
    query : str
    answer : str
        The answer as it may be shown: validated sentences citing the S1..Sn labels the model saw (``sources`` maps
        each label to its chunk id), a decline, or the no-evidence message; a caveat or banner when one applies.
    text : str
        The "Answer:" block (the LOW CONFIDENCE banner instead of "Answer:" on weak evidence) plus the "Sources:"
        list of the chunks the answer cites.
    sources : tuple of dict
        The cited chunks: ``id`` (the chunk's own id), ``label`` (S1..Sn as the model saw it), ``document``,
        ``section``, ``page``, ``score``.
    evidence_ids : tuple of str
        The chunk ids the answer cites, in first-cited order.
    sufficiency : dict or None
        ``score, level, factors, missing`` of the sufficiency check; None when it was off (``enabled: false``) or
        never reached (no evidence).
    gating : dict
        The retrieval gate's decision (``outcome``, ``max_score``, ``passing_chunks``, ``message``, ``min_score``,
        ``min_chunks``).
    attribution_coverage : float or None
        Claim sentences citing a retrieved chunk / claim sentences of the final answer (None when nothing was
        generated).
    meets_attribution_target : bool or None
        attribution_coverage >= the target (0.9 by default).
    removed_sentences : tuple of str
        Generated sentences the chunks did not support, removed from the answer (with a Markdown heading the chunks
        do not back, and every sentence of a table one of whose sentences went).
    unsupported_sentences : tuple of str
        Sentences (and Markdown headings) of the final answer the chunks do not support (``on_unsupported="flag"``
        keeps them).
    confidence : float
        Sufficiency score x share of the generated claim sentences the chunks supported (0 when refused by the gate).
    claims : tuple of dict
        The validation of each generated sentence: ``sentence``, ``status`` (covered / uncovered / meta), ``score``,
        ``threshold``, ``reason``, ``kept`` (whether it stays in the answer). Empty when nothing was generated.
    checks : dict
        What ran: ``retrieval_gate``, ``sufficiency`` (False when disabled), ``claims``, ``generator`` (extractive,
        callable, langchain, llamaindex or none), ``generator_calls``.
    elapsed_ms : float
        Wall time of the call.
    """

    status: str
    query: str
    answer: str
    text: str
    sources: tuple[dict[str, Any], ...] = ()
    evidence_ids: tuple[str, ...] = ()
    sufficiency: dict[str, Any] | None = None
    gating: dict[str, Any] = field(default_factory=dict)
    attribution_coverage: float | None = None
    meets_attribution_target: bool | None = None
    removed_sentences: tuple[str, ...] = ()
    unsupported_sentences: tuple[str, ...] = ()
    confidence: float = 0.0
    checks: dict[str, Any] = field(default_factory=dict)
    elapsed_ms: float = 0.0
    claims: tuple[dict[str, Any], ...] = ()

    @property
    def refused(self) -> bool:
        """Whether the pipeline declined to answer (no evidence, or insufficient evidence)."""
        return self.status in ("insufficient_evidence", "no_evidence")

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable form (tuples as lists)."""
        data = asdict(self)
        for key in ("sources", "evidence_ids", "removed_sentences", "unsupported_sentences", "claims"):
            data[key] = list(data[key])
        return data

    def to_json(self, **kwargs: Any) -> str:
        """``json.dumps(self.to_dict(), ensure_ascii=False, **kwargs)``."""
        kwargs.setdefault("ensure_ascii", False)
        return json.dumps(self.to_dict(), **kwargs)

    def _repr_html_(self) -> str:
        from ..display import render_html  # lazy: display imports this module

        return render_html(self)
