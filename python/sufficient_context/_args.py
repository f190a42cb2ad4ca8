"""Argument checks shared by the public modules: errors name the argument and the bad item."""

from __future__ import annotations

import math
import operator
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, SupportsFloat, TypeVar

from ._core import similarity as _similarity

if TYPE_CHECKING:
    from numpy.typing import NDArray

_SURROGATES = re.compile("[\ud800-\udfff]")

INT_MAX = 2**31 - 1  # counts beyond this are never meaningful, and the core's integers must hold them
FLOAT32_MAX = 3.4028234663852886e38  # embeddings are stored and compared in float32
# A vector whose largest magnitude is below this would lose bits (or all of them) in float32 (as the core's
# kTinyRowPeak in checker/embedding_relevance.cpp).
FLOAT32_TINY = 2.0**-100

# NumPy is imported only where arrays are made (importing it costs ~50-75 ms and starts OpenBLAS threads that spin
# for ~0.1 s of CPU). Until something has imported it, no NumPy scalar or array can exist, so the type tests below
# read it from sys.modules instead of importing it.
_real_types: tuple[type[SupportsFloat], ...] = (int, float)
_bool_types: tuple[type, ...] = (bool,)
_numpy_types_added = False


def _add_numpy_types() -> None:
    """Widens both tuples with NumPy's scalar types, once NumPy is loaded."""
    global _real_types, _bool_types, _numpy_types_added
    np = sys.modules.get("numpy")
    if np is None:  # the common case in a text-only process: nothing to add (yet)
        return
    # Another thread may be importing NumPy right now: a module still initialising lacks these names. No NumPy
    # scalar can reach us before they exist, so the plain types serve until the import has finished.
    integer, floating, bool_ = (getattr(np, name, None) for name in ("integer", "floating", "bool_"))
    if integer is not None and floating is not None and bool_ is not None:
        _real_types = (int, float, integer, floating)
        _bool_types = (bool, bool_)
        _numpy_types_added = True


def real_types() -> tuple[type[SupportsFloat], ...]:
    """The real number types an argument may have: int, float and, once NumPy is loaded, its integer and floating
    scalars (bool is an int: callers refuse it first)."""
    if not _numpy_types_added:
        _add_numpy_types()
    return _real_types


def bool_types() -> tuple[type, ...]:
    """bool and, once NumPy is loaded, numpy.bool_."""
    if not _numpy_types_added:
        _add_numpy_types()
    return _bool_types


_numpy: Any = None


def numpy() -> Any:
    """The numpy module, imported on the first call: for functions that make arrays on every call (an import
    statement costs them ~45 ns a call; this, a global read)."""
    global _numpy
    if _numpy is None:
        import numpy as np

        _numpy = np
    return _numpy


def is_ndarray(value: object) -> bool:
    """Whether `value` is a numpy.ndarray (never true before NumPy is loaded)."""
    np = sys.modules.get("numpy")
    return np is not None and isinstance(value, np.ndarray)


def str_tuple(values: Iterable[str], name: str) -> tuple[str, ...]:
    """`values` as a tuple of str; TypeError naming `name` (or `name[i]`) otherwise. A lone str is refused, since
    iterating it would silently give its characters."""
    if isinstance(values, (str, bytes)):
        raise TypeError(f"{name} must be an iterable of str, not a single {type(values).__name__}")
    try:
        items = tuple(values)
    except TypeError:
        raise TypeError(f"{name} must be an iterable of str; got {type(values).__name__}") from None
    for i, item in enumerate(items):
        if not isinstance(item, str):
            raise TypeError(f"{name}[{i}] must be str; got {type(item).__name__}")
    return items


_Item = TypeVar("_Item")


def list_of(values: Any, kind: type[_Item], name: str) -> list[_Item]:
    """`values` (a sequence) as a list of `kind`; TypeError naming `name`, or `name[i]` for the first item of another
    type. A str, bytes or mapping is refused whole: iterating it would give characters or keys."""
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Sequence):
        raise TypeError(f"{name} must be a list of {kind.__name__}; got {type(values).__name__}")
    items = list(values)
    for i, item in enumerate(items):
        if not isinstance(item, kind):
            raise TypeError(f"{name}[{i}] must be a {kind.__name__}; got {type(item).__name__}")
    return items


def int_in_range(value: Any, name: str, minimum: int = 1, maximum: int = INT_MAX) -> int:
    """`value` as an int in [minimum, maximum] (any integer type: int, NumPy integers); TypeError naming `name`
    for a bool or a non-integer, ValueError for one out of range (including integers too wide for the core)."""
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        raise TypeError(f"{name} must be an int; got bool")
    try:
        number = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an int; got {type(value).__name__}") from None
    if not minimum <= number <= maximum:
        raise ValueError(f"{name} must be an int in [{minimum}, {maximum}]; got {number}")
    return number


def as_float(value: Any, name: str) -> float:
    """float(value) for a value already known to be a real number: an integer too large for a float is a
    ValueError naming `name`, not a bare OverflowError."""
    try:
        return float(value)
    except OverflowError:
        raise ValueError(f"{name} must be finite; got an integer too large for a float") from None


def real_array(value: Any, dtype: Any, name: str, kinds: str = "fiu") -> NDArray[Any]:
    """`value` as a NumPy array of `dtype` (None: its own), refusing what a cast would silently change: complex
    numbers (the imaginary part dropped), strings ("1" read as 1.0), objects and, unless `kinds` holds "b", booleans.
    TypeError naming `name`."""
    np = numpy()
    # Lists of floats (what every embeddings model returns) are read in C: NumPy's type discovery per item was most of
    # an embeddings wrapper's time (bench_langchain.py). Anything else is NumPy's to read or refuse.
    fast = _similarity.float_rows(value) if type(value) is list or type(value) is tuple else None
    try:
        array = np.asarray(value) if fast is None else fast
    except (TypeError, ValueError, OverflowError) as exc:
        raise TypeError(f"{name} must be an array of real numbers: {exc}") from None
    if array.dtype.kind not in kinds:
        raise TypeError(f"{name} must be an array of real numbers; got {array.dtype} values")
    if dtype is None:  # as given: the caller looks at the values before any cast
        given: NDArray[Any] = array
        return given
    converted: NDArray[Any] = array.astype(dtype, copy=False)
    return converted


def finite_or_none(value: Any, name: str) -> float | None:
    """None, or `value` as a finite float (any real number type but bool); TypeError / ValueError naming `name`."""
    if value is None:
        return None
    if type(value) is float and math.isfinite(value):  # the common case, without the type tests below
        return value
    # numpy.bool_ too: it has __float__, and a flag read as the number 1.0 would be a silent wrong score
    if isinstance(value, bool_types()) or not hasattr(value, "__float__") or isinstance(value, (str, bytes, complex)):
        raise TypeError(f"{name} must be a number or None; got {type(value).__name__}")
    number = as_float(value, name)
    if not math.isfinite(number):
        raise ValueError(f"{name} must be finite; got {number!r}")
    return number


def text_of(value: Any, name: str) -> str:
    """The text of an answer-like value: a str, a LangChain message (``.content``: a str, or a list of content blocks
    whose text blocks are joined one a line, thinking, reasoning, tool and image blocks skipped), a LlamaIndex
    ``Response`` (``.response``) or ``CompletionResponse`` (``.text``). TypeError naming `name` otherwise (and for a
    Response whose text is None)."""
    if isinstance(value, str):
        return value
    for attribute in ("content", "response", "text"):
        inner = getattr(value, attribute, None)
        if isinstance(inner, str):
            return inner
        if attribute == "content" and isinstance(inner, list):
            # Blocks of another type (a model's "thinking" or "reasoning", a "tool_use", an image) are not the
            # answer: LangChain's own .text skips them too, but joins the text blocks without a break.
            parts = [p if isinstance(p, str) else p.get("text") for p in inner
                     if isinstance(p, str) or (isinstance(p, dict) and p.get("type", "text") == "text")]  # fmt: skip
            if all(isinstance(p, str) for p in parts) and parts:
                # a line break between blocks: one block's last sentence must not run into the next one's first
                return "\n".join(p for p in parts if isinstance(p, str))
    raise TypeError(
        f"{name} must be a str or an object with .content / .response / .text holding text; got {type(value).__name__}"
    )


def replace_surrogates(text: str) -> str:
    """`text` with lone surrogates (a JSON ``"\\ud800"`` escape, ``surrogateescape`` decoding) as U+FFFD, as the
    checks read them: same length, and a UTF-8 form for prompts, JSON and logs."""
    return _SURROGATES.sub("\ufffd", text)
