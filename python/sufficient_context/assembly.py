"""Answer assembly: the labelled context block, the grounded system prompt, the sources list and the banner.

Labels are the chunk ids (S1, S2, ... when the chunks have none), so the citations the model writes ([S1], [IPC_302])
are the ids `ClaimCoverage` checks.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from .chunks import Chunk, ChunkLike, as_chunks

__all__ = [
    "GROUNDED_SYSTEM_PROMPT",
    "LOW_CONFIDENCE_BANNER",
    "NOT_IN_DOCUMENTATION_ANSWER",
    "format_context",
    "format_sources",
]

LOW_CONFIDENCE_BANNER = "Answer (LOW CONFIDENCE — limited source coverage):"

NOT_IN_DOCUMENTATION_ANSWER = "The indexed documentation does not contain this information."

GROUNDED_SYSTEM_PROMPT = (
    "You are a careful assistant that answers questions using only the documentation excerpts below.\n"
    "\n"
    "Rules:\n"
    "- Answer only from the context below; do not use outside knowledge or make assumptions.\n"
    "- Cite every statement with the label of the excerpt it comes from, e.g. [S1] or [S1][S3].\n"
    "- If the context does not contain the answer, reply exactly: "
    f'"{NOT_IN_DOCUMENTATION_ANSWER}"\n'
    "\n"
    "Context:\n"
    "{context}\n"
)
"""System prompt with one `{context}` placeholder: `GROUNDED_SYSTEM_PROMPT.format(context=format_context(chunks))`."""

_PATH_SEPARATORS = re.compile(r"[\\/]")


def _page(metadata: Mapping[str, Any]) -> str | None:
    page = metadata.get("page_number", metadata.get("page"))
    if page is None or page == "":
        return None
    if isinstance(page, float) and page.is_integer():
        page = int(page)
    return str(page)


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
    for chunk in as_chunks(chunks):
        blocks.append(f"{_header(chunk)}\n{chunk.content.strip()}")
    return "\n\n".join(blocks)


def _header(chunk: Chunk) -> str:
    metadata = chunk.metadata
    parts = [f"[{chunk.id}]"]
    details = []
    source = _text(metadata, "source_path")
    if source is not None:
        details.append(f"Source: {source}")
    heading = _text(metadata, "heading")
    if heading is not None:
        details.append(f"Heading: {heading}")
    page = _page(metadata)
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
    for chunk in as_chunks(chunks):
        metadata = chunk.metadata
        parts = [_file_name(_text(metadata, "source_path")) or str(chunk.id)]
        heading = _text(metadata, "heading")
        if heading is not None:
            parts.append(heading)
        page = _page(metadata)
        if page is not None:
            parts.append(f"p. {page}")
        line = "- " + ", ".join(parts)
        if chunk.score is not None:
            line += f" (score: {chunk.score:.2f})"
        lines.append(line)
    return "\n".join(["Sources:", *lines]) if lines else ""
