"""GroundedAnswerer: the grounded answering pipeline around the three checks, as one library object."""

from __future__ import annotations

import copy
import math
import time
from collections.abc import Iterable, Sequence
from typing import Any

from .._args import as_float, replace_surrogates
from ..assembly import (
    CAVEAT,
    DECLINE_TEMPLATE,
    LOW_CONFIDENCE_BANNER,
    NOT_IN_DOCUMENTATION_ANSWER,
    PROMPTS,
    format_context,
    one_line,
    source_fields,
)
from ..checker import Level, SufficiencyResult, SufficientContextChecker
from ..chunks import Chunk, ChunkLike, as_chunks
from ..claims import AnswerCoverage, ClaimCoverage, ClaimResult, keep_covered, says_nothing
from ..config import ON_UNSUPPORTED, ConfigSource, load_pipeline_config
from ..gate import NO_EVIDENCE_MESSAGE, EvidenceSufficiencyGate
from ..sentences import extract_citations
from .citations import canonical_citations, source_ids
from .envelope import GroundedAnswer
from .extractive import extractive_answer
from .generators import Generator, as_generator
from .markdown import layout

__all__ = ["STRICT_INSTRUCTION", "GroundedAnswerer"]

STRICT_INSTRUCTION = (
    "\nYour previous answer contained sentences the context does not support:\n{sentences}\n"
    "Answer again. Write only sentences the context states, each with its label; drop anything you cannot cite."
)
"""Appended to the system prompt for the one regeneration ``on_unsupported="regenerate"`` allows."""

_MAX_DECLINE_ASPECTS = 2


class GroundedAnswerer:
    """Gate, check, prompt, generate, validate, cite and refuse, in one call.

    Parameters
    ----------
    checker : SufficientContextChecker, optional
        Is the context enough? Its policy flags drive the pipeline: ``enabled=False`` skips the check,
        ``decline_insufficient`` declines on "insufficient" (else the answer goes ahead under the LOW CONFIDENCE
        banner). Default: ``SufficientContextChecker(decline_insufficient=True)``.
    gate : EvidenceSufficiencyGate, optional
        Runs the retrieval gate (a disabled gate lets everything through and says what it would have done).
    claims : ClaimCoverage, optional
        Validates the generated answer sentence by sentence (default ``ClaimCoverage()``).
    min_score, min_chunks, weak_score
        The retrieval gate: no model call unless at least `min_chunks` chunks score >= `min_score`; the best score
        under `weak_score` answers under the LOW CONFIDENCE banner. Chunks without a retrieval score (plain texts)
        are gated on their count only.
    prompt : str
        ``"grounded"`` (:data:`~sufficient_context.GROUNDED_SYSTEM_PROMPT`), ``"legal"``
        (:data:`~sufficient_context.LEGAL_SYSTEM_PROMPT`) or a template of your own with one ``{context}`` field.
    on_unsupported : {"remove", "regenerate", "flag"}
        What happens to generated sentences the chunks do not support: removed; one stricter regeneration, then
        removed; or kept and listed in ``unsupported_sentences``.
    attribution_target : float
        ``meets_attribution_target`` is attribution_coverage >= this (the original design's 0.9).
    max_extract_sentences : int
        Sentences the built-in extractive answerer may use.
    query_log : QueryLog, optional
        Every call is recorded there (status, scores, attribution coverage, removed sentences, latency).
    stats : optional
        An object with ``record(SufficiencyResult)`` (``SufficiencyStats``) fed with every sufficiency result.

    ``answer()`` never mutates the object: one answerer serves many threads (the log and stats are thread-safe).
    """

    def __init__(
        self,
        checker: SufficientContextChecker | None = None,
        gate: EvidenceSufficiencyGate | None = None,
        claims: ClaimCoverage | None = None,
        *,
        min_score: float = 0.20,
        min_chunks: int = 2,
        weak_score: float | None = None,
        prompt: str = "grounded",
        on_unsupported: str = "remove",
        attribution_target: float = 0.9,
        max_extract_sentences: int = 3,
        query_log: Any = None,
        stats: Any = None,
    ) -> None:
        for name, value, kind in (
            ("checker", checker, SufficientContextChecker),
            ("gate", gate, EvidenceSufficiencyGate),
            ("claims", claims, ClaimCoverage),
        ):
            if value is not None and not isinstance(value, kind):
                raise TypeError(f"{name} must be a {kind.__name__} or None; got {type(value).__name__}")
        self.checker = checker if checker is not None else SufficientContextChecker(decline_insufficient=True)
        self.gate = gate if gate is not None else EvidenceSufficiencyGate()
        self.claims = claims if claims is not None else ClaimCoverage()
        self.min_score = _finite(min_score, "min_score")
        if isinstance(min_chunks, bool) or not isinstance(min_chunks, int) or min_chunks < 1:
            raise ValueError(f"min_chunks must be an int >= 1; got {min_chunks!r}")
        self.min_chunks = min_chunks
        self.weak_score = None if weak_score is None else _finite(weak_score, "weak_score")
        if self.weak_score is not None and self.weak_score < self.min_score:
            raise ValueError(f"weak_score must be >= min_score; got {weak_score!r} < {min_score!r}")
        if not isinstance(prompt, str):
            raise TypeError(f"prompt must be 'grounded', 'legal' or a template str; got {type(prompt).__name__}")
        template = PROMPTS.get(prompt, prompt)
        _check_template(template)
        self.prompt = prompt
        self._template = template
        if on_unsupported not in ON_UNSUPPORTED:
            raise ValueError(f"on_unsupported must be one of {', '.join(ON_UNSUPPORTED)}; got {on_unsupported!r}")
        self.on_unsupported = on_unsupported
        self.attribution_target = _finite(attribution_target, "attribution_target")
        if not 0.0 <= self.attribution_target <= 1.0:
            raise ValueError(f"attribution_target must be in [0, 1]; got {attribution_target!r}")
        if isinstance(max_extract_sentences, bool) or not isinstance(max_extract_sentences, int):
            raise TypeError(f"max_extract_sentences must be an int; got {type(max_extract_sentences).__name__}")
        if max_extract_sentences < 1:
            raise ValueError(f"max_extract_sentences must be >= 1; got {max_extract_sentences}")
        self.max_extract_sentences = max_extract_sentences
        for name, value in (("query_log", query_log), ("stats", stats)):
            if value is not None and not callable(getattr(value, "record", None)):
                raise TypeError(f"{name} must have a record() method (a QueryLog / SufficiencyStats) or be None; "
                                f"got {type(value).__name__}")  # fmt: skip
        self.query_log = query_log
        self.stats = stats

    @classmethod
    def from_config(
        cls,
        source: ConfigSource,
        embedding_model: Any = None,
        *,
        query_log: Any = None,
        stats: Any = None,
    ) -> GroundedAnswerer:
        """An answerer from the ``sufficient_context:``, ``claims:``, ``retrieval:`` and ``answering:`` sections of a
        YAML file (needs PyYAML) or a mapping (see :func:`sufficient_context.config.load_pipeline_config`). Unknown
        keys raise ValueError naming them and the keys that exist. ``decline_insufficient`` defaults to true here: a
        pipeline declines on insufficient context unless told otherwise."""
        config = load_pipeline_config(source)
        checker_kwargs = dict(config["sufficient_context"])
        checker_kwargs.setdefault("decline_insufficient", True)
        checker = SufficientContextChecker(embedding_model, **checker_kwargs)
        claims = ClaimCoverage(**config["claims"])
        return cls(
            checker, claims=claims, **config["retrieval"], **config["answering"], query_log=query_log, stats=stats
        )

    def __repr__(self) -> str:
        return (
            f"GroundedAnswerer(checker={self.checker!r}, gate={self.gate!r}, claims={self.claims!r}, "
            f"min_score={self.min_score!r}, min_chunks={self.min_chunks!r}, weak_score={self.weak_score!r}, "
            f"prompt={self.prompt!r}, on_unsupported={self.on_unsupported!r}, "
            f"attribution_target={self.attribution_target!r})"
        )

    def __getstate__(self) -> dict[str, Any]:
        # The configuration travels; a query log (an open SQLite file) and stats stay with their process.
        state = dict(self.__dict__)
        state["query_log"] = None
        state["stats"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    # -- the pipeline --------------------------------------------------------------------------------------------

    def answer(self, query: str, chunks: Iterable[ChunkLike], generate: Any = None) -> GroundedAnswer:
        """Answer `query` from `chunks` only, or decline; see the module docstring for the order of steps.

        Parameters
        ----------
        query : str
        chunks : sequence of chunks
            Anything :func:`sufficient_context.as_chunks` accepts, in retrieval order, with scores when the
            retriever gives them.
        generate : optional
            A callable ``(system_prompt, user_prompt) -> str``, a LangChain chat model (``.invoke``) or a
            LlamaIndex LLM (``.complete``). None: the built-in extractive answerer (no model, no key).
        """
        started = time.perf_counter()
        if not isinstance(query, str):
            raise TypeError(f"query must be a str; got {type(query).__name__}")
        # The checks read lone surrogates as U+FFFD; the prompt, the envelope and its JSON need them gone too.
        query = replace_surrogates(query)
        given = as_chunks(chunks, argument="chunks")
        generator: Generator | None = None
        kind = "extractive"
        if generate is not None:
            generator, kind = as_generator(generate)
        checks: dict[str, Any] = {"retrieval_gate": True, "sufficiency": False, "claims": False, "generator": kind}

        gating, evidence = self.retrieval_gate(given)
        if gating["outcome"] == "no_evidence":
            checks["generator"] = "none"
            # With the gate's reason, as the LlamaIndex postprocessor says it: "No supporting documentation found"
            # alone misleads when one relevant chunk was found and min_chunks asks for two.
            message = f"{NO_EVIDENCE_MESSAGE} {gating['reason']}".strip()
            return self._finish(started, query, given, "no_evidence", message, gating=gating, checks=checks)

        labelled = [_relabel(chunk, f"S{i}") for i, chunk in enumerate(evidence, start=1)]
        owners = {f"S{i}": chunk for i, chunk in enumerate(evidence, start=1)}
        result: SufficiencyResult | None = None
        banner = gating["outcome"] == "weak_evidence"
        caveat = False
        if self.checker.enabled:
            checks["sufficiency"] = True
            result = self.checker.check_sufficiency(query, labelled)
            if self.stats is not None:
                self.stats.record(result)
            if result.level is Level.INSUFFICIENT:
                if self.checker.decline_insufficient:
                    checks["generator"] = "none"
                    return self._finish(started, query, given, "insufficient_evidence", decline_message(result),
                                        gating=gating, sufficiency=result, checks=checks)  # fmt: skip
                banner = True
            elif result.level is Level.PARTIAL:
                caveat = True

        user = f"Question: {query}"
        system = "" if generator is None else self._template.format(context=format_context(labelled))
        draft = self._generate(generator, query, labelled, system, user)
        own_ids: dict[str, str] = {}
        if generator is not None:  # "[1]", "(S1)", "[IPC_420]"...: read as the [S1] they mean
            own_ids = source_ids(list(owners), [str(chunk.id) for chunk in evidence])
            draft = canonical_citations(draft, len(labelled), own_ids)
        checks["generator_calls"] = 1 if generator is not None else 0
        checks["claims"] = True
        # Headings, fences, rules and the model's own source list are no claims: the check reads the draft with them
        # blanked (offsets unchanged), and the shown answer is rebuilt from the draft around them.
        structure = layout(draft) if generator is not None else None
        report = self._validate(draft if structure is None else structure.text, labelled)
        # The model's own refusal is what the prompt asks for when the context lacks the answer: asking again
        # would press it to answer anyway.
        if (self.on_unsupported == "regenerate" and generator is not None and report is not None and report.uncovered
                and not _is_refusal(draft)):  # fmt: skip
            listed = "\n".join(f"- {claim.sentence}" for claim in report.uncovered)
            draft = canonical_citations(generator(system + STRICT_INSTRUCTION.format(sentences=listed), user),
                                        len(labelled), own_ids)  # fmt: skip
            checks["generator_calls"] = 2
            structure = layout(draft)
            report = self._validate(structure.text, labelled)
        if report is None:  # too long to check: nothing unchecked is shown
            checks["too_long_to_check"] = True
            return self._finish(started, query, given, "insufficient_evidence", NOT_IN_DOCUMENTATION_ANSWER,
                                gating=gating, sufficiency=result, checks=checks)  # fmt: skip

        supported = report.covered_count / report.claim_count if report.claim_count else 1.0
        confidence = (result.score if result is not None else 1.0) * supported
        if _is_refusal(draft):
            # What the model adds after its refusal ("... However, X [S1].") is not shown; it is kept as removed, so
            # the log has it.
            after = draft.index(NOT_IN_DOCUMENTATION_ANSWER) + len(NOT_IN_DOCUMENTATION_ANSWER)
            added = tuple(c.sentence for c in report.claims if c.start >= after)
            return self._finish(started, query, given, "insufficient_evidence", NOT_IN_DOCUMENTATION_ANSWER,
                                gating=gating, sufficiency=result, checks=checks, removed=added)  # fmt: skip
        uncovered: tuple[str, ...] = tuple(c.sentence for c in report.uncovered)
        kept: list[ClaimResult]
        removed: tuple[str, ...]
        unsupported: tuple[str, ...]
        if structure is not None:
            final, kept, headings = structure.keep(
                report,
                self.on_unsupported == "flag",
                lambda title, ids: self._heading_supported(title, [i for i in ids if i in owners], labelled),
            )
            kept_ids = {id(c) for c in kept}
            dropped = tuple(c.sentence for c in report.claims if id(c) not in kept_ids)  # a table goes whole
            if self.on_unsupported == "flag":
                removed, unsupported = dropped, uncovered + headings
            else:
                removed, unsupported = dropped + headings, ()
        elif self.on_unsupported == "flag":
            final, kept, removed, unsupported = draft.strip(), list(report.claims), (), uncovered
        else:
            final, kept = keep_covered(draft, report)
            removed, unsupported = uncovered, ()
        kept_ids = {id(c) for c in kept}
        validation = tuple(
            {"sentence": c.sentence, "status": c.status, "score": c.score, "threshold": c.threshold,
             "reason": c.reason, "kept": id(c) in kept_ids}
            for c in report.claims
        )  # fmt: skip
        # Nothing supported left is a refusal in every mode: "flag" keeps unsupported sentences, but an answer made
        # of them alone must not go out as answered; none is shown, so they are removed (and logged as such).
        if not any(c.is_covered and _says_something(c) for c in kept) or not final:
            return self._finish(started, query, given, "insufficient_evidence", NOT_IN_DOCUMENTATION_ANSWER,
                                gating=gating, sufficiency=result, checks=checks,
                                removed=removed + unsupported,
                                claims=tuple({**c, "kept": False} for c in validation))  # fmt: skip
        claims_kept = [c for c in kept if not c.is_meta]
        attributed = sum(any(cid in owners for cid in c.citations) for c in claims_kept)
        attribution = attributed / len(claims_kept)
        cited = list(dict.fromkeys(cid for c in kept for cid in c.citations if cid in owners))
        status = "answered_with_caveat" if (banner or caveat) else "answered"
        if caveat:
            final = f"{final}\n\n{CAVEAT}"
        return self._finish(started, query, given, status, final, gating=gating, sufficiency=result, checks=checks,
                            removed=removed, unsupported=unsupported, cited=[(cid, owners[cid]) for cid in cited],
                            attribution=attribution, confidence=confidence, banner=banner,
                            claims=validation)  # fmt: skip

    # -- steps ---------------------------------------------------------------------------------------------------

    def retrieval_gate(self, chunks: Iterable[ChunkLike]) -> tuple[dict[str, Any], list[Chunk]]:
        """The first step of :meth:`answer`: the retrieval gate's decision as a dict, and the chunks that go on to the
        check and the model (those reaching min_score; all of them when gating is disabled). Takes any chunks
        :func:`as_chunks` takes."""
        given: list[Chunk]
        if isinstance(chunks, list) and all(type(c) is Chunk for c in chunks):
            given = chunks  # answer() passes what as_chunks made
        else:
            given = as_chunks(chunks, argument="chunks")
        decision = self.gate.evaluate_retrieval(given, self.min_score, self.min_chunks, self.weak_score)
        passing = set(decision.passing_chunks)
        evidence = [c for c in given if str(c.id) in passing] if decision.gating_enabled else list(given)
        gating = decision.to_dict()
        return gating, evidence

    def _validate(self, draft: str, labelled: Sequence[Chunk]) -> AnswerCoverage | None:
        """The claim check of a generated answer; None when it has more sentences than the check's max_sentences."""
        try:
            return self.claims.check_answer(draft, labelled)
        except ValueError as exc:
            if "more than max_sentences" in str(exc):
                return None
            raise

    def _heading_supported(self, title: str, known: Sequence[str], labelled: Sequence[Chunk]) -> bool:
        """Whether the chunks back a heading's words: those it cites, else `known`, the sources the claims under it
        cite."""
        if not extract_citations(title):
            if not known:
                return False
            title = f"{title} [{', '.join(known)}]"
        return self.claims.check_claim(title, labelled).is_covered

    def _generate(
        self, generator: Generator | None, query: str, labelled: Sequence[Chunk], system: str, user: str
    ) -> str:
        if generator is None:
            return extractive_answer(query, labelled, self.max_extract_sentences)
        return generator(system, user)

    def _finish(
        self,
        started: float,
        query: str,
        given: list[Chunk],
        status: str,
        answer: str,
        *,
        gating: dict[str, Any],
        checks: dict[str, Any],
        sufficiency: SufficiencyResult | None = None,
        removed: tuple[str, ...] = (),
        unsupported: tuple[str, ...] = (),
        cited: Sequence[tuple[str, Chunk]] = (),
        attribution: float | None = None,
        confidence: float = 0.0,
        banner: bool = False,
        claims: tuple[dict[str, Any], ...] = (),
    ) -> GroundedAnswer:
        sources = tuple({**source_fields(chunk), "label": label} for label, chunk in cited)
        lines = []
        for source in sources:
            # One line each: a file name or heading holding a line break cannot add a forged source line.
            parts = [one_line(source["document"] or source["id"])]
            section = one_line(source["section"] or "")
            if section:  # a bare section number reads as one: "Section 420"
                parts.append(f"Section {section}" if section[0].isdigit() else section)
            if source["page"]:
                parts.append(f"p. {source['page']}")
            score = "" if source["score"] is None else f" (score: {source['score']:.2f})"
            lines.append(f"- [{source['label']}] {', '.join(parts)}{score}")
        text = f"{LOW_CONFIDENCE_BANNER if banner else 'Answer:'}\n{answer}"
        if lines:
            text += "\n\nSources:\n" + "\n".join(lines)
        envelope = GroundedAnswer(
            status=status,
            query=query,
            answer=answer,
            text=text,
            sources=sources,
            evidence_ids=tuple(str(source["id"]) for source in sources),
            sufficiency=None if sufficiency is None else sufficiency_fields(sufficiency),
            gating=gating,
            attribution_coverage=attribution,
            meets_attribution_target=None if attribution is None else attribution >= self.attribution_target,
            removed_sentences=removed,
            unsupported_sentences=unsupported,
            confidence=round(confidence, 6),
            checks=checks,
            elapsed_ms=(time.perf_counter() - started) * 1000.0,
            claims=claims,
        )
        if self.query_log is not None:
            self.query_log.record(query, [{"id": str(c.id), "score": c.score} for c in given], envelope)
        return envelope


# -- helpers -----------------------------------------------------------------------------------------------------------


def _relabel(chunk: Chunk, label: str) -> Chunk:
    """The chunk under a short label: a shallow copy with only its id changed (it was validated when built)."""
    if type(chunk) is not Chunk:  # a subclass may hold its fields in slots (dataclass(slots=True)), not __dict__
        clone = copy.copy(chunk)
        object.__setattr__(clone, "id", label)
        return clone
    clone = object.__new__(Chunk)
    clone.__dict__.update(chunk.__dict__, id=label)  # copy.copy's generic reduce cost a third of the gate
    return clone


def _check_template(template: str) -> None:
    """A system prompt template must put the context in: one {context} field and no other (a field the pipeline
    does not fill would fail every answer; "{{context}}" is a literal and would send the model no sources)."""
    import string

    try:
        fields = [field for _, field, _, _ in string.Formatter().parse(template) if field is not None]
    except ValueError as exc:
        raise ValueError(f"prompt is not a valid template: {exc}") from None
    if "context" not in fields or any(field != "context" for field in fields):
        others = sorted({repr(f) for f in fields if f != "context"})
        extra = f"; it also has {', '.join(others)}" if others else ""
        raise ValueError(
            f"prompt must be one of {', '.join(PROMPTS)} or a template whose only field is {{context}}{extra}"
        )


def _finite(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(as_float(value, name)):
        raise ValueError(f"{name} must be a finite number; got {value!r}")
    return float(value)


def decline_message(result: SufficiencyResult) -> str:
    """The graceful decline for an insufficient check: DECLINE_TEMPLATE naming its first missing aspects."""
    aspects = [a.rstrip(".") for a in result.missing_aspects[:_MAX_DECLINE_ASPECTS]]
    return DECLINE_TEMPLATE.format(missing=", ".join(aspects) if aspects else "the information the question asks for")


def sufficiency_fields(result: SufficiencyResult) -> dict[str, Any]:
    """The envelope's ``sufficiency``: score, level, factors, missing."""
    return {
        "score": result.score,
        "level": result.level.value,
        "factors": list(result.confidence_factors),
        "missing": list(result.missing_aspects),
    }


def _says_something(claim: ClaimResult) -> bool:
    """A kept claim sentence holding a word besides its citation markers: "[S1]." alone is covered (nothing in it
    can be unsupported) but answers nothing."""
    return not claim.is_meta and not says_nothing(claim.sentence)


def _is_refusal(answer: str) -> bool:
    return answer.strip().strip('"').startswith(NOT_IN_DOCUMENTATION_ANSWER)
