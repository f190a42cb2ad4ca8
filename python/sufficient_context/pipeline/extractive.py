"""The extractive answerer: the answer made of the chunks' own sentences that best match the query, each cited.

It is the original design's mock mode: the whole pipeline runs with no model and no key, and every sentence it writes
is a source sentence verbatim, so claim validation passes it.
"""

from __future__ import annotations

from collections.abc import Sequence

from .. import sentences as _sentences
from .._args import replace_surrogates
from .._core import sentences as _core_sentences
from ..assembly import NOT_IN_DOCUMENTATION_ANSWER
from ..chunks import Chunk

__all__ = ["extractive_answer"]


def extractive_answer(query: str, chunks: Sequence[Chunk], max_sentences: int = 3) -> str:
    """Up to `max_sentences` sentences of `chunks` holding the most of the query's key terms (stemmed), in the
    chunks' order, each followed by its chunk's label (``[S1]``). Ties go to the earlier chunk and sentence; a
    sentence holding half the terms the best one holds or fewer (none, with one) is never used. No match:
    ``NOT_IN_DOCUMENTATION_ANSWER``."""
    contents = [chunk.content for chunk in chunks]
    # One core call splits every chunk and counts each sentence's query terms (a Python set per sentence cost more
    # than the sufficiency check); lone surrogates are read as U+FFFD, as the checks read them (same length).
    try:
        found = _core_sentences.query_hits(query, contents)
    except UnicodeEncodeError:
        found = _core_sentences.query_hits(replace_surrogates(query), [replace_surrogates(c) for c in contents])
    if not found:
        return NOT_IN_DOCUMENTATION_ANSWER
    # A sentence holding half the query's terms the best one holds, or fewer, answers another question ("Section
    # 302 ... punished" beside the Section 420 sentence of a question about 420): it does not fill a free place.
    most = max(hits for _, _, _, hits in found)
    scored = sorted((-hits, c, start, end) for c, start, end, hits in found if hits * 2 > most)
    best = sorted(scored[:max_sentences], key=lambda item: (item[1], item[2]))
    return " ".join(_cite(_body(contents[c][start:end]), str(chunks[c].id)) for _, c, start, end in best)


def _body(sentence: str) -> str:
    """The sentence as the answer quotes it: without the chunk's own citation markers."""
    return _sentences.strip_citations(sentence).strip() if "[" in sentence else sentence


def _cite(sentence: str, label: str) -> str:
    """The sentence with ``[label]`` before its final mark: "... fine [S1]."."""
    if sentence[-1] in ".!?":
        return f"{sentence[:-1].rstrip()} [{label}]{sentence[-1]}"
    return f"{sentence} [{label}]."
