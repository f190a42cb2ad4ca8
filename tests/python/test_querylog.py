"""QueryLog: SQLite (WAL) query log; append-only, thread-safe, clear errors on corrupt or locked files."""

from __future__ import annotations

import json
import multiprocessing
import os
import pickle
import resource
import shutil
import signal
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

import sufficient_context as sc
from sufficient_context.gate import evaluate_retrieval
from sufficient_context.querylog import QueryLog, QueryLogError, QueryLogWarning
from sufficient_context.querylog.writer import file_lock

CHUNKS = [
    {"id": "IPC_302", "content": "Whoever commits murder ...", "score": 0.83},
    {"content": "Common intention ...", "score": 0.41},
    {"content": "No score."},
]


def _fill(log: QueryLog, n: int) -> None:
    for i in range(n):
        log.record(f"question {i}", CHUNKS, "normal" if i % 2 else "no_evidence", score=i / 10, answer=f"answer {i}")


def test_record_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "log.db"
    with QueryLog(path) as log:
        row_id = log.record("What is murder?", CHUNKS, "normal", score=0.83, answer="Murder is ... [IPC_302]")
        assert row_id == 1
        assert log.record("Ünïcödé — 法律?", [], "no_evidence") == 2
        assert len(log) == 2
        rows = log.rows()
    assert rows[0]["question"] == "What is murder?"
    assert rows[0]["chunks"] == [
        {"id": "IPC_302", "score": 0.83},
        {"id": "S2", "score": 0.41},
        {"id": "S3", "score": None},
    ]
    assert (rows[0]["decision"], rows[0]["score"], rows[0]["answer"]) == ("normal", 0.83, "Murder is ... [IPC_302]")
    assert rows[0]["timestamp"].endswith("+00:00")
    assert rows[1] == {**rows[1], "question": "Ünïcödé — 法律?", "chunks": [], "score": None, "answer": None}

    # The file is a plain SQLite database in WAL mode with the documented table.
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        columns = [row[1] for row in conn.execute("PRAGMA table_info(query_log)")]
        assert columns == [
            "id", "question", "chunks", "decision", "score", "answer", "timestamp", "attribution_coverage",
            "removed_sentences", "latency_ms", "feedback_correct", "feedback_note", "feedback_at",
        ]  # fmt: skip
        stored = conn.execute("SELECT chunks FROM query_log WHERE id = 1").fetchone()[0]
        assert json.loads(stored)[0] == {"id": "IPC_302", "score": 0.83}
    finally:
        conn.close()


def test_reopening_appends_and_keeps_earlier_rows(tmp_path: Path) -> None:
    path = tmp_path / "log.db"
    with QueryLog(path) as log:
        _fill(log, 3)
    with QueryLog(str(path)) as log:
        log.record("later", {"A": 0.5, "B": None}, "weak_evidence", 0.5)
        assert len(log) == 4
        assert log.rows()[-1]["chunks"] == [{"id": "A", "score": 0.5}, {"id": "B", "score": None}]
        assert log.rows(limit=2)[1]["question"] == "question 1"


def test_retrieval_decision_as_decision(tmp_path: Path) -> None:
    decision = evaluate_retrieval(CHUNKS[:2], weak_score=0.9)
    with QueryLog(tmp_path / "log.db") as log:
        log.record("q", CHUNKS[:2], decision)
        log.record("q", CHUNKS[:2], decision, score=0.1)
        rows = log.rows()
    assert (rows[0]["decision"], rows[0]["score"]) == ("weak_evidence", 0.83)
    assert rows[1]["score"] == 0.1


def test_summary_counts_and_distribution(tmp_path: Path) -> None:
    with QueryLog(tmp_path / "log.db") as log:
        empty = log.summary()
        _fill(log, 9)
        log.record("no score", [], "normal")
        summary = log.summary()
    assert empty == {
        "total": 0,
        "decisions": {},
        "score": {
            "count": 0,
            "mean": None,
            "min": None,
            "max": None,
            "p25": None,
            "p50": None,
            "p75": None,
            "p90": None,
            "p95": None,
            "p99": None,
        },
    }
    scores = np.arange(9) / 10
    assert summary["total"] == 10
    assert summary["decisions"] == {"no_evidence": 5, "normal": 5}
    dist = summary["score"]
    assert dist["count"] == 9
    assert dist["mean"] == pytest.approx(0.4)
    assert (dist["min"], dist["max"]) == (0.0, 0.8)
    for key, q in (("p25", 0.25), ("p50", 0.5), ("p75", 0.75), ("p90", 0.9), ("p95", 0.95), ("p99", 0.99)):
        assert dist[key] == pytest.approx(float(np.quantile(scores, q)))
    assert json.loads(json.dumps(summary)) == summary


def test_bad_records_raise_and_write_nothing(tmp_path: Path) -> None:
    with QueryLog(tmp_path / "log.db") as log:
        with pytest.raises(TypeError, match="question must be a str"):
            log.record(None, [], "normal")  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="decision must be a non-empty str"):
            log.record("q", [], "")
        with pytest.raises(ValueError, match="score must be finite; got nan"):
            log.record("q", [], "normal", score=float("nan"))
        with pytest.raises(TypeError, match="score must be a number or None; got str"):
            log.record("q", [], "normal", score="0.5")  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="answer must be a str or None"):
            log.record("q", [], "normal", answer=3)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match=r"chunks\[0\] has no 'content'"):
            log.record("q", [{"score": 0.5}], "normal")  # neither an id + score nor a chunk
        with pytest.raises(ValueError, match=r"chunks\['A'\] must be finite"):
            log.record("q", {"A": float("inf")}, "normal")
        assert len(log) == 0


def test_many_threads_append_every_row(tmp_path: Path) -> None:
    threads, per_thread = 8, 150
    path = tmp_path / "log.db"
    with QueryLog(path) as log:
        barrier = threading.Barrier(threads)
        ids: list[int] = []
        lock = threading.Lock()

        def work(t: int) -> None:
            barrier.wait()
            mine = [log.record(f"t{t} q{i}", CHUNKS[:1], "normal", score=t) for i in range(per_thread)]
            with lock:
                ids.extend(mine)

        workers = [threading.Thread(target=work, args=(t,)) for t in range(threads)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        assert len(log) == threads * per_thread
        assert sorted(ids) == list(range(1, threads * per_thread + 1))
        assert log.summary()["score"]["mean"] == pytest.approx((threads - 1) / 2)


def test_several_logs_on_one_file_from_threads(tmp_path: Path) -> None:
    path = tmp_path / "log.db"
    logs = [QueryLog(path, timeout=30) for _ in range(4)]
    try:

        def work(log: QueryLog) -> None:
            for i in range(100):
                log.record(f"q{i}", [], "normal")

        workers = [threading.Thread(target=work, args=(log,)) for log in logs]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        assert all(len(log) == 400 for log in logs)
    finally:
        for log in logs:
            log.close()


def test_corrupt_copy_gives_a_clear_error_and_the_original_keeps_its_rows(tmp_path: Path) -> None:
    original = tmp_path / "log.db"
    with QueryLog(original) as log:
        _fill(log, 20)
    copy = tmp_path / "copy.db"
    shutil.copy(original, copy)
    data = bytearray(copy.read_bytes())
    data[:16] = b"not sqlite at al"
    copy.write_bytes(bytes(data))
    with pytest.raises(QueryLogError, match=r"cannot open query log '.*copy\.db': the file is not a valid SQLite"):
        QueryLog(copy)
    assert copy.read_bytes() == bytes(data)  # left untouched
    with QueryLog(original) as log:
        assert len(log) == 20
        assert log.rows()[19]["question"] == "question 19"


def test_a_row_another_program_wrote_without_json_is_named(tmp_path: Path) -> None:
    # rows(), `export`, /v1/history raised a bare JSONDecodeError naming neither the row nor the column.
    path = tmp_path / "log.db"
    with QueryLog(path) as log:
        _fill(log, 2)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE query_log SET chunks = 'not json' WHERE id = 2")
    with QueryLog(path, read_only=True) as log:
        with pytest.raises(QueryLogError, match=r"row 2 of the query log holds no JSON in 'chunks'"):
            log.rows()
        assert [row["id"] for row in log.rows(limit=1)] == [1]  # the rows before it still read
        with pytest.raises(ValueError, match=r"row 2 of the query log holds no JSON in 'chunks'"):
            log.export(tmp_path / "out.parquet")


def test_damaged_pages_are_refused_at_open_and_read_only_reads_what_remains(tmp_path: Path) -> None:
    path = tmp_path / "log.db"
    with QueryLog(path) as log:
        _fill(log, 60)
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    data[page:] = b"\xff" * (len(data) - page)  # keep the schema page, wreck the rest
    path.write_bytes(bytes(data))
    with pytest.raises(QueryLogError, match=r"log\.db'.*corrupt.*read_only=True"):
        QueryLog(path)
    assert path.read_bytes() == bytes(data)  # left untouched
    with QueryLog(path, read_only=True) as log:
        with pytest.raises(QueryLogError, match=r"cannot read query log .* corrupt"):
            log.summary()
        with pytest.raises(QueryLogError, match="opened read-only"):
            log.record("q", [], "normal")


def test_a_damaged_tail_keeps_earlier_rows_readable(tmp_path: Path) -> None:
    path = tmp_path / "log.db"
    with QueryLog(path) as log:
        _fill(log, 400)
    data = bytearray(path.read_bytes())
    page_size = int.from_bytes(data[16:18], "big")
    data[-page_size:] = b"\xff" * page_size  # wreck the last page only
    path.write_bytes(bytes(data))
    with QueryLog(path, read_only=True) as log:
        rows = log.rows(limit=5)
    assert [r["question"] for r in rows] == [f"question {i}" for i in range(5)]


def test_not_a_database_or_not_a_query_log(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("hello, this is not a database\n" * 20)
    with pytest.raises(QueryLogError, match=r"notes\.txt'.*not a valid SQLite database"):
        QueryLog(text)
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE query_log (id INTEGER, text TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(QueryLogError, match="not a sufficient_context query log"):
        QueryLog(other)
    with pytest.raises(QueryLogError, match="unable to open database file"):
        QueryLog(tmp_path / "missing-dir" / "log.db")


def test_a_row_blocked_past_the_deadline_is_spilled_and_reported_not_lost(tmp_path: Path) -> None:
    path = tmp_path / "log.db"
    log = QueryLog(path, timeout=0.05, write_deadline=0.2)
    try:
        _fill(log, 5)
        blocker = sqlite3.connect(path, isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")  # holds the write lock past the deadline
        try:
            with pytest.warns(QueryLogWarning, match=r"log\.db'.*locked by another connection.*spill\.jsonl"):
                assert log.record("blocked", [{"id": "a", "score": 0.5}], "normal") == -1
            # a verdict on a row is kept the same way: feedback says False instead of raising
            with pytest.warns(QueryLogWarning, match=r"the verdict on row 2 was appended to .*spill\.jsonl"):
                assert log.feedback(2, False, "wrong") is False
            assert len(log) == 5  # WAL: reading still works under a writer's lock
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
        spilled = [json.loads(line) for line in (tmp_path / "log.db.spill.jsonl").read_text().splitlines()]
        assert [(r.get("question"), r.get("decision")) for r in spilled] == [("blocked", "normal"), (None, None)]
        assert json.loads(spilled[0]["chunks"]) == [{"id": "a", "score": 0.5}]
        assert (spilled[1]["log_id"], spilled[1]["feedback_correct"], spilled[1]["feedback_note"]) == (
            2,
            False,
            "wrong",
        )
        assert log.feedback(2, True) is True
        log.record("after", [], "normal")
        assert [row["question"] for row in log.rows()][-2:] == ["question 4", "after"]
    finally:
        log.close()


def test_a_writer_queued_behind_another_of_its_process_keeps_its_deadline(tmp_path: Path) -> None:
    # A writer of this process waiting in SQLite (here for an hour) held the file's turn: every other writer of the
    # file waited for it first, so with N queued writers `record` took about N times its write deadline.
    path = tmp_path / "log.db"
    patient = QueryLog(path, timeout=3600, write_deadline=0)
    hasty = QueryLog(path, timeout=0.05, write_deadline=0.05)
    blocker = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    blocker.execute("BEGIN IMMEDIATE")
    ids: list[int] = []
    waiting = threading.Thread(target=lambda: ids.append(patient.record("patient", [], "normal")))
    try:
        waiting.start()
        while not file_lock(str(path)).locked():  # the patient writer holds the turn, blocked in SQLite
            time.sleep(0.01)
        with pytest.warns(QueryLogWarning, match=r"locked by another connection.*spill\.jsonl"):
            assert hasty.record("hasty", [], "normal") == -1
        with pytest.warns(QueryLogWarning, match=r"the verdict on row 1 was appended"):
            assert hasty.feedback(1, True) is False
        assert waiting.is_alive()  # spilled while the other writer still waits: not after it
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
        waiting.join()
    assert ids == [1]
    spilled = [json.loads(line) for line in (tmp_path / "log.db.spill.jsonl").read_text().splitlines()]
    assert [r.get("question") for r in spilled] == ["hasty", None]
    assert [row["question"] for row in hasty.rows()] == ["patient"]
    patient.close()
    hasty.close()


def test_replay_spill_writes_back_spilled_rows_and_verdicts_once(tmp_path: Path) -> None:
    # The spill file kept rows and verdicts, but nothing wrote them back: an operator had to merge it by hand.
    path = tmp_path / "log.db"
    spill_file = tmp_path / "log.db.spill.jsonl"
    with QueryLog(path, timeout=0.05, write_deadline=0.1) as log:
        assert log.replay_spill() == {"rows": 0, "verdicts": 0, "superseded": 0, "already_replayed": 0, "kept": 0}
        _fill(log, 3)
        blocker = sqlite3.connect(path, isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")
        try:
            with pytest.warns(QueryLogWarning, match="spill"):
                spilled = [
                    log.record("spilled 1", [{"id": "a", "score": 0.5}], "normal", score=0.7),
                    log.record("spilled 2", [], "refused", answer="x\u00e9"),
                    log.feedback(1, False, "wrong"),
                    log.feedback(2, True),  # superseded below by a later verdict
                    log.feedback(99, True),  # no such row: kept in the file
                ]
            assert spilled == [-1, -1, False, False, False]
            with pytest.raises(QueryLogError, match="locked"):
                log.replay_spill()  # the log is still locked: nothing written, nothing lost
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
        assert log.feedback(2, False, "later") is True
        with spill_file.open("a", encoding="utf-8") as fh:
            fh.write('{"question": "cut sho\n[1, 2]\n')  # a line cut short, and a line that is no spilled row
        before = spill_file.read_bytes()
        spilled_at = json.loads(before.splitlines()[0])["timestamp"]
        counts = log.replay_spill()
        assert counts == {"rows": 2, "verdicts": 1, "superseded": 1, "already_replayed": 0, "kept": 3}
        rows = log.rows()
        assert [(r["question"], r["decision"], r["score"], r["answer"]) for r in rows[3:]] == [
            ("spilled 1", "normal", 0.7, None),
            ("spilled 2", "refused", None, "x\u00e9"),
        ]
        assert rows[3]["timestamp"] == spilled_at
        assert rows[3]["chunks"] == [{"id": "a", "score": 0.5}]
        assert (rows[0]["feedback_correct"], rows[0]["feedback_note"]) == (False, "wrong")
        assert (rows[1]["feedback_correct"], rows[1]["feedback_note"]) == (False, "later")  # the later one stays
        kept = spill_file.read_text(encoding="utf-8").splitlines()
        assert len(kept) == 3
        assert json.loads(kept[0])["log_id"] == 99
        assert kept[1:] == ['{"question": "cut sho', "[1, 2]"]
        # Interrupted after its commit, before the file was rewritten: a second replay writes nothing twice.
        spill_file.write_bytes(before)
        again = log.replay_spill()
        assert again == {"rows": 0, "verdicts": 0, "superseded": 0, "already_replayed": 4, "kept": 3}
        assert len(log) == 5
    # The table that remembers replayed lines is the log's own: it reopens without shared_database.
    with QueryLog(path) as reopened:
        assert len(reopened) == 5
    with pytest.raises(QueryLogError, match="read-only"):
        QueryLog(path, read_only=True).replay_spill()


def _spill_past_a_file_size_limit(path: str, limit: int) -> None:
    # A full disk, for real: the file-size limit cuts the spill line short (a short write, then EFBIG).
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))
    with QueryLog(path, timeout=0.01, write_deadline=0.01) as log:  # an up-to-date log opens under the lock
        try:
            log.record("cut short", [], "normal", answer="y" * (4 * limit))
        except QueryLogError as exc:
            os._exit(0 if "could not be spilled either" in str(exc) else 3)
    os._exit(4)


def test_a_spill_line_cut_short_does_not_swallow_the_next_row(tmp_path: Path) -> None:
    # The next spilled row used to be appended to the cut line: both were one unreadable line.
    path = str(tmp_path / "log.db")
    QueryLog(path).close()
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        child = multiprocessing.get_context("fork").Process(target=_spill_past_a_file_size_limit, args=(path, 50_000))
        child.start()
        child.join()
        assert child.exitcode == 0
        assert os.path.getsize(f"{path}.spill.jsonl") == 50_000  # the cut line, without its newline
        with QueryLog(path, timeout=0.01, write_deadline=0.01) as log, pytest.warns(QueryLogWarning, match="spill"):
            assert log.record("next", [{"id": "a", "score": 0.5}], "normal") == -1
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    lines = (tmp_path / "log.db.spill.jsonl").read_text(encoding="utf-8").split("\n")
    assert len(lines) == 3
    assert lines[-1] == ""
    assert lines[0].startswith('{"spilled_at"')
    assert len(lines[0]) == 50_000  # one bad line, alone
    assert json.loads(lines[1])["question"] == "next"


@pytest.mark.filterwarnings("ignore::sufficient_context.querylog.QueryLogWarning")
def test_threads_spilling_long_rows_at_once_write_whole_lines(tmp_path: Path) -> None:
    path = tmp_path / "log.db"
    logs = [QueryLog(path, timeout=0.01, write_deadline=0.01) for _ in range(6)]
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")

    def spill_rows(i: int) -> None:
        for j in range(4):
            assert logs[i].record(f"q{i}-{j}", [], "normal", answer=chr(65 + i) * 300_000) == -1

    try:
        threads = [threading.Thread(target=spill_rows, args=(i,)) for i in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
        for log in logs:
            log.close()
    rows = [json.loads(line) for line in (tmp_path / "log.db.spill.jsonl").read_text(encoding="utf-8").splitlines()]
    assert sorted(r["question"] for r in rows) == sorted(f"q{i}-{j}" for i in range(6) for j in range(4))
    assert all(r["answer"] == r["answer"][0] * 300_000 for r in rows)


def test_a_lock_shorter_than_the_deadline_is_waited_out(tmp_path: Path) -> None:
    path = tmp_path / "log.db"
    with QueryLog(path, timeout=0.01, write_deadline=10) as log:
        blocker = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        blocker.execute("BEGIN IMMEDIATE")
        release = threading.Timer(0.3, lambda: blocker.execute("COMMIT"))
        release.start()
        assert log.record("retried", [], "normal") == 1  # busy attempts retried with backoff
        release.join()
        blocker.close()


def test_busy_timeout_waits_for_a_short_lock(tmp_path: Path) -> None:
    path = tmp_path / "log.db"
    with QueryLog(path, timeout=10) as log:
        blocker = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        blocker.execute("BEGIN IMMEDIATE")
        release = threading.Timer(0.2, lambda: blocker.execute("COMMIT"))
        release.start()
        start = time.perf_counter()
        log.record("waited", [], "normal")
        waited = time.perf_counter() - start
        release.join()
        blocker.close()
        assert waited >= 0.1
        assert len(log) == 1


def test_close_context_manager_repr_and_pickle(tmp_path: Path) -> None:
    path = tmp_path / "log.db"
    log = QueryLog(path, timeout=2.5)
    assert repr(log) == f"QueryLog({str(path)!r}, timeout=2.5)"
    _fill(log, 2)
    clone = pickle.loads(pickle.dumps(log))
    try:
        assert repr(clone) == repr(log)
        assert len(clone) == 2  # reopened the same file
        clone.record("from the clone", [], "normal")
        assert len(log) == 3
    finally:
        clone.close()
    log.close()
    log.close()  # idempotent
    assert log.closed
    with pytest.raises(QueryLogError, match="is closed"):
        log.record("q", [], "normal")
    with pytest.raises(QueryLogError, match="is closed"):
        log.summary()


def test_memory_log() -> None:
    with QueryLog(":memory:") as log:
        _fill(log, 3)
        assert log.summary()["total"] == 3


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="timeout must be >= 0"):
        QueryLog(":memory:", timeout=-1)
    with pytest.raises(TypeError, match="timeout must be a finite number"):
        QueryLog(":memory:", timeout=float("inf"))


# ---------------------------------------------------------------------------------------------------------------------
# Decision objects, id + score chunks, feedback, report, migration
# ---------------------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Envelope:
    """The attributes QueryLog reads from a pipeline envelope (GroundedAnswer)."""

    status: str
    confidence: float
    answer: str
    attribution_coverage: float | None
    removed_sentences: tuple[str, ...]
    elapsed_ms: float


def test_record_accepts_envelopes_results_and_coverage(tmp_path: Path) -> None:
    chunks = [{"id": "IPC_420_0", "content": "Whoever cheats shall be punished.", "score": 0.8}]
    result = sc.SufficientContextChecker().check_sufficiency("punishment for cheating", chunks)
    coverage = sc.ClaimCoverage().check_answer("Whoever cheats shall be punished [IPC_420_0].", chunks)
    envelope = Envelope("answered", 0.75, "Yes [S1].", 0.5, ("The moon is cheese.",), 12.5)
    real = sc.GroundedAnswerer(min_chunks=1).answer("punishment for cheating", chunks)
    with QueryLog(tmp_path / "log.db") as log:
        log.record("q1", chunks, envelope)
        log.record("q2", chunks, result)
        log.record("q3", chunks, coverage)
        log.record("q4", chunks, real)
        log.record("q5", [], "refused", attribution_coverage=1.0, removed_sentences=["x"], latency_ms=3.0)
        rows = log.rows()
    assert rows[0]["decision"] == "answered"
    assert (rows[0]["score"], rows[0]["answer"], rows[0]["attribution_coverage"]) == (0.75, "Yes [S1].", 0.5)
    assert (rows[0]["removed_sentences"], rows[0]["latency_ms"]) == (["The moon is cheese."], 12.5)
    assert (rows[1]["decision"], rows[1]["score"]) == (result.level.value, result.score)
    assert (rows[2]["decision"], rows[2]["score"], rows[2]["attribution_coverage"]) == ("grounded", 1.0, 1.0)
    assert rows[3]["decision"] == real.status
    assert rows[3]["latency_ms"] == pytest.approx(real.elapsed_ms)
    assert (rows[4]["removed_sentences"], rows[4]["latency_ms"]) == (["x"], 3.0)


def test_chunks_given_as_id_and_score_only(tmp_path: Path) -> None:
    @dataclass
    class Ref:
        id: str
        score: float

    with QueryLog(tmp_path / "log.db") as log:
        log.record("a", [{"id": "x", "score": 0.8}, {"id": "y"}], "normal")
        log.record("b", [("x", 0.5), ("y", None)], "normal")
        log.record("c", [Ref("x", 0.25)], "normal")
        stored = [row["chunks"] for row in log.rows()]
        with pytest.raises(ValueError, match=r"chunks\[1\]\.score must be finite"):
            log.record("d", [{"id": "x", "score": 0.1}, {"id": "y", "score": float("nan")}], "normal")
        assert len(log) == 3
    assert stored == [
        [{"id": "x", "score": 0.8}, {"id": "y", "score": None}],
        [{"id": "x", "score": 0.5}, {"id": "y", "score": None}],
        [{"id": "x", "score": 0.25}],
    ]


def test_feedback_and_report(tmp_path: Path) -> None:
    with QueryLog(tmp_path / "log.db") as log:
        a = log.record("slow one", [], "answered", score=0.9, attribution_coverage=1.0, latency_ms=50.0)
        b = log.record("weak one", [], "answered_with_caveat", score=0.2, attribution_coverage=0.5, latency_ms=5.0)
        c = log.record("refused", [], "no_evidence", score=0.0, latency_ms=1.0)
        log.record("other", [], "custom")
        log.feedback(a, True)
        log.feedback(b, True, note="fine")
        log.feedback(b, False, note="wrong after all")  # the last verdict wins
        log.feedback(c, True)
        with pytest.raises(KeyError, match="row_id 99"):
            log.feedback(99, True)
        with pytest.raises(TypeError, match="correct must be a bool"):
            log.feedback(a, 1)  # type: ignore[arg-type]
        report = log.report(slowest=2)
        rows = log.rows()
    assert rows[1]["feedback_correct"] is False
    assert rows[1]["feedback_note"] == "wrong after all"
    assert rows[3]["feedback_correct"] is None
    assert report["total"] == 4
    assert (report["answered"], report["refused"]) == (2, 1)
    assert report["mean_attribution_coverage"] == 0.75
    assert report["feedback"] == {"count": 3, "correct": 2, "accuracy": 2 / 3}
    assert [r["question"] for r in report["slowest"]] == ["slow one", "weak one"]
    assert [r["question"] for r in report["weakest"]] == ["refused", "weak one"]
    assert json.loads(json.dumps(report)) == report


def test_bad_extra_values_are_named(tmp_path: Path) -> None:
    with QueryLog(tmp_path / "log.db") as log:
        with pytest.raises(ValueError, match=r"attribution_coverage must be in \[0, 1\]"):
            log.record("q", [], "normal", attribution_coverage=1.5)
        with pytest.raises(ValueError, match="attribution_coverage must be finite"):
            log.record("q", [], "normal", attribution_coverage=float("nan"))
        with pytest.raises(ValueError, match="latency_ms must be >= 0"):
            log.record("q", [], "normal", latency_ms=-1.0)
        with pytest.raises(TypeError, match=r"removed_sentences\[1\] must be str"):
            log.record("q", [], "normal", removed_sentences=["a", 2])  # type: ignore[list-item]
        with pytest.raises(TypeError, match="decision must be"):
            log.record("q", [], object())
        assert len(log) == 0


def test_a_log_from_the_first_release_gains_the_new_columns(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as conn:
        conn.execute(
            "CREATE TABLE query_log (id INTEGER PRIMARY KEY AUTOINCREMENT, question TEXT NOT NULL, chunks TEXT NOT "
            "NULL, decision TEXT NOT NULL, score REAL, answer TEXT, timestamp TEXT NOT NULL)"
        )
        conn.execute(
            "INSERT INTO query_log (question, chunks, decision, score, answer, timestamp) "
            "VALUES ('old', '[]', 'normal', 0.5, NULL, '2026-01-01T00:00:00+00:00')"
        )
    conn.close()
    with QueryLog(path) as log:
        row_id = log.record("new", [], "answered", latency_ms=2.0)
        log.feedback(1, True)
        rows = log.rows()
    assert [r["question"] for r in rows] == ["old", "new"]
    assert rows[0]["feedback_correct"] is True
    assert rows[1]["id"] == row_id
    assert rows[1]["latency_ms"] == 2.0


# ---------------------------------------------------------------------------------------------------------------------
# Hardening: contention, foreign files, fork, bad text, odd paths
# ---------------------------------------------------------------------------------------------------------------------
def test_eight_logs_on_one_file_from_threads_lose_no_row(tmp_path: Path) -> None:
    path = tmp_path / "log.db"
    for run in range(2):
        logs = [QueryLog(path, timeout=0.01) for _ in range(8)]  # short busy waits: the retries do the work
        barrier = threading.Barrier(len(logs))

        def work(log: QueryLog, t: int, run: int = run, barrier: threading.Barrier = barrier) -> None:
            barrier.wait()
            for i in range(500):
                assert log.record(f"r{run} t{t} q{i}", [], "normal") > 0

        workers = [threading.Thread(target=work, args=(log, t)) for t, log in enumerate(logs)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        for log in logs:
            log.close()
        with QueryLog(path) as log:
            assert len(log) == 8 * 500 * (run + 1)
    assert not (tmp_path / "log.db.spill.jsonl").exists()


def _write_rows(path: str, worker: int) -> None:
    with QueryLog(path, timeout=0.01) as log:
        for i in range(500):
            log.record(f"p{worker} q{i}", [], "normal")


def test_four_processes_on_one_file_lose_no_row(tmp_path: Path) -> None:
    path = str(tmp_path / "log.db")
    QueryLog(path).close()
    context = multiprocessing.get_context("fork")
    workers = [context.Process(target=_write_rows, args=(path, w)) for w in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert [w.exitcode for w in workers] == [0, 0, 0, 0]
    with QueryLog(path) as log:
        questions = [row["question"] for row in log.rows()]
    assert len(questions) == 2000
    assert len(set(questions)) == 2000


def _open_at_once_and_write(path: str, start: threading.Barrier, worker: int, errors: multiprocessing.Queue) -> None:
    try:
        start.wait()
        with QueryLog(path) as log:
            for i in range(20):
                log.record(f"p{worker} q{i}", [], "normal")
    except BaseException as exc:
        errors.put(repr(exc))
        raise


@pytest.mark.parametrize("existing", ["none", "first_release"])
def test_processes_opening_a_new_or_older_log_at_once_all_start(tmp_path: Path, existing: str) -> None:
    # Two `serve` workers starting together: each used to find no table (or old columns), and all but one failed
    # with "table query_log already exists" / "duplicate column name".
    context = multiprocessing.get_context("fork")
    for trial in range(4):
        path = str(tmp_path / f"log{trial}.db")
        if existing == "first_release":
            with sqlite3.connect(path) as conn:
                conn.execute(
                    "CREATE TABLE query_log (id INTEGER PRIMARY KEY AUTOINCREMENT, question TEXT NOT NULL, chunks TEXT "
                    "NOT NULL, decision TEXT NOT NULL, score REAL, answer TEXT, timestamp TEXT NOT NULL)"
                )
            conn.close()
        start, errors = context.Barrier(6), context.Queue()
        workers = [context.Process(target=_open_at_once_and_write, args=(path, start, w, errors)) for w in range(6)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        messages = [errors.get() for w in workers if w.exitcode != 0]
        assert messages == []
        with QueryLog(path) as log:
            assert sorted(row["question"] for row in log.rows()) == sorted(
                f"p{w} q{i}" for w in range(6) for i in range(20)
            )
            assert log._connection().execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_another_applications_database_is_refused_unless_shared(tmp_path: Path) -> None:
    path = tmp_path / "app.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE users (name TEXT)")
    conn.close()
    before = path.read_bytes()
    with pytest.raises(QueryLogError, match=r"holds other tables \(users\).*shared_database=True"):
        QueryLog(path)
    assert path.read_bytes() == before
    with QueryLog(path, shared_database=True) as log:
        log.record("q", [], "normal")
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # left as it was
        assert conn.execute("SELECT COUNT(*) FROM users").fetchone()[0] == 0
    conn.close()


def test_busy_timeout_is_clamped_to_what_sqlite_reads(tmp_path: Path) -> None:
    with QueryLog(tmp_path / "log.db", timeout=1e9) as log:  # 1e12 ms would read as 0: "never wait"
        assert log._connection().execute("PRAGMA busy_timeout").fetchone()[0] == 2**31 - 1


def test_a_forked_child_opens_its_own_connection(tmp_path: Path) -> None:
    path = tmp_path / "log.db"
    with QueryLog(path) as log:
        log.record("parent before", [], "normal")
        pid = os.fork()
        if pid == 0:  # the child: writes through the inherited object, then leaves without cleanup
            code = 0
            try:
                log.record("child", [], "normal")
                code = 0 if log._conn is not None and log._orphans else 3
            except BaseException:
                code = 4
            os._exit(code)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
        log.record("parent after", [], "normal")
        assert [row["question"] for row in log.rows()] == ["parent before", "child", "parent after"]


def test_lone_surrogates_are_stored_with_replacement_characters(tmp_path: Path) -> None:
    with QueryLog(tmp_path / "log.db") as log:
        log.record("bad \ud800 question", [{"id": "x\udfff", "score": 0.5}], "normal", answer="a\ud83d")
        log.feedback(1, True, note="n\udc00")
        row = log.rows()[0]
    assert row["question"] == "bad \ufffd question"
    assert row["chunks"] == [{"id": "x\ufffd", "score": 0.5}]
    assert row["answer"] == "a\ufffd"
    assert row["feedback_note"] == "n\ufffd"


def test_a_log_in_a_folder_where_sqlite_cannot_create_files_is_read_with_read_only(tmp_path: Path) -> None:
    # A read-only folder (a read-only volume, an archive): SQLite cannot create the WAL log's -shm file there, and
    # even read_only=True failed with "unable to open database file". A dangling -shm link stands in for the
    # read-only folder when the tests run as root (who may create files anywhere).
    folder = tmp_path / "archive"
    folder.mkdir()
    path = folder / "log.db"
    with QueryLog(path) as log:
        log.record("kept", [{"id": "a", "score": 0.5}], "normal")
    (folder / "log.db-shm").symlink_to(tmp_path / "missing" / "shm")
    folder.chmod(0o555)
    try:
        with pytest.raises(QueryLogError, match=r"folder must exist and be writable.*read_only=True"):
            QueryLog(path)
        with QueryLog(path, read_only=True) as log:
            assert [row["question"] for row in log.rows()] == ["kept"]
    finally:
        folder.chmod(0o755)
    (folder / "log.db-wal").write_bytes(b"\0" * 32)  # rows may wait in a -wal file: never read past it
    with pytest.raises(QueryLogError, match="unable to open"):
        QueryLog(path, read_only=True)


def test_a_path_that_is_not_a_regular_file_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(QueryLogError, match="not a regular file"):
        QueryLog(fifo)
    with pytest.raises(QueryLogError, match="not a regular file"):
        QueryLog(tmp_path)  # a directory


def test_paths_sqlite_would_not_keep_and_out_of_range_numbers_are_named(tmp_path: Path) -> None:
    # "" opens a database SQLite deletes on close: every row would be lost without a word
    with pytest.raises(ValueError, match="path must name a file"):
        QueryLog("")
    with pytest.raises(ValueError, match="path must not contain a NUL"):
        QueryLog(str(tmp_path / "a\x00b"))
    with pytest.raises(TypeError, match=r"path must be a str or os\.PathLike"):
        QueryLog(3)  # type: ignore[arg-type]
    log = QueryLog(tmp_path / "q.db")
    row = log.record("q?", {"a": 0.5}, "answered")
    with pytest.raises(ValueError, match=r"limit must be an int in \[0, "):
        log.rows(-1)
    with pytest.raises(TypeError, match="limit must be an int; got bool"):
        log.rows(True)
    with pytest.raises(ValueError, match="slowest must be an int in"):
        log.report(2**70)
    with pytest.raises(KeyError, match="no row with id"):
        log.feedback(2**70, True)
    with pytest.raises(TypeError, match="chunks must be a sequence of chunks or a mapping"):
        log.record("q", None, "answered")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"chunks\['a'\] must be finite; got an integer too large"):
        log.record("q", {"a": 10**400}, "answered")
    assert [r["id"] for r in log.rows()] == [row]
    # an int id in an (id, score) pair, as chunks accept one
    log.record("q", [(1, 0.5), ("b", None)], "answered")
    assert log.rows()[-1]["chunks"] == [{"id": "1", "score": 0.5}, {"id": "b", "score": None}]
