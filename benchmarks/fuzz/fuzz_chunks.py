"""atheris target: `as_chunks` and the checks on arbitrary nested objects never crash nor score outside [0, 1].

python benchmarks/fuzz/fuzz_chunks.py benchmarks/fuzz/corpus/chunks -max_total_time=30
"""

from __future__ import annotations

import math
import sys

import atheris

with atheris.instrument_imports():
    from _common import EXPECTED, value

    import sufficient_context as sc


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    chunks = [value(fdp) for _ in range(fdp.ConsumeIntInRange(0, 4))]
    query = fdp.ConsumeUnicode(40)
    try:
        converted = sc.as_chunks(chunks)
    except EXPECTED:
        return
    for chunk in converted:
        assert isinstance(chunk.content, str)
        assert chunk.score is None or math.isfinite(chunk.score)
    try:
        result = sc.SufficientContextChecker().check_sufficiency(query, converted)
    except EXPECTED:
        return
    assert 0.0 <= result.score <= 1.0, result


if __name__ == "__main__":
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
