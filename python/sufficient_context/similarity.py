"""Cosine similarity computed by the C++ core: SIMD kernels for one query, Eigen for blocks.

Inputs are array-likes: NumPy arrays of any real dtype, lists, anything ``np.asarray`` accepts (booleans read as 0
and 1; complex numbers, strings and objects are a ``TypeError`` naming the argument).
A C-contiguous float32 array is used in place (no copy); anything else (float64, integers, a
non-contiguous view, a list) is converted once to float32. A float64 row that float32 would flush
to zero is first scaled by a power of two (exact: cosines do not change); a value beyond float32's
range is rejected, naming it. Every function raises
``ValueError`` naming the argument for a wrong shape (the message says how to fix it) and for
NaN or inf (the message gives the first bad index). An empty list means no rows.

Results: a zero vector has cosine 0.0 with anything; values lie in [-1, 1] and match a float64
computation within 1e-5 (float lanes in blocks of 1024, block sums in double; see
``src/similarity/cosine.hpp``). Any finite magnitude works (1e30 and 1e-30 included).
The kernel is chosen once per process from the CPU (AVX-512, AVX2+FMA or portable);
the environment variable ``SC_SIMD=serial|avx2|avx512`` forces one, ``simd_path()`` reports it.
"""

from __future__ import annotations

import array
import contextlib
from typing import TYPE_CHECKING, Any, Callable, TypeVar

from ._args import FLOAT32_MAX, FLOAT32_TINY, is_ndarray, numpy, real_array
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
            dtype = value.dtype
            if dtype.kind == "f" and dtype.itemsize <= 4:
                continue  # float32 / float16: nothing to check here (the common case, kept cheap: see bench_cosine)
        elif isinstance(value, (list, tuple)) and value:  # the binding would read "1" as a number
            value = arrays[name] = real_array(value, "float64", name, _KINDS)
        elif hasattr(value, "__array__") or isinstance(value, (memoryview, array.array)):  # pandas, buffers
            with contextlib.suppress(TypeError, ValueError):  # the binding names it below
                value = arrays[name] = numpy().asarray(value)
        if is_ndarray(value):
            if value.dtype.kind not in _KINDS:
                real_array(value, "float32", name, _KINDS)  # raises, naming it
            if value.dtype.kind == "f" and value.dtype.itemsize > 4:
                arrays[name] = _fit_float32(value, name)
    try:
        return function(*arrays.values())
    except TypeError:
        for name, value in arrays.items():
            real_array(value, "float32", name, _KINDS)  # the first argument that is no array of real numbers raises
        raise


def _fit_float32(array: NDArray[Any], name: str) -> NDArray[Any]:
    """`array` (float64 or wider) with each row whose values would underflow float32 (1e-50 becomes 0.0, a cosine
    of 0 instead of 1) scaled by a power of two: exact, and the cosine does not change. A finite value beyond
    float32's range is a ValueError naming it (the documented refusal; the cast would call it inf)."""
    np = numpy()
    if array.ndim not in (1, 2) or array.size == 0:
        return array  # the core names the shape
    with np.errstate(invalid="ignore"):
        peak = np.maximum(np.max(array, axis=-1), -np.min(array, axis=-1))
        if (peak > FLOAT32_MAX).any():
            too_big = np.isfinite(array) & (np.abs(array) > FLOAT32_MAX)
            if too_big.any():
                where = np.unravel_index(int(np.argmax(too_big)), array.shape)
                index = ", ".join(str(int(i)) for i in where)
                raise ValueError(
                    f"{name}[{index}] is {array[where]!s}: beyond float32's range (3.4e38), "
                    "in which cosines are computed"
                )
        tiny = (peak > 0) & (peak < FLOAT32_TINY)
    if not tiny.any():
        return array
    _, exponent = np.frexp(peak)
    shift = np.where(tiny, -exponent, 0)
    scaled: NDArray[Any] = np.ldexp(array, shift if array.ndim == 1 else shift[:, None])
    return scaled


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
