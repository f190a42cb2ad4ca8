"""Checker configuration from a gateway YAML file or a mapping: the ``sufficient_context:`` section.

.. code-block:: yaml

    sufficient_context:
      enabled: true
      scoring: default            # or "reference"
      min_contexts: 2
      thresholds: {sufficient: 0.8, partial: 0.5}
      weights: {coverage: 0.6}    # partial overrides
      recency_days: 365
      require_embeddings: false   # true: constructing without an embedding model fails
      decline_insufficient: true  # policy for pipelines: decline to answer on "insufficient"

Every key is optional. An unknown key, or a value of the wrong type or out of range, is a ``ValueError`` naming
``sufficient_context.<key>``. YAML files need PyYAML (imported only when a path is given); mappings do not.
"""

from __future__ import annotations

import contextlib
import difflib
import math
import os
import stat
from collections.abc import Iterator, Mapping
from typing import Any, Union

from ._args import as_float

__all__ = [
    "ANSWERING_KEYS",
    "ANSWERING_SECTION",
    "CLAIMS_KEYS",
    "CONFIG_KEYS",
    "RETRIEVAL_KEYS",
    "RETRIEVAL_SECTION",
    "SECTION",
    "load_checker_config",
    "load_pipeline_config",
]

SECTION = "sufficient_context"
CONFIG_KEYS = (
    "enabled",
    "min_contexts",
    "thresholds",
    "require_embeddings",
    "decline_insufficient",
    "weights",
    "scoring",
    "recency_days",
)
_THRESHOLD_KEYS = ("sufficient", "partial")
RETRIEVAL_SECTION = "retrieval"
RETRIEVAL_KEYS = ("min_score", "min_chunks", "weak_score")
CLAIMS_SECTION = "claims"
CLAIMS_KEYS = ("min_overlap", "multi_citation_factor", "mode", "max_sentences")
ANSWERING_SECTION = "answering"
ANSWERING_KEYS = ("prompt", "on_unsupported", "attribution_target", "max_extract_sentences")
ON_UNSUPPORTED = ("remove", "regenerate", "flag")
PROMPT_NAMES = ("grounded", "legal")

ConfigSource = Union[str, "os.PathLike[str]", Mapping[str, Any]]


def load_checker_config(source: ConfigSource) -> dict[str, Any]:
    """Read the checker section and return keyword arguments for `SufficientContextChecker`.

    Parameters
    ----------
    source : str, path-like or mapping
        A YAML file holding a ``sufficient_context:`` section, or a mapping: either a whole document holding that
        section, or the section itself.

    Returns
    -------
    dict
        Keyword arguments (only the keys the source sets): ``enabled``, ``min_contexts``, ``thresholds`` as a
        ``(sufficient, partial)`` tuple, ``require_embeddings``, ``decline_insufficient``, ``weights``,
        ``scoring``, ``recency_days``.
    """
    if isinstance(source, Mapping):
        return _checker_section(source.get(SECTION, source))
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        section = _section_from_file(path)
        with naming_file(path):
            return _checker_section(section)
    raise TypeError(f"source must be a path or a mapping; got {type(source).__name__}")


@contextlib.contextmanager
def naming_file(path: str | None) -> Iterator[None]:
    """A bad value read from a file names the file too: a user may keep several configurations."""
    if path is None:
        yield
        return
    try:
        yield
    except ValueError as exc:
        raise ValueError(f"configuration {path!r}: {exc}") from None


def _checker_section(section: Any) -> dict[str, Any]:
    where = SECTION
    if section is None:  # an empty section: every default
        return {}
    if not isinstance(section, Mapping):
        raise ValueError(f"{where} must be a mapping of settings; got {type(section).__name__}")
    out: dict[str, Any] = {}
    for key, value in section.items():
        name = f"{where}.{key}"
        if key not in CONFIG_KEYS:
            raise ValueError(f"unknown key {name!r}; expected one of {', '.join(CONFIG_KEYS)}")
        if key in ("enabled", "require_embeddings", "decline_insufficient"):
            out[key] = _bool(value, name)
        elif key == "min_contexts":
            out[key] = _int(value, name, minimum=1)
        elif key == "recency_days":
            out[key] = _positive(value, name)
        elif key == "scoring":
            if value not in ("default", "reference"):
                raise ValueError(f"{name} must be 'default' or 'reference'; got {value!r}")
            out[key] = value
        elif key == "thresholds":
            out[key] = _thresholds(value, name)
        else:  # weights
            out[key] = _weights(value, name)
    return out


def _section_from_file(path: str) -> Any:
    document = read_document(path)
    if not isinstance(document, Mapping) or SECTION not in document:
        held = "" if document is None or isinstance(document, Mapping) else f" (it holds a {type(document).__name__})"
        raise ValueError(f"{path!r} has no top-level {SECTION!r} section{held}")
    return document[SECTION]


def _bool(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be true or false; got {value!r}")
    return value


def _number(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(as_float(value, name)):
        hint = ""
        if isinstance(value, str) and _reads_as_number(value):  # PyYAML (YAML 1.1) reads 1e-5 as text, 1.0e-5 not
            hint = " (read as text: YAML wants no quotes, and a dot and a signed exponent: 1.0e-5)"
        raise ValueError(f"{name} must be a finite number; got {value!r}{hint}")
    return float(value)


def _reads_as_number(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def _int(value: Any, name: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}; got {value!r}")
    return value


def _unit(value: Any, name: str) -> float:
    number = _number(value, name)
    if not 0.0 <= number <= 1.0:
        raise ValueError(f"{name} must be in [0, 1]; got {value!r}")
    return number


def _choice(value: Any, name: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(choices)}; got {value!r}")
    return str(value)


def _positive(value: Any, name: str) -> float:
    number = _number(value, name)
    if number <= 0:
        raise ValueError(f"{name} must be > 0; got {value!r}")
    return number


def _thresholds(value: Any, name: str) -> tuple[float, float]:
    if not isinstance(value, Mapping):
        raise ValueError(f"{name} must be a mapping with 'sufficient' and/or 'partial'; got {value!r}")
    for key in value:
        if key not in _THRESHOLD_KEYS:
            raise ValueError(f"unknown key {name + '.' + str(key)!r}; expected 'sufficient' or 'partial'")
    sufficient = _number(value.get("sufficient", 0.8), f"{name}.sufficient")
    partial = _number(value.get("partial", 0.5), f"{name}.partial")
    if not 0.0 <= partial <= sufficient <= 1.0:
        raise ValueError(f"{name} must satisfy 0 <= partial <= sufficient <= 1; got sufficient={sufficient}, "
                         f"partial={partial}")  # fmt: skip
    return sufficient, partial


def _weights(value: Any, name: str) -> dict[str, float]:
    if not isinstance(value, Mapping):
        raise ValueError(f"{name} must be a mapping of signal name to weight; got {value!r}")
    out = {}
    for key, weight in value.items():
        if key not in ("coverage", "relevance", "density", "count", "recency"):
            raise ValueError(
                f"unknown key {name + '.' + str(key)!r}; expected coverage, relevance, density, count or recency"
            )
        number = _number(weight, f"{name}.{key}")
        if number < 0:
            raise ValueError(f"{name}.{key} must be >= 0; got {weight!r}")
        out[str(key)] = number
    return out


def load_pipeline_config(source: ConfigSource) -> dict[str, dict[str, Any]]:
    """Read the sections a grounded answering pipeline uses, each validated.

    .. code-block:: yaml

        sufficient_context: {...}      # the checker (see load_checker_config)
        claims:                        # the ClaimCoverage that validates answers (see ClaimCoverage)
          min_overlap: 0.3
          multi_citation_factor: 0.7
          mode: default
          max_sentences: 100000        # or null: no limit
        retrieval:
          min_score: 0.20              # no model call unless the best chunk scores this much
          min_chunks: 2                # ... and this many chunks reach min_score
          weak_score: 0.35             # optional: evidence under it is answered under the LOW CONFIDENCE banner
        answering:
          prompt: grounded             # or "legal": the precise template for legal and regulatory text
          on_unsupported: remove       # or "regenerate" (one stricter retry, then remove) or "flag"
          attribution_target: 0.9      # meets_attribution_target = attribution_coverage >= this
          max_extract_sentences: 3     # the extractive answerer's sentence budget

    Other top-level sections belong to other tools sharing the file (a gateway's server settings) and are left
    alone, except a name one edit away from ours, which is reported as a likely typo. Inside our sections an unknown
    key raises ValueError naming it and the keys that exist.

    Returns ``{"sufficient_context": {...}, "claims": {...}, "retrieval": {...}, "answering": {...}}`` (only the
    keys set).
    """
    if isinstance(source, Mapping):
        return _pipeline_sections(source)
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        document = read_document(path)
        with naming_file(path):
            return _pipeline_sections(document)
    raise TypeError(f"source must be a path or a mapping; got {type(source).__name__}")


def refuse_near_sections(document: Mapping[Any, Any], ours: tuple[str, ...]) -> None:
    """ValueError for a section whose name is close to one of `ours` but not it ("sever:", "Server:"): other tools'
    sections are left alone, so a misspelled one of ours would be lost silently."""
    for key in document:
        close = difflib.get_close_matches(str(key), ours, n=1, cutoff=0.8)
        if key not in ours and close:
            raise ValueError(f"unknown section {key!r}; did you mean {close[0]!r}? Sections read: {', '.join(ours)}")


def _pipeline_sections(document: Any) -> dict[str, dict[str, Any]]:
    if document is None:
        document = {}
    if not isinstance(document, Mapping):
        raise ValueError(f"the document must be a mapping of sections; got {type(document).__name__}")
    refuse_near_sections(document, (SECTION, CLAIMS_SECTION, RETRIEVAL_SECTION, ANSWERING_SECTION))
    checker = load_checker_config({SECTION: document.get(SECTION)}) if SECTION in document else {}
    return {
        SECTION: checker,
        CLAIMS_SECTION: _claims(document.get(CLAIMS_SECTION)),
        RETRIEVAL_SECTION: _retrieval(document.get(RETRIEVAL_SECTION)),
        ANSWERING_SECTION: _answering(document.get(ANSWERING_SECTION)),
    }


# A configuration is a few dozen values: past these, a file is an alias bomb or garbage, not settings.
_MAX_VALUES = 100_000
_MAX_DEPTH = 64


def read_document(path: str) -> Any:
    """The parsed document of a regular file. A JSON document (after any '#' comment lines: what `calibrate` writes)
    is read as JSON, with or without PyYAML (PyYAML would read JSON's 1e-05 as a string); anything else as YAML,
    which needs PyYAML (an ImportError naming the extra). Malformed YAML is a ValueError naming the file and the
    line; so is a document of more than 100,000 values once YAML aliases are expanded, or nested deeper than 64."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        raise ValueError(f"cannot read configuration {path!r}: {exc.strerror}") from None
    if not stat.S_ISREG(mode):  # a FIFO would block forever, a device would never end
        raise ValueError(f"cannot read configuration {path!r}: it is not a regular file")
    try:
        with open(path, encoding="utf-8-sig") as fh:  # a BOM (Windows editors) would hide JSON from the JSON reader
            text = fh.read()
    except UnicodeDecodeError as exc:
        raise ValueError(f"configuration {path!r} is not UTF-8 text: {exc.reason} at byte {exc.start}") from None
    except OSError as exc:
        raise ValueError(f"cannot read configuration {path!r}: {exc.strerror}") from None
    try:
        document = _parse_document(text, path)
    except RecursionError:
        raise ValueError(f"configuration {path!r} is nested too deeply") from None
    _check_size(document, path)
    return document


def _parse_document(text: str, path: str) -> Any:
    import json

    # YAML comment lines cannot be inside a JSON value: no JSON string spans lines.
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    if body.lstrip().startswith(("{", "[")):
        try:
            return json.loads(body, object_pairs_hook=lambda pairs: _unique_keys(pairs, path))
        except _DuplicateKey:
            raise  # a ValueError too, but not "not JSON"
        except ValueError:
            pass  # YAML's flow style also opens with a bracket
    try:
        import yaml  # optional: only YAML files need it
    except ImportError:
        raise ImportError(
            f"reading {path!r} needs PyYAML: pip install 'sufficient-context[yaml]' (a JSON file or a mapping needs "
            "nothing)"
        ) from None
    try:
        return yaml.load(text, Loader=_unique_key_loader(yaml, path))  # a SafeLoader subclass: safe
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ValueError(f"configuration {path!r} is not valid YAML{where}: {problem}") from None


class _DuplicateKey(ValueError):
    """A key given twice in one mapping: the reader would keep the last silently."""


def _unique_keys(pairs: list[tuple[Any, Any]], path: str) -> dict[Any, Any]:
    out: dict[Any, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(f"configuration {path!r} gives the key {key!r} twice: which one is meant?")
        out[key] = value
    return out


def _unique_key_loader(yaml: Any, path: str) -> Any:
    """yaml.SafeLoader refusing a key given twice in one mapping (it keeps the last one silently)."""

    class Loader(yaml.SafeLoader):  # type: ignore[misc]
        def construct_mapping(self, node: Any, deep: bool = False) -> Any:
            seen: set[Any] = set()
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":  # "<<": keys it brings may be overridden
                    continue
                key = self.construct_object(key_node, deep=deep)
                try:
                    repeated = key in seen
                except TypeError:  # a list or mapping as key: PyYAML's own error below says where
                    break
                if repeated:
                    line = key_node.start_mark.line + 1
                    raise _DuplicateKey(f"configuration {path!r} gives the key {key!r} twice at line {line}")
                seen.add(key)
            return super().construct_mapping(node, deep=deep)

    return Loader


def _check_size(document: Any, path: str) -> None:
    """Walks the document as its readers will (YAML aliases expanded), without recursion, and stops early."""
    count = 0
    stack: list[tuple[Any, int]] = [(document, 0)]
    while stack:
        value, depth = stack.pop()
        count += 1
        if count > _MAX_VALUES or depth > _MAX_DEPTH:
            raise ValueError(
                f"configuration {path!r} is too large for settings: more than {_MAX_VALUES:,} values (YAML aliases "
                f"expanded) or nested deeper than {_MAX_DEPTH}"
            )
        if isinstance(value, Mapping):
            stack.extend((item, depth + 1) for pair in value.items() for item in pair)
        elif isinstance(value, (list, tuple)):
            stack.extend((item, depth + 1) for item in value)


def _section(value: Any, where: str, keys: tuple[str, ...]) -> Mapping[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ValueError(f"{where} must be a mapping of settings; got {type(value).__name__}")
    for key in value:
        if key not in keys:
            raise ValueError(f"unknown key {where + '.' + str(key)!r}; expected one of {', '.join(keys)}")
    return value


def _retrieval(value: Any) -> dict[str, Any]:
    section = _section(value, RETRIEVAL_SECTION, RETRIEVAL_KEYS)
    out: dict[str, Any] = {}
    for key, item in section.items():
        name = f"{RETRIEVAL_SECTION}.{key}"
        if key == "min_chunks":
            out[key] = _int(item, name, minimum=1)
        else:  # min_score, weak_score: retrievers' scores are not always in [0, 1] (BM25, dot products)
            out[key] = _number(item, name)
    return out


def _claims(value: Any) -> dict[str, Any]:
    section = _section(value, CLAIMS_SECTION, CLAIMS_KEYS)
    out: dict[str, Any] = {}
    for key, item in section.items():
        name = f"{CLAIMS_SECTION}.{key}"
        if key == "mode":
            out[key] = _choice(item, name, ("default", "reference"))
        elif key == "max_sentences":
            out[key] = None if item is None else _int(item, name, minimum=1)
        else:  # min_overlap, multi_citation_factor
            out[key] = _unit(item, name)
    return out


def _answering(value: Any) -> dict[str, Any]:
    section = _section(value, ANSWERING_SECTION, ANSWERING_KEYS)
    out: dict[str, Any] = {}
    for key, item in section.items():
        name = f"{ANSWERING_SECTION}.{key}"
        if key == "prompt":
            out[key] = _choice(item, name, PROMPT_NAMES)
        elif key == "on_unsupported":
            out[key] = _choice(item, name, ON_UNSUPPORTED)
        elif key == "attribution_target":
            out[key] = _unit(item, name)
        else:  # max_extract_sentences
            out[key] = _int(item, name, minimum=1)
    return out
