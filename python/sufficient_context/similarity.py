"""Cosine similarity computed by the C++ core: SIMD kernels for one query, Eigen for blocks.

Inputs are array-likes: NumPy arrays of any real dtype, lists, anything ``np.asarray`` accepts (booleans read as 0
and 1; complex numbers, strings and objects are a ``TypeError`` naming the argument).
A C-contiguous float32 array is used in place (no copy); anything else (float64, integers, a
non-contiguous view, a list) is converted once to float32, so values beyond float32's range
become inf (NumPy warns: overflow encountered in cast) and are rejected. Every function raises
``ValueError`` naming the argument for a wrong shape (the message says how to fix it) and for
NaN or inf (the message gives the first bad index). An empty list means no rows.

Results: a zero vector has cosine 0.0 with anything; values lie in [-1, 1] and match a float64
computation within 1e-5 (float lanes in blocks of 1024, block sums in double; see
``src/similarity/cosine.hpp``). Any finite magnitude works (1e30 and 1e-30 included).
The kernel is chosen once per process from the CPU (AVX-512, AVX2+FMA or portable);
the environment variable ``SC_SIMD=serial|avx2|avx512`` forces one, ``simd_path()`` reports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, TypeVar

from ._args import is_ndarray, real_array
from ._core import similarity as _similarity

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import ArrayLike, NDArray

__all__ = ["cosine", "cosine_many", "cosine_matrix", "simd_path"]

_T = TypeVar("_T")
_KINDS = "biuf"  # NumPy dtype kinds taken: bool, integers, floats


def _call(function: Callable[..., _T], **arrays: Any) -> _T:
    """The core's function on `arrays`; an argument a cast would silently change (complex, strings, objects) or that
    is no array of numbers at all is a TypeError naming it, not the binding's list of signatures. Booleans read as
    0 and 1, as NumPy reads them."""
    for name, value in arrays.items():
        if is_ndarray(value):
            if value.dtype.kind not in _KINDS:
                real_array(value, "float32", name, _KINDS)  # raises, naming it
        elif isinstance(value, (list, tuple)) and value:  # the binding would read "1" as a number
            arrays[name] = real_array(value, "float64", name, _KINDS)
    try:
        return function(*arrays.values())
    except TypeError:
        for name, value in arrays.items():
            real_array(value, "float32", name, _KINDS)  # the first argument that is no array of real numbers raises
        raise


def cosine(a: ArrayLike, b: ArrayLike) -> float:
    """Cosine similarity of two vectors.

    Parameters
    ----------
    a, b : array_like, shape (d,)
        Vectors of the same length d >= 1.

    Returns
    -------
    float
        The cosine in [-1, 1]; 0.0 if either vector is zero.
    """
    return _call(_similarity.cosine, a=a, b=b)


def cosine_many(query: ArrayLike, matrix: ArrayLike) -> NDArray[np.float32]:
    """Cosine of one query with every row of a matrix, in one pass over the matrix.

    Parameters
    ----------
    query : array_like, shape (d,)
        The query vector, d >= 1.
    matrix : array_like, shape (n, d)
        One row per candidate; n may be 0 (an empty list also means no rows).

    Returns
    -------
    numpy.ndarray of float32, shape (n,)
        ``out[i] = cosine(query, matrix[i])``.
    """
    return _call(_similarity.cosine_many, query=query, matrix=matrix)


def cosine_matrix(queries: ArrayLike, matrix: ArrayLike) -> NDArray[np.float32]:
    """Cosine of every query with every row of a matrix (normalise, then one matrix product).

    Parameters
    ----------
    queries : array_like, shape (q, d)
        One query per row; an empty list means no queries.
    matrix : array_like, shape (n, d)
        One candidate per row; an empty list means no rows.

    Returns
    -------
    numpy.ndarray of float32, shape (q, n)
        ``out[i, j] = cosine(queries[i], matrix[j])``.
    """
    return _call(_similarity.cosine_matrix, queries=queries, matrix=matrix)


def simd_path() -> str:
    """Name of the kernel in use: ``"serial"``, ``"avx2"`` or ``"avx512"``."""
    return _similarity.simd_path()
