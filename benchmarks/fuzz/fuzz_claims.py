"""atheris target: `ClaimCoverage.check_answer` on arbitrary answers and chunk sets keeps its invariants.

python benchmarks/fuzz/fuzz_claims.py benchmarks/fuzz/corpus/claims -max_total_time=30
"""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports():
    from _common import EXPECTED

    import sufficient_context as sc

CHECKERS = (sc.ClaimCoverage(), sc.ClaimCoverage(mode="reference"))


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    ids = [fdp.ConsumeUnicode(6) or f"S{i + 1}" for i in range(fdp.ConsumeIntInRange(0, 4))]
    chunks = [{"id": chunk_id, "content": fdp.ConsumeUnicode(120)} for chunk_id in ids]
    answer = fdp.ConsumeUnicode(fdp.ConsumeIntInRange(0, 400))
    for checker in CHECKERS:
        try:
            report = checker.check_answer(answer, chunks)
        except EXPECTED:
            return
        assert 0.0 <= report.supported_ratio <= 1.0
        assert 0.0 <= report.attribution_coverage <= 1.0
        for claim in report.claims:
            assert 0.0 <= claim.score <= 1.0, claim
            assert answer[claim.start : claim.end] == claim.sentence
            assert all(0.0 <= v <= 1.0 for v in claim.overlaps.values()), claim


if __name__ == "__main__":
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
