"""The optional dependencies of the Ray engine, imported only when it runs, with an error that names the extra."""

from __future__ import annotations

from types import ModuleType
from typing import Any

EXTRA = "pip install 'sufficient-context[ray]'"


def ray_module() -> ModuleType:
    try:
        import ray
        import ray.data
    except ImportError as exc:
        raise ImportError(f"sufficient_context.scale needs Ray Data ({exc.name or exc}): {EXTRA}") from None
    return ray


def pyarrow_module() -> Any:  # pyarrow has no type information
    try:
        import pyarrow
    except ImportError as exc:
        raise ImportError(f"this needs pyarrow ({exc.name or exc}), which the ray extra brings: {EXTRA}") from None
    return pyarrow
