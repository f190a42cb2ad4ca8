"""ClaimCoverage: is every sentence of the answer backed by the chunks it cites? (API.md section 4).

Sentence splitting, citation markers, tokenizing, stemming, scoring and the decisions run in C++ (`_core.claims`), one
call per answer; this module adapts inputs (any chunk form `as_chunks` accepts) and presents the results.

Scores (``mode``):

- ``"default"``: how much of the claim one source sentence, or two adjacent ones, of the chunk states. Each distinct
  stem, number and number word of the claim counts its rarity weight (clamp(7 - zipf, 3, 7)), the first person
  ("I", "my") counts 3, and its stop words 0.3 each (how closely it copies); a word the window lacks counts 0.8 of
  its weight when a related word (WordNet synonym or derivation, ``data/english_relations.tsv``) is there. The best
  window's covered share is calibrated so that 81% maps to the shipped threshold 0.3 (fitted on BEGIN, checked on
  HaluEval), and each contradiction multiplies it by 0.25 (at most twice): a number or capitalised name of the claim
  the chunk lacks ("ten years" against "seven years"), a negation the chunk does not share, an antonym of a claim
  word in the window. Answer length is no feature: a claim repeated scores the same. The spec is
  ``sufficient_context._reference_claims.default_support``; quality in ``benchmarks/quality/eval_claims.py``.
- ``"reference"``: the original design, ``|S & C| / |S|`` over ``set(text.lower().split())`` minus stop words,
  citation markers removed first. ``lower()`` is the package's case folding restricted to capitals: it differs
  from Python's only for U+0130 (gives "i", Python "i" + U+0307), a word-final capital sigma (gives U+03C3, Python
  U+03C2) and capitals outside Latin, Greek, Cyrillic and Armenian (Greek Extended, Georgian, Cherokee... stay as
  they are). Stop words compare case-insensitively.

``ClaimResult.score`` is that support score (the threshold applies to it); ``ClaimResult.overlaps`` is the plain
overlap per chunk a person can check by hand: the claim's content words (stemmed in the default mode) found in the
chunk / its content words. A claim with no content word (default) or no word (reference) scores 1.0: nothing to
check, nothing to contradict. An uncited sentence is uncovered unless it is a meta statement, in ``check_claim`` as
in ``check_answer``; its reason names the chunk to cite.
"""

from __future__ import annotations

import contextlib
import functools
import math
import numbers
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, Union

from . import sentences as _sentences
from ._args import as_float, int_in_range, replace_surrogates, str_tuple, text_of
from ._core import claims as _core
from ._word_relations import english_word_relations
from .chunks import ChunkLike, as_chunks, plain_ids_and_contents
from .config import ConfigSource
from .term_statistics import TermStatistics
from .text import count_tokens

__all__ = [
    "META_PATTERNS",
    "AnswerCoverage",
    "ClaimCoverage",
    "ClaimResult",
    "check_claim_coverage",
    "validate_multi_chunk_citations",
]

META_PATTERNS: tuple[str, ...] = tuple(_core.default_meta_patterns())
"""The built-in meta phrases; pass ``META_PATTERNS + ("my phrase",)`` as `meta_patterns` to extend them."""

DEFAULT_MAX_SENTENCES = 100_000
# A str, or what frameworks return: a LangChain AIMessage (.content), a LlamaIndex Response (.response).
AnswerLike = Union[str, Any]
_MODES = ("default", "reference")


# ---------------------------------------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------------------------------------
class ClaimResult(NamedTuple):
    """The decision about one sentence (an immutable named tuple).

    Attributes
    ----------
    sentence : str
        The sentence as written, citation markers included.
    score : float
        The support score in [0, 1] the threshold applies to: the best support among the chunks it is checked
        against (0.0 when there is none).
    is_covered, is_meta : bool
        Covered: meta, or it cites a chunk that supports it >= `threshold`.
    citations : tuple of str
        The distinct ids it cites, first-seen order (unknown ones included).
    covering_chunks : tuple of str
        The checked chunks whose support is >= `threshold`.
    overlaps : dict of str to float
        Plain overlap with each checked chunk (its cited chunks; every chunk for an uncited ``check_claim``):
        content words of the sentence found in the chunk / content words of the sentence (stemmed in the default
        mode; 1.0 without any). The number a person can check; ``score`` is what the threshold applies to.
    threshold : float
        min_overlap, or min_overlap x multi_citation_factor when it cites several retrieved chunks.
    reason : str
        Why, in words.
    start, end : int
        Where the sentence is in the answer: ``answer[start:end] == sentence``.
    """

    sentence: str
    score: float
    is_covered: bool
    is_meta: bool
    citations: tuple[str, ...]
    covering_chunks: tuple[str, ...]
    overlaps: dict[str, float]
    threshold: float
    reason: str
    start: int
    end: int

    @property
    def status(self) -> str:
        """``"meta"``, ``"covered"`` or ``"uncovered"``."""
        return "meta" if self.is_meta else "covered" if self.is_covered else "uncovered"

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable form."""
        return {
            "sentence": self.sentence,
            "status": self.status,
            "score": self.score,
            "is_covered": self.is_covered,
            "is_meta": self.is_meta,
            "citations": list(self.citations),
            "covering_chunks": list(self.covering_chunks),
            "overlaps": dict(self.overlaps),
            "threshold": self.threshold,
            "reason": self.reason,
            "start": self.start,
            "end": self.end,
        }

    def _repr_html_(self) -> str:
        from .display import render_html  # lazy: display imports this module

        return render_html(self)


# The core's answer record: (claims, unknown_citations, missing_citations, covered_count, claim_count,
# attribution_coverage, supported_ratio, is_grounded).
_RawAnswer = tuple[list[ClaimResult], tuple[str, ...], tuple[str, ...], int, int, float, float, bool]


_PENDING_FIELDS = frozenset({"claims", "uncovered"})


@dataclass(frozen=True)
class AnswerCoverage:
    """The decision about one answer.

    Attributes
    ----------
    answer : str
        The checked answer.
    claims : tuple of ClaimResult
        One per sentence, in order (meta sentences included, marked ``is_meta``).
    covered_count : int
        Covered claim sentences (meta ones left out).
    uncovered : tuple of ClaimResult
        The claim sentences that are not covered.
    attribution_coverage : float
        Claim sentences citing a retrieved chunk / claim sentences (1.0 without claim sentences).
    supported_ratio : float
        covered_count / claim sentences (1.0 without claim sentences).
    missing_citations : tuple of str
        Chunks whose content some sentence uses (support >= min_overlap) that no sentence cites.
    unknown_citations : tuple of str
        Cited ids that name no retrieved chunk.
    is_grounded : bool
        Every claim sentence covered, no missing and no unknown citation.
    mode : str
        The scoring mode used.
    """

    answer: str
    claims: tuple[ClaimResult, ...]
    covered_count: int
    attribution_coverage: float
    supported_ratio: float
    missing_citations: tuple[str, ...]
    unknown_citations: tuple[str, ...]
    is_grounded: bool
    mode: str = "default"
    uncovered: tuple[ClaimResult, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "uncovered", tuple(c for c in self.claims if not c.is_covered))

    if not TYPE_CHECKING:  # at run time only: type checkers keep flagging unknown attributes

        def __getattr__(self, name: str) -> Any:
            # A result the core built holds its claims as one C++ result until they are first read
            # (most callers read only the verdict); `claims` and `uncovered` are then built and set.
            # Another read (a thread, a finalizer) may have built them since this one missed them: then
            # materialize_claims finds nothing pending, and they are there all the same.
            if name in _PENDING_FIELDS:
                _core.materialize_claims(self)
                with contextlib.suppress(AttributeError):
                    return object.__getattribute__(self, name)
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __getstate__(self) -> dict[str, Any]:
        # pickle and copy see every field, never the pending C++ result (which does not pickle).
        _core.materialize_claims(self)
        return dict(self.__dict__)

    @property
    def claim_count(self) -> int:
        """Sentences that make claims (all but the meta ones)."""
        return sum(not c.is_meta for c in self.claims)

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable form (``uncovered`` lists the uncovered sentences)."""
        return {
            "answer": self.answer,
            "mode": self.mode,
            "claims": [c.to_dict() for c in self.claims],
            "covered_count": self.covered_count,
            "uncovered": [c.sentence for c in self.uncovered],
            "attribution_coverage": self.attribution_coverage,
            "supported_ratio": self.supported_ratio,
            "missing_citations": list(self.missing_citations),
            "unknown_citations": list(self.unknown_citations),
            "is_grounded": self.is_grounded,
        }

    def _repr_html_(self) -> str:
        from .display import render_html  # lazy: display imports this module

        return render_html(self)


# ---------------------------------------------------------------------------------------------------------------------
# Input adaptation
# ---------------------------------------------------------------------------------------------------------------------
def _require_str(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be str; got {type(value).__name__}")
    return value


def _unit(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number; got {type(value).__name__}")
    number = as_float(value, name)
    if math.isnan(number) or not 0.0 <= number <= 1.0:
        raise ValueError(f"{name} must be in [0, 1]; got {number}")
    return number


def _check_mode(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"mode must be a str ('default' or 'reference'); got {type(value).__name__}")
    if value not in _MODES:
        raise ValueError(f"mode must be 'default' or 'reference'; got {value!r}")
    return value


def _word_list(words: Iterable[str] | None, name: str) -> tuple[str, ...] | None:
    return None if words is None else str_tuple(words, name)


def _chunk_lists(chunks: Iterable[ChunkLike], argument: str) -> tuple[list[str] | None, list[str]]:
    """(ids, contents) of the chunks for the core; ids None for S1..Sn (the core makes them)."""
    if type(chunks) is list:
        plain = plain_ids_and_contents(chunks, argument)
        if plain is not None:
            return plain
    converted = as_chunks(chunks, argument=argument)
    return [str(c.id) for c in converted], [c.content for c in converted]


def _clean_all(texts: list[str]) -> list[str]:
    return [replace_surrogates(t) for t in texts]


def _clean_ids(ids: list[str] | None) -> list[str] | None:
    return None if ids is None else _clean_all(ids)


def _with_sentences_of(answer: str, raw: _RawAnswer) -> _RawAnswer:
    """`raw` with each claim's sentence cut from `answer` (the core read a copy with lone surrogates replaced)."""
    return ([c._replace(sentence=answer[c.start : c.end]) for c in raw[0]], *raw[1:])


# ---------------------------------------------------------------------------------------------------------------------
# ClaimCoverage
# ---------------------------------------------------------------------------------------------------------------------
class ClaimCoverage:
    """Check that every sentence of an answer is backed by the chunks it cites.

    Parameters
    ----------
    min_overlap : float
        Support a cited chunk must give a sentence for it to be covered, in [0, 1].
    multi_citation_factor : float
        A sentence citing several retrieved chunks needs only ``min_overlap * multi_citation_factor``, in [0, 1].
    stopwords : iterable of str, optional
        Words that carry no content (compared case-insensitively); default: the package's English list
        (``sufficient_context.text.STOPWORDS``).
    meta_patterns : iterable of str, optional
        Phrases that open meta statements ("In summary", "Based on the evidence"; ``*`` is a 1-8 word wildcard),
        matched on stemmed words; default :data:`META_PATTERNS`.
    mode : {"default", "reference"}
        How support is scored (see the module docstring).
    term_statistics : TermStatistics, optional
        How common each word is: in default mode a claim word weighs clamp(7 - zipf, 3, 7), so rare words count
        more (unknown stems and numbers: zipf 1.0). Default: ``TermStatistics.english()``, the one English table
        the process shares with ``SufficientContextChecker``; pass ``TermStatistics.from_texts(your_corpus)`` when
        your corpus's vocabulary differs from general English. Reference mode ignores it.
    max_sentences : int or None
        ``check_answer`` and ``check_answers`` refuse an answer with more sentences than this, with a ``ValueError``
        naming the count, before any work (default 100,000: an LLM answer has a few hundred at most, and each
        sentence costs a result object). ``None``: no limit; the work stays linear in the answer's length.

    The configuration is immutable: checks never change the object, so one instance can serve many threads. It
    pickles (configuration only).
    """

    __slots__ = (
        "_config",
        "_max_sentences",
        "_meta_patterns",
        "_min_overlap",
        "_mode",
        "_multi",
        "_statistics",
        "_stopwords",
    )

    def __init__(
        self,
        min_overlap: float = 0.3,
        multi_citation_factor: float = 0.7,
        stopwords: Iterable[str] | None = None,
        meta_patterns: Iterable[str] | None = None,
        mode: str = "default",
        *,
        term_statistics: TermStatistics | None = None,
        max_sentences: int | None = DEFAULT_MAX_SENTENCES,
    ) -> None:
        if term_statistics is not None and not isinstance(term_statistics, TermStatistics):
            raise TypeError(f"term_statistics must be a TermStatistics; got {type(term_statistics).__name__}")
        self._min_overlap = _unit(min_overlap, "min_overlap")
        self._multi = _unit(multi_citation_factor, "multi_citation_factor")
        self._mode = _check_mode(mode)
        self._stopwords = _word_list(stopwords, "stopwords")
        self._meta_patterns = _word_list(meta_patterns, "meta_patterns")
        self._statistics = term_statistics if term_statistics is not None else TermStatistics.english()
        self._max_sentences = None if max_sentences is None else int_in_range(max_sentences, "max_sentences")
        self._config = _core.ClaimConfig(
            self._min_overlap,
            self._multi,
            self._mode,
            None if self._stopwords is None else [replace_surrogates(w) for w in self._stopwords],
            None if self._meta_patterns is None else [replace_surrogates(p) for p in self._meta_patterns],
            self._statistics._core,
            english_word_relations(),
            self._max_sentences or 0,
        )

    @classmethod
    def from_config(cls, source: ConfigSource, *, term_statistics: TermStatistics | None = None) -> ClaimCoverage:
        """A ClaimCoverage from the ``claims:`` section of a YAML file (needs PyYAML) or a mapping holding it
        (``min_overlap``, ``multi_citation_factor``, ``mode``, ``max_sentences``); the other sections are ignored.
        Unknown keys raise ValueError naming them."""
        from .config import CLAIMS_SECTION, load_pipeline_config

        return cls(**load_pipeline_config(source)[CLAIMS_SECTION], term_statistics=term_statistics)

    # -- configuration ------------------------------------------------------------------------------------------------
    @property
    def max_sentences(self) -> int | None:
        return self._max_sentences

    @property
    def min_overlap(self) -> float:
        return self._min_overlap

    @property
    def multi_citation_factor(self) -> float:
        return self._multi

    @property
    def mode(self) -> str:
        return self._mode

    @property
    def stopwords(self) -> tuple[str, ...] | None:
        """The custom stop words, or None for the English list."""
        return self._stopwords

    @property
    def meta_patterns(self) -> tuple[str, ...]:
        return META_PATTERNS if self._meta_patterns is None else self._meta_patterns

    @property
    def term_statistics(self) -> TermStatistics:
        """The word statistics default mode weighs with (``TermStatistics.english()`` unless given)."""
        return self._statistics

    def __repr__(self) -> str:
        extra = ""
        if self._stopwords is not None:
            extra += f", stopwords={list(self._stopwords)!r}"
        if self._meta_patterns is not None:
            extra += f", meta_patterns={list(self._meta_patterns)!r}"
        statistics = "" if self._statistics._english else f", term_statistics={self._statistics!r}"
        if self._max_sentences != DEFAULT_MAX_SENTENCES:
            statistics += f", max_sentences={self._max_sentences!r}"
        return (
            f"ClaimCoverage(min_overlap={self._min_overlap!r}, multi_citation_factor={self._multi!r}"
            f"{extra}, mode={self._mode!r}{statistics})"
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ClaimCoverage):
            return NotImplemented
        return self.__getstate__() == other.__getstate__()

    def __hash__(self) -> int:
        return hash(tuple(self.__getstate__().items()))

    def __getstate__(self) -> dict[str, Any]:
        return {
            "min_overlap": self._min_overlap,
            "multi_citation_factor": self._multi,
            "stopwords": self._stopwords,
            "meta_patterns": self._meta_patterns,
            "mode": self._mode,
            "term_statistics": None if self._statistics._english else self._statistics,
            "max_sentences": self._max_sentences,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        ClaimCoverage.__init__(self, **state)

    # -- text helpers -------------------------------------------------------------------------------------------------
    def split_sentences(self, text: str) -> list[str]:
        """The sentences of `text`, in order (see :func:`sufficient_context.sentences.split_sentences`)."""
        return [s.text for s in _sentences.split_sentences(_require_str(text, "text"))]

    def extract_citations(self, text: str) -> list[str]:
        """The distinct cited ids of `text` in first-seen order: ``[IPC_420_0]``, ``[S1][S3]``, ``[S1, S3]``."""
        return _sentences.citation_ids(_require_str(text, "text"))

    # -- checks -------------------------------------------------------------------------------------------------------
    def check_claim(self, sentence: AnswerLike, chunks: Iterable[ChunkLike]) -> ClaimResult:
        """Check one sentence: against the chunks it cites when it has citation markers, else against every chunk.

        An uncited sentence is scored against every chunk but is uncovered unless it is a meta statement ("No
        Citations - Rejected"); its reason names the chunk that would support it.

        Parameters
        ----------
        sentence : str
            One claim (citation markers allowed).
        chunks : sequence of chunks
            Anything :func:`sufficient_context.as_chunks` accepts; ids default to S1, S2, ...

        Returns
        -------
        ClaimResult
        """
        sentence = text_of(sentence, "sentence")
        ids, texts = _chunk_lists(chunks, "chunks")
        try:
            return _core.check_claim(self._config, sentence, ids, texts, ClaimResult)
        except UnicodeEncodeError:
            result = _core.check_claim(
                self._config, replace_surrogates(sentence), _clean_ids(ids), _clean_all(texts), ClaimResult
            )
            return result._replace(sentence=sentence[result.start : result.end])

    def check_answer(self, answer: AnswerLike, chunks: Iterable[ChunkLike]) -> AnswerCoverage:
        """Check every sentence of `answer` against the chunks it cites.

        Uncited sentences are uncovered unless they are meta statements; a cited id that names no chunk is
        reported in ``unknown_citations``; a chunk some sentence uses (support >= min_overlap) that no sentence
        cites is reported in ``missing_citations``. Both make the answer not grounded.
        """
        if type(answer) is not str:
            answer = text_of(answer, "answer")
        try:  # the common call: a list of str and plain dicts, read and checked in one C++ call
            result: AnswerCoverage | None = _core.check_answer_chunks(
                self._config, answer, chunks, ClaimResult, AnswerCoverage
            )
        except UnicodeEncodeError:
            result = None  # lone surrogates: the path below replaces them
        if result is not None:
            return result
        ids, texts = _chunk_lists(chunks, "chunks")
        try:  # the core builds the AnswerCoverage itself
            result = _core.check_answer(self._config, answer, ids, texts, ClaimResult, AnswerCoverage)
        except UnicodeEncodeError:
            raw = _core.check_answer(
                self._config, replace_surrogates(answer), _clean_ids(ids), _clean_all(texts), ClaimResult
            )
            return self._coverage(answer, _with_sentences_of(answer, raw))
        return result

    def check_answers(
        self,
        answers: Sequence[AnswerLike],
        chunks_per_answer: Sequence[Iterable[ChunkLike]],
        *,
        threads: int | None = None,
    ) -> list[AnswerCoverage]:
        """``[check_answer(a, c) for a, c in zip(answers, chunks_per_answer)]``, in parallel C++ threads.

        Parameters
        ----------
        answers : sequence of str
        chunks_per_answer : sequence of chunk sequences
            One chunk list per answer.
        threads : int, optional
            Worker threads (default: the usable cores, at most one per answer), from a persistent pool.
        """
        if isinstance(answers, str) or not isinstance(answers, Sequence):
            raise TypeError(f"answers must be a sequence of str; got {type(answers).__name__}")
        if isinstance(chunks_per_answer, str) or not isinstance(chunks_per_answer, Sequence):
            raise TypeError(
                f"chunks_per_answer must be a sequence of chunk lists; got {type(chunks_per_answer).__name__}"
            )
        if len(answers) != len(chunks_per_answer):
            raise ValueError(
                f"chunks_per_answer must have one chunk list per answer: {len(chunks_per_answer)} lists for "
                f"{len(answers)} answers"
            )
        threads = None if threads is None else int_in_range(threads, "threads")
        answers = [a if type(a) is str else text_of(a, f"answers[{i}]") for i, a in enumerate(answers)]
        # Lists of str and plain dicts are read in one C++ pass; the others are adapted here, in order.
        ids_lists, text_lists, slow = _core.plain_chunk_lists(list(chunks_per_answer))
        for i in slow:
            ids_lists[i], text_lists[i] = _chunk_lists(chunks_per_answer[i], f"chunks_per_answer[{i}]")
        try:  # the core builds the AnswerCoverage objects itself
            results: list[AnswerCoverage] = _core.check_answers(
                self._config, answers, ids_lists, text_lists, ClaimResult, threads or 0, AnswerCoverage
            )
        except UnicodeEncodeError:  # lone surrogates somewhere: checked as U+FFFD, sentences cut from the originals
            raws = _core.check_answers(
                self._config,
                [replace_surrogates(a) for a in answers],
                [_clean_ids(ids) for ids in ids_lists],
                [_clean_all(texts) for texts in text_lists],
                ClaimResult,
                threads or 0,
            )
            return [self._coverage(answer, _with_sentences_of(answer, raw)) for answer, raw in zip(answers, raws)]
        return results

    def validate_citations(self, answer: AnswerLike, chunks: Iterable[ChunkLike]) -> tuple[bool, list[str], str]:
        """Whether every chunk the answer uses is cited and every citation names a retrieved chunk.

        Returns
        -------
        (ok, missing, reason)
            `missing`: ids of chunks some sentence uses (support >= min_overlap) that no sentence cites.
        """
        report = self.check_answer(answer, chunks)
        missing = list(report.missing_citations)
        problems = []
        if missing:
            problems.append("chunks used but not cited: " + ", ".join(missing))
        if report.unknown_citations:
            problems.append("citations naming no retrieved chunk: " + ", ".join(report.unknown_citations))
        if not problems:
            return True, missing, "every chunk the answer uses is cited, and every citation names a retrieved chunk"
        return False, missing, "; ".join(problems)

    def filter_unsupported(self, answer: AnswerLike, chunks: Iterable[ChunkLike]) -> str:
        """`answer` without its uncovered sentences (covered and meta sentences kept with their citations).

        The whitespace before each kept sentence is kept (so paragraphs survive); the result is stripped.
        """
        text = text_of(answer, "answer")
        return keep_covered(text, self.check_answer(text, chunks))[0]

    def _coverage(self, answer: str, raw: _RawAnswer) -> AnswerCoverage:
        """The AnswerCoverage of a core record (the lone-surrogate path; the core builds it on the common one)."""
        claims, unknown, missing, covered, _claim_count, attribution, supported, grounded = raw
        claim_tuple = tuple(claims)
        result = object.__new__(AnswerCoverage)  # as the core does: the frozen dataclass's fields set at once
        result.__dict__.update(
            answer=answer,
            claims=claim_tuple,
            covered_count=covered,
            attribution_coverage=attribution,
            supported_ratio=supported,
            missing_citations=missing,
            unknown_citations=unknown,
            is_grounded=grounded,
            mode=self._mode,
            uncovered=tuple([c for c in claim_tuple if not c.is_covered]),
        )
        return result


# ---------------------------------------------------------------------------------------------------------------------
# Module-level forms
# ---------------------------------------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=32)
def _shared(min_overlap: float, mode: str) -> ClaimCoverage:
    return ClaimCoverage(min_overlap=min_overlap, mode=mode)


def check_claim_coverage(
    sentence: str, retrieved_chunks: Iterable[ChunkLike], min_overlap: float = 0.3, *, mode: str = "default"
) -> ClaimResult:
    """``ClaimCoverage(min_overlap, mode=mode).check_claim(sentence, retrieved_chunks)``."""
    return _shared(_unit(min_overlap, "min_overlap"), _check_mode(mode)).check_claim(sentence, retrieved_chunks)


def validate_multi_chunk_citations(
    answer_text: str, retrieved_chunks: Iterable[ChunkLike], *, min_overlap: float = 0.3, mode: str = "default"
) -> tuple[bool, list[str], str]:
    """``ClaimCoverage(min_overlap, mode=mode).validate_citations(answer_text, retrieved_chunks)``."""
    return _shared(_unit(min_overlap, "min_overlap"), _check_mode(mode)).validate_citations(
        answer_text, retrieved_chunks
    )


def says_nothing(text: str) -> bool:
    """Whether `text` has no word outside its citation markers ("", "[S1]."). The check finds no claim there to be
    unsupported, so its ratios are 1.0, yet such an answer answers nothing: the pipeline declines it, and the test
    helpers and framework evaluators fail it."""
    return count_tokens(_sentences.strip_citations(text)) == 0


def keep_covered(answer: str, report: AnswerCoverage) -> tuple[str, list[ClaimResult]]:
    """`answer` without the sentences `report` found uncovered (the whitespace before each kept sentence kept, so
    paragraphs survive; the result stripped), and the kept claims."""
    parts: list[str] = []
    kept: list[ClaimResult] = []
    previous_end = 0
    for claim in report.claims:
        if claim.is_covered:
            if parts:
                parts.append(answer[previous_end : claim.start])
            parts.append(claim.sentence)
            kept.append(claim)
        previous_end = claim.end
    return "".join(parts).strip(), kept
