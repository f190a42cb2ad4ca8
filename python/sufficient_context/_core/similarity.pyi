"""Stubs for `sufficient_context._core.similarity`: SIMD cosine kernels of the C++ core.

Every array argument is converted once to C-contiguous float32 (no copy when it already is one).
Errors are ValueError naming the argument: a wrong shape (with the fix), NaN or inf (with the index).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

def cosine(a: ArrayLike, b: ArrayLike) -> float:
    """Cosine similarity of two 1-D vectors of the same length; 0.0 if either is zero."""

def cosine_many(query: ArrayLike, matrix: ArrayLike) -> NDArray[np.float32]:
    """Cosine of a (d,) query with each row of an (n, d) matrix: shape (n,)."""

def cosine_matrix(queries: ArrayLike, matrix: ArrayLike) -> NDArray[np.float32]:
    """Cosine of each row of a (q, d) array with each row of an (n, d) matrix: shape (q, n)."""

def float_rows(value: object) -> NDArray[np.float64] | None:
    """A non-empty list (or tuple) of Python floats as a float64 (d,) array, a list of such lists of one length as
    (n, d): what ``numpy.asarray`` makes of them. None for anything else (ints, NumPy scalars, ragged rows...)."""

def simd_path() -> str:
    """The kernel in use: 'serial', 'avx2' or 'avx512' (environment variable SC_SIMD overrides)."""

def _supported_simd_paths() -> list[str]:
    """Private: the kernels this CPU can run, 'serial' first."""

def _set_simd_path(name: str | None) -> None:
    """Private (tests): force a kernel process-wide; None restores SC_SIMD or the CPU's best."""
