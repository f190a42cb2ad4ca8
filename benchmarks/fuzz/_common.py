"""Shared pieces of the atheris fuzz targets: turning fuzzer bytes into nested Python values."""

from __future__ import annotations

from typing import Any

import atheris

# Exceptions a public entry may raise on bad input: anything else is a finding.
EXPECTED = (TypeError, ValueError)


def value(fdp: atheris.FuzzedDataProvider, depth: int = 0) -> Any:
    """An arbitrary JSON-like value, with floats over their whole range (NaN and inf included), bytes and None."""
    kind = fdp.ConsumeIntInRange(0, 9 if depth < 3 else 6)
    if kind == 0:
        return None
    if kind == 1:
        return fdp.ConsumeBool()
    if kind == 2:
        return fdp.ConsumeInt(fdp.ConsumeIntInRange(1, 12))
    if kind == 3:
        return fdp.ConsumeRegularFloat() if fdp.ConsumeBool() else fdp.ConsumeFloat()
    if kind in (4, 5):
        return fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 64)) if kind == 4 else fdp.ConsumeUnicode(32)
    if kind == 6:
        return fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 32))
    if kind == 7:
        return [value(fdp, depth + 1) for _ in range(fdp.ConsumeIntInRange(0, 4))]
    keys = ["content", "id", "score", "embedding", "timestamp", "temperature", "metadata", "summary", "page_content"]
    out = {}
    for _ in range(fdp.ConsumeIntInRange(0, 5)):
        key = keys[fdp.ConsumeIntInRange(0, len(keys) - 1)] if fdp.ConsumeBool() else fdp.ConsumeUnicode(8)
        out[key] = value(fdp, depth + 1)
    return out
