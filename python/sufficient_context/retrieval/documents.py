"""Chunking a folder of documents by heading and paragraph, keeping where each chunk came from."""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..chunks import Chunk

SUFFIXES = (".txt", ".md", ".markdown")
_MAX_CHARS = 1500  # a paragraph longer than this is cut at sentence ends, so one chunk stays one topic


@dataclass(frozen=True)
class Passage:
    source_path: str  # relative to the folder, with forward slashes
    heading: str | None
    chunk_index: int  # 0, 1, ... within its file
    text: str

    @property
    def id(self) -> str:
        return f"{self.source_path}#{self.chunk_index}"

    def to_chunk(self, score: float | None = None) -> Chunk:
        """The passage as a chunk. Its heading leads the content ("Section 420: Whoever cheats ..."): a heading often
        holds the very terms a question asks for (a section number, a product name), and the checks read content."""
        metadata: dict[str, object] = {"source_path": self.source_path, "chunk_index": self.chunk_index}
        if self.heading:
            metadata["heading"] = self.heading
        content = f"{self.heading}: {self.text}" if self.heading else self.text
        return Chunk(id=self.id, content=content, score=score, metadata=metadata)


def _pieces(paragraph: str) -> Iterator[str]:
    if len(paragraph) <= _MAX_CHARS:
        yield paragraph
        return
    from ..sentences import split_sentences

    piece = ""
    for sentence in split_sentences(paragraph):
        if piece and len(piece) + len(sentence.text) + 1 > _MAX_CHARS:
            yield piece
            piece = ""
        piece = f"{piece} {sentence.text}".strip()
    if piece:
        yield piece


def _heading(line: str) -> str | None:
    r"""The heading of a stripped Markdown heading line ("## Title ##" -> "Title"), else None. What the expression
    ``^(#{1,6})\s+(.+?)\s*#*\s*$`` matches as group 2, without it: its lazy title tried the rest of the line from
    every character, and a heading with 4,000 spaces inside took minutes."""
    hashes = len(line) - len(line.lstrip("#"))
    if not 1 <= hashes <= 6 or hashes == len(line) or not line[hashes].isspace():
        return None
    rest = line[hashes:].lstrip()
    if not rest:
        return None
    # The shortest title (one character at least) whose remainder is white space and closing "#"s.
    return rest.rstrip("#").rstrip() or rest[0]


def passages_of(text: str, source_path: str) -> list[Passage]:
    """Paragraphs (blank-line separated) under their latest Markdown heading; headings themselves are not chunks."""
    out: list[Passage] = []
    heading: str | None = None
    for block in re.split(r"\n\s*\n", text.replace("\r\n", "\n")):
        lines = [line for line in block.strip().split("\n") if line.strip()]
        body: list[str] = []
        for line in lines:
            title = _heading(line.strip())
            if title is not None:
                if body:
                    out.extend(Passage(source_path, heading, 0, p) for p in _pieces(" ".join(body)))
                    body = []
                heading = title
            else:
                body.append(line.strip())
        if body:
            out.extend(Passage(source_path, heading, 0, p) for p in _pieces(" ".join(body)))
    return [Passage(p.source_path, p.heading, i, p.text) for i, p in enumerate(out)]


def document_files(folder: str | os.PathLike[str]) -> list[Path]:
    """The .txt / .md files under `folder`, in path order. A symbolic link to a file outside the folder is skipped
    with a warning: serving the folder must not serve /etc/passwd through a link someone left in it."""
    root = Path(folder)
    if not root.is_dir():
        raise ValueError(f"documents folder {os.fspath(folder)!r} is not a directory")
    real_root = root.resolve()
    out = []
    for path in sorted(p for p in root.rglob("*") if p.suffix.lower() in SUFFIXES and p.is_file()):
        if not path.resolve().is_relative_to(real_root):
            warnings.warn(f"skipped {document_name(path, root)!r}: a link to a file outside {os.fspath(folder)!r}",
                          stacklevel=2)  # fmt: skip
            continue
        out.append(path)
    return out


def document_name(path: Path, root: Path) -> str:
    """`path` relative to `root` with forward slashes. Bytes of a file name that are not UTF-8 (which Python keeps
    as lone surrogates, and SQLite and JSON cannot store) are written as \\xNN, so every name stays distinct."""
    name = path.relative_to(root).as_posix()
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def read_folder(folder: str | os.PathLike[str]) -> list[Passage]:
    """Every passage of every .txt / .md file under `folder` (recursively, in path order). Files that are not UTF-8
    are read with replacement characters rather than skipped."""
    root = Path(folder)
    out: list[Passage] = []
    for path in document_files(root):
        text = path.read_bytes().decode("utf-8", errors="replace")
        out.extend(passages_of(text, document_name(path, root)))
    return out
