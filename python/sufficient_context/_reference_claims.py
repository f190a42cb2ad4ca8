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

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ._reference import ENGLISH_STOPWORDS, reference_fold, reference_stem, reference_tokenize
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
# Default-mode constants (the whole spec; all round numbers).
# --------------------------------------------------------------------------------------------------------------------
ZIPF_CEILING = 7.0  # weight(stem) = clamp(ZIPF_CEILING - zipf(stem), MIN_WEIGHT, ZIPF_CEILING)
MIN_WEIGHT = 3.0  # common words (zipf >= 4) all weigh 3; rarer words more, up to 6 for unknown stems and numbers
UNKNOWN_ZIPF = 1.0  # zipf of a stem missing from the table (as data/english_freq.tsv's generator specifies)
WINDOW_FACTOR = 2  # local evidence window: WINDOW_FACTOR x (number of claim tokens) consecutive chunk tokens
SUPPORT_EXPONENT = 4  # score = local_overlap ** 4 x penalties: 0.3 <=> ~74% of the claim's weight found locally
HARD_MISS_FACTOR = 0.25  # score multiplied by this once per missing number / capitalised name (capped below)
MAX_HARD_MISSES = 2  # at most this many factors apply (0.25 ** 2 = 0.0625)
NEGATION_FACTOR = 0.5  # score multiplied by this when the claim is negated and the chunk is not near the match
NEGATION_WINDOW = 5  # tokens either side of a matched claim word in which a chunk negation counts
EMPTY_CLAIM_SCORE = 1.0  # a claim with no content word, number or name: nothing to contradict
MIN_NAME_LETTERS = 2  # a capitalised name has at least this many letters ("U.S." yields no name)

# Answer particles that carry no checkable content in the default mode (besides the stop words).
NON_CONTENT: frozenset[str] = frozenset({"yes"})

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
)  # fmt: skip
WILDCARD = "*"
MAX_WILDCARD = 8


@dataclass(frozen=True)
class Token:
    """One token of a text."""

    surface: str  # as written
    key: str  # matching key: stem of the folded word without possessive, or the number without commas
    is_number: bool
    sentence_start: bool  # first token of a sentence (or of the text)
    folded: str = ""  # case-folded surface
    start: int = 0  # str offsets in the text
    end: int = 0


@dataclass
class SupportResult:
    """Default-mode support of one claim by one chunk, with the parts a ClaimResult reason needs."""

    score: float
    overlap: float  # rarity-weighted share of the claim's content items found anywhere in the chunk
    local_overlap: float  # the same share within the best window of the chunk (the score's base)
    content_words: list[str] = field(default_factory=list)  # claim content keys (stems / numbers), in order
    matched: list[str] = field(default_factory=list)
    missing_numbers: list[str] = field(default_factory=list)
    missing_names: list[str] = field(default_factory=list)
    negation_mismatch: bool = False


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
    """Splits a text into tokens (citation markers removed first), with keys and sentence starts."""
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
        else:
            tokens.append(Token(surface, stem(_word_base(folded)), False, first, folded, start, end))
    return tokens


def _is_upper(c: str) -> bool:
    """A capital: simple case folding changes it (the package's folding blocks), and it is not lowercase."""
    return reference_fold(c) != c and c not in _FOLDING_LOWERCASE and c != "\u2019"


def is_name(tok: Token) -> bool:
    """A capitalised name: a word starting with a capital that is not sentence-initial, or whose letters (>= 2) are
    all capitals anywhere. (Callers pass content tokens only: stop words are never names.)"""
    if tok.is_number or not _is_upper(tok.surface[0]):
        return False
    letters = [c for c in tok.surface if c not in _NOT_LETTERS]
    if len(letters) < MIN_NAME_LETTERS:
        return False
    all_caps = all(_is_upper(c) for c in letters)
    return all_caps or not tok.sentence_start


def is_content(tok: Token, stop: frozenset[str]) -> bool:
    """A number, or a word whose folded form (and its form without a possessive) is no stop word nor NON_CONTENT."""
    if tok.is_number:
        return True
    base = _word_base(tok.folded)
    return not (tok.folded in stop or base in stop or tok.folded in NON_CONTENT or base in NON_CONTENT)


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


def word_weight(key: str, zipf: Mapping[str, float]) -> float:
    """Rarity weight of a stem (a token key): clamp(ZIPF_CEILING - zipf, MIN_WEIGHT, ZIPF_CEILING), where zipf comes
    from the stem-keyed table (data/english_freq.tsv) and is UNKNOWN_ZIPF for a stem it lacks. Numbers (keys
    starting with an ASCII digit) weigh as an unknown stem."""
    z = UNKNOWN_ZIPF if key[:1] and "0" <= key[0] <= "9" else zipf.get(key, UNKNOWN_ZIPF)
    return min(max(ZIPF_CEILING - z, MIN_WEIGHT), ZIPF_CEILING)


def _negated_near(chunk_tokens: list[Token], matched_keys: set[str]) -> bool:
    neg_pos = [i for i, t in enumerate(chunk_tokens) if _is_negation(t)]
    if not neg_pos:
        return False
    for i, t in enumerate(chunk_tokens):
        if t.key in matched_keys and any(abs(i - j) <= NEGATION_WINDOW for j in neg_pos):
            return True
    return False


def _is_negation(tok: Token) -> bool:
    return tok.folded in NEGATIONS or tok.folded.endswith("n't")


def best_window_weight(chunk_keys: list[str], weights: Mapping[str, float], window: int) -> float:
    """Largest total weight of distinct claim keys found among ``window`` consecutive chunk tokens (the whole chunk
    when it is shorter). Only windows starting at a matching token need checking."""
    best = 0.0
    n = len(chunk_keys)
    for i, key in enumerate(chunk_keys):
        if key not in weights:
            continue
        found = set(chunk_keys[i : min(n, i + window)])
        best = max(best, sum(w for k, w in weights.items() if k in found))  # claim order: exact, deterministic
    return best


def default_support(
    sentence: str,
    chunk_text: str,
    zipf: Mapping[str, float] | None = None,
    stopwords: Iterable[str] = STOPWORDS,
) -> SupportResult:
    """mode="default" support score of one claim sentence by one chunk, in [0, 1].

    1. Tokenize both texts (``tokenize``). Claim content items: distinct keys of number tokens, and of word and
       identifier tokens whose folded form (or its form without a possessive 's) is neither a stop word nor in
       NON_CONTENT (``is_content``). A claim with no content item scores EMPTY_CLAIM_SCORE (nothing to check).
    2. Weight of each item: ``word_weight`` of its key (rarer stem = heavier; numbers as unknown stems). Number keys
       start with a digit, word keys never do, so one key set serves both.
    3. overlap = weight of items whose key occurs anywhere in the chunk / total weight (reported, not scored).
       local_overlap = ``best_window_weight`` with window = WINDOW_FACTOR x (number of claim tokens) / total weight.
    4. Hard misses: distinct claim numbers whose key is absent from the chunk, plus distinct capitalised names
       (``is_name``) whose key is absent from the chunk; n = min(count, MAX_HARD_MISSES).
    5. Negation mismatch: some claim token is a negation (NEGATIONS, or ends in n't) and no chunk negation lies within
       NEGATION_WINDOW tokens of a chunk token whose key is a matched claim item.
    6. score = local_overlap ** SUPPORT_EXPONENT x HARD_MISS_FACTOR ** n x (NEGATION_FACTOR if mismatch else 1).
       Any hard miss puts the score below 0.3 (<= 0.25), so the default threshold always rejects it.
    """
    stop = _fold_set(stopwords)
    return _support(tokenize(sentence), tokenize(chunk_text), zipf if zipf is not None else {}, stop)


def _fold_set(stopwords: Iterable[str]) -> frozenset[str]:
    return frozenset(reference_fold(w) for w in stopwords if w)


def _claim_items(
    claim: list[Token], zipf: Mapping[str, float], stop: frozenset[str]
) -> tuple[dict[str, float], dict[str, str], dict[str, str]]:
    weights: dict[str, float] = {}
    names: dict[str, str] = {}
    numbers: dict[str, str] = {}
    for t in claim:
        if not is_content(t, stop):
            continue
        weights[t.key] = word_weight(t.key, zipf)
        if t.is_number:
            numbers.setdefault(t.key, t.surface)
        elif is_name(t):
            names.setdefault(t.key, t.surface)
    return weights, names, numbers


def _support(claim: list[Token], chunk: list[Token], zipf: Mapping[str, float], stop: frozenset[str]) -> SupportResult:
    chunk_key_list = [t.key for t in chunk]
    chunk_keys = set(chunk_key_list)
    weights, names, numbers = _claim_items(claim, zipf, stop)
    res = SupportResult(score=EMPTY_CLAIM_SCORE, overlap=1.0, local_overlap=1.0, content_words=list(weights))
    if not weights:
        return res
    total = sum(weights.values())
    res.matched = [k for k in weights if k in chunk_keys]
    res.overlap = sum(weights[k] for k in res.matched) / total  # all sums in claim order: 1.0 exactly when all match
    res.local_overlap = best_window_weight(chunk_key_list, weights, WINDOW_FACTOR * len(claim)) / total
    res.missing_numbers = [s for k, s in numbers.items() if k not in chunk_keys]
    res.missing_names = [s for k, s in names.items() if k not in chunk_keys]
    misses = min(len(res.missing_numbers) + len(res.missing_names), MAX_HARD_MISSES)
    score = res.local_overlap**SUPPORT_EXPONENT * HARD_MISS_FACTOR**misses
    if any(_is_negation(t) for t in claim) and not _negated_near(chunk, set(res.matched)):
        res.negation_mismatch = True
        score *= NEGATION_FACTOR
    res.score = score
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
    """End (exclusive token index) of the shortest match of `pattern` starting at token `pos`, or None."""
    if not pattern:
        return None

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


def meta_phrase_end(tokens: list[Token], patterns: Iterable[Sequence[str]]) -> int | None:
    """Token index just past the longest meta phrase opening the token list, or None."""
    keys = [t.key for t in tokens]
    best: int | None = None
    for pattern in patterns:
        end = match_phrase_at(keys, 0, pattern)
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
    ) -> None:
        self.min_overlap = min_overlap
        self.multi_citation_factor = multi_citation_factor
        self.mode = mode
        self.stop = _fold_set(STOPWORDS if stopwords is None else stopwords)
        self.ref_stop = frozenset(STOPWORDS if stopwords is None else stopwords)
        self.patterns = [p for p in map(compile_phrase, META_PATTERNS if meta_patterns is None else meta_patterns) if p]
        self.zipf = zipf if zipf is not None else {}

    # -- pieces ------------------------------------------------------------------------------------------------------
    def _score(self, sentence: str, claim: list[Token], chunk_text: str, chunk_tokens: list[Token]) -> float:
        if self.mode == "reference":
            return reference_overlap(sentence, chunk_text, self.ref_stop)
        return _support(claim, chunk_tokens, self.zipf, self.stop).score

    def _scored(self, claim: list[Token]) -> list[Token]:
        """The tokens the default score reads: an opening meta phrase is no part of the claim."""
        if self.mode == "reference":
            return claim
        end = meta_phrase_end(claim, self.patterns)
        return claim[end:] if end else claim

    def _has_content(self, sentence: str, claim: list[Token]) -> bool:
        if self.mode == "reference":
            return bool(reference_words(sentence, self.ref_stop))
        return any(is_content(t, self.stop) for t in claim)

    def is_meta(self, sentence: str, claim: list[Token], chunks: Sequence[tuple[str, str, list[Token]]]) -> bool:
        """Opens with a meta phrase, and the rest has no number, no name and no content word found in any chunk."""
        end = meta_phrase_end(claim, self.patterns)
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
        by_id = {cid: (text, toks) for cid, text, toks in chunks}
        scored = self._scored(claim)
        overlaps = {cid: self._score(sentence, scored, by_id[cid][0], by_id[cid][1]) for cid in evidence_ids}
        threshold = self.min_overlap * self.multi_citation_factor if several else self.min_overlap
        covering = [cid for cid in evidence_ids if overlaps[cid] >= threshold]
        meta = self.is_meta(sentence, claim, chunks)
        return ClaimCheck(
            start=start,
            end=start + len(sentence),
            score=max(overlaps.values()) if overlaps else 0.0,
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
        claim = self._scored(tokenize(sentence))
        return self._score(sentence, claim, chunk_text, tokenize(chunk_text) if self.mode == "default" else [])

    def check_claim(self, sentence: str, chunks: Sequence[tuple[str, str]]) -> ClaimCheck:
        """One claim against (id, text) chunks: its cited chunks if it cites any, else all of them."""
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
            tokens_of.append(self._scored(claim))
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
