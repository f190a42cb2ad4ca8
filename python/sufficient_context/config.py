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

import math
import os
from collections.abc import Mapping
from typing import Any, Union

__all__ = ["CONFIG_KEYS", "SECTION", "load_checker_config"]

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
        section = source.get(SECTION, source)
        where = SECTION
    elif isinstance(source, (str, os.PathLike)):
        section = _section_from_file(os.fspath(source))
        where = SECTION
    else:
        raise TypeError(f"source must be a path or a mapping; got {type(source).__name__}")
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
    try:
        import yaml  # optional: only YAML files need it
    except ImportError:
        raise ImportError(
            f"reading {path!r} needs PyYAML: pip install pyyaml (or pass the settings as a mapping)"
        ) from None
    with open(path, encoding="utf-8") as fh:
        document = yaml.safe_load(fh)
    if not isinstance(document, Mapping) or SECTION not in document:
        raise ValueError(f"{path!r} has no top-level {SECTION!r} section")
    return document[SECTION]


def _bool(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be true or false; got {value!r}")
    return value


def _number(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number; got {value!r}")
    return float(value)


def _int(value: Any, name: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}; got {value!r}")
    return value


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
