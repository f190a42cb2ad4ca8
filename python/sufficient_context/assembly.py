"""Answer assembly: the labelled context block, the grounded system prompt, the sources list and the banner.

Labels are the chunk ids (S1, S2, ... when the chunks have none), so the citations the model writes ([S1], [IPC_302])
are the ids `ClaimCoverage` checks.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

from .chunks import Chunk, ChunkLike, as_chunks

__all__ = [
    "CAVEAT",
    "DECLINE_TEMPLATE",
    "GROUNDED_SYSTEM_PROMPT",
    "LEGAL_SYSTEM_PROMPT",
    "LOW_CONFIDENCE_BANNER",
    "NOT_IN_DOCUMENTATION_ANSWER",
    "PROMPTS",
    "format_context",
    "format_sources",
    "source_fields",
]

LOW_CONFIDENCE_BANNER = "Answer (LOW CONFIDENCE \u2014 limited source coverage):"

NOT_IN_DOCUMENTATION_ANSWER = "The indexed documentation does not contain this information."

CAVEAT = "*Note: This response is based on limited available information.*"
"""Appended to an answer given on partial context."""

DECLINE_TEMPLATE = (
    "I don't have sufficient information to answer this question accurately. Missing: {missing}. "
    "Could you provide more context or rephrase?"
)
"""The graceful decline on insufficient context; ``{missing}`` names up to two missing aspects."""

GROUNDED_SYSTEM_PROMPT = (
    "You are a careful assistant that answers questions using only the documentation excerpts below.\n"
    "\n"
    "Rules:\n"
    "- Answer only from the context below; do not use outside knowledge or make assumptions.\n"
    "- Do not infer or guess missing steps, numbers, names or dates.\n"
    "- Cite every statement with the label of the excerpt it comes from, e.g. [S1] or [S1][S3].\n"
    "- Use only the labels shown in the context; never invent one.\n"
    "- If excerpts disagree, say so and cite both.\n"
    "- If the context does not contain the answer, reply exactly: "
    f'"{NOT_IN_DOCUMENTATION_ANSWER}"\n'
    "\n"
    "Context:\n"
    "{context}\n"
)
"""System prompt with one `{context}` placeholder: `GROUNDED_SYSTEM_PROMPT.format(context=format_context(chunks))`."""

LEGAL_SYSTEM_PROMPT = (
    "You answer questions about legal and regulatory text using only the excerpts below.\n"
    "\n"
    "Rules:\n"
    "- Be precise: no creative phrasing, no summaries beyond what the text states.\n"
    "- Use direct quotes or close paraphrases of the excerpts; keep their terms, section numbers, amounts and "
    "time limits exactly as written.\n"
    "- Cite every sentence with the label of the excerpt it comes from, e.g. [S1] or [S1][S3].\n"
    "- Do not infer or guess missing steps, conditions or exceptions; do not use outside knowledge.\n"
    "- If the excerpts do not answer the question, reply exactly: "
    f'"{NOT_IN_DOCUMENTATION_ANSWER}"\n'
    "\n"
    "Excerpts:\n"
    "{context}\n"
)
"""The precise template for legal and regulatory text (one `{context}` placeholder)."""

PROMPTS = {"grounded": GROUNDED_SYSTEM_PROMPT, "legal": LEGAL_SYSTEM_PROMPT}
"""The system prompts by the name a configuration selects them with (``answering.prompt``)."""

_PATH_SEPARATORS = re.compile(r"[\\/]")


# Metadata keys, in order of preference: ours, then LangChain's loaders, then LlamaIndex's readers.
_SOURCE_KEYS = ("source_path", "source", "file_path", "file_name")
_PAGE_KEYS = ("page_number", "page", "page_label")


def _first(metadata: Mapping[str, Any], keys: tuple[str, ...]) -> Any:
    for key in keys:
        value = metadata.get(key)
        if value is not None and value != "":
            return value
    return None


_MAX_PAGE = 10**7
_MAX_PAGE_LABEL = 20  # characters of a page label such as "iv" or "A-12"
_LINE_BREAKS = re.compile(r"[\x00-\x1f\x7f\x85\u2028\u2029]+")
# A "[" opening a line, after any line break str.splitlines knows (a reader of the prompt may honour \r or U+2028):
# a "[" whose run of white space before it starts the text or holds a line break. The run is matched from its
# first character only ("(?<!\s)"; "\s*+" gives nothing back): matching from every line break in it read the rest
# of the run each time, and 100,000 blank lines took 24 s.
_FORGED_HEADER = re.compile(r"(?<!\s)(\s*+)\[")
_HEADER_BREAKS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")


def _escape_header(match: re.Match[str]) -> str:
    run = match.group(1)
    if match.start() == 0 or not _HEADER_BREAKS.isdisjoint(run):
        return run + "\\["
    return match.group()


def _page(metadata: Mapping[str, Any], where: str = "chunk") -> str | None:
    """The page, validated: a whole number in [0, 10^7] or a short one-line label; ValueError naming it else."""
    page = _first(metadata, _PAGE_KEYS)
    if page is None or page == "":
        return None
    if isinstance(page, bool):
        raise ValueError(f"{where}.metadata page must be a page number or label; got {page!r}")
    if isinstance(page, float):
        if not (math.isfinite(page) and page.is_integer()):
            raise ValueError(f"{where}.metadata page must be a whole page number; got {page!r}")
        page = int(page)
    if isinstance(page, int):
        if not 0 <= page <= _MAX_PAGE:
            raise ValueError(f"{where}.metadata page must be in [0, {_MAX_PAGE}]; got {page}")
        return str(page)
    label = str(page)
    if len(label) > _MAX_PAGE_LABEL or _LINE_BREAKS.search(label) or label.strip().lower() in ("nan", "inf"):
        raise ValueError(f"{where}.metadata page must be a page number or a short label; got {label[:40]!r}")
    return label


def one_line(value: object) -> str:
    """A header field on one line, without brackets: chunk text or metadata cannot forge another source's header."""
    return _LINE_BREAKS.sub(" ", str(value)).replace("[", "(").replace("]", ")").strip()


def _text(metadata: Mapping[str, Any], key: str) -> str | None:
    value = metadata.get(key)
    return None if value is None or value == "" else str(value)


def _file_name(source_path: str | None) -> str | None:
    if source_path is None:
        return None
    parts = [p for p in _PATH_SEPARATORS.split(source_path) if p]
    return parts[-1] if parts else None


def format_context(chunks: Iterable[ChunkLike]) -> str:
    """The chunks as one labelled block for the prompt's {context}.

    Each chunk is a header line ``[S1] Source: docs/ipc.pdf | Heading: Murder | Page: 12`` (the parts present in
    its metadata: `source_path`, `heading`, `page_number`) followed by its content; chunks are separated by a blank
    line. No chunks give an empty string.
    """
    blocks = []
    for i, chunk in enumerate(as_chunks(chunks)):
        # A content line opening with "[" could pass for a header ("[S2] Source: ..."): escape it.
        content = _FORGED_HEADER.sub(_escape_header, chunk.content.strip())
        blocks.append(f"{_header(chunk, f'chunks[{i}]')}\n{content}")
    return "\n\n".join(blocks)


def _header(chunk: Chunk, where: str) -> str:
    metadata = chunk.metadata
    parts = [f"[{one_line(chunk.id)}]"]
    details = []
    source = _first(metadata, _SOURCE_KEYS)
    if source is not None:
        details.append(f"Source: {one_line(source)}")
    heading = _text(metadata, "heading")
    if heading is not None:
        details.append(f"Heading: {one_line(heading)}")
    page = _page(metadata, where)
    if page is not None:
        details.append(f"Page: {page}")
    if details:
        parts.append(" | ".join(details))
    return " ".join(parts)


def format_sources(chunks: Iterable[ChunkLike]) -> str:
    """``Sources:`` then one line per chunk, ``- ipc.pdf, Murder, p. 12 (score: 0.83)``.

    The name is the file name of `source_path` (else the chunk id); heading, page and score appear when known, the
    score with two decimals. No chunks give an empty string.
    """
    lines = []
    for i, chunk in enumerate(as_chunks(chunks)):
        fields = source_fields(chunk, f"chunks[{i}]")
        parts = [one_line(fields["document"] or chunk.id)]
        heading = _text(chunk.metadata, "heading")
        if heading is not None:
            parts.append(one_line(heading))
        if fields["page"] is not None:
            parts.append(f"p. {fields['page']}")
        line = "- " + ", ".join(parts)
        if chunk.score is not None:
            line += f" (score: {chunk.score:.2f})"
        lines.append(line)
    return "\n".join(["Sources:", *lines]) if lines else ""


def source_fields(chunk: Chunk, where: str = "chunk") -> dict[str, Any]:
    """What a sources list says of a chunk: ``id``, ``document`` (the file name of `source_path`, LangChain's
    `source` or LlamaIndex's `file_path` / `file_name`), ``section`` (`heading`, else `section`), ``page``
    (`page_number`, LangChain's `page`, LlamaIndex's `page_label`) and ``score``; None where unknown."""
    metadata = chunk.metadata
    source = _first(metadata, _SOURCE_KEYS)
    section = _first(metadata, ("heading", "section"))
    return {
        "id": str(chunk.id),
        "document": _file_name(None if source is None else str(source)),
        "section": None if section is None else str(section),
        "page": _page(metadata, where),
        "score": chunk.score,
    }
