"""Reading the CLI's inputs: contexts from JSON, JSON Lines, a folder of .txt / .md files or stdin, and an answer
given inline or as a file. Every problem is an InputError whose message names the argument and, for files, the
line."""

from __future__ import annotations

import codecs
import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

from ..chunks import Chunk, as_chunks
from ..retrieval.documents import document_files, document_name


class InputError(Exception):
    """Bad input to a command: printed to stderr, exit code 2."""


def _decode(data: bytes, where: str, argument: str) -> str:
    # A byte order mark says the encoding: UTF-8 with BOM and UTF-16 are what Windows editors and PowerShell write.
    try:
        if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            return data.decode("utf-16")
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        encoding = "UTF-16" if data[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE) else "UTF-8"
        raise InputError(f"{argument}: {where} is not {encoding} ({exc.reason} at byte {exc.start})") from None


def _text_of(path: Path, argument: str) -> str:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{argument}: cannot read {str(path)!r}: {exc.strerror}") from None
    return _decode(data, repr(str(path)), argument)


def read_stdin(argument: str) -> str:
    """All of stdin as UTF-8 (whatever the locale says: files are UTF-8 too)."""
    if sys.stdin is None:
        raise InputError(f"{argument}: stdin is closed")
    try:
        data = sys.stdin.buffer.read()
    except (OSError, ValueError) as exc:
        raise InputError(f"{argument}: cannot read stdin: {exc}") from None
    return _decode(data, "stdin", argument)


def _is_stream(path: Path) -> bool:
    """A named pipe, such as bash's `<(command)`: read like a file."""
    try:
        return stat.S_ISFIFO(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def text_argument(value: str, argument: str) -> str:
    """A text argument as the user typed it: under an ASCII locale (LC_ALL=C) Python hands non-ASCII bytes over as
    surrogates, which the checks would drop (a query 'café' would be checked as 'caf'); they are read as UTF-8."""
    if not any("\udc80" <= c <= "\udcff" for c in value):
        return value
    try:
        return os.fsencode(value).decode("utf-8")
    except (UnicodeError, ValueError):
        raise InputError(f"{argument}: is not valid UTF-8") from None


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
        items = _parse(read_stdin(argument), "stdin", argument)
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
        elif path.is_file() or _is_stream(path):
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
        text = read_stdin(argument)
        where = "stdin"
    else:
        path = Path(value)
        if len(value) < 4096 and "\n" not in value and (path.is_file() or _is_stream(path)):
            text = _text_of(path, argument)
            where = repr(value)
        elif not any(c.isspace() for c in value) and value.lower().endswith(_ANSWER_FILE_SUFFIXES):
            raise InputError(f"{argument}: {value!r} is not a file (pass the answer's text, a file, or - for stdin)")
        else:
            text = text_argument(value, argument)
            where = "the answer"
    if not text.strip():  # no answer is not a grounded answer
        raise InputError(f"{argument}: {where} is empty")
    return text
