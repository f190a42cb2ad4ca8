"""The shared budget of the threads' word caches (sc.set_cache_budget, sc.cache_usage)."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

import sufficient_context as sc


@pytest.fixture
def default_budget() -> Iterator[int]:
    budget = sc.cache_usage()["budget_bytes"]
    yield budget
    sc.set_cache_budget(budget)


def result(checker: sc.SufficientContextChecker, query: str, chunks: list[str]) -> dict[str, object]:
    out = checker.check_sufficiency(query, chunks).to_dict()
    del out["elapsed_ms"]
    return out


def varied(seed: int, words: int = 2000) -> str:
    return " ".join(f"term{seed}n{i}q" for i in range(words)) + "."


def test_usage_reports_the_budget_and_what_is_held(default_budget: int) -> None:
    assert default_budget == 256 * 2**20
    sc.SufficientContextChecker().check_sufficiency("term1n5q", [varied(1)])
    usage = sc.cache_usage()
    assert usage["held_bytes"] > 10_000
    assert usage["threads"] >= 1
    sc.set_cache_budget(0)
    sc.SufficientContextChecker().check_sufficiency("term1n5q", [varied(2, 5)])
    assert sc.cache_usage()["held_bytes"] == 0
    assert sc.cache_usage()["budget_bytes"] == 0


@pytest.mark.parametrize(
    ("value", "error"), [(-1, ValueError), (True, TypeError), (1.5, TypeError), (2**64, ValueError)]
)
def test_a_bad_budget_names_the_argument(value: object, error: type[Exception]) -> None:
    with pytest.raises(error, match="bytes"):
        sc.set_cache_budget(value)  # type: ignore[arg-type]


def test_results_from_many_threads_do_not_depend_on_the_budget(default_budget: int) -> None:
    checker = sc.SufficientContextChecker()
    cases = [(f"term{s}n{7 * s}q and more", [varied(s, 500), varied(s + 1, 300)]) for s in range(24)]
    expected = [result(checker, q, c) for q, c in cases]
    sc.set_cache_budget(64 * 1024)
    got: list[dict[str, object] | None] = [None] * len(cases)

    def work(offset: int) -> None:
        for i in range(offset, len(cases), 4):
            got[i] = result(checker, *cases[i])

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == expected
    assert sc.cache_usage()["held_bytes"] <= 64 * 1024


def test_a_long_answer_leaves_no_per_sentence_state_behind() -> None:
    # The thread's claim workspace kept one entry per sentence of its longest answer, and every later check walked
    # them all to count its bytes: after one 1,000-sentence answer each small check took ~7x as long.
    coverage = sc.ClaimCoverage(max_sentences=None)
    chunks = [{"id": "S1", "content": "Whoever cheats shall be punished with imprisonment."}]
    held: list[int] = []

    def work() -> None:  # a thread of its own: its workspace is the only one that changes
        coverage.check_answer("Whoever cheats is punished [S1].", chunks)
        held.append(sc.cache_usage()["held_bytes"])
        long = coverage.check_answer("Whoever cheats shall be punished [S1]. " * 2000, chunks)
        assert long.covered_count == 2000
        coverage.check_answer("Whoever cheats is punished [S1].", chunks)
        held.append(sc.cache_usage()["held_bytes"])

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    before, after = held
    assert after - before < 100_000  # it was ~1.9 MB: 2,000 sentences' buffers
