"""The batch forms on the persistent worker pool: many callers at once, forked children, results unchanged."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading

import pytest

import sufficient_context as sc

QUERIES = [f"When did the river {w} flood the valley?" for w in ("Amstel", "Rhône", "Ganges", "Volga", "Nile")] * 8
# A long third chunk per row: batches under 16 KiB of text a thread stay on the calling thread.
_FILLER = "Spring rains raise the rivers of the plain, and the old dikes hold most years. " * 40
CONTEXTS = [
    [f"The {w} flooded the valley in {1900 + i}.", "Floods are common in spring.", _FILLER]
    for i, w in enumerate(["Amstel", "Rhône", "Ganges", "Volga", "Nile"] * 8)
]


def _scores(results: list[sc.SufficiencyResult]) -> list[tuple[float, str]]:
    return [(r.score, r.level.value) for r in results]


def test_batches_from_many_python_threads_equal_one_by_one_checks() -> None:
    checker = sc.SufficientContextChecker()
    expected = _scores([checker.check_sufficiency(q, c) for q, c in zip(QUERIES, CONTEXTS)])
    failures: list[str] = []

    def run(offset: int) -> None:
        # Each caller rotates the inputs, so a mix-up between concurrent batches would show.
        qs = QUERIES[offset:] + QUERIES[:offset]
        cs = CONTEXTS[offset:] + CONTEXTS[:offset]
        for _ in range(5):
            got = _scores(checker.check_batch(qs, cs, threads=3))
            if got != expected[offset:] + expected[:offset]:
                failures.append(f"caller {offset}")

    callers = [threading.Thread(target=run, args=(k,)) for k in range(6)]
    for t in callers:
        t.start()
    for t in callers:
        t.join()
    assert failures == []


def test_claim_batches_run_on_the_pool_with_the_same_results() -> None:
    coverage = sc.ClaimCoverage()
    answers = [f"The {c[0].split()[1]} flooded the valley [S1]." for c in CONTEXTS]
    chunks = [[*c[:2], c[2] * 3] for c in CONTEXTS]  # answers are shorter than queries: more text per row
    expected = [coverage.check_answer(a, c).supported_ratio for a, c in zip(answers, chunks)]
    for threads in (None, 1, 2, 7):
        got = [r.supported_ratio for r in coverage.check_answers(answers, chunks, threads=threads)]
        assert got == expected


@pytest.mark.filterwarnings("ignore:This process .* is multi-threaded:DeprecationWarning")  # 3.12+, intended here
def test_a_forked_child_gets_a_working_pool_of_its_own() -> None:
    checker = sc.SufficientContextChecker()
    expected = _scores(checker.check_batch(QUERIES, CONTEXTS, threads=2))  # the parent's pool threads exist now
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: the parent's pool threads were not copied; a batch must still finish, same results
        try:
            ok = _scores(checker.check_batch(QUERIES, CONTEXTS, threads=2)) == expected
            os.write(write, b"ok" if ok else b"mismatch")
        finally:
            os._exit(0)
    os.close(write)
    _, status = os.waitpid(pid, 0)
    with os.fdopen(read, "rb") as fh:
        assert fh.read() == b"ok"
    assert os.WEXITSTATUS(status) == 0


def test_claim_batches_with_lone_surrogates_equal_one_by_one_checks() -> None:
    coverage = sc.ClaimCoverage()
    answers = ["Water boils \ud800 at 100 degrees [S1].", "The Nile flooded the valley [S1]."]
    chunks = [["Water boils at 100 degrees \udfff."], [CONTEXTS[4][0]]]
    batch = coverage.check_answers(answers, chunks, threads=2)
    for answer, chunk_list, got in zip(answers, chunks, batch):
        one = coverage.check_answer(answer, chunk_list)
        assert got.claims == one.claims
        assert got.claims[0].sentence == answer[got.claims[0].start : got.claims[0].end]  # the original text
    assert batch[0].supported_ratio == 1.0


# Daemon threads still inside the C++ calls when the interpreter exits: with the GIL released, taking it back then, and
# pool threads scoring while the process's static objects are torn down.
_EXIT_DURING_BATCHES = textwrap.dedent(
    """
    import threading, time
    import sufficient_context as sc

    filler = "Spring rains raise the rivers of the plain, and the old dikes hold most years. " * 40
    queries = ["When did the river Nile flood the valley?"] * 2000
    contexts = [["The Nile flooded the valley in 1900.", filler]] * 2000
    answers = ["The Nile flooded the valley in 1900 [S1]. Floods are common [S2]."] * 2000
    checker, coverage = sc.SufficientContextChecker(), sc.ClaimCoverage()
    sc.set_cache_budget(0)  # every check then takes the cache registry's lock

    def forever(call):
        while True:
            call()

    for call in (
        lambda: checker.check_batch(queries, contexts, threads=3),
        lambda: coverage.check_answers(answers, contexts, threads=3),
        lambda: checker.check_sufficiency(queries[0], contexts[0]),
    ):
        threading.Thread(target=forever, args=(call,), daemon=True).start()
    time.sleep(0.3)
    print("exiting")
    """
)


def test_the_interpreter_exits_cleanly_while_daemon_threads_run_batches() -> None:
    # Was: "terminate called without an active exception" / "FATAL: exception not rethrown" and SIGABRT at every such
    # exit (CPython ends a daemon thread asking for the GIL with pthread_exit, whose unwinding met a noexcept frame),
    # and now and then SIGSEGV in a pool thread using a static the exit had destroyed.
    for _ in range(3):
        done = subprocess.run(
            [sys.executable, "-c", _EXIT_DURING_BATCHES], capture_output=True, text=True, timeout=120, check=False
        )
        assert (done.returncode, done.stdout, done.stderr) == (0, "exiting\n", "")
