"""Claim coverage's per-thread workspaces and word memos in the shared cache budget (sc.cache_usage)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

import sufficient_context as sc

Chunks = list[dict[str, str]]


@pytest.fixture
def default_budget() -> Iterator[int]:
    budget = sc.cache_usage()["budget_bytes"]
    yield budget
    sc.set_cache_budget(budget)


def varied(seed: int, words: int) -> str:
    return " ".join(f"term{seed}n{i}q" for i in range(words)) + "."


def empty_all() -> None:
    """Empties every idle cache of the process (a check that ends over a budget of 0 does)."""
    sc.set_cache_budget(0)
    sc.ClaimCoverage().check_answer("x [S1].", [{"id": "S1", "content": "x"}])
    assert sc.cache_usage()["held_bytes"] == 0


CASES: list[tuple[str, Chunks]] = [
    ("", [{"id": "S1", "content": "Cheating is punished."}]),
    ("Whoever cheats is punished [S1].", [{"id": "S1", "content": "Whoever cheats shall be punished."}]),
    ("Whoever cheats is punished [S1].", []),
    (
        "Straße und Größe: 東京 is big [S1]. Ça marche 🙂 [S2].",
        [
            {"id": "S1", "content": "東京 ist groß, die Straße auch."},
            {"id": "S2", "content": "Ça marche 🙂 très bien."},
        ],
    ),
    ("A lone \ud800 surrogate [S1].", [{"id": "S1", "content": "A lone \udfff surrogate here."}]),
    (
        "In summary, the punishment is seven years [S1]. Cheating is deceiving [S2].",
        [
            {"id": "S1", "content": "Imprisonment for seven years."},
            {"id": "S2", "content": "Cheating means deceiving."},
            {"id": "S3", "content": "Cheating is deceiving."},
        ],
    ),
    *[
        (
            f"term{s}n7q holds [S1]. {varied(s + 10, 200)} [S2].",
            [{"id": "S1", "content": varied(s, 3000)}, {"id": "S2", "content": varied(s + 10, 2000)}],
        )
        for s in range(3)
    ],
]


def answers(coverage: sc.ClaimCoverage) -> list[dict[str, Any]]:
    return [coverage.check_answer(a, c).to_dict() for a, c in CASES]


def test_a_check_answer_is_counted_and_a_zero_budget_keeps_nothing(default_budget: int) -> None:
    coverage = sc.ClaimCoverage()
    empty_all()
    sc.set_cache_budget(default_budget)
    coverage.check_answer(*CASES[1])
    usage = sc.cache_usage()
    assert usage["held_bytes"] > 16_384  # the analyzer, two word memos and the key filters, at least
    assert usage["threads"] >= 1
    coverage.check_answer(*CASES[1])
    assert sc.cache_usage()["held_bytes"] == usage["held_bytes"]  # kept between checks
    coverage.check_claim("Whoever cheats is punished [S1].", CASES[1][1])
    assert sc.cache_usage()["held_bytes"] == usage["held_bytes"]
    sc.set_cache_budget(0)
    for answer, chunks in CASES:
        coverage.check_answer(answer, chunks)
        assert sc.cache_usage()["held_bytes"] == 0
    with pytest.raises(ValueError, match="duplicates"):
        coverage.check_answer("a [S1].", [{"id": "S1", "content": "a"}, {"id": "S1", "content": "b"}])
    assert sc.cache_usage()["held_bytes"] == 0


def test_check_answers_on_several_threads_is_counted(default_budget: int) -> None:
    coverage = sc.ClaimCoverage()
    batch = [a for a, _ in CASES] * 4
    chunks = [c for _, c in CASES] * 4
    expected = [r.to_dict() for r in coverage.check_answers(batch, chunks, threads=1)]
    empty_all()
    got = [r.to_dict() for r in coverage.check_answers(batch, chunks, threads=2)]
    assert sc.cache_usage()["held_bytes"] == 0
    assert got == expected
    sc.set_cache_budget(default_budget)
    got = [r.to_dict() for r in coverage.check_answers(batch, chunks, threads=2)]
    assert got == expected
    # A pool thread counts once it has checked an item; on a loaded host it may wake after the caller has done them
    # all, so the batch runs again until one has (not a timing assumption: a bound on retries).
    deadline = time.monotonic() + 30
    while sc.cache_usage()["threads"] < 2 and time.monotonic() < deadline:
        assert [r.to_dict() for r in coverage.check_answers(batch * 8, chunks * 8, threads=2)] == expected * 8
    usage = sc.cache_usage()
    assert usage["held_bytes"] > 0
    assert usage["threads"] >= 2  # the calling thread and a pool thread


def _settled_thread_count() -> int:
    """The thread count once threads of earlier tests have finished exiting (their caches go as the OS thread ends)."""
    count, deadline = sc.cache_usage()["threads"], time.monotonic() + 5
    while time.monotonic() < deadline:
        time.sleep(0.05)
        again = sc.cache_usage()["threads"]
        if again == count:
            break
        count = again
    return count


def test_threads_count_each_thread_once_while_alive(default_budget: int) -> None:
    coverage = sc.ClaimCoverage()
    checker = sc.SufficientContextChecker()
    sc.set_cache_budget(default_budget)
    before = _settled_thread_count()
    checked = threading.Barrier(4)
    leave = threading.Event()

    def work(seed: int) -> None:
        coverage.check_answer(*CASES[6 + seed % 3])
        checker.check_sufficiency(f"term{seed}n5q", [varied(seed, 500)])  # a second cache, same thread
        checked.wait()
        leave.wait()

    threads = [threading.Thread(target=work, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    checked.wait()
    assert sc.cache_usage()["threads"] == before + 3
    leave.set()
    for t in threads:
        t.join()
    # join() returns when the Python thread state is gone; the C++ thread-local caches are freed a little later,
    # as the OS thread exits.
    deadline = time.monotonic() + 10
    while sc.cache_usage()["threads"] != before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert sc.cache_usage()["threads"] == before


def test_results_do_not_depend_on_the_budget(default_budget: int) -> None:
    coverage = sc.ClaimCoverage()
    reference = sc.ClaimCoverage(mode="reference")
    sc.set_cache_budget(default_budget)
    warm, warm_reference = answers(coverage), answers(reference)
    for budget in (0, 100_000):
        sc.set_cache_budget(budget)
        assert answers(coverage) == warm
        assert answers(reference) == warm_reference
        assert sc.cache_usage()["held_bytes"] <= budget


def test_threads_under_a_small_budget_agree_with_one_thread(default_budget: int) -> None:
    coverage = sc.ClaimCoverage()
    sc.set_cache_budget(default_budget)
    expected = answers(coverage)
    sc.set_cache_budget(200_000)
    got: list[list[dict[str, Any]]] = []

    def work() -> None:
        got.append(answers(coverage))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == [expected] * 4
    assert sc.cache_usage()["held_bytes"] <= 200_000


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -0.0])
def test_a_float_budget_is_refused(value: float) -> None:
    with pytest.raises(TypeError, match="bytes"):
        sc.set_cache_budget(value)  # type: ignore[arg-type]
