"""The Ray Data engine (sufficient_context.scale) on a real local Ray (2 CPUs, one per session): its results equal
the local runner's row by row, to the last bit, and its summary equals the local summary JSON."""

from __future__ import annotations

import json
import os
import pickle
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import ray

import sufficient_context as sc
from sufficient_context import scale
from sufficient_context._samples import SAMPLE_ANSWER, SAMPLE_CHUNKS, SAMPLE_QUERY
from sufficient_context.evaluation import evaluate_file, evaluate_rows, read_rows
from sufficient_context.evaluation.rows import parse_row

DATA = Path(__file__).resolve().parents[1] / "data" / "claims_sample.jsonl"

# Ray 2.60's DataContext warns about its own deprecated fields whenever it is constructed (its dataclass __init__
# sets them all); nothing of ours sets them. Only warnings raised in ray.data.context are ignored.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:ray.data.context")


@pytest.fixture(scope="session")
def ray_address() -> Iterator[str]:
    """One local Ray for the whole session. Under the CI's ASan run LD_PRELOAD is inherited by the GCS, the raylet
    and every worker: the workers need the ASan runtime loaded first to import the ASan extension, and Ray's own
    binaries run with it preloaded."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield str(ray.get_runtime_context().gcs_address)
    ray.shutdown()


def _sample_lines() -> list[bytes]:
    """A SQuAD-2-like file built from the repository's sample: each query with its own context (sufficient) and
    with another row's context (insufficient, as SQuAD 2's retrieval misses), the labelled claim rows, cited
    answers, Unicode text, and malformed lines (bad JSON, invalid UTF-8, an empty query, duplicate chunk ids)."""
    source = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()]
    rows: list[dict[str, Any]] = []
    for i, row in enumerate(source[:40]):
        other = source[(i + 7) % len(source)]
        rows.append({"id": f"s{i}", "query": row["query"], "contexts": row["contexts"], "label": "sufficient",
                     "kind": "answerable"})  # fmt: skip
        rows.append({"id": f"m{i}", "query": row["query"], "contexts": other["contexts"], "label": "insufficient",
                     "kind": "retrieval_miss"})  # fmt: skip
    rows.extend(source)
    rows.append({"id": "cited", "query": SAMPLE_QUERY, "contexts": SAMPLE_CHUNKS, "answer": SAMPLE_ANSWER,
                 "label": "unsupported", "kind": "cited"})  # fmt: skip
    rows.append({"id": "unicode", "query": "Wann wurde der Kölner Dom vollendet? 日本", "label": True,
                 "contexts": ["Der Kölner Dom wurde 1880 vollendet.", "東京は日本の首都です。"]})  # fmt: skip
    lines = [json.dumps(r, ensure_ascii=False).encode("utf-8") for r in rows]
    lines.insert(5, b"{not json")
    lines.insert(90, b'{"query": "caf\xe9", "contexts": ["x"]}')  # Latin-1, not UTF-8
    lines.insert(150, json.dumps({"query": "", "contexts": []}).encode())
    lines.insert(200, b"")  # blank: skipped by both engines, but counted in line numbers
    dup = {"query": "q", "contexts": [{"id": "a", "content": "x"}, {"id": "a", "content": "y"}]}
    lines.append(json.dumps(dup).encode())
    return lines


def _local(path: Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    records: list[dict[str, Any]] = []
    summary = evaluate_rows(read_rows(path), threads=2, on_row=records.append)
    return records, summary.to_dict()


def _rows(results: Any) -> list[dict[str, Any]]:
    tables = ray.get(results.to_arrow_refs())
    return [row for table in tables for row in table.to_pylist()]


def test_ray_results_equal_local_eval_row_by_row_and_bad_rows_are_reported(ray_address: str, tmp_path: Path) -> None:
    path = tmp_path / "turns.jsonl"
    path.write_bytes(b"\n".join(_sample_lines()) + b"\n")
    records, summary = _local(path)
    assert summary["bad_rows"] == 4
    assert summary["claims"]["labelled"] == 121
    # Small batches, so that rows travel through many batches and blocks.
    results = scale.evaluate(scale.read(path), batch_size=32).materialize()
    # Ray Data does not keep row order across actors (it did not under load): rows carry their line to sort on.
    rows = sorted(_rows(results), key=lambda r: r["line"])
    assert [r["line"] for r in rows] == sorted({r["line"] for r in rows})  # every line once
    errors = {r["line"]: r["error"] for r in rows if r["error"] is not None}
    assert set(errors) == {6, 91, 151, len(rows) + 1}
    assert errors[6].startswith("not valid JSON")
    assert errors[91].startswith("not UTF-8")
    assert "duplicate" in errors[len(rows) + 1]
    assert all(r["sufficiency_level"] is None for r in rows if r["error"] is not None)
    got = [record for record in map(scale.record_of, rows) if record is not None]
    assert len(got) == len(records) == summary["rows"]
    for mine, theirs in zip(got, records):
        assert mine == theirs
        # == on floats is bit equality here (no NaN); say it in bits as well
        assert mine["sufficiency"]["score"].hex() == theirs["sufficiency"]["score"].hex()
    assert any(r.get("claims", {}).get("attribution_coverage") is not None for r in got)  # the cited path ran
    assert scale.summarize(results) == summary


def test_parquet_from_a_query_log_evaluates_as_locally(ray_address: str, tmp_path: Path) -> None:
    texts = {c["id"]: c["content"] for c in SAMPLE_CHUNKS}
    with sc.QueryLog(tmp_path / "log.db") as log:
        log.record(SAMPLE_QUERY, [(c["id"], 0.9) for c in SAMPLE_CHUNKS], "answered", 0.7, SAMPLE_ANSWER)
        log.record("Is cheating under Section 420 bailable?", {"IPC_420_0": 0.8}, "refused")
        log.record("Which court?", {"unknown_chunk": 0.5}, "answered", answer="The High Court [unknown_chunk].")
        assert log.export(tmp_path / "turns.parquet", texts, page=2) == 3
        empty = sc.QueryLog(tmp_path / "empty.db")
        assert empty.export(tmp_path / "empty.parquet") == 0
        empty.close()
    table = pq.read_table(tmp_path / "turns.parquet")
    assert table.column("contexts").to_pylist()[1] == [{"id": "IPC_420_0", "content": texts["IPC_420_0"],
                                                        "score": 0.8}]  # fmt: skip
    assert pq.read_table(tmp_path / "empty.parquet").num_rows == 0
    assert not any(p.name.endswith(".partial") for p in tmp_path.iterdir())

    results = scale.evaluate(scale.read(tmp_path / "turns.parquet"))
    scale.write_results(results, tmp_path / "results")
    rows = sorted(_rows(scale.read_parquet(tmp_path / "results")), key=lambda r: r["id"])
    assert [r["decision"] for r in rows] == ["answered", "refused", "answered"]  # input columns are kept
    assert rows[2]["error"].startswith("id '3': contexts")  # no text for unknown_chunk: reported by its id
    assert rows[2]["line"] is None
    local = []
    for data in table.to_pylist()[:2]:
        evaluate_rows([parse_row(0, data)], on_row=local.append)
    for row, want in zip(rows[:2], local):
        got = scale.record_of(row)
        assert got is not None
        assert {**got, "line": 0} == want
    assert rows[0]["grounded"] is False
    assert rows[0]["uncovered"][0]["reason"]
    summary = scale.summarize(scale.read_parquet(tmp_path / "results"))
    assert summary["rows"] == 2
    assert summary["bad_rows"] == 1
    assert summary["bad_row_examples"][0]["line"] == 0


def test_checks_configs_and_results_pickle_through_ray_workers(ray_address: str) -> None:
    checker = sc.SufficientContextChecker(thresholds=(0.7, 0.4))
    coverage = sc.ClaimCoverage(min_overlap=0.4)
    config = scale.stage.checks_config({"sufficient_context": {"thresholds": {"sufficient": 0.7, "partial": 0.4}}})
    result = checker.check_sufficiency(SAMPLE_QUERY, SAMPLE_CHUNKS)
    report = coverage.check_answer(SAMPLE_ANSWER, SAMPLE_CHUNKS)
    _, summary = _local(DATA)

    @ray.remote
    def roundtrip(objects: tuple[Any, ...]) -> tuple[Any, ...]:
        worker_checker, worker_coverage, settings, *_ = objects
        again = sc.SufficientContextChecker(**settings["checker"])
        return (*objects, worker_checker.check_sufficiency(SAMPLE_QUERY, SAMPLE_CHUNKS),
                worker_coverage.check_answer(SAMPLE_ANSWER, SAMPLE_CHUNKS), again.thresholds, os.getpid())  # fmt: skip

    local_summary = evaluate_rows(read_rows(DATA), threads=1)
    back = ray.get(roundtrip.remote((checker, coverage, config, result, report, local_summary)))
    b_checker, b_coverage, b_config, b_result, b_report, b_summary, w_result, w_report, thresholds, pid = back
    assert pid != os.getpid()
    assert b_checker.thresholds == thresholds == (0.7, 0.4)
    assert b_coverage.min_overlap == 0.4
    assert b_config == config
    timeless = [{k: v for k, v in r.to_dict().items() if k != "elapsed_ms"} for r in (b_result, w_result, result)]
    assert timeless[0] == timeless[1] == timeless[2]
    assert b_result.elapsed_ms == result.elapsed_ms
    assert b_report.to_dict() == w_report.to_dict() == report.to_dict()
    assert b_summary.to_dict() == summary
    assert pickle.loads(pickle.dumps(b_checker)).check_sufficiency(SAMPLE_QUERY, SAMPLE_CHUNKS).score == result.score


# Ray warns that an empty input leaves the actor pool nothing to do (raised in ray.data itself).
@pytest.mark.filterwarnings("ignore:The minimum number of concurrent actors:UserWarning")
def test_bad_arguments_and_empty_input(ray_address: str, tmp_path: Path) -> None:
    ds = ray.data.from_items([{"query": "q", "contexts": ["c"]}])
    with pytest.raises(ValueError, match="checks must be"):
        scale.evaluate(ds, checks=("sufficiency", "nope"))
    with pytest.raises(ValueError, match="threads must be"):
        scale.evaluate(ds, threads=0)
    with pytest.raises(ValueError, match="concurrency must be"):
        scale.evaluate(ds, concurrency=(3, 1))
    with pytest.raises(TypeError, match=r"ds must be a ray\.data\.Dataset"):
        scale.evaluate([{"query": "q"}])
    with pytest.raises(ValueError, match=r"sufficient_context\.thresholds"):
        scale.evaluate(ds, config={"sufficient_context": {"thresholds": {"sufficient": 2}}})
    with pytest.raises(ValueError, match="paths must name"):
        scale.read([])
    only = _rows(scale.evaluate(ds, checks=("sufficiency",)))
    assert only[0]["sufficiency_level"] is not None
    assert only[0]["claims_score"] is None
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n", encoding="utf-8")
    assert scale.run(empty).to_dict() == evaluate_file(empty).to_dict()  # nothing to score: the empty summary


def test_cli_engine_ray_writes_parquet_and_the_local_summary(ray_address: str, tmp_path: Path) -> None:
    data = tmp_path / "turns.jsonl"
    data.write_bytes(b"\n".join(_sample_lines()[:60]) + b"\n")

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "sufficient_context", "eval", str(data), *args]
        env = {**os.environ, "COLUMNS": "200"}
        return subprocess.run(command, capture_output=True, text=True, timeout=240, env=env)

    out = tmp_path / "out"
    done = cli("--engine", "ray", "--address", ray_address, "--out", str(out), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == json.loads(cli("--json").stdout)
    assert json.loads((out / "summary.json").read_text(encoding="utf-8")) == json.loads(done.stdout)
    written = pa.concat_tables([pq.read_table(p) for p in sorted((out / "results").glob("*.parquet"))])
    assert written.num_rows == 60
    assert "sufficiency_score" in written.column_names
    assert "data:image/png;base64," in (out / "report.html").read_text(encoding="utf-8")
    again = cli("--engine", "ray", "--out", str(out))  # refused before Ray starts: the summary would count both
    assert again.returncode == 2
    assert "already holds files" in again.stderr
    wrong = cli("--address", "auto")
    assert wrong.returncode == 2
    assert "--address needs --engine ray" in wrong.stderr
    assert wrong.stdout == ""


def _cli(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "sufficient_context", "eval", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=240, env={**os.environ, **env})


def test_cli_engine_ray_on_an_empty_file_without_the_report_extra_and_with_no_cluster(
    ray_address: str, tmp_path: Path
) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n", encoding="utf-8")
    done = _cli(str(empty), "--engine", "ray", "--address", ray_address, "--out", str(tmp_path / "e"))
    assert done.returncode == 2
    assert "holds no row" in done.stderr  # as the local engine says, not a bare FileNotFoundError of results/

    # Without matplotlib ([report] extra): the results and summary of one Ray run, no report, exit 0.
    shadow = tmp_path / "shadow"
    shadow.mkdir()
    (shadow / "matplotlib.py").write_text('raise ImportError("No module named matplotlib", name="matplotlib")\n')
    data = tmp_path / "turns.jsonl"
    data.write_bytes(b"\n".join(_sample_lines()[:20]) + b"\n")
    out = tmp_path / "out"
    out.mkdir()
    (out / "report.html").write_text("a previous run's", encoding="utf-8")
    path = os.pathsep.join([str(shadow), os.environ.get("PYTHONPATH", "")])
    done = _cli(str(data), "--engine", "ray", "--address", ray_address, "--out", str(out), "--json", PYTHONPATH=path)
    assert done.returncode == 0, done.stderr
    assert "no report.html" in done.stderr
    assert json.loads((out / "summary.json").read_text(encoding="utf-8")) == json.loads(done.stdout)
    assert sorted(p.name for p in out.iterdir()) == ["results", "summary.json"]  # no stale report beside them

    # Nothing listens at the address: a quick error naming it, not Ray's 14 minutes of retries and a traceback.
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    done = _cli(str(data), "--engine", "ray", "--address", f"127.0.0.1:{port}")
    assert done.returncode == 2
    assert f"no Ray cluster answers at '127.0.0.1:{port}'" in done.stderr
    assert "Traceback" not in done.stderr


def test_cli_engine_ray_interrupted_leaves_only_marked_partial_results(ray_address: str, tmp_path: Path) -> None:
    row = json.dumps({"query": SAMPLE_QUERY, "contexts": SAMPLE_CHUNKS, "label": "sufficient"})
    data = tmp_path / "big.jsonl"
    data.write_text((row + "\n") * 60_000, encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    (out / "summary.json").write_text('{"rows": 1}', encoding="utf-8")  # a previous run's
    command = [sys.executable, "-m", "sufficient_context", "eval", str(data), "--engine", "ray"]
    process = subprocess.Popen(
        [*command, "--address", ray_address, "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # Python's KeyboardInterrupt handler
    )
    partial = out / "results.partial"
    while not (partial.is_dir() and any(partial.glob("*.parquet"))) and process.poll() is None:
        threading.Event().wait(0.05)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=240)
    assert process.returncode == 130, stderr
    assert f"the rows written so far are in {partial}" in stderr
    assert sorted(p.name for p in out.iterdir()) == ["results.partial"]  # no results/ that looks complete
    done = _cli(str(data), "--engine", "ray", "--address", ray_address, "--out", str(out), "--json")
    assert done.returncode == 0, done.stderr  # the next run starts afresh
    assert json.loads(done.stdout)["rows"] == 60_000
    assert sum(pq.read_metadata(p).num_rows for p in (out / "results").glob("*.parquet")) == 60_000
    assert not partial.exists()
