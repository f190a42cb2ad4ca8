"""Reading the CLI's inputs: contexts from JSON, JSON Lines, a folder of .txt / .md files or stdin, and an answer
given inline or as a file. Every problem is an InputError whose message names the argument and, for files, the
line."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from ..chunks import Chunk, as_chunks
from ..retrieval.documents import document_files, document_name


class InputError(Exception):
    """Bad input to a command: printed to stderr, exit code 2."""


def _text_of(path: Path, argument: str) -> str:
    try:
        return path.read_bytes().decode("utf-8")
    except OSError as exc:
        raise InputError(f"{argument}: cannot read {str(path)!r}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"{argument}: {str(path)!r} is not UTF-8 ({exc.reason} at byte {exc.start})") from None


def _parse(text: str, where: str, argument: str) -> list[Any]:
    stripped = text.strip()
    if not stripped:
        raise InputError(f"{argument}: {where} is empty")
    if stripped[0] in "[{":
        try:
            document = json.loads(stripped)
        except json.JSONDecodeError as exc:
            if stripped[0] == "[":
                raise InputError(f"{argument}: {where} is not valid JSON: {exc.msg} at line {exc.lineno}") from None
        except RecursionError:
            raise InputError(f"{argument}: {where} is JSON nested too deeply") from None
        else:
            if isinstance(document, list):
                return document
            if isinstance(document, dict) and isinstance(document.get("contexts"), list):
                return list(document["contexts"])
            if isinstance(document, dict) and "content" in document:
                return [document]
            raise InputError(f"{argument}: {where} must hold a list of chunks or an object with a 'contexts' list")
    items = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            items.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise InputError(f"{argument}: {where} line {number} is not valid JSON: {exc.msg}") from None
        except RecursionError:
            raise InputError(f"{argument}: {where} line {number} is JSON nested too deeply") from None
    return items


def load_contexts(spec: str, argument: str = "--contexts") -> list[Chunk]:
    """Chunks from `spec`: '-' (stdin), a JSON file (a list of chunks or strings, or {"contexts": [...]}), a JSON
    Lines file (one chunk per line), or a folder whose .txt / .md files are one chunk each (id: the relative path)."""
    if spec == "-":
        items = _parse(sys.stdin.read(), "stdin", argument)
    else:
        path = Path(spec)
        if path.is_dir():
            files = document_files(path)
            if not files:
                raise InputError(f"{argument}: folder {spec!r} holds no .txt or .md file")
            items = [
                {
                    "id": document_name(f, path),
                    "content": _text_of(f, argument),
                    "metadata": {"source_path": document_name(f, path)},
                }
                for f in files
            ]
        elif path.is_file():
            items = _parse(_text_of(path, argument), repr(spec), argument)
        else:
            raise InputError(f"{argument}: {spec!r} is not a file or folder")
    try:
        return as_chunks(items)
    except (TypeError, ValueError) as exc:
        raise InputError(f"{argument}: {exc}") from None


# A value with one of these suffixes and no space is a file name, not an answer: a typo in it must not be checked as
# the answer's text.
_ANSWER_FILE_SUFFIXES = (".txt", ".md", ".json", ".jsonl", ".text", ".markdown")


def read_answer(value: str, argument: str = "--answer") -> str:
    """The answer: '-' reads stdin, an existing file path is read, anything else is the answer itself (but a missing
    file name, a single word ending in .txt, .md, .json..., is an error)."""
    if value == "-":
        return sys.stdin.read()
    path = Path(value)
    if len(value) < 4096 and "\n" not in value and path.is_file():
        return _text_of(path, argument)
    if not any(c.isspace() for c in value) and value.lower().endswith(_ANSWER_FILE_SUFFIXES):
        raise InputError(f"{argument}: {value!r} is not a file (pass the answer's text, a file, or - for stdin)")
    return value
