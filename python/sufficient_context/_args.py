"""Argument checks shared by the public modules: errors name the argument and the bad item."""

from __future__ import annotations

from collections.abc import Iterable


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
