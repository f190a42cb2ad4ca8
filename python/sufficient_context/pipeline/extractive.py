"""The extractive answerer: the answer made of the chunks' own sentences that best match the query, each cited.

It is the original design's mock mode: the whole pipeline runs with no model and no key, and every sentence it writes
is a source sentence verbatim, so claim validation passes it.
"""

from __future__ import annotations

from collections.abc import Sequence

from .. import sentences as _sentences
from .. import text as _text
from ..assembly import NOT_IN_DOCUMENTATION_ANSWER
from ..chunks import Chunk

__all__ = ["extractive_answer"]


_BREAK = "sc_sentence_break"  # an identifier: the tokenizer keeps it whole, the stemmer leaves it alone


def extractive_answer(query: str, chunks: Sequence[Chunk], max_sentences: int = 3) -> str:
    """Up to `max_sentences` sentences of `chunks` holding the most of the query's key terms (stemmed), in the
    chunks' order, each followed by its chunk's label (``[S1]``). Ties go to the earlier chunk and sentence; a
    sentence holding half the terms the best one holds or fewer (none, with one) is never used. No match:
    ``NOT_IN_DOCUMENTATION_ANSWER``."""
    wanted = set(_text.terms(query))
    if not wanted:
        return NOT_IN_DOCUMENTATION_ANSWER
    places: list[tuple[int, int, str, str]] = []  # (chunk, sentence, text, label)
    for c, chunk in enumerate(chunks):
        for s, sentence in enumerate(_sentences.split_sentences(chunk.content)):
            body = sentence.text
            if "[" in body:
                body = _sentences.strip_citations(body).strip()
            if body:
                places.append((c, s, body, str(chunk.id)))
    scored = [
        (-len(hits), c, s, body, label)
        for (c, s, body, label), hits in zip(places, _hits_of([p[2] for p in places], wanted))
        if hits
    ]
    if not scored:
        return NOT_IN_DOCUMENTATION_ANSWER
    # A sentence holding half the query's terms the best one holds, or fewer, answers another question ("Section
    # 302 ... punished" beside the Section 420 sentence of a question about 420): it does not fill a free place.
    most = -min(item[0] for item in scored)
    scored = [item for item in scored if -item[0] * 2 > most]
    best = sorted(sorted(scored)[:max_sentences], key=lambda item: (item[1], item[2]))
    return " ".join(_cite(body, label) for _, _, _, body, label in best)


def _hits_of(texts: list[str], wanted: set[str]) -> list[set[str]]:
    """The wanted terms each text holds, from one core call over all of them (a call per sentence costs more than
    the work); a text holding the separator itself falls back to one call per text."""
    if not texts:
        return []
    out: list[set[str]] = [set()]
    for term in _text.terms(f" {_BREAK} ".join(texts)):
        if term == _BREAK:
            out.append(set())
        elif term in wanted:
            out[-1].add(term)
    if len(out) != len(texts):
        return [wanted.intersection(_text.terms(t)) for t in texts]
    return out


def _cite(sentence: str, label: str) -> str:
    """The sentence with ``[label]`` before its final mark: "... fine [S1]."."""
    if sentence[-1] in ".!?":
        return f"{sentence[:-1].rstrip()} [{label}]{sentence[-1]}"
    return f"{sentence} [{label}]."
