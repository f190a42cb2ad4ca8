"""Plain-Python oracle for ClaimCoverage (test oracle and spec for the C++ core in ``src/claims/``).

Two scores of one claim sentence against one chunk text:

- ``reference_overlap``: the original design (``mode="reference"``): ``set(sentence.lower().split())`` minus stop
  words, citation markers removed first, against the same for the chunk.
- ``default_support``: the default mode: punctuation-free tokens, Porter2 stems, content words weighted by rarity,
  a hard signal for numbers and capitalised names of the claim that the chunk lacks, and a negation-mismatch flag.
  See the module constants and ``default_support`` for the exact rules.

and the rules built on them: meta statements (``meta_phrase_end``, ``Checker.is_meta``), one claim against its
chunks (``Checker.check_claim``) and a whole answer (``Checker.check_answer``), which the C++ ``ClaimCoverage``
must reproduce. In those, the default score leaves out an opening meta phrase ("In summary, X" is scored as "X").

Tokens follow the package's C++ tokenizer exactly (``_reference.reference_tokenize``: words, numbers and
identifiers; hyphens split; one apostrophe joins letters), folding is the package's simple case folding
(``reference_fold``), stems are Porter2 (``reference_stem``) and citation markers follow the package's grammar
(``_reference_sentences``). Pure Python: stdlib + ``snowballstemmer``. Slow by design; it is the oracle, not the
product.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ._reference import (
    ASKING,
    ENGLISH_STOPWORDS,
    reference_fold,
    reference_simple_fold,
    reference_stem,
    reference_tokenize,
)
from ._reference_sentences import (
    reference_citation_runs,
    reference_extract_citations,
    reference_split_sentences,
    reference_strip_citations,
)

# --------------------------------------------------------------------------------------------------------------------
# Stop words: NLTK's English list (179 words), lowercase, with ASCII apostrophes (the package's list).
# --------------------------------------------------------------------------------------------------------------------
STOPWORDS: frozenset[str] = ENGLISH_STOPWORDS

# --------------------------------------------------------------------------------------------------------------------
# Default-mode constants (the whole spec; round numbers except COVERAGE_AT_THRESHOLD, fitted on BEGIN).
# --------------------------------------------------------------------------------------------------------------------
ZIPF_CEILING = 7.0  # weight(stem) = clamp(ZIPF_CEILING - zipf(stem), MIN_WEIGHT, ZIPF_CEILING)
MIN_WEIGHT = 3.0  # common words (zipf >= 4) all weigh 3; rarer words more, up to 6 for unknown stems and numbers
UNKNOWN_ZIPF = 1.0  # zipf of a stem missing from the table (as data/english_freq.tsv's generator specifies)
FUNCTION_WEIGHT = 0.3  # weight of a stop word or particle of a claim that has a content item (how closely it copies)
SPEAKER_KEY = "#i"  # the key of every first-person singular word ("i", "my", "i'm"): the speaker is a claim item too
RELATED_CREDIT = 0.8  # share of an item's weight credited when only a related word (WordNet) is in the window
PAIR_FACTOR = 0.9  # coverage by two adjacent source sentences counts this much of coverage by one
COVERAGE_AT_THRESHOLD = 0.81  # window coverage that maps to THRESHOLD_SCORE (best balanced accuracy on BEGIN)
THRESHOLD_SCORE = 0.3  # the shipped min_overlap
MISMATCH_FACTOR = 0.25  # score multiplied by this once per contradiction (missing number / name, negation, antonym)
MAX_MISMATCHES = 2  # at most this many factors apply (0.25 ** 2 = 0.0625)
NEGATION_WINDOW = 5  # tokens either side of a matched claim word in which a chunk negation counts
EMPTY_CLAIM_SCORE = 1.0  # a claim with no content word, number or name: nothing to contradict
MIN_NAME_LETTERS = 2  # a capitalised name has at least this many letters ("U.S." yields no name)

# Answer particles and discourse markers: no checkable content (besides the stop words); function items.
PARTICLES: frozenset[str] = frozenset(
    ["yes", "yeah", "yep", "well", "oh", "also", "really", "actually", "indeed", "just", "okay", "ok", "hmm", "wow",
     "uh", "um"]
)  # fmt: skip
# First-person singular words (folded): one item SPEAKER_KEY, found only where the source speaks in the first person.
SPEAKER_WORDS: frozenset[str] = frozenset(
    ["i", "me", "my", "mine", "myself", "i'm", "i've", "i'd", "i'll", "i\u2019m", "i\u2019ve", "i\u2019d", "i\u2019ll"]
)  # fmt: skip
# Cardinal number words: numbers whose key is their digits ("seven" matches "7"; "ten" against "seven" is a mismatch).
# "one" is left out: "one of the", "the one who" are rarely a count.
NUMBER_WORDS: dict[str, str] = {
    "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9",
    "ten": "10", "eleven": "11", "twelve": "12", "thirteen": "13", "fourteen": "14", "fifteen": "15", "sixteen": "16",
    "seventeen": "17", "eighteen": "18", "nineteen": "19", "twenty": "20", "thirty": "30", "forty": "40",
    "fifty": "50", "sixty": "60", "seventy": "70", "eighty": "80", "ninety": "90",
}  # fmt: skip

NEGATIONS: frozenset[str] = frozenset(
    ["not", "no", "never", "nor", "neither", "none", "nobody", "nothing", "nowhere", "cannot", "without"]
)

# A gap between two tokens holding one of these starts a new sentence for the capitalised-name rule.
SENTENCE_END_RE = re.compile(r"[.!?:;\"\u201c\u201d()\[\]]")
# A number token, or an identifier made of a number and a letter suffix (19th, 1840s, 3.5mm): a number whose key is
# its digits without commas. Letters here are the tokenizer's letters: anything but digits, '_', apostrophes, '.' ','.
NUMBER_PREFIX_RE = re.compile(r"[0-9]+(?:[.,][0-9]+)*")
_NOT_LETTERS = frozenset("0123456789_'\u2019.,")
# Lowercase letters that simple case folding changes anyway: not capitals (src/claims/claim_tokens.cpp).
_FOLDING_LOWERCASE = frozenset("\u00b5\u017f\u03c2\u03d0\u03d1\u03d5\u03d6\u03f0\u03f1\u03f5\u1e9b")

# Meta statements: phrases that announce or frame rather than claim (matched on token keys at the sentence start;
# "*" stands for 1..MAX_WILDCARD tokens).
META_PATTERNS: tuple[str, ...] = (
    "based on the evidence", "based on the provided evidence", "based on the available evidence",
    "based on the context", "based on the provided context", "based on the given context",
    "based on the information", "based on the provided information", "based on the available information",
    "based on the sources", "based on the provided sources", "based on the documents",
    "based on the provided documents",
    "based on the above", "based on the retrieved", "based on the passages", "based on the text",
    "according to the evidence", "according to the context", "according to the sources", "according to the documents",
    "according to the provided", "according to the information", "according to the passages",
    "in summary", "to summarize", "to summarise", "summary", "to sum up", "in conclusion", "to conclude", "in short",
    "in brief", "overall", "here is", "here are", "the following", "as follows", "following", "as mentioned",
    "as noted", "as stated", "as shown", "note that", "please note", "i hope this helps", "hope this helps",
    "let me know", "in other words", "the answer is as follows", "the evidence shows", "the sources show",
    "note this response is based on limited available information",  # the pipeline's own caveat
)  # fmt: skip
WILDCARD = "*"
MAX_WILDCARD = 8


@dataclass(frozen=True)
class Token:
    """One token of a text."""

    surface: str  # as written (a number: its digits part)
    key: str  # matching key: stem of the folded word without possessive, a number's digits, or SPEAKER_KEY
    is_number: bool
    sentence_start: bool  # first token of a sentence (or of the text)
    folded: str = ""  # case-folded surface
    start: int = 0  # str offsets in the text
    end: int = 0


# Item kinds of a claim, in the order a key keeps its first kind unless a later token makes it content.
FUNCTION, CONTENT, NUMBER, SPEAKER = "function", "content", "number", "speaker"


@dataclass
class Item:
    """One distinct key of a claim, with what the score and the reason need."""

    key: str
    weight: float
    kind: str  # FUNCTION, CONTENT, NUMBER or SPEAKER
    surface: str  # first surface seen
    is_name: bool = False


@dataclass
class SupportResult:
    """Default-mode support of one claim by one chunk, with the parts a ClaimResult reason needs."""

    score: float
    overlap: float  # plain overlap: content and number items found anywhere in the chunk / such items (unweighted)
    coverage: float  # weighted share of the items in the best window (x PAIR_FACTOR for a pair): the score's base
    content_words: list[str] = field(default_factory=list)  # keys of the content and number items, in order
    missing: list[str] = field(default_factory=list)  # surfaces of content / number items the best window lacks
    missing_numbers: list[str] = field(default_factory=list)  # surfaces of claim numbers the chunk lacks
    missing_names: list[str] = field(default_factory=list)
    negation_mismatch: bool = False
    antonym: bool = False  # the best window holds an antonym of a content item it lacks


# --------------------------------------------------------------------------------------------------------------------
# Reference mode
# --------------------------------------------------------------------------------------------------------------------
def strip_citations(text: str) -> str:
    """Removes citation markers ([S1], [S1, S3], [IPC_420_0]) from a text, as the package does."""
    return reference_strip_citations(text)


def reference_words(text: str, stopwords: Iterable[str] = STOPWORDS) -> set[str]:
    """``set(text.lower().split())`` minus stop words, citation markers removed first."""
    return set(strip_citations(text).lower().split()) - set(stopwords)


def reference_overlap(sentence: str, chunk_text: str, stopwords: Iterable[str] = STOPWORDS) -> float:
    """mode="reference": |S & C| / |S| on lowercase whitespace tokens minus stop words (1.0 when S is empty:
    nothing to check; this reproduces the measured AUROC 0.71 / accuracy 0.52)."""
    stop = frozenset(stopwords)
    words = reference_words(sentence, stop)
    if not words:
        return 1.0
    return len(words & reference_words(chunk_text, stop)) / len(words)


# --------------------------------------------------------------------------------------------------------------------
# Default mode
# --------------------------------------------------------------------------------------------------------------------
def stem(word: str) -> str:
    """Porter2 stem of a folded word (words that are not a-z and apostrophes, or shorter than 3, unchanged)."""
    return reference_stem(word)


def _word_base(lower: str) -> str:
    """Folded word without a possessive ending ('s or a trailing ')."""
    if lower.endswith("'s"):
        return lower[:-2]
    return lower.rstrip("'")


def _blank_citations(text: str) -> str:
    for start, end in reference_citation_runs(text):
        text = text[:start] + " " * (end - start) + text[end:]
    return text


def _number_key(surface: str, kind: str) -> str | None:
    """Digits of a number token, or of an identifier that is a number plus letters (19th); else None."""
    if kind == "number":
        return surface
    if kind != "identifier":
        return None
    m = NUMBER_PREFIX_RE.match(surface)
    if m is None or m.end() == len(surface) or any(c in _NOT_LETTERS for c in surface[m.end() :]):
        return None
    return m.group()


def tokenize(text: str) -> list[Token]:
    """Splits a text into tokens (citation markers removed first), with keys and sentence starts. Cardinal number
    words are numbers keyed by their digits; first-person singular words are keyed SPEAKER_KEY."""
    text = _blank_citations(text)
    tokens: list[Token] = []
    last_end = 0
    for surface, start, end, kind in reference_tokenize(text):
        first = not tokens or SENTENCE_END_RE.search(text, last_end, start) is not None
        last_end = end
        folded = reference_fold(surface)
        number = _number_key(surface, kind)
        if number is not None:
            tokens.append(Token(number, number.replace(",", ""), True, first, folded, start, end))
        elif kind == "word" and folded in NUMBER_WORDS:
            tokens.append(Token(surface, NUMBER_WORDS[folded], True, first, folded, start, end))
        elif kind == "word" and folded in SPEAKER_WORDS:
            tokens.append(Token(surface, SPEAKER_KEY, False, first, folded, start, end))
        else:
            tokens.append(Token(surface, stem(_word_base(folded)), False, first, folded, start, end))
    return tokens


def _is_upper(c: str) -> bool:
    """A capital: simple case folding changes it (the package's folding blocks), and it is not lowercase."""
    return reference_simple_fold(c) != c and c not in _FOLDING_LOWERCASE and c != "\u2019"


def _name_shape(surface: str) -> tuple[bool, bool]:
    """(capitalised: starts with a capital and has >= MIN_NAME_LETTERS letters, all_caps: every letter a capital)."""
    letters = [c for c in surface if c not in _NOT_LETTERS]
    capitalised = bool(surface) and _is_upper(surface[0]) and len(letters) >= MIN_NAME_LETTERS
    return capitalised, capitalised and all(_is_upper(c) for c in letters)


def is_name(tok: Token) -> bool:
    """A capitalised name: a word starting with a capital that is not sentence-initial, or whose letters (>= 2) are
    all capitals anywhere. (Callers pass content tokens only: stop words are never names.)"""
    if tok.is_number:
        return False
    capitalised, all_caps = _name_shape(tok.surface)
    return capitalised and (all_caps or not tok.sentence_start)


def is_content(tok: Token, stop: frozenset[str]) -> bool:
    """A number, or a word whose folded form (and its form without a possessive) is no stop word nor particle, and
    that is not a first-person word."""
    if tok.is_number:
        return True
    if tok.key == SPEAKER_KEY:
        return False
    base = _word_base(tok.folded)
    return not (tok.folded in stop or base in stop or tok.folded in PARTICLES or base in PARTICLES)


def load_zipf_table(path: str | Path) -> dict[str, float]:
    """Reads a ``word<TAB>zipf`` table (lines starting with # are comments)."""
    with open(path, encoding="utf-8") as f:
        return parse_zipf_table(f.read())


def parse_zipf_table(text: str) -> dict[str, float]:
    """Parses the text of a ``word<TAB>zipf`` table (lines starting with # and blank lines are skipped)."""
    table: dict[str, float] = {}
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        word, zipf = line.split("\t")[:2]
        table[word] = float(zipf)
    return table


Relations = Mapping[str, tuple[frozenset[str], frozenset[str]]]  # stem -> (related stems, antonym stems)


def load_relations(path: str | Path) -> dict[str, tuple[frozenset[str], frozenset[str]]]:
    """Reads a ``stem<TAB>related<TAB>antonyms`` table (data/english_relations.tsv); a repeated stem adds up."""
    out: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
    with open(path, encoding="utf-8") as f:
        for line in f.read().splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            word, related, antonyms = line.split("\t")
            old = out.get(word, (frozenset(), frozenset()))
            out[word] = (old[0] | frozenset(related.split()), old[1] | frozenset(antonyms.split()))
    return out


def word_weight(key: str, zipf: Mapping[str, float]) -> float:
    """Rarity weight of a stem (a token key): clamp(ZIPF_CEILING - zipf, MIN_WEIGHT, ZIPF_CEILING), where zipf comes
    from the stem-keyed table (data/english_freq.tsv) and is UNKNOWN_ZIPF for a stem it lacks. Numbers (keys
    starting with an ASCII digit) weigh as an unknown stem."""
    z = UNKNOWN_ZIPF if key[:1] and "0" <= key[0] <= "9" else zipf.get(key, UNKNOWN_ZIPF)
    return min(max(ZIPF_CEILING - z, MIN_WEIGHT), ZIPF_CEILING)


def _is_negation(tok: Token) -> bool:
    return tok.folded in NEGATIONS or tok.folded.endswith("n't")


def source_units(text: str, tokens: Sequence[Token]) -> list[int]:
    """The source sentence (unit) index of each token of `text` (tokens from ``tokenize(text)``).

    A unit boundary lies before a token that starts in a later sentence of ``split_sentences(text)`` than the token
    before it, or that follows it across a glued sentence end ("...Woo-jin.Yeon Woo-jin was..."): the text between
    the two is non-empty, all ASCII without whitespace, holds '.', '!' or '?', the previous token has >= 2 characters,
    and this one is capitalised but not all capitals (``_name_shape``).
    """
    spans = reference_split_sentences(text)
    units: list[int] = []
    unit, span, prev_span = 0, 0, 0
    prev: Token | None = None
    for t in tokens:
        while span + 1 < len(spans) and t.start >= spans[span][1]:
            span += 1
        if prev is not None:
            if span != prev_span:
                unit += 1
            else:
                gap = text[prev.end : t.start]
                capitalised, all_caps = _name_shape(text[t.start : t.end])
                if (
                    gap
                    and all(c < "\x80" and not c.isspace() for c in gap)
                    and any(c in ".!?" for c in gap)
                    and prev.end - prev.start >= 2
                    and capitalised
                    and not all_caps
                ):
                    unit += 1
        units.append(unit)
        prev, prev_span = t, span
    return units


def default_support(
    sentence: str,
    chunk_text: str,
    zipf: Mapping[str, float] | None = None,
    stopwords: Iterable[str] = STOPWORDS,
    relations: Relations | None = None,
) -> SupportResult:
    """mode="default" support score of one claim sentence by one chunk, in [0, 1].

    1. Tokenize both texts (``tokenize``). Claim items are the distinct token keys in first-seen order:
       NUMBER (number tokens and cardinal number words), CONTENT (words that are no stop word, particle or
       first-person word; a name when some token of it ``is_name``), SPEAKER (first-person words, one key) and,
       only when the claim has one of those, FUNCTION (every other token but negations: stop words, particles). A
       key seen first as FUNCTION becomes CONTENT when a later token of it is content. No item: EMPTY_CLAIM_SCORE.
    2. Weights: CONTENT and NUMBER ``word_weight`` (rarer = heavier), SPEAKER MIN_WEIGHT, FUNCTION FUNCTION_WEIGHT.
    3. Windows: every source sentence (``source_units``) and every two adjacent ones. In a window an item counts
       its weight when its key is there; a CONTENT item whose key is not there counts RELATED_CREDIT x its weight
       when a related stem is, and otherwise marks an antonym when an antonym stem is. coverage(window) =
       counted / total weight (sums in item order), x PAIR_FACTOR for a pair. The best window is the first, in the
       order (sentence i, sentences i and i+1, sentence i+1, ...), with the largest coverage > 0 (none: coverage 0).
    4. Contradictions (n, at most MAX_MISMATCHES): each NUMBER and each name item whose key is nowhere in the
       chunk; a negation mismatch (some claim token is a negation and no chunk negation lies within
       NEGATION_WINDOW tokens of a chunk token whose key is a CONTENT or NUMBER item); an antonym in the best
       window.
    5. score = calibrate(coverage) x MISMATCH_FACTOR ** n, where calibrate maps [0, COVERAGE_AT_THRESHOLD] linearly
       onto [0, THRESHOLD_SCORE] and [COVERAGE_AT_THRESHOLD, 1] onto [THRESHOLD_SCORE, 1]. Any contradiction puts
       the score at or below 0.25, under the shipped threshold.
    overlap (reported, not scored): CONTENT and NUMBER items whose key is anywhere in the chunk / such items
    (1.0 without any).
    """
    stop = _fold_set(stopwords)
    return _support(
        tokenize(sentence), chunk_text, tokenize(chunk_text), zipf if zipf is not None else {}, stop, relations or {}
    )


def _fold_set(stopwords: Iterable[str]) -> frozenset[str]:
    return frozenset(reference_fold(w) for w in stopwords if w)


def claim_items(claim: Sequence[Token], zipf: Mapping[str, float], stop: frozenset[str]) -> list[Item]:
    """The claim's items (see ``default_support`` steps 1-2)."""
    items: dict[str, Item] = {}
    for t in claim:
        if t.key == SPEAKER_KEY:
            kind, weight = SPEAKER, MIN_WEIGHT
        elif is_content(t, stop):
            kind, weight = (NUMBER if t.is_number else CONTENT), word_weight(t.key, zipf)
        elif _is_negation(t):
            continue
        else:
            kind, weight = FUNCTION, FUNCTION_WEIGHT
        item = items.get(t.key)
        if item is None:
            item = items[t.key] = Item(t.key, weight, kind, t.surface)
        elif item.kind == FUNCTION and kind == CONTENT:
            item.kind, item.weight, item.surface = kind, weight, t.surface
        if kind == CONTENT and item.kind == CONTENT and is_name(t):
            item.is_name = True
    if all(i.kind == FUNCTION for i in items.values()):
        return []
    return list(items.values())


def calibrate(coverage: float) -> float:
    """Maps window coverage onto the score scale: COVERAGE_AT_THRESHOLD -> THRESHOLD_SCORE, 0 -> 0, 1 -> 1."""
    if coverage <= COVERAGE_AT_THRESHOLD:
        return THRESHOLD_SCORE * (coverage / COVERAGE_AT_THRESHOLD)
    return THRESHOLD_SCORE + (1.0 - THRESHOLD_SCORE) * (
        (coverage - COVERAGE_AT_THRESHOLD) / (1.0 - COVERAGE_AT_THRESHOLD)
    )


def question_units(text: str, tokens: Sequence[Token], units: Sequence[int]) -> set[int]:
    """The units (``source_units``) that are questions: the unit's first token, folded, is in ASKING and the first
    '.', '!' or '?' after its last token (up to the next unit's first token or the text's end; citation markers do
    not count) is a '?'."""
    text = _blank_citations(text)
    out: set[int] = set()
    for i, t in enumerate(tokens):
        if i > 0 and units[i] == units[i - 1]:
            continue  # not a unit's first token
        if t.folded not in ASKING:
            continue
        last = i
        while last + 1 < len(tokens) and units[last + 1] == units[i]:
            last += 1
        end = tokens[last + 1].start if last + 1 < len(tokens) else len(text)
        mark = next((c for c in text[tokens[last].end : end] if c in ".!?"), "")
        if mark == "?":
            out.add(units[i])
    return out


def _support(
    claim: list[Token],
    chunk_text: str,
    chunk: list[Token],
    zipf: Mapping[str, float],
    stop: frozenset[str],
    relations: Relations,
) -> SupportResult:
    items = claim_items(claim, zipf, stop)
    checked = [i for i in items if i.kind in (CONTENT, NUMBER)]
    res = SupportResult(score=EMPTY_CLAIM_SCORE, overlap=1.0, coverage=1.0, content_words=[i.key for i in checked])
    if not items:
        return res
    total = 0.0
    for item in items:
        total += item.weight
    chunk_keys = {t.key for t in chunk}
    if checked:
        res.overlap = sum(1 for i in checked if i.key in chunk_keys) / len(checked)

    units = source_units(chunk_text, chunk)
    n_units = units[-1] + 1 if units else 0
    unit_keys: list[set[str]] = [set() for _ in range(n_units)]
    for t, u in zip(chunk, units):
        unit_keys[u].add(t.key)
    empty: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())

    def window(keys: set[str]) -> tuple[float, bool, list[str]]:
        counted, antonym, missing = 0.0, False, []
        for item in items:
            if item.key in keys:
                counted += item.weight
                continue
            related, antonyms = relations.get(item.key, empty) if item.kind == CONTENT else empty
            if related & keys:
                counted += item.weight * RELATED_CREDIT
                continue
            if antonyms & keys:
                antonym = True
            if item.kind in (CONTENT, NUMBER):
                missing.append(item.surface)
        return counted, antonym, missing

    # A question asserts nothing: alone, or beside a sentence that holds nothing of the claim, it supports nothing
    # ("Is Canberra the capital?"); beside an answer that holds some of the claim it counts ("What is the penalty?
    # Imprisonment.").
    asked = question_units(chunk_text, chunk, units)

    def answers(u: int) -> bool:
        return u not in asked and window(unit_keys[u])[0] > 0.0

    best, best_antonym, best_missing = 0.0, False, [i.surface for i in checked]
    for u in range(n_units):
        pair_ok = u + 1 < n_units and ((u not in asked and u + 1 not in asked) or answers(u) or answers(u + 1))
        for keys, factor in (
            (unit_keys[u] if u not in asked else None, 1.0),
            (unit_keys[u] | unit_keys[u + 1] if pair_ok else None, PAIR_FACTOR),
        ):
            if keys is None:
                continue
            counted, antonym, missing = window(keys)
            coverage = counted / total * factor
            if coverage > best:
                best, best_antonym, best_missing = coverage, antonym, missing
    res.coverage = best
    res.missing = best_missing
    res.antonym = best_antonym
    res.missing_numbers = [i.surface for i in items if i.kind == NUMBER and i.key not in chunk_keys]
    res.missing_names = [i.surface for i in items if i.is_name and i.key not in chunk_keys]
    if any(_is_negation(t) for t in claim):
        matched = {i.key for i in checked if i.key in chunk_keys}
        negations = [p for p, t in enumerate(chunk) if _is_negation(t)]
        near = any(abs(p - q) <= NEGATION_WINDOW for p, t in enumerate(chunk) if t.key in matched for q in negations)
        res.negation_mismatch = not near
    n = len(res.missing_numbers) + len(res.missing_names) + res.negation_mismatch + res.antonym
    res.score = calibrate(best) * MISMATCH_FACTOR ** min(n, MAX_MISMATCHES)
    return res


# --------------------------------------------------------------------------------------------------------------------
# Phrases (meta statements, query types): token-key sequences with "*" wildcards
# --------------------------------------------------------------------------------------------------------------------
def compile_phrase(phrase: str) -> list[str]:
    """Keys of a phrase's tokens; a whitespace-separated "*" is a wildcard (1..MAX_WILDCARD tokens)."""
    out: list[str] = []
    for part in phrase.split():
        if part == WILDCARD:
            out.append(WILDCARD)
        else:
            out.extend(t.key for t in tokenize(part))
    while out and out[0] == WILDCARD:  # a leading or trailing wildcard adds nothing but a token
        out.pop(0)
    while out and out[-1] == WILDCARD:
        out.pop()
    return out


def match_phrase_at(keys: Sequence[str], pos: int, pattern: Sequence[str]) -> int | None:
    """End (exclusive token index) of the shortest match of `pattern` starting at token `pos`, or None.

    Depth-first, shortest wildcard first; the search from a state (i, p) depends on nothing else, so it is cached:
    polynomial in the wildcards (src/common/wildcard_match.hpp).
    """
    if not pattern:
        return None

    @functools.cache
    def go(i: int, p: int) -> int | None:
        if p == len(pattern):
            return i
        if pattern[p] == WILDCARD:
            for skip in range(1, MAX_WILDCARD + 1):
                if i + skip > len(keys):
                    return None
                end = go(i + skip, p + 1)
                if end is not None:
                    return end
            return None
        if i < len(keys) and keys[i] == pattern[p]:
            return go(i + 1, p + 1)
        return None

    return go(pos, 0)


_SPACE = " \t\n\r\x0b\x0c"


def list_label_end(text: str, tokens: Sequence[Token]) -> int:
    """1 when the first token is a list label ("1. ", "2) ", "(3) "): 1-3 ASCII digits with nothing before them but
    spaces and an optional "(", then "." or ")" and a space or the end. Else 0."""
    if not tokens:
        return 0
    first = tokens[0]
    digits = text[first.start : first.end]
    if not (first.is_number and 1 <= len(digits) <= 3 and all("0" <= c <= "9" for c in digits)):
        return 0
    before = text[: first.start].lstrip(_SPACE)
    if before not in ("", "("):
        return 0
    after = text[first.end : first.end + 2]
    return int(after[:1] in (".", ")") and after[:1] != "" and (len(after) == 1 or after[1] in _SPACE))


def meta_phrase_end(tokens: list[Token], patterns: Iterable[Sequence[str]], start: int = 0) -> int | None:
    """Token index just past the longest meta phrase opening the token list at token `start`, or None."""
    keys = [t.key for t in tokens]
    best: int | None = None
    for pattern in patterns:
        end = match_phrase_at(keys, start, pattern)
        if end is not None and (best is None or end > best):
            best = end
    return best


# --------------------------------------------------------------------------------------------------------------------
# Claims and answers (what ClaimCoverage.check_claim / check_answer compute)
# --------------------------------------------------------------------------------------------------------------------
@dataclass
class ClaimCheck:
    """One claim's decision (the oracle of the C++ claim result)."""

    start: int
    end: int
    score: float
    threshold: float
    is_covered: bool
    is_meta: bool
    citations: list[str]
    covering_chunks: list[str]
    overlaps: dict[str, float]
    has_content: bool


@dataclass
class AnswerCheck:
    """One answer's decision (the oracle of the C++ answer result)."""

    claims: list[ClaimCheck]
    unknown_citations: list[str]
    missing_citations: list[str]
    covered_count: int
    attribution_coverage: float
    supported_ratio: float
    is_grounded: bool


class Checker:
    """The ClaimCoverage rules in plain Python (mode "default" or "reference")."""

    def __init__(
        self,
        min_overlap: float = 0.3,
        multi_citation_factor: float = 0.7,
        mode: str = "default",
        stopwords: Iterable[str] | None = None,
        meta_patterns: Iterable[str] | None = None,
        zipf: Mapping[str, float] | None = None,
        relations: Relations | None = None,
    ) -> None:
        self.min_overlap = min_overlap
        self.multi_citation_factor = multi_citation_factor
        self.mode = mode
        self.stop = _fold_set(STOPWORDS if stopwords is None else stopwords)
        self.ref_stop = frozenset(STOPWORDS if stopwords is None else stopwords)
        self.patterns = [p for p in map(compile_phrase, META_PATTERNS if meta_patterns is None else meta_patterns) if p]
        self.zipf = zipf if zipf is not None else {}
        self.relations = relations if relations is not None else {}

    # -- pieces ------------------------------------------------------------------------------------------------------
    def _score(self, sentence: str, claim: list[Token], chunk_text: str, chunk_tokens: list[Token]) -> float:
        return self._scores(sentence, claim, chunk_text, chunk_tokens)[0]

    def _scores(
        self, sentence: str, claim: list[Token], chunk_text: str, chunk_tokens: list[Token]
    ) -> tuple[float, float]:
        """(support score, plain overlap) of a claim by one chunk."""
        if self.mode == "reference":
            overlap = reference_overlap(sentence, chunk_text, self.ref_stop)
            return overlap, overlap
        res = _support(claim, chunk_text, chunk_tokens, self.zipf, self.stop, self.relations)
        return res.score, res.overlap

    def _scored(self, sentence: str, claim: list[Token]) -> list[Token]:
        """The tokens the default score reads: an opening list label or meta phrase is no part of the claim."""
        if self.mode == "reference":
            return claim
        label = list_label_end(sentence, claim)
        end = meta_phrase_end(claim, self.patterns, label)
        return claim[max(label, end or 0) :]

    def _has_content(self, sentence: str, claim: list[Token]) -> bool:
        if self.mode == "reference":
            return bool(reference_words(sentence, self.ref_stop))
        return any(is_content(t, self.stop) or t.key == SPEAKER_KEY for t in claim)

    def is_meta(self, sentence: str, claim: list[Token], chunks: Sequence[tuple[str, str, list[Token]]]) -> bool:
        """Opens with a meta phrase, and the rest has no number, no name and no content word found in any chunk."""
        end = meta_phrase_end(claim, self.patterns, list_label_end(sentence, claim) if self.mode == "default" else 0)
        if end is None:
            return False
        rest = claim[end:]
        if any(t.is_number or (is_content(t, self.stop) and is_name(t)) for t in rest):
            return False
        if self.mode == "reference":
            after = claim[end - 1].end
            words = reference_words(sentence[after:], self.ref_stop)
            found = set().union(*(reference_words(text, self.ref_stop) for _, text, _ in chunks)) if chunks else set()
            return not (words & found)
        keys = {t.key for t in rest if is_content(t, self.stop)}
        found_keys = {t.key for _, _, toks in chunks for t in toks}
        return not (keys & found_keys)

    def _decide(
        self,
        sentence: str,
        start: int,
        claim: list[Token],
        cited: list[str],
        chunks: Sequence[tuple[str, str, list[Token]]],
        evidence_ids: list[str],
        several: bool,
    ) -> ClaimCheck:
        """`evidence_ids`: the known chunks it cites, or every chunk for an uncited check_claim (scored, never
        covering: an uncited sentence is covered only when meta)."""
        by_id = {cid: (text, toks) for cid, text, toks in chunks}
        scored = self._scored(sentence, claim)
        pairs = {cid: self._scores(sentence, scored, by_id[cid][0], by_id[cid][1]) for cid in evidence_ids}
        overlaps = {cid: overlap for cid, (_, overlap) in pairs.items()}
        threshold = self.min_overlap * self.multi_citation_factor if several else self.min_overlap
        covering = [cid for cid in evidence_ids if pairs[cid][0] >= threshold] if cited else []
        meta = self.is_meta(sentence, claim, chunks)
        return ClaimCheck(
            start=start,
            end=start + len(sentence),
            score=max(score for score, _ in pairs.values()) if pairs else 0.0,
            threshold=threshold,
            is_covered=meta or bool(covering),
            is_meta=meta,
            citations=cited,
            covering_chunks=covering,
            overlaps=overlaps,
            has_content=self._has_content(sentence, scored),
        )

    def _chunks(self, chunks: Sequence[tuple[str, str]]) -> list[tuple[str, str, list[Token]]]:
        return [(cid, text, tokenize(text) if self.mode == "default" else []) for cid, text in chunks]

    # -- public ------------------------------------------------------------------------------------------------------
    def support(self, sentence: str, chunk_text: str) -> float:
        """The score check_claim gives `sentence` against one chunk (citations aside)."""
        claim = self._scored(sentence, tokenize(sentence))
        return self._score(sentence, claim, chunk_text, tokenize(chunk_text) if self.mode == "default" else [])

    def check_claim(self, sentence: str, chunks: Sequence[tuple[str, str]]) -> ClaimCheck:
        """One claim against (id, text) chunks: its cited chunks if it cites any, else all of them (scored, but an
        uncited claim is covered only when meta)."""
        prepared = self._chunks(chunks)
        ids = [cid for cid, _ in chunks]
        cited = list(dict.fromkeys(i for i, _, _ in reference_extract_citations(sentence)))
        if cited:
            known = [c for c in cited if c in ids]
            return self._decide(sentence, 0, tokenize(sentence), cited, prepared, known, len(known) > 1)
        return self._decide(sentence, 0, tokenize(sentence), [], prepared, ids, False)

    def check_answer(self, answer: str, chunks: Sequence[tuple[str, str]]) -> AnswerCheck:
        """Every sentence of `answer` against the chunks it cites, plus unknown and missing citations."""
        prepared = self._chunks(chunks)
        ids = [cid for cid, _ in chunks]
        claims: list[ClaimCheck] = []
        unknown: list[str] = []
        cited_anywhere: set[str] = set()
        tokens_of: list[list[Token]] = []
        for start, end in reference_split_sentences(answer):
            sentence = answer[start:end]
            cited = list(dict.fromkeys(i for i, _, _ in reference_extract_citations(sentence)))
            known = [c for c in cited if c in ids]
            unknown += [c for c in cited if c not in ids and c not in unknown]
            cited_anywhere.update(known)
            claim = tokenize(sentence)
            tokens_of.append(self._scored(sentence, claim))
            claims.append(self._decide(sentence, start, claim, cited, prepared, known, len(known) > 1))
        missing = []
        for cid, text, toks in prepared:
            if cid in cited_anywhere:
                continue
            for c, claim in zip(claims, tokens_of):
                if c.is_meta or not c.has_content:
                    continue
                if self._score(answer[c.start : c.end], claim, text, toks) >= self.min_overlap:
                    missing.append(cid)
                    break
        real = [c for c in claims if not c.is_meta]
        covered = sum(c.is_covered for c in real)
        attributed = sum(any(cid in ids for cid in c.citations) for c in real)
        return AnswerCheck(
            claims=claims,
            unknown_citations=unknown,
            missing_citations=missing,
            covered_count=covered,
            attribution_coverage=attributed / len(real) if real else 1.0,
            supported_ratio=covered / len(real) if real else 1.0,
            is_grounded=covered == len(real) and not unknown and not missing,
        )


def check_answer(answer: str, chunks: Sequence[tuple[str, str]], **config: Any) -> AnswerCheck:
    """``Checker(**config).check_answer(answer, chunks)``."""
    return Checker(**config).check_answer(answer, chunks)
