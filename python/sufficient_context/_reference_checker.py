"""Plain-Python oracles for SufficientContextChecker scoring.

* ``reference_score``: the original design's formula (API.md section 2, "Reference scoring"), exactly.
* ``default_score``: the no-model ``scoring="default"`` formula, the spec and test oracle of the C++ core.

Only the standard library and the text engine's oracles (``_reference``: tokenizer, folding, stop words, and
``snowballstemmer``'s Porter2) are used.
Chunks are mappings with ``content`` (required) and optional ``summary``, ``embedding``, ``timestamp``
(POSIX seconds, ISO-8601 string or datetime) and ``temperature``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from ._reference import ASKING, ENGLISH_STOPWORDS, reference_fold, reference_stem, reference_tokenize

__all__ = [
    "DEFAULT_WEIGHTS",
    "NEGATIONS",
    "REFERENCE_STOP_WORDS",
    "STOP_WORDS",
    "default_score",
    "load_freq_table",
    "python_word_ranges",
    "reference_score",
    "sentences",
    "tokenize",
]

Chunk = Mapping[str, Any]
Result = dict[str, Any]


def _level(score: float, thresholds: tuple[float, float]) -> str:
    sufficient, partial = thresholds
    if score >= sufficient:
        return "sufficient"
    if score >= partial:
        return "partial"
    return "insufficient"


def _empty_result() -> Result:
    return {
        "score": 0.0,
        "level": "insufficient",
        "missing_aspects": ["No relevant context found"],
        "confidence_factors": [],
        "signals": {},
        "covered_terms": [],
        "missing_terms": [],
    }


# ----------------------------------------------------------------------------------------------------------------
# Reference scoring: the original formula, as Python's `re` and `len` compute it.
# ----------------------------------------------------------------------------------------------------------------

REFERENCE_STOP_WORDS = frozenset(
    [
        "the",
        "and",
        "for",
        "are",
        "but",
        "not",
        "you",
        "all",
        "can",
        "had",
        "her",
        "was",
        "one",
        "our",
        "out",
        "has",
        "what",
        "how",
        "why",
        "when",
        "where",
        "which",
        "who",
    ]
)
_REF_TERM = re.compile(r"\b[a-zA-Z]{3,}\b")


def python_word_ranges() -> list[tuple[int, int]]:
    """Non-ASCII code point ranges that Python's ``re`` matches with ``\\w`` (``str.isalnum()``), as
    src/checker/python_word_table.cpp lists them (generated from this function; surrogates excluded)."""
    out: list[tuple[int, int]] = []
    start = None
    for cp in range(0x80, 0x110001):
        word = cp < 0x110000 and not 0xD800 <= cp <= 0xDFFF and chr(cp).isalnum()
        if word and start is None:
            start = cp
        elif not word and start is not None:
            out.append((start, cp - 1))
            start = None
    return out


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b))
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(y * y for y in b))
    if na == 0.0 or nb == 0.0:
        return 0.0
    return dot / (na * nb)


def _embedding_relevance(
    query: str,
    chunks: Sequence[Chunk],
    query_embedding: Sequence[float] | None,
    embed: Callable[[list[str]], Sequence[Sequence[float]]] | None,
) -> float | None:
    """max cosine(query, chunk) when a model or embeddings are given (a chunk's own embedding first), else None."""
    if embed is None and query_embedding is None:
        return None  # chunk embeddings alone: nothing embeds the query, relevance stays lexical
    if query_embedding is None:
        assert embed is not None
        query_embedding = embed([query])[0]
    vecs = []
    for i, c in enumerate(chunks):
        if c.get("embedding") is not None:
            vecs.append(c["embedding"])
        elif embed is not None:
            vecs.append(embed([str(c["content"])])[0])
        else:
            raise ValueError(f"chunk {i} has no embedding and there is no model to encode it")
    return max(_cosine(query_embedding, v) for v in vecs)


def reference_score(
    query: str,
    chunks: Sequence[Chunk],
    *,
    min_contexts: int = 1,
    thresholds: tuple[float, float] = (0.8, 0.5),
    query_embedding: Sequence[float] | None = None,
    embed: Callable[[list[str]], Sequence[Sequence[float]]] | None = None,
    weights: Mapping[str, float] | None = None,
) -> Result:
    """The reference formula: .4 coverage + .3 relevance + .2 density + .1 count.

    ``embed`` stands for an embedding model (texts -> vectors); without it and without embeddings relevance is 0.5.
    ``weights`` overrides the four weights by name (the original design's checker took such a dict); the score
    stays the plain weighted sum.
    """
    if not chunks:
        return _empty_result()
    # coverage
    terms: list[str] = []
    for m in _REF_TERM.finditer(query.lower()):
        t = m.group()
        if t not in REFERENCE_STOP_WORDS and t not in terms:
            terms.append(t)
    text = " ".join(str(c["content"]) + " " + str(c.get("summary") or "") for c in chunks).lower()
    covered = [t for t in terms if t in text]
    missing = [t for t in terms if t not in text]
    coverage = 1.0 if not terms else len(covered) / len(terms)
    # relevance
    semantic = _embedding_relevance(query, chunks, query_embedding, embed)
    relevance = 0.5 if semantic is None else semantic
    # density
    total_chars = sum(len(str(c["content"])) for c in chunks)
    temps = [float(c["temperature"]) if c.get("temperature") is not None else 37.0 for c in chunks]
    density = (min(total_chars / 1000, 1.0) + min((sum(temps) / len(temps)) / 50, 1.0)) / 2
    # count
    n = len(chunks)
    count = min(n / min_contexts, 1.0)
    w = {"coverage": 0.4, "relevance": 0.3, "density": 0.2, "count": 0.1}
    if weights:
        w.update(weights)
    score = w["coverage"] * coverage + w["relevance"] * relevance + w["density"] * density + w["count"] * count
    aspects = [f"Query term '{t}' not found in context" for t in missing[:3]]
    if density < 0.5:
        aspects.append("Retrieved context lacks detailed information")
    if count < 1.0:
        aspects.append(f"Only {n} context(s), need {min_contexts}")
    factors = []
    if coverage > 0.7:
        factors.append(f"Good keyword coverage ({coverage:.0%})")
    if relevance > 0.7:
        factors.append(f"High semantic relevance ({relevance:.0%})")
    return {
        "score": score,
        "level": _level(score, thresholds),
        "missing_aspects": aspects,
        "confidence_factors": factors,
        "signals": {"coverage": coverage, "relevance": relevance, "density": density, "count": count},
        "covered_terms": covered,
        "missing_terms": missing,
    }


# ----------------------------------------------------------------------------------------------------------------
# Default scoring: text rules shared with the C++ tokenizer.
# ----------------------------------------------------------------------------------------------------------------

#: NLTK's English stop-word list (179 words), the text engine's (src/text/stopwords.cpp).
STOP_WORDS = ENGLISH_STOPWORDS

#: Negation cues (a word token equal to one of these, or ending in "n't").
NEGATIONS = frozenset(["not", "no", "never", "nor", "none", "neither", "cannot", "without"])

# A sentence ends at . ! or ? (optionally followed by closing quotes/brackets) followed by whitespace.
_SENTENCE_BREAK = re.compile(r"(?<=[.!?])[\"')\]\u201d\u2019]*\s+")

WORD, NUMBER, IDENT = "w", "n", "i"
_KINDS = {"word": WORD, "number": NUMBER, "identifier": IDENT}


def _stem(word: str) -> str:
    """Porter2 stem of a folded word, as src/text/stemmer.hpp computes it (a-z and apostrophes only)."""
    return reference_stem(word)


def tokenize(text: str) -> list[tuple[str | None, str, str]]:
    """Tokens of ``text`` as ``(term, kind, lower)``, following the C++ text engine (src/text/).

    Tokens and kinds are the text engine's tokenizer's (``_reference.reference_tokenize``): "w" words (letters
    with internal apostrophes, or one CJK/kana/Hangul character), "n" numbers (ASCII digits joined by single
    '.' or ','), "i" identifiers (letters with digits, or joined by underscores). ``lower`` is the token case-folded
    as the engine folds (``reference_fold``: simple folding, U+2019 -> "'"). ``term`` is None for stop words, the
    Porter2 stem of a word (words holding anything but a-z and apostrophes stay as folded), a number without its
    commas, an identifier as folded.
    """
    out: list[tuple[str | None, str, str]] = []
    for token, _start, _end, kind in reference_tokenize(text):
        low = reference_fold(token)
        k = _KINDS[kind]
        if k == WORD:
            out.append((None if low in STOP_WORDS else reference_stem(low), WORD, low))
        elif k == NUMBER:
            out.append((low.replace(",", ""), NUMBER, low))
        else:
            out.append((low, IDENT, low))
    return out


ONLY_ASKED = "The best match in the context is a question, which answers nothing"


def sentences(text: str) -> list[str]:
    """Sentences of ``text`` (empty pieces dropped)."""
    return [s for s in _SENTENCE_BREAK.split(text) if s.strip()]


def _is_negation(lower: str) -> bool:
    return lower in NEGATIONS or lower.endswith("n't")


# ----------------------------------------------------------------------------------------------------------------
# Default scoring: constants.
# ----------------------------------------------------------------------------------------------------------------

DEFAULT_WEIGHTS: dict[str, float] = {"coverage": 0.6, "relevance": 0.2, "density": 0.1, "count": 0.1, "recency": 0.1}
ZIPF_CEILING = 7.0  # term weight = max(ZIPF_CEILING - zipf(stem), MIN_TERM_WEIGHT)
MIN_TERM_WEIGHT = 0.5
UNKNOWN_ZIPF = 1.0  # zipf of stems absent from the table, and of every number and identifier (weight 6)
PREFIX_LEN = 5  # a term of >= 5 code points not found whole gets PREFIX_CREDIT if a context term shares its prefix
PREFIX_CREDIT = 0.5
VARIANT_CREDIT = 0.75  # credit of a term matched by a variant: a 1-edit variant of a rare absent word, or a related
#                       word (synonym or derivation, data/english_relations.tsv)
TYPO_MAX_ZIPF = 3.0  # "rare": zipf below this (stems absent from the table count as UNKNOWN_ZIPF)
TYPO_MIN_LEN = 5  # ... and at least this many code points
NEGATION_FACTOR = 0.5  # coverage multiplier when the query is negated and its best evidence sentence is not
REVERSE_NEGATION_FACTOR = 0.85  # coverage multiplier when the best evidence sentence is negated and the query not
DOC_SHARE = 0.35  # combined coverage = DOC_SHARE * document coverage + (1 - DOC_SHARE) * relation
BRIDGE_MAX_ZIPF = 3.0  # another chunk's sentence joins the best one only via a non-query term rarer than this
CONCENTRATION_BONUS = 0.25  # relation += this x (best sentence share - best share of a sentence away from it)
CONTRADICTION_FACTOR = 0.5  # coverage multiplier when the best sentence holds an antonym of an absent query term
NGRAM_MIN, NGRAM_MAX = 3, 5
NGRAM_BUCKETS = 1 << 20
RELEVANCE_SCALE = 0.5  # relevance = min(1, best char-n-gram cosine / RELEVANCE_SCALE)
COVERAGE_POWER = 2  # coverage = (combined coverage) ** 2, so a missing aspect costs more than its share
MAX_QUERY_TERMS = 512  # a longer query is scored on its first 512 distinct key terms (work stays linear)
QUERY_TRUNCATED = "The query has more than 512 key terms; only the first 512 were looked for"
NO_KEY_TERMS = "The query has no key terms to look for (only stop words or punctuation)"
SCORE_EXPONENT = 2.0  # calibration: score = (weighted mean of the signals) ** SCORE_EXPONENT
DENSITY_WORDS = 50  # content words at which the length half of density saturates
DENSITY_SHARE = 0.4  # share of content words at which the substance half of density saturates

_FNV_OFFSET = 0xCBF29CE484222325
_FNV_PRIME = 0x100000001B3
_MASK64 = (1 << 64) - 1


def _fnv1a(data: bytes) -> int:
    h = _FNV_OFFSET
    for b in data:
        h = ((h ^ b) * _FNV_PRIME) & _MASK64
    return h


_ngram_cache: dict[str, int] = {}


def _ngram_vector(words: Sequence[str]) -> dict[int, int]:
    """Hashed character n-gram counts of " w1 w2 ... wk " (n = 3..5, over code points)."""
    s = " " + " ".join(words) + " "
    v: dict[int, int] = {}
    n_chars = len(s)
    for n in range(NGRAM_MIN, NGRAM_MAX + 1):
        for i in range(n_chars - n + 1):
            g = s[i : i + n]
            b = _ngram_cache.get(g)
            if b is None:
                b = _fnv1a(g.encode("utf-8")) & (NGRAM_BUCKETS - 1)
                if len(_ngram_cache) < 500_000:
                    _ngram_cache[g] = b
            v[b] = v.get(b, 0) + 1
    return v


def _ngram_cosine(q: dict[int, int], qnorm: float, d: dict[int, int]) -> float:
    if not q or not d:
        return 0.0
    dot = sum(c * d.get(k, 0) for k, c in q.items())
    dnorm = math.sqrt(sum(c * c for c in d.values()))
    return dot / (qnorm * dnorm)


def load_freq_table(path: str | None = None) -> dict[str, float]:
    """Read ``stem<TAB>zipf`` lines (``#`` lines are comments); default: the packaged english_freq.tsv."""
    p = Path(path) if path is not None else Path(__file__).with_name("data") / "english_freq.tsv"
    table: dict[str, float] = {}
    with open(p, encoding="utf-8") as fh:
        for line in fh:
            if not line or line.startswith("#"):
                continue
            stem, _, z = line.rstrip("\n").partition("\t")
            if z:
                table[stem] = float(z)
    return table


Relations = Mapping[str, tuple[frozenset[str], frozenset[str]]]  # stem -> (related stems, antonym stems)
_english_relations: dict[str, tuple[frozenset[str], frozenset[str]]] = {}


def load_relations(path: str | None = None) -> dict[str, tuple[frozenset[str], frozenset[str]]]:
    """Read ``stem<TAB>related<TAB>antonyms`` lines; default: the packaged english_relations.tsv (cached)."""
    if path is None and _english_relations:
        return _english_relations
    p = Path(path) if path is not None else Path(__file__).with_name("data") / "english_relations.tsv"
    table: dict[str, tuple[set[str], set[str]]] = {}
    with open(p, encoding="utf-8") as fh:
        for line in fh:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            stem, related, antonyms = line.split("\t")
            entry = table.setdefault(stem, (set(), set()))
            entry[0].update(related.split())
            entry[1].update(antonyms.split())
    out = {k: (frozenset(r), frozenset(a)) for k, (r, a) in table.items()}
    if path is None:
        _english_relations.update(out)
    return out


def _term_weight(term: str, kind: str, freq_table: Mapping[str, float]) -> float:
    z = freq_table.get(term, UNKNOWN_ZIPF) if kind == WORD else UNKNOWN_ZIPF
    return max(ZIPF_CEILING - z, MIN_TERM_WEIGHT)


def _edit1(a: str, b: str) -> bool:
    """True when a and b differ by exactly one insertion, deletion, substitution or adjacent transposition."""
    la, lb = len(a), len(b)
    if a == b or abs(la - lb) > 1:
        return False
    if la == lb:
        diff = [i for i in range(la) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        i = diff[0]
        return len(diff) == 2 and diff[1] == i + 1 and a[i] == b[i + 1] and a[i + 1] == b[i]
    if la > lb:
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    return a[i:] == b[i + 1 :]


Mark = tuple[int, str]  # (0, term): whole; (1, term): a variant of it; (2, prefix): a term with that 5-prefix


def _marks(terms: set[str], qterms: Sequence[tuple[str, float]], variants: Mapping[str, set[str]]) -> set[Mark]:
    """The query-term marks a set of context terms holds."""
    prefixes = {t[:PREFIX_LEN] for t in terms if len(t) >= PREFIX_LEN}
    out: set[Mark] = set()
    for t, _ in qterms:
        if t in terms:
            out.add((0, t))
        if t in variants and not variants[t].isdisjoint(terms):
            out.add((1, t))
        if len(t) >= PREFIX_LEN and t[:PREFIX_LEN] in prefixes:
            out.add((2, t[:PREFIX_LEN]))
    return out


def _coverage(qterms: Sequence[tuple[str, float]], total: float, marks: set[Mark]) -> float:
    """Weighted share of query terms found whole (credit 1), else by a variant (VARIANT_CREDIT), else by 5-prefix
    (PREFIX_CREDIT) among ``marks``, summed in query order."""
    got = 0.0
    for t, w in qterms:
        if (0, t) in marks:
            got += w
        elif (1, t) in marks:
            got += VARIANT_CREDIT * w
        elif len(t) >= PREFIX_LEN and (2, t[:PREFIX_LEN]) in marks:
            got += PREFIX_CREDIT * w
    return got / total


def _timestamp_seconds(ts: Any) -> float:
    if isinstance(ts, datetime):
        dt = ts if ts.tzinfo is not None else ts.replace(tzinfo=timezone.utc)
        return dt.timestamp()
    if isinstance(ts, str):
        dt = datetime.fromisoformat(ts.replace("Z", "+00:00"))
        return _timestamp_seconds(dt)
    return float(ts)


def default_score(
    query: str,
    chunks: Sequence[Chunk],
    *,
    freq_table: Mapping[str, float],
    weights: Mapping[str, float] | None = None,
    thresholds: tuple[float, float] = (0.8, 0.5),
    min_contexts: int = 1,
    recency_days: float = 365.0,
    now: float | None = None,
    query_embedding: Sequence[float] | None = None,
    embed: Callable[[list[str]], Sequence[Sequence[float]]] | None = None,
    relations: Relations | None = None,
) -> Result:
    """The ``scoring="default"`` formula (see the spec in benchmarks/quality/eval_checker.py).

    ``relations`` maps a stem to its related stems and antonym stems; None means the packaged English table.

    Without embeddings relevance is lexical (the spec). With them (``embed`` standing for a model, or embeddings
    given as for ``reference_score``) relevance is the best cosine clipped to [0, 1] and its confidence factor
    reads "High semantic relevance".
    """
    if not chunks:
        return _empty_result()
    w = dict(DEFAULT_WEIGHTS)
    if weights:
        w.update(weights)

    # --- query terms: distinct non-stop terms in query order, rarity-weighted
    qtoks = tokenize(query)
    seen: dict[str, float] = {}
    truncated = False
    for term, kind, _ in qtoks:
        if term is not None and term not in seen:
            if len(seen) == MAX_QUERY_TERMS:
                truncated = True
                continue
            seen[term] = _term_weight(term, kind, freq_table)
    qterms = list(seen.items())
    total = sum(seen.values())
    query_negated = any(_is_negation(low) for _, kind, low in qtoks if kind == WORD)
    qwords = [low for term, _, low in qtoks if term is not None]
    qvec = _ngram_vector(qwords)
    qnorm = math.sqrt(sum(c * c for c in qvec.values()))

    # --- per chunk and per sentence: term sets, prefix sets, negation, n-gram vectors
    chunk_sets: list[set[str]] = []
    chunk_pre: list[set[str]] = []
    sent_sets: list[set[str]] = []
    sent_chunk: list[int] = []
    chunk_first: list[int] = []  # index of each chunk's first sentence
    sent_neg: list[bool] = []
    sent_asks: list[bool] = []  # a question: its first word asks (ASKING) and its text ends in "?"
    relevance_raw = 0.0
    n_tokens = 0
    n_content = 0
    first_text: set[str] = set()
    n_repeated = 0  # copies of an earlier chunk's text (not blank): read once, no sentence, token or context
    for ci, c in enumerate(chunks):
        cs: set[str] = set()
        chunk_first.append(len(sent_sets))
        text = str(c["content"])
        if text in first_text:
            n_repeated += 1 if text.strip() else 0
            chunk_sets.append(cs)
            chunk_pre.append(set())
            continue
        first_text.add(text)
        for sent in sentences(text):
            toks = tokenize(sent)
            n_tokens += len(toks)
            ss = {t for t, _, _ in toks if t is not None}
            n_content += sum(1 for t, _, _ in toks if t is not None)
            sent_sets.append(ss)
            sent_chunk.append(ci)
            sent_neg.append(any(_is_negation(low) for _, kind, low in toks if kind == WORD))
            first = next((low for _, kind, low in toks if kind == WORD), "")
            sent_asks.append(first in ASKING and sent.rstrip().endswith("?"))
            cs |= ss
            if qnorm > 0.0:
                words = [low for t, _, low in toks if t is not None]
                relevance_raw = max(relevance_raw, _ngram_cosine(qvec, qnorm, _ngram_vector(words)))
        chunk_sets.append(cs)
        chunk_pre.append({t[:PREFIX_LEN] for t in cs if len(t) >= PREFIX_LEN})

    chunk_first.append(len(sent_sets))

    # --- variants of query terms in the context: 1-edit variants of rare words absent from it (typos, spelling
    # variants) and related words (synonyms, derivations); antonyms (not query terms) of query terms absent from it
    rel = load_relations() if relations is None else relations
    all_terms: set[str] = set().union(*chunk_sets)
    kinds = {t: k for t, k, _ in qtoks if t is not None}
    typos: dict[str, set[str]] = {}
    related: dict[str, set[str]] = {}
    antonyms: dict[str, set[str]] = {}
    for t, _ in qterms:
        if (
            kinds[t] == WORD
            and len(t) >= TYPO_MIN_LEN
            and t not in all_terms
            and freq_table.get(t, UNKNOWN_ZIPF) < TYPO_MAX_ZIPF
        ):
            alts = {u for u in all_terms if _edit1(t, u)}
            if alts:
                typos[t] = alts
        entry = rel.get(t)
        if entry is None:
            continue
        if found := entry[0] & all_terms:
            related[t] = set(found)
        if t not in all_terms and (opposite := (entry[1] & all_terms) - seen.keys()):
            antonyms[t] = set(opposite)
    variants = {t: typos.get(t, set()) | related.get(t, set()) for t in typos.keys() | related.keys()}

    # --- coverage = DOC_SHARE * document coverage + (1 - DOC_SHARE) * relation, times the polarity factor
    contradicted: str | None = None  # the first query term whose antonym the best sentence holds
    only_asked = False  # a question matched the query better than any other sentence
    if total > 0.0:
        chunk_marks = [_marks(s, qterms, variants) for s in chunk_sets]
        cov = [_coverage(qterms, total, m) for m in chunk_marks]
        i = max(range(len(cov)), key=cov.__getitem__)  # first best chunk
        doc_cov = cov[i]
        for j in range(len(chunks)):
            if j != i:
                doc_cov = max(doc_cov, _coverage(qterms, total, chunk_marks[i] | chunk_marks[j]))
        if sent_sets:
            sent_marks = [_marks(s, qterms, variants) for s in sent_sets]
            # a chunk's topic: the marks at least half of its sentences hold (chunks of >= 2 sentences); they count
            # as present in each of its sentences, which often name the topic only by a pronoun
            topic: list[set[Mark]] = []
            for ci in range(len(chunks)):
                own = sent_marks[chunk_first[ci] : chunk_first[ci + 1]]
                held: dict[Mark, int] = {}
                for marks in own:
                    for mark in marks:
                        held[mark] = held.get(mark, 0) + 1
                topic.append({mk for mk, c in held.items() if 2 * c >= len(own)} if len(own) >= 2 else set())
            scov = [_coverage(qterms, total, sent_marks[m] | topic[sent_chunk[m]]) for m in range(len(sent_sets))]
            # A question asserts nothing: it is neither the best sentence nor a bridge, and does not dilute the
            # concentration bonus (its terms still count for document coverage and its chunk's topic).
            asked = max((v for v, q in zip(scov, sent_asks) if q), default=0.0)
            scov = [0.0 if q else v for v, q in zip(scov, sent_asks)]
            k = max(range(len(scov)), key=scov.__getitem__)  # first best sentence
            only_asked = asked > scov[k]
            ck = sent_chunk[k]
            relation = scov[k]
            far = 0.0  # best share of a sentence in another chunk or more than one sentence away
            # bridges: the best chunk's rare non-query terms, the entity a multi-hop question hops through
            bridges = {t for t in chunk_sets[ck] if t not in seen and freq_table.get(t, UNKNOWN_ZIPF) < BRIDGE_MAX_ZIPF}
            for m in range(len(sent_sets)):
                if sent_chunk[m] != ck:
                    if not sent_asks[m] and not bridges.isdisjoint(sent_sets[m]):
                        relation = max(relation, _coverage(qterms, total, sent_marks[k] | topic[ck] | sent_marks[m]))
                    far = max(far, scov[m])
                elif abs(m - k) > 1:
                    far = max(far, scov[m])
            relation = min(1.0, relation + CONCENTRATION_BONUS * (scov[k] - far))
            polarity_ok = query_negated == sent_neg[k]
            contradicted = next((t for t, _ in qterms if t in antonyms and antonyms[t] & sent_sets[k]), None)
        else:
            relation, polarity_ok = 0.0, not query_negated
        polarity = 1.0
        if not polarity_ok:
            polarity = NEGATION_FACTOR if query_negated else REVERSE_NEGATION_FACTOR
        if contradicted is not None:
            polarity *= CONTRADICTION_FACTOR
        combined = (DOC_SHARE * doc_cov + (1.0 - DOC_SHARE) * relation) * polarity
        coverage = combined**COVERAGE_POWER
    else:  # no content term in the query: nothing of it can be found, so nothing is covered
        doc_cov = relation = coverage = 0.0
        polarity_ok = True

    relevance = min(1.0, relevance_raw / RELEVANCE_SCALE) if qnorm > 0.0 else 0.0
    semantic = _embedding_relevance(query, chunks, query_embedding, embed)
    if semantic is not None:
        relevance = min(1.0, max(0.0, semantic))

    # --- density: substance of the chunks (temperature only when chunks carry it)
    parts = [min(1.0, n_content / DENSITY_WORDS), min(1.0, (n_content / n_tokens) / DENSITY_SHARE) if n_tokens else 0.0]
    temps = [float(c["temperature"]) for c in chunks if c.get("temperature") is not None]
    temps = [temp for temp in temps if temp == temp]  # NaN left out
    if temps:
        temp_mean = 0.0
        for temp in temps:  # a sum of t / n cannot overflow
            temp_mean += temp / len(temps)
        parts.append(min(1.0, max(0.0, temp_mean / 50)))  # a negative temperature must not push density below 0
    density = sum(parts) / len(parts)

    n_blank = sum(1 for c in chunks if not str(c["content"]).strip())  # says nothing: not a context
    n = len(chunks) - n_blank - n_repeated
    count = min(n / min_contexts, 1.0)

    signals: dict[str, float] = {"coverage": coverage, "relevance": relevance, "density": density, "count": count}
    stamps = [c.get("timestamp") for c in chunks if c.get("timestamp") is not None]
    if stamps:
        t_now = now if now is not None else datetime.now(timezone.utc).timestamp()
        ages = [max(0.0, (t_now - _timestamp_seconds(ts)) / 86400.0) for ts in stamps]
        signals["recency"] = sum(max(0.0, 1.0 - a / recency_days) for a in ages) / len(ages)
    wsum = sum(w[k] for k in signals)
    weighted = sum(w[k] * min(1.0, max(0.0, v)) for k, v in signals.items())  # every signal in [0, 1]
    score = (weighted / wsum) ** SCORE_EXPONENT if wsum > 0 else 0.0

    # --- explanations
    all_pre: set[str] = set().union(*chunk_pre)
    surface = {}
    for term, _, low in qtoks:
        if term is not None and term not in surface:
            surface[term] = low
    covered = [surface[t] for t, _ in qterms if t in all_terms]
    missing = [surface[t] for t, _ in qterms if t not in all_terms]
    aspects: list[str] = []
    for t, _ in qterms:
        if t in all_terms:
            continue
        if kinds[t] == NUMBER:
            aspects.append(f"Number '{surface[t]}' from the query not found in context")
        elif kinds[t] == IDENT:
            aspects.append(f"Identifier '{surface[t]}' from the query not found in context")
        elif t in typos:
            aspects.append(f"Query term '{surface[t]}' only matched as a spelling variant in context")
        elif t in related:
            aspects.append(f"Query term '{surface[t]}' only matched by a related word in context")
        elif len(t) >= PREFIX_LEN and t[:PREFIX_LEN] in all_pre:
            aspects.append(f"Query term '{surface[t]}' only partly matched in context")
        else:
            aspects.append(f"Query term '{surface[t]}' not found in context")
    if total <= 0.0:
        aspects.append(NO_KEY_TERMS)
    if truncated:
        aspects.append(QUERY_TRUNCATED)
    if total > 0.0 and relation < 0.5:
        aspects.append("Query terms never appear together in one sentence")
    if only_asked:
        aspects.append(ONLY_ASKED)
    if not polarity_ok:
        if query_negated:
            aspects.append("Query is negated but its best supporting sentence is not")
        else:
            aspects.append("Best supporting sentence is negated but the query is not")
    if contradicted is not None:
        aspects.append(f"Best supporting sentence holds an antonym of query term '{surface[contradicted]}'")
    if density < 0.5:
        aspects.append("Retrieved context lacks detailed information")
    if count < 1.0:
        aspects.append(_too_few_contexts(n, min_contexts, n_blank, n_repeated))
    factors: list[str] = []
    if doc_cov > 0.7:
        factors.append(f"Good keyword coverage ({doc_cov:.0%})")
    if total > 0.0 and relation > 0.7:
        factors.append(f"Query terms found together in one passage ({relation:.0%})")
    if relevance > 0.7:
        kind = "semantic" if semantic is not None else "lexical"
        factors.append(f"High {kind} relevance ({relevance:.0%})")
    return {
        "score": score,
        "level": _level(score, thresholds),
        "missing_aspects": aspects,
        "confidence_factors": factors,
        "signals": signals,
        "covered_terms": covered,
        "missing_terms": missing,
        "sub_signals": {"doc_coverage": doc_cov, "relation": relation, "polarity_ok": float(polarity_ok)},
    }


def _too_few_contexts(n: int, min_contexts: int, blank: int, repeated: int) -> str:
    why = ", ".join(([f"{blank} blank"] if blank else []) + ([f"{repeated} repeated"] if repeated else []))
    return (
        f"Only {n}{' distinct' if repeated else ''} context(s){' with text' if blank else ''}, need {min_contexts}"
        + (f" ({why})" if why else "")
    )
