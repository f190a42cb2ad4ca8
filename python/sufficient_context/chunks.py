"""Chunk inputs: every public check accepts mappings, `Chunk`, LangChain Documents, LlamaIndex nodes or strings.

`as_chunks` turns any mix of them into `Chunk` objects, naming the offending index on bad input. LangChain and
LlamaIndex objects are recognised by duck typing, so neither library is imported here.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Union

from ._args import FLOAT32_MAX, FLOAT32_TINY, as_float, bool_types, finite_or_none, real_array, real_types

if TYPE_CHECKING:  # imported where embeddings are read
    import numpy as np
    from numpy.typing import NDArray

__all__ = ["Chunk", "ChunkLike", "as_chunks", "check_unique_ids"]

_FIELDS = ("content", "id", "summary", "score", "embedding", "timestamp", "temperature", "metadata")


@dataclass(frozen=True)
class Chunk:
    """One retrieved context chunk, valid by construction.

    Built directly, it is checked like any input (a non-str content, a NaN or infinite score or temperature, an
    embedding that is not a finite 1-D array, a bad timestamp raise TypeError / ValueError naming ``Chunk.<field>``).
    `timestamp` is normalised to a timezone-aware datetime (naive values are taken as UTC), `embedding` to a
    read-only 1-D float32 array, `metadata` to a copy.
    """

    content: str
    id: str | None = None
    summary: str = ""
    score: float | None = None
    embedding: NDArray[np.float32] | None = field(default=None, compare=False)
    timestamp: datetime | None = None
    temperature: float | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        for name, value in _normalised(
            {f: getattr(self, f) for f in _FIELDS}, "Chunk", None, allow_missing_id=True
        ).items():
            object.__setattr__(self, name, value)

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable form (embedding as a list, timestamp as ISO-8601)."""
        out: dict[str, Any] = {"id": self.id, "content": self.content}
        if self.summary:
            out["summary"] = self.summary
        if self.score is not None:
            out["score"] = self.score
        if self.embedding is not None:
            out["embedding"] = self.embedding.tolist()
        if self.timestamp is not None:
            out["timestamp"] = self.timestamp.isoformat()
        if self.temperature is not None:
            out["temperature"] = self.temperature
        if self.metadata:
            out["metadata"] = dict(self.metadata)
        return out


ChunkLike = Union[Chunk, Mapping[str, Any], str, Any]


def as_chunks(objs: Iterable[ChunkLike], *, argument: str = "chunks") -> list[Chunk]:
    """Convert chunk-like objects to `Chunk`s; ids default to S1, S2, ... by position.

    Raises TypeError or ValueError naming `argument[index]` and the field at fault. Nothing is dropped.
    """
    if isinstance(objs, (str, bytes, Mapping)):
        raise TypeError(f"{argument} must be a sequence of chunks, not a single {type(objs).__name__}")
    try:
        items = list(objs)
    except TypeError:
        raise TypeError(f"{argument} must be a sequence of chunks; got {type(objs).__name__}") from None
    # A Chunk that already has an id passes through untouched (the error location string is built only otherwise).
    chunks = [
        obj if type(obj) is Chunk and obj.id is not None else _one_chunk(obj, f"{argument}[{i}]", i)
        for i, obj in enumerate(items)
    ]
    check_unique_ids([c.id for c in chunks], argument)
    return chunks


def check_unique_ids(ids: Iterable[object], argument: str = "chunks") -> None:
    """The one rule for every check: chunk ids are unique (a citation, a score or a log row could not say which
    chunk it means). ValueError naming both indexes otherwise."""
    first: dict[object, int] = {}
    for i, chunk_id in enumerate(ids):
        j = first.setdefault(chunk_id, i)
        if j != i:
            raise ValueError(f"{argument}[{i}].id {chunk_id!r} duplicates {argument}[{j}].id: chunk ids must be unique")


# Mapping keys that need as_chunks' conversion and validation; anything else in a dict is its content, id, a plain
# score (checked inline) or an extra key as_chunks ignores too.
_SLOW_KEYS = frozenset(("summary", "embedding", "timestamp", "temperature", "metadata", "page_content"))


def all_str(items: list[Any]) -> bool:
    """Whether every item is exactly a str (the fast path of every check: ids S1..Sn, nothing to adapt)."""
    for item in items:  # noqa: SIM110 - a loop: all() over a generator costs more than the check on a few chunks
        if type(item) is not str:
            return False
    return True


def plain_ids_and_contents(items: list[Any], argument: str) -> tuple[list[str] | None, list[str]] | None:
    """(ids, contents) of chunks that are all str, plain ``{"content", "id"?, "score"?}`` dicts or LangChain and
    LlamaIndex objects with plain fields, read without building a `Chunk` each (the hot path of every check); None
    when some item needs `as_chunks`. Ids are None when every item is a str (S1..Sn, unique by construction).
    Duplicate ids raise as `as_chunks` would."""
    if all_str(items):
        return None, items
    ids: list[str] = []
    contents: list[str] = []
    for i, obj in enumerate(items):
        if type(obj) is str:
            contents.append(obj)
            ids.append(f"S{i + 1}")
            continue
        if type(obj) is dict:
            plain = _plain_id_content(obj) if _SLOW_KEYS.isdisjoint(obj) else None
        else:
            # (Document, score) / (node, score): the tuple's score, checked as as_chunks checks it, is all it adds.
            pair = type(obj) is tuple and len(obj) == 2 and _plain_score(obj[1])
            plain = _plain_framework_fields(obj[0] if pair else obj)
        if plain is None:
            return None
        contents.append(plain[1])
        ids.append(f"S{i + 1}" if plain[0] is None else plain[0])
    check_unique_ids(ids, argument)  # the rule as_chunks applies on the slow path
    return ids, contents


def _plain_id_content(fields: Mapping[str, Any]) -> tuple[str | None, str] | None:
    """(id, content) of chunk fields `_normalised` would take as they are: a str content, a str id or none, a plain
    score or none (the caller rules out the other fields); None otherwise."""
    content, chunk_id, score = fields.get("content"), fields.get("id"), fields.get("score")
    if type(content) is not str or (chunk_id is not None and type(chunk_id) is not str):
        return None
    if score is not None and not _plain_score(score):
        return None
    return chunk_id, content


def _plain_score(score: object) -> bool:
    """A finite float, or an int a float holds (a huge one takes the slow path, which names it)."""
    if type(score) is float:
        return math.isfinite(score)
    return type(score) is int and -(2**53) <= score <= 2**53


def _one_chunk(obj: ChunkLike, where: str, index: int) -> Chunk:
    if isinstance(obj, tuple):
        # (Document, score) from LangChain's similarity_search_with_score, (node, score) from LlamaIndex: the
        # tuple's score is the retrieval score, over one the object may carry.
        if len(obj) != 2 or isinstance(obj[1], bool) or not isinstance(obj[1], real_types()):
            raise TypeError(
                f"{where} is a tuple: it must be (chunk, score) with a number as the score; got {obj!r:.80}"
            )
        inner = obj[0]
        chunk = _one_chunk(inner, where, index)
        return _build({**_fields_of(chunk), "score": obj[1]}, where, index)
    if isinstance(obj, Chunk):
        return obj if obj.id is not None else replace(obj, id=f"S{index + 1}")
    if isinstance(obj, str):
        return Chunk(content=obj, id=f"S{index + 1}")
    if type(obj) is dict and _SLOW_KEYS.isdisjoint(obj):
        plain = _plain_chunk(obj, index)
        if plain is not None:
            return plain
    if type(obj) not in _DUCK_KINDS and isinstance(obj, Mapping):  # a known framework class is no Mapping
        # Extra keys (e.g. a dataset's "title") are allowed and left out of the chunk.
        fields = {k: obj[k] for k in _FIELDS if k in obj}
        if "content" not in fields and "page_content" in obj:
            fields["content"] = obj["page_content"]
        return _build(fields, where, index)
    framework = _framework_fields(obj, _duck_kind(obj))
    if framework is not None:
        return _build(framework, where, index)
    raise TypeError(
        f"{where} must be a str, a mapping with 'content', a Chunk, a LangChain Document or a LlamaIndex node; "
        f"got {type(obj).__name__}"
    )


def _plain_chunk(obj: dict[str, Any], index: int) -> Chunk | None:
    """The Chunk of a plain ``{"content", "id"?, "score"?}`` dict (extra keys ignored), equal to what `_build` makes,
    without its general checks (most chunks are such dicts, and the pipeline converts every one); None for anything
    else, which takes `_build` and its errors."""
    plain = _plain_id_content(obj)
    if plain is None:
        return None
    chunk_id, content = plain
    score = obj.get("score")
    chunk = object.__new__(Chunk)
    chunk.__dict__.update(
        content=content,
        id=f"S{index + 1}" if chunk_id is None else chunk_id,
        summary="",
        score=None if score is None else float(score),
        embedding=None,
        timestamp=None,
        temperature=None,
        metadata={},
    )
    return chunk


# Which framework object each class is, found once per class of LangChain and LlamaIndex (their pydantic models have
# fixed attributes): each hasattr that misses on one raises and catches an AttributeError, and a Document missed two
# before its own test (a third of check_sufficiency's time on Documents). Other classes are asked every time.
_DUCK_KINDS: dict[type, str] = {}
_FRAMEWORK_MODULES = ("langchain_core.", "llama_index.core.")


def _duck_kind(obj: Any) -> str:
    """ "node_with_score", "node", "document" or "other": the first of _one_chunk's duck tests `obj` passes."""
    kind = _DUCK_KINDS.get(type(obj))
    if kind is not None:
        return kind
    if hasattr(obj, "node") and hasattr(obj, "score"):
        kind = "node_with_score"
    elif hasattr(obj, "node_id") and (hasattr(obj, "get_content") or hasattr(obj, "text")):
        kind = "node"
    elif hasattr(obj, "page_content"):
        kind = "document"
    else:
        # Not remembered: a framework's dict subclass (LangChain's AddableDict) must stay a Mapping for _one_chunk,
        # and a Document built by model_construct without its page_content says nothing of the class's others.
        return "other"
    if type(obj).__module__.startswith(_FRAMEWORK_MODULES):
        _DUCK_KINDS[type(obj)] = kind
    return kind


def _fields_of(chunk: Chunk) -> dict[str, Any]:
    return {name: getattr(chunk, name) for name in _FIELDS}


def _framework_fields(obj: Any, kind: str) -> dict[str, Any] | None:
    """The chunk fields of a LangChain or LlamaIndex object of `kind` (`_duck_kind`), unchecked; None for "other"."""
    if kind == "node_with_score":  # LlamaIndex NodeWithScore
        fields = _node_fields(obj.node)
        fields["score"] = obj.score
        return fields
    if kind == "node":  # LlamaIndex node
        return _node_fields(obj)
    if kind == "document":  # LangChain Document
        metadata = getattr(obj, "metadata", None) or {}
        fields = {"content": obj.page_content, "metadata": metadata}
        doc_id = getattr(obj, "id", None) or metadata.get("id")
        if doc_id is not None:
            fields["id"] = doc_id
        for key in ("score", "timestamp", "summary"):
            if key in metadata:
                fields[key] = metadata[key]
        return fields
    return None


def _plain_framework_fields(obj: Any) -> tuple[str | None, str] | None:
    """(id, content) of a LangChain or LlamaIndex object whose fields `_normalised` would take as they are (a str
    content and id, dict metadata, a plain score, nothing else): what a check reads, without building its `Chunk`;
    None for anything else, which `as_chunks` reads and checks."""
    kind = _DUCK_KINDS.get(type(obj))  # only the frameworks' own classes, recognised once
    if kind is None:
        if not type(obj).__module__.startswith(_FRAMEWORK_MODULES):
            return None
        kind = _duck_kind(obj)
    fields = _framework_fields(obj, kind)
    if fields is None or not _PLAIN_FRAMEWORK_KEYS.issuperset(fields):
        return None
    metadata = fields["metadata"]
    return None if metadata is not None and type(metadata) is not dict else _plain_id_content(fields)


_PLAIN_FRAMEWORK_KEYS = frozenset(("content", "id", "metadata", "score"))


def _node_fields(node: Any) -> dict[str, Any]:
    content = node.get_content() if hasattr(node, "get_content") else node.text
    fields: dict[str, Any] = {"content": content, "id": node.node_id, "metadata": getattr(node, "metadata", None)}
    if getattr(node, "embedding", None) is not None:
        fields["embedding"] = node.embedding
    return fields


def _build(fields: dict[str, Any], where: str, index: int) -> Chunk:
    """A Chunk from validated fields (errors name `where`); built without re-running the constructor's checks."""
    chunk = object.__new__(Chunk)
    for name, value in _normalised(fields, where, index, allow_missing_id=False).items():
        object.__setattr__(chunk, name, value)
    return chunk


def _normalised(fields: Mapping[str, Any], where: str, index: int | None, *, allow_missing_id: bool) -> dict[str, Any]:
    """Every field checked and normalised; `where` names the input in errors ("chunks[3]" or "Chunk")."""
    content = fields.get("content")
    if content is None:
        raise ValueError(f"{where} has no 'content'")
    if not isinstance(content, str):
        raise TypeError(f"{where}.content must be str; got {type(content).__name__}")
    chunk_id = fields.get("id")
    if chunk_id is None:
        if not allow_missing_id:
            chunk_id = f"S{(index or 0) + 1}"
    elif not isinstance(chunk_id, (str, int)) or isinstance(chunk_id, bool):
        raise TypeError(f"{where}.id must be str; got {type(chunk_id).__name__}")
    summary = fields.get("summary") or ""
    if not isinstance(summary, str):
        raise TypeError(f"{where}.summary must be str; got {type(summary).__name__}")
    metadata = fields.get("metadata") or {}
    if type(metadata) is not dict and not isinstance(metadata, Mapping):  # an ABC test is slow: dicts skip it
        raise TypeError(f"{where}.metadata must be a mapping; got {type(metadata).__name__}")
    return {
        "content": content,
        "id": None if chunk_id is None else str(chunk_id),
        "summary": summary,
        "score": finite_or_none(fields.get("score"), f"{where}.score"),
        "embedding": _embedding(fields.get("embedding"), f"{where}.embedding"),
        "timestamp": _timestamp(fields.get("timestamp"), f"{where}.timestamp"),
        "temperature": finite_or_none(fields.get("temperature"), f"{where}.temperature"),
        "metadata": dict(metadata),  # a copy: later edits to the input do not leak in
    }


def _embedding(value: Any, where: str) -> NDArray[np.float32] | None:
    if value is None:
        return None
    import numpy as np

    given = real_array(value, None, where)
    if given.ndim != 1 or given.size == 0:
        raise ValueError(f"{where} must be a non-empty 1-D array; got shape {given.shape}")
    bad = np.flatnonzero(~np.isfinite(given))
    if bad.size:
        raise ValueError(f"{where}[{bad[0]}] is {given[bad[0]]!s}: embeddings must be finite")
    if given.dtype.kind == "f" and given.dtype.itemsize > 4:  # what the float32 cast would turn into inf or 0
        peak = np.max(np.abs(given))
        if peak > FLOAT32_MAX:
            i = int(np.argmax(np.abs(given) > FLOAT32_MAX))
            raise ValueError(f"{where}[{i}] is {given[i]!s}: beyond float32's range (3.4e38), in which it is stored")
        if 0 < peak < FLOAT32_TINY:
            raise ValueError(
                f"{where} is too small for float32, in which it is stored: its largest magnitude is {peak!s} "
                "(below 2**-100 it would lose its digits, or all become 0); scale it up, its cosines do not change"
            )
    array = given.astype(np.float32)  # a copy: later edits to the input do not leak in
    array.flags.writeable = False
    return array


def _timestamp(value: Any, where: str) -> datetime | None:
    if value is None:
        return None
    if isinstance(value, datetime):
        stamp = value
        try:  # pandas' NaT is a datetime that has no time: refused here, not by the check that reads it
            (stamp if stamp.tzinfo is not None else stamp.replace(tzinfo=timezone.utc)).timestamp()
        except (ValueError, OverflowError, OSError) as exc:
            raise ValueError(f"{where} is not a point in time: {value!r} ({exc})") from None
    elif isinstance(value, str):
        try:
            stamp = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            raise ValueError(f"{where} is not an ISO-8601 date or datetime: {value!r}") from None
    elif isinstance(value, real_types()) and not isinstance(value, bool_types()):  # NumPy integers and floats too
        seconds = as_float(value, where)
        if not math.isfinite(seconds):
            raise ValueError(f"{where} must be finite; got {value}")
        try:
            # an int exactly (a float would round microseconds off POSIX seconds past 2**53 us)
            stamp = datetime.fromtimestamp(int(value) if isinstance(value, int) else seconds, tz=timezone.utc)
        except (OverflowError, OSError, ValueError):
            raise ValueError(f"{where} is out of range for a date: {value!r} POSIX seconds") from None
    else:
        raise TypeError(f"{where} must be a datetime, ISO-8601 string or POSIX seconds; got {type(value).__name__}")
    return stamp if stamp.tzinfo is not None else stamp.replace(tzinfo=timezone.utc)
