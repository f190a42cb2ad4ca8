"""The command line, run as users run it: `python -m sufficient_context ...` in a subprocess, on files the tests
write (exit codes 0 pass, 1 check failed, 2 usage or input error with the message on stderr and nothing on stdout)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest
import yaml

import sufficient_context as sc
from sufficient_context._samples import (
    SAMPLE_ANSWER,
    SAMPLE_CHUNKS,
    SAMPLE_PARTIAL_QUERY,
    SAMPLE_QUERY,
    SAMPLE_UNANSWERED_QUERY,
)
from sufficient_context.evaluation import calibrate, evaluate_file

IPC = (
    "# Indian Penal Code\n\n## Section 420\n\nWhoever cheats and thereby dishonestly induces the person deceived to "
    "deliver any property shall be punished with imprisonment for a term which may extend to seven years, and shall "
    "also be liable to fine.\n\n## Section 379\n\nWhoever commits theft shall be punished with imprisonment for a "
    "term which may extend to three years, or with fine, or with both.\n"
)


def run(*args: str, stdin: str | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sufficient_context", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "200"},
        cwd=cwd,
        timeout=120,
    )


@pytest.fixture
def chunks_json(tmp_path: Path) -> Path:
    path = tmp_path / "chunks.json"
    path.write_text(json.dumps(SAMPLE_CHUNKS), encoding="utf-8")
    return path


def test_demo_shows_the_gate_every_level_and_every_claim_verdict() -> None:
    done = run("demo")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "no_evidence" in out  # the off-topic query is refused by the retrieval gate
    for level in ("sufficient (score", "partial (score", "insufficient (score"):
        assert level in out
    assert "meta: meta statement" in out
    assert "covered (score" in out
    assert "uncovered (score" in out
    assert "'ten' not in IPC_420_0, which says 'seven'" in out


def test_version_and_module_forms() -> None:
    done = run("--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"sufficient-context {sc.__version__}"
    same = subprocess.run([sys.executable, "-m", "sufficient_context.cli", "--version"], capture_output=True, text=True)
    assert same.stdout == done.stdout


def test_check_levels_and_exit_codes(chunks_json: Path) -> None:
    ok = run("check", "--query", SAMPLE_QUERY, "--contexts", str(chunks_json))
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.startswith("sufficient score")
    assert "Factors" in ok.stdout
    partial = run("check", "-q", SAMPLE_PARTIAL_QUERY, "-c", str(chunks_json))
    assert partial.returncode == 1
    assert "Query term 'say' not found in context" in partial.stdout
    assert run("check", "-q", SAMPLE_PARTIAL_QUERY, "-c", str(chunks_json), "--fail-on", "insufficient").returncode == 0
    low = run("check", "-q", SAMPLE_UNANSWERED_QUERY, "-c", str(chunks_json), "--fail-on", "insufficient")
    assert low.returncode == 1
    assert "bailable" in low.stdout


def test_check_reads_jsonl_a_folder_and_stdin_and_prints_json(tmp_path: Path, chunks_json: Path) -> None:
    jsonl = tmp_path / "chunks.jsonl"
    jsonl.write_text("\n".join(json.dumps(c) for c in SAMPLE_CHUNKS) + "\n", encoding="utf-8")
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "ipc.md").write_text(IPC, encoding="utf-8")
    (folder / "skip.pdf").write_bytes(b"%PDF")
    expected = sc.SufficientContextChecker().check_sufficiency(SAMPLE_QUERY, SAMPLE_CHUNKS)
    for spec, stdin in ((str(jsonl), None), ("-", chunks_json.read_text(encoding="utf-8"))):
        done = run("check", "-q", SAMPLE_QUERY, "-c", spec, "--json", stdin=stdin)
        assert done.returncode == 0, done.stderr
        document = json.loads(done.stdout)
        assert document["score"] == expected.score
        assert document["level"] == "sufficient"
    folder_run = run(
        "check", "-q", "What is the punishment for cheating?", "-c", str(folder), "--json", "--fail-on", "insufficient"
    )
    assert folder_run.returncode == 0, folder_run.stderr
    assert json.loads(folder_run.stdout)["covered_terms"] == ["punishment", "cheating"]  # the .pdf is not read


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (["check", "-q", "x", "-c", "missing.json"], None, "--contexts: 'missing.json' is not a file or folder"),
        (["check", "-q", "x", "-c", "-"], '[{"content": "a"}, {"content": 3}]', "--contexts: chunks[1].content"),
        (["check", "-q", "x", "-c", "-"], '{"content": "a"}\nnot json\n', "--contexts: stdin line 2 is not valid JSON"),
        (["check", "-q", "   ", "-c", "-"], '["a"]', "query must not be empty or blank"),
        (["check", "-c", "-"], '["a"]', "Missing option '--query'"),
        (["check", "-q", "x", "-c", "-", "--fail-on", "never"], '["a"]', "Invalid value for '--fail-on'"),
        (["claims", "-a", "-", "-c", "-"], "", "--answer and --contexts cannot both read stdin"),
        (["claims", "-a", "nope.txt", "-c", "-"], '["a"]', "--answer: 'nope.txt' is not a file"),
        (["check", "-q", "x", "-c", "-"], "[" * 100_000, "--contexts: stdin is JSON nested too deeply"),
        (
            ["check", "-q", "x", "-c", "-"],
            '{"content": "a"}\n' + "[" * 100_000,
            "stdin line 2 is JSON nested too deeply",
        ),
        (["frobnicate"], None, "No such command 'frobnicate'"),
    ],
)
def test_bad_input_exits_2_with_the_message_on_stderr_only(args: list[str], stdin: str | None, message: str) -> None:
    done = run(*args, stdin=stdin)
    assert done.returncode == 2
    assert done.stdout == ""
    assert message in done.stderr


def test_claims_verdicts_reasons_and_exit_codes(tmp_path: Path, chunks_json: Path) -> None:
    bad = run("claims", "--answer", SAMPLE_ANSWER, "--contexts", str(chunks_json))
    assert bad.returncode == 1
    assert "uncovered" in bad.stdout
    assert "which says 'seven'" in bad.stdout
    assert "not grounded" in bad.stdout
    answer_file = tmp_path / "answer.txt"
    answer_file.write_text(
        "Cheating under Section 420 is punishable with imprisonment of up to seven years and a fine [IPC_420_0].",
        encoding="utf-8",
    )
    good = run("claims", "-a", str(answer_file), "-c", str(chunks_json), "--json")
    assert good.returncode == 0, good.stderr
    document = json.loads(good.stdout)
    assert document["is_grounded"] is True
    assert document["claims"][0]["status"] == "covered"


def test_answer_prints_the_validation_block_from_a_folder(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "ipc.md").write_text(IPC, encoding="utf-8")
    done = run("answer", "What is the punishment for cheating under Section 420?", "--docs", str(docs))
    assert done.returncode == 0, done.stdout + done.stderr
    for label in (
        "Evidence Sufficient",
        "Grounded",
        "Citations",
        "Cited Sources",
        "Uncovered Claims",
        "Retrieved Chunks",
        "Status",
    ):
        assert label in done.stdout
    assert "Answer:" in done.stdout
    assert "ipc.md, Section 420" in done.stdout
    off = run("answer", "What is the capital of France?", "--docs", str(docs), "--json")
    assert off.returncode == 1
    document = json.loads(off.stdout)
    assert document["status"] == "no_evidence"
    assert document["validation"]["Retrieved Chunks"] == "0"


class _Completions(BaseHTTPRequestHandler):
    requests: list[dict[str, Any]] = []  # noqa: RUF012 - shared with the test on purpose

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append({"path": self.path, "body": body, "auth": self.headers.get("Authorization")})
        content = "Cheating is punished with imprisonment of up to seven years and a fine [S1]. Mars is red [S1]."
        reply = {"choices": [{"message": {"role": "assistant", "content": content}}]}
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def llm_server() -> Iterator[str]:
    server = HTTPServer(("127.0.0.1", 0), _Completions)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()


def test_answer_with_an_openai_compatible_llm_removes_what_the_chunks_do_not_support(
    tmp_path: Path, llm_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "ipc.md").write_text(IPC, encoding="utf-8")
    monkeypatch.setenv("SC_LLM_API_KEY", "k-123")
    _Completions.requests.clear()
    done = run(
        "answer",
        "What is the punishment for cheating under Section 420?",
        "--docs",
        str(docs),
        "--llm",
        llm_server,
        "--model",
        "tiny",
        "--json",
    )
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["validation"]["Uncovered Claims"] == "1"  # found and removed
    assert document["checks"]["generator"] == "callable"
    assert document["removed_sentences"] == ["Mars is red [S1]."]
    assert "seven years" in document["answer"]
    sent = _Completions.requests[0]
    assert sent["path"] == "/v1/chat/completions"
    assert sent["body"]["model"] == "tiny"
    assert sent["auth"] == "Bearer k-123"
    assert [m["role"] for m in sent["body"]["messages"]] == ["system", "user"]
    down = run(
        "answer",
        "What is the punishment for cheating under Section 420?",
        "--docs",
        str(docs),
        "--llm",
        "http://127.0.0.1:9/v1",
    )
    assert down.returncode == 2
    assert "unreachable" in down.stderr
    assert down.stdout == ""


def _labelled_rows() -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for i in range(6):
        rows.append(
            {
                "id": f"s{i}",
                "query": SAMPLE_QUERY,
                "contexts": SAMPLE_CHUNKS,
                "label": "sufficient",
                "kind": "answerable",
            }
        )
        rows.append(
            {
                "id": f"u{i}",
                "query": SAMPLE_UNANSWERED_QUERY,
                "contexts": SAMPLE_CHUNKS,
                "label": "insufficient",
                "kind": "unanswerable",
            }
        )
        rows.append(
            {
                "id": f"c{i}",
                "query": SAMPLE_QUERY,
                "contexts": SAMPLE_CHUNKS[:1],
                "answer": "Cheating is punished with up to seven years [IPC_420_0].",
                "label": "supported",
            }
        )
        rows.append(
            {
                "id": f"d{i}",
                "query": SAMPLE_QUERY,
                "contexts": SAMPLE_CHUNKS[:1],
                "answer": "Cheating is punished with up to ten years in Mars [IPC_420_0].",
                "label": "unsupported",
            }
        )
    return rows


def test_eval_says_where_the_bad_rows_it_does_not_print_are(tmp_path: Path) -> None:
    data = tmp_path / "rows.jsonl"
    rows = [json.dumps({"query": SAMPLE_QUERY, "contexts": SAMPLE_CHUNKS[:1]})] + ["{bad"] * 8
    data.write_text("\n".join(rows) + "\n", encoding="utf-8")
    done = run("eval", str(data))
    assert done.returncode == 0, done.stderr
    assert "1 row evaluated, 8 bad rows" in done.stdout
    assert done.stdout.count("not valid JSON") == 5
    assert "(the first 5 of 8; --json shows the first 8)" in done.stdout
    done = run("eval", str(data), "--out", str(tmp_path / "out"))
    assert "(the first 5 of 8; summary.json lists the first 8)" in done.stdout


def test_eval_with_no_usable_row_is_an_input_error_not_a_pass(tmp_path: Path) -> None:
    # A CSV file, or the wrong file: "0 rows evaluated" with exit 0 would pass a CI job that checked nothing.
    csv = tmp_path / "rows.csv"
    csv.write_text("query,contexts\r\nWhat is X?,X is Y.\r\n", encoding="utf-8")
    for args in (("eval", str(csv)), ("eval", str(csv), "--json"), ("eval", str(csv), "--out", str(tmp_path / "o"))):
        done = run(*args)
        assert done.returncode == 2, done.stdout
        assert done.stdout == ""
        assert f"DATASET: '{csv}': none of its 2 rows could be evaluated; line 1: not valid JSON" in done.stderr
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n", encoding="utf-8")
    done = run("eval", str(empty))
    assert done.returncode == 2
    assert "holds no row (JSONL: one JSON object per line)" in done.stderr


def test_eval_writes_results_summary_and_report_and_reports_bad_rows(tmp_path: Path) -> None:
    data = tmp_path / "turns.jsonl"
    lines = [json.dumps(r) for r in _labelled_rows()]
    lines.insert(3, "{not json")
    lines.insert(7, json.dumps({"query": "", "contexts": []}))
    lines.append("[" * 100_000)  # nested past the JSON decoder's recursion limit: a bad row, not a crash
    data.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    done = run("eval", str(data), "--out", str(out), "--workers", "2")
    assert done.returncode == 0, done.stderr
    assert "24 rows evaluated, 3 bad rows" in done.stdout
    assert "line 4" in done.stdout
    assert "line 27: not valid here: JSON nested too deeply" in done.stdout
    results = [json.loads(line) for line in (out / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(results) == 24
    assert results[0]["sufficiency"]["level"] == "sufficient"
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["bad_rows"] == 3
    assert [b["line"] for b in summary["bad_row_examples"]] == [4, 8, 27]
    assert summary["sufficiency"]["auroc"] == 1.0
    assert summary["claims"]["auroc"] == 1.0
    assert summary["claims"]["grounded"] == {"grounded": 6, "not_grounded": 6}
    assert set(summary["sufficiency"]["by_kind"]) == {"answerable", "unanswerable"}
    html = (out / "report.html").read_text(encoding="utf-8")
    assert html.count("data:image/png;base64,") == 6  # histograms, ROC and sweep for each check
    assert "Bad rows" in html
    as_json = run("eval", str(data), "--json")
    assert json.loads(as_json.stdout)["rows"] == 24


def test_summary_keeps_at_most_max_kinds_by_name_in_any_order_of_rows_and_merges() -> None:
    # A column of distinct values used as `kind` (an id, say) kept two histograms per value: 10,000 kinds took 368 MB
    # and a report table 412,000 px tall. The first MAX_KINDS kinds in sorted order keep their names, the rest pool.
    import random

    from sufficient_context.evaluation.summary import CheckStats

    limit = CheckStats.MAX_KINDS
    rows = [(0.1 * (i % 10), bool(i % 3), f"k{i % (limit + 37):04d}") for i in range(3000)]

    def tally(part: list[tuple[float, bool, str]]) -> CheckStats:
        stats = CheckStats()
        for score, label, kind in part:
            stats.add(score, "x", score >= 0.5, label, kind)
        return stats

    one = tally(rows).to_dict(claims=False)
    kinds = sorted({kind for _, _, kind in rows})
    assert list(one["by_kind"]) == kinds[:limit]
    assert one["other_kinds"]["rows"] == sum(1 for _, _, kind in rows if kind in kinds[limit:])
    assert sum(k["rows"] for k in one["by_kind"].values()) + one["other_kinds"]["rows"] == len(rows)
    rng = random.Random(5)
    for _ in range(3):  # shuffled rows, tallied in parts and merged in any order: the same summary
        shuffled = rows[:]
        rng.shuffle(shuffled)
        parts = [tally(shuffled[i : i + 700]) for i in range(0, len(shuffled), 700)]
        rng.shuffle(parts)
        merged = CheckStats()
        for part in parts:
            merged.merge(part)
        assert merged.to_dict(claims=False) == one
    few = tally(rows[:50]).to_dict(claims=False)
    assert "other_kinds" not in few
    assert len(few["by_kind"]) == 50


def test_eval_without_the_report_extra_writes_what_it_can_and_says_so(tmp_path: Path) -> None:
    data = tmp_path / "turns.jsonl"
    data.write_text("\n".join(json.dumps(r) for r in _labelled_rows()[:4]) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    code = (
        "import runpy, sys\n"
        "sys.modules['matplotlib'] = None  # as if the [report] extra were not installed\n"
        f"sys.argv = ['sufficient-context', 'eval', {str(data)!r}, '--out', {str(out)!r}]\n"
        "runpy.run_module('sufficient_context', run_name='__main__')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "no report.html" in done.stderr
    assert "[report]" in done.stderr
    assert f"wrote {out}/results.jsonl and summary.json" in done.stdout.replace("\n", "")
    assert sorted(p.name for p in out.iterdir()) == ["results.jsonl", "summary.json"]


def test_calibrate_writes_a_config_that_from_config_reads(tmp_path: Path) -> None:
    data = tmp_path / "labelled.jsonl"
    data.write_text("\n".join(json.dumps(r) for r in _labelled_rows()) + "\n", encoding="utf-8")
    config = tmp_path / "thresholds.yaml"
    done = run("calibrate", str(data), "--target-precision", "0.9", "--out", str(config))
    assert done.returncode == 0, done.stderr
    assert "wrote" in done.stdout
    document = yaml.safe_load(config.read_text(encoding="utf-8"))
    sufficient, partial = document["sufficient_context"]["thresholds"].values()
    suff_scores = {
        sc.SufficientContextChecker().check_sufficiency(q, SAMPLE_CHUNKS).score
        for q in (SAMPLE_QUERY, SAMPLE_UNANSWERED_QUERY)
    }
    low, high = sorted(suff_scores)
    assert low < sufficient <= high  # the lowest threshold that keeps only the sufficient rows
    assert partial <= sufficient
    checker = sc.SufficientContextChecker.from_config(config)
    assert checker.thresholds == (sufficient, partial)
    assert checker.check_sufficiency(SAMPLE_UNANSWERED_QUERY, SAMPLE_CHUNKS).level.value != "sufficient"
    # Written as JSON under a comment line, so a machine without PyYAML (a slim deployment image) reads the file a
    # machine with it wrote: YAML written where PyYAML was installed needed it to be read back.
    lines = config.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("# thresholds fitted by sufficient-context calibrate")
    assert json.loads("\n".join(lines[1:])) == document
    without_yaml = subprocess.run(
        [sys.executable, "-c", "import sys; sys.modules['yaml'] = None\n"
         "import sufficient_context as sc\n"
         "print(sc.SufficientContextChecker.from_config(sys.argv[1]).thresholds)", str(config)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert without_yaml.returncode == 0, without_yaml.stderr
    assert without_yaml.stdout.strip() == str((sufficient, partial))
    coverage = sc.ClaimCoverage.from_config(config)
    assert 0.0 < coverage.min_overlap <= 1.0
    assert calibrate(data, 0.9).to_config() == document
    # --out naming the dataset itself would erase the data: refused, the dataset untouched.
    before = data.read_bytes()
    same = run("calibrate", str(data), "--target-precision", "0.9", "--out", str(data))
    assert same.returncode == 2
    assert "is the dataset; writing the configuration would erase it" in same.stderr
    assert data.read_bytes() == before


def test_an_output_path_of_the_wrong_kind_is_an_input_error_naming_out(tmp_path: Path) -> None:
    # eval --out naming a file was mkdir's bare "[Errno 17] File exists"; calibrate --out naming a folder failed in
    # os.replace after the fit ("[Errno 21] Is a directory") and left a .tmp file beside it.
    data = tmp_path / "labelled.jsonl"
    data.write_text("\n".join(json.dumps(r) for r in _labelled_rows()) + "\n", encoding="utf-8")
    a_file = tmp_path / "notes.txt"
    a_file.write_text("keep\n", encoding="utf-8")
    for target in (a_file, data):
        done = run("eval", str(data), "--out", str(target))
        assert done.returncode == 2
        expected = f"--out: {str(target)!r} is not a folder; give the folder to write the results in"
        assert done.stderr == f"sufficient-context: {expected}\n"
        assert done.stdout == ""
    assert a_file.read_text(encoding="utf-8") == "keep\n"
    with pytest.raises(ValueError, match=r"out_dir: .* is not a folder"):
        evaluate_file(data, a_file)
    folder = tmp_path / "configs"
    folder.mkdir()
    done = run("calibrate", str(data), "--target-precision", "0.9", "--out", str(folder))
    assert done.returncode == 2
    assert f"--out: {str(folder)!r} is a folder; give the configuration file to write" in done.stderr
    fitted = calibrate(data, 0.9)
    with pytest.raises(ValueError, match="is a folder"):
        fitted.write(folder)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["configs", "labelled.jsonl", "notes.txt"]
    assert list(folder.iterdir()) == []


def test_a_row_missing_its_query_or_contexts_names_the_fields_it_has(tmp_path: Path) -> None:
    # A misspelled field was reported as "query must be a non-empty string", as if the query were empty.
    data = tmp_path / "rows.jsonl"
    rows = [
        {"question": "What is the punishment for cheating?", "contexts": ["x"]},
        {"query": "What is the punishment for cheating?", "context": ["x"]},
        {"query": 42, "contexts": ["x"]},
        {"query": " ", "contexts": ["x"]},
        {"query": SAMPLE_QUERY, "contexts": SAMPLE_CHUNKS, "extra": 1},
    ]
    data.write_text("".join(json.dumps(r) + "\r\n" for r in rows) + "\r\n", encoding="utf-8")
    done = run("eval", str(data), "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["rows"] == 1
    assert summary["bad_row_examples"] == [
        {"line": 1, "error": "query is missing (the row's fields: 'question', 'contexts')"},
        {"line": 2, "error": "contexts is missing: a list of chunks or strings (the row's fields: 'query', 'context')"},
        {"line": 3, "error": "query must be a non-empty string; got int"},
        {"line": 4, "error": "query must be a non-empty string; got ' '"},
    ]


def test_a_broken_json_line_is_reported_at_its_own_column(tmp_path: Path) -> None:
    from sufficient_context.evaluation.rows import RowError, read_rows

    data = tmp_path / "turns.jsonl"
    data.write_bytes(b'{"query": "q", "contexts": ["c"]}\n{"query": "bad row"\r\n')
    rows = list(read_rows(data))
    assert isinstance(rows[1], RowError)
    # Column 20 of line 2 (where the object stops), not column 1 of the line break after it.
    assert str(rows[1]).endswith("not valid JSON: Expecting ',' delimiter at column 20")


def _raw(*args: str, **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
    streams: dict[str, Any] = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **kwargs}
    return subprocess.run([sys.executable, "-m", "sufficient_context", *args], timeout=120, check=False, **streams)


@pytest.mark.parametrize("args", [["--version"], ["demo"], ["check", "-q", "x", "-c", "-", "--json"]])
def test_a_reader_gone_early_exits_141_quietly_not_1(args: list[str]) -> None:
    read, write = os.pipe()
    os.close(read)  # like `| head -1` having exited: every write is EPIPE
    try:
        done = subprocess.run(
            [sys.executable, "-m", "sufficient_context", *args],
            input=b'["a"]',
            stdout=write,
            stderr=subprocess.PIPE,
            timeout=120,
            check=False,
        )
    finally:
        os.close(write)
    assert done.returncode == 141  # 1 would read as "the check failed"
    assert done.stderr.strip() == b""


def test_stdout_full_or_closed_is_an_error_and_stdin_or_stderr_closed_is_no_traceback(chunks_json: Path) -> None:
    with open("/dev/full", "wb") as full:
        done = _raw("check", "-q", "x", "-c", str(chunks_json), "--json", stdout=full, stderr=subprocess.PIPE)
    assert done.returncode == 2
    assert b"cannot write the output: No space left on device" in done.stderr
    closed = f"import sys, runpy; sys.stdout.close(); sys.stdout = None; sys.argv[1:] = {['--version']!r}; "
    closed += "runpy.run_module('sufficient_context', run_name='__main__')"
    done = subprocess.run([sys.executable, "-c", closed], capture_output=True, timeout=120, check=False)
    assert done.returncode == 2
    assert b"cannot write to stdout: it is closed" in done.stderr
    done = _raw("check", "-q", "x", "-c", "-", stdin=subprocess.DEVNULL, close_fds=True)
    assert done.returncode == 2
    assert b"--contexts: stdin is empty" in done.stderr
    no_stdin = "import sys, runpy; sys.stdin = None; sys.argv[1:] = ['check', '-q', 'x', '-c', '-']; "
    no_stdin += "runpy.run_module('sufficient_context', run_name='__main__')"
    done = subprocess.run([sys.executable, "-c", no_stdin], capture_output=True, timeout=120, check=False)
    assert done.returncode == 2
    assert done.stderr.decode().strip() == "sufficient-context: --contexts: stdin is closed"
    no_stderr = "import sys, runpy; sys.stderr = None; sys.argv[1:] = ['check', '-q', 'x', '-c', 'missing.json']; "
    no_stderr += "runpy.run_module('sufficient_context', run_name='__main__')"
    done = subprocess.run([sys.executable, "-c", no_stderr], capture_output=True, timeout=120, check=False)
    assert done.returncode == 2
    assert done.stdout == b""


def test_an_empty_answer_is_an_input_error_not_grounded(chunks_json: Path) -> None:
    done = run("claims", "-a", "-", "-c", str(chunks_json), stdin="")
    assert done.returncode == 2
    assert "--answer: stdin is empty" in done.stderr


def _verdict(stdout: str | bytes) -> dict[str, Any]:
    document = json.loads(stdout)
    document.pop("elapsed_ms")
    return dict(document)


def test_bom_utf16_stdin_and_a_named_pipe_read_like_utf8_files(tmp_path: Path, chunks_json: Path) -> None:
    expected = _verdict(run("check", "-q", SAMPLE_QUERY, "-c", str(chunks_json), "--json").stdout)
    text = json.dumps(SAMPLE_CHUNKS, ensure_ascii=False)
    for name, data in (("bom.json", b"\xef\xbb\xbf" + text.encode()), ("u16.json", text.encode("utf-16"))):
        (tmp_path / name).write_bytes(data)
        done = run("check", "-q", SAMPLE_QUERY, "-c", str(tmp_path / name), "--json")
        assert done.returncode == 0, done.stderr
        assert _verdict(done.stdout) == expected
        piped = _raw("check", "-q", SAMPLE_QUERY, "-c", "-", "--json", input=data)
        assert piped.returncode == 0, piped.stderr
        assert _verdict(piped.stdout) == expected
    fifo = tmp_path / "fifo"  # what bash's `-c <(command)` passes
    os.mkfifo(fifo)
    feeder = threading.Thread(target=lambda: fifo.write_text(text, encoding="utf-8"))
    feeder.start()
    done = run("check", "-q", SAMPLE_QUERY, "-c", str(fifo), "--json")
    feeder.join()
    assert done.returncode == 0, done.stderr
    assert _verdict(done.stdout) == expected


def test_an_ascii_locale_reads_the_query_as_utf8_and_prints_valid_json(tmp_path: Path) -> None:
    chunks = tmp_path / "chunks.json"
    chunks.write_text(json.dumps([{"content": "Le café coûte sept euros à Genève."}]), encoding="utf-8")
    env = {**os.environ, "LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}
    env.pop("PYTHONIOENCODING", None)
    utf8 = run("check", "-q", "café coûte Genève", "-c", str(chunks), "--json")
    for spec, stdin in ((str(chunks), None), ("-", chunks.read_bytes())):
        done = _raw("check", "-q", "café coûte Genève", "-c", spec, "--json", env=env, input=stdin)
        assert done.returncode == 0, done.stderr
        assert _verdict(done.stdout.decode("ascii")) == _verdict(utf8.stdout)  # not 'caf', not a crash
    done = _raw("claims", "-a", "Le café coûte sept euros.", "-c", str(chunks), env=env)
    assert done.returncode == 1  # not grounded (no citation), printed, not an encoding error
    assert b"caf\\xe9" in done.stdout


def test_eval_refuses_to_overwrite_its_input_and_an_interrupt_leaves_only_marked_partial_results(
    tmp_path: Path,
) -> None:
    row = {"query": SAMPLE_QUERY, "contexts": SAMPLE_CHUNKS, "label": "sufficient"}
    out = tmp_path / "out"
    out.mkdir()
    data = out / "results.jsonl"
    data.write_text(json.dumps(row) + "\n", encoding="utf-8")
    done = run("eval", str(data), "--out", str(out))
    assert done.returncode == 2
    assert "is the input file" in done.stderr
    assert data.read_text(encoding="utf-8") == json.dumps(row) + "\n"
    big = tmp_path / "big.jsonl"
    with big.open("w", encoding="utf-8") as handle:
        for _ in range(200_000):
            handle.write(json.dumps(row) + "\n")
    (out / "summary.json").write_text('{"rows": 1}', encoding="utf-8")  # a previous run's
    process = subprocess.Popen(
        [sys.executable, "-m", "sufficient_context", "eval", str(big), "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # Ctrl-C as a terminal's foreground job gets it: a suite started as a background job (`... &` in a script)
        # hands its children SIGINT ignored, and Python then installs no KeyboardInterrupt handler.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    partial = out / "results.jsonl.partial"
    while not (partial.exists() and partial.stat().st_size > 0) and process.poll() is None:
        threading.Event().wait(0.05)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr
    assert "sufficient-context: interrupted" in stderr
    assert stdout == ""
    assert sorted(p.name for p in out.iterdir()) == ["results.jsonl.partial"]


def test_a_claims_only_calibration_feeds_back_into_eval_and_calibrate(tmp_path: Path) -> None:
    # calibrate writes only a claims: section for rows with answers; eval --config and calibrate --config refused
    # that file ("has no top-level 'sufficient_context' section") although they read claims thresholds.
    data = tmp_path / "answers.jsonl"
    rows = [{"query": SAMPLE_QUERY, "contexts": SAMPLE_CHUNKS, "answer": SAMPLE_ANSWER, "label": i % 2 == 0}
            for i in range(6)]  # fmt: skip
    data.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    config = tmp_path / "claims.yaml"
    config.write_text("claims:\n  min_overlap: 0.25\n", encoding="utf-8")
    done = run("eval", str(data), "--out", str(tmp_path / "out"), "--config", str(config), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["thresholds"]["min_overlap"] == 0.25
    again = run("calibrate", str(data), "--out", str(tmp_path / "again.yaml"), "--config", str(config))
    assert again.returncode == 0, again.stderr
    assert "claims" in yaml.safe_load((tmp_path / "again.yaml").read_text(encoding="utf-8"))
    from sufficient_context.scale.stage import checks_config  # eval --engine ray reads it here

    assert checks_config(config) == {"checker": {}, "claims": {"min_overlap": 0.25}}
    # check reads the sufficient_context section only: a file without it is still an error there.
    chunks = tmp_path / "chunks.json"
    chunks.write_text(json.dumps(SAMPLE_CHUNKS), encoding="utf-8")
    check = run("check", "-q", SAMPLE_QUERY, "-c", str(chunks), "--config", str(config))
    assert check.returncode == 2
    assert "has no top-level 'sufficient_context' section" in check.stderr
