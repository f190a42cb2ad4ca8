"""The pytest plugin (sufficient_context.pytest_plugin) and its helpers (sufficient_context.testing).

The plugin runs in pytest subprocesses (``pytester``, enabled in conftest.py) with entry-point autoloading off and
``-p sufficient_context.pytest_plugin``, so it loads whether or not the package is installed; the entry point itself is
tested through a stand-in distribution on PYTHONPATH.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import sufficient_context
from sufficient_context import AnswerCoverage, SufficiencyResult, SufficientContextChecker
from sufficient_context.testing import (
    InsufficientContextError,
    UngroundedAnswerError,
    assert_grounded,
    assert_sufficient,
)

PLUGIN = "sufficient_context.pytest_plugin"
PACKAGE_ROOT = str(Path(sufficient_context.__file__).parents[1])  # not resolved: the package may be a symlink tree

CHUNKS = ["Water boils at 100 degrees Celsius at sea level.", "Paris is the capital of France."]
ANSWERED = "What is the boiling point of water?"  # "partial" with the default thresholds, "sufficient" at 0.6
UNANSWERED = "What is the boiling point of mercury in kelvin?"  # "insufficient"
UNGROUNDED = (
    "Water boils at 100 degrees Celsius [S1]. The moon is made of cheese [S1]. Paris is in France. See [S9] for more."
)
HEADER = f"""
from sufficient_context.testing import assert_grounded, assert_sufficient

CHUNKS = {CHUNKS!r}
ANSWERED = {ANSWERED!r}
UNANSWERED = {UNANSWERED!r}
UNGROUNDED = {UNGROUNDED!r}
"""


@pytest.fixture
def sub(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """A pytester whose subprocesses import this package and load no entry-point plugin."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [PACKAGE_ROOT, os.environ.get("PYTHONPATH")])))
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    return pytester


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest_subprocess("-p", PLUGIN, "-p", "no:cacheprovider", *args)


def make_tests(pytester: pytest.Pytester, body: str) -> None:
    pytester.makepyfile(test_it=HEADER + textwrap.dedent(body))


# -- configuration ---------------------------------------------------------------------------------------------------


def test_fixtures_and_helpers_follow_the_ini_options_of_pytest_ini(sub: pytest.Pytester) -> None:
    sub.makefile(
        ".ini",
        pytest="""
        [pytest]
        sc_sufficient_threshold = 0.6
        sc_partial_threshold = 0.3
        sc_min_contexts = 2
        sc_gate_threshold = 0.65
        sc_claim_min_overlap = 0.4
        """,
    )
    make_tests(
        sub,
        """
        def test_fixtures(sufficiency_checker, evidence_gate, claim_coverage):
            assert sufficiency_checker.thresholds == (0.6, 0.3)
            assert sufficiency_checker.min_contexts == 2
            assert evidence_gate.threshold == 0.65
            assert claim_coverage.min_overlap == 0.4
            evidence_gate.set_threshold(0.9)  # a gate of its own: the next test's is untouched

        def test_a_fresh_gate_each_test(evidence_gate):
            assert evidence_gate.threshold == 0.65

        def test_helpers_use_the_configured_objects():
            assert assert_sufficient(ANSWERED, CHUNKS).level == "sufficient"  # "partial" under the default 0.8
            assert assert_grounded(CHUNKS[0] + " [S1]", CHUNKS).claims[0].threshold == 0.4
        """,
    )
    run(sub).assert_outcomes(passed=3)


@pytest.mark.parametrize("kind", ["json", "yaml"])
def test_pyproject_ini_options_and_a_config_file(sub: pytest.Pytester, kind: str) -> None:
    (sub.path / "conf").mkdir()
    if kind == "json":
        section = {"sufficient_context": {"thresholds": {"sufficient": 0.7, "partial": 0.4}, "min_contexts": 3}}
        (sub.path / "conf" / "sc.json").write_text(json.dumps(section), encoding="utf-8")
    else:
        (sub.path / "conf" / "sc.yaml").write_text(
            "sufficient_context:\n  thresholds: {sufficient: 0.7, partial: 0.4}\n  min_contexts: 3\n", encoding="utf-8"
        )
    # The path is relative to the ini file; the ini option overrides the file's partial threshold.
    sub.makepyprojecttoml(f'[tool.pytest.ini_options]\nsc_config = "conf/sc.{kind}"\nsc_partial_threshold = 0.2\n')
    make_tests(
        sub,
        """
        def test_config(sufficiency_checker):
            assert sufficiency_checker.thresholds == (0.7, 0.2)
            assert sufficiency_checker.min_contexts == 3
        """,
    )
    run(sub).assert_outcomes(passed=1)


def test_a_native_toml_table_takes_numbers(sub: pytest.Pytester) -> None:
    sub.makepyprojecttoml("[tool.pytest]\nsc_sufficient_threshold = 0.7\nsc_min_contexts = 2\n")
    make_tests(
        sub,
        """
        def test_config(sufficiency_checker):
            assert sufficiency_checker.thresholds == (0.7, 0.5)
            assert sufficiency_checker.min_contexts == 2
        """,
    )
    run(sub).assert_outcomes(passed=1)


@pytest.mark.parametrize(
    ("option", "value", "expected"),
    [
        ("sc_sufficient_threshold", "abc", "ini option 'sc_sufficient_threshold' must be a number in *; got 'abc'"),
        ("sc_claim_min_overlap", "1.5", "ini option 'sc_claim_min_overlap' must be a number in [[]0, 1]; got '1.5'"),
        ("sc_min_contexts", "0", "ini option 'sc_min_contexts' must be an integer >= 1; got '0'"),
        ("sc_partial_threshold", "0.9", "ini option 'sc_partial_threshold': the checker needs partial <= sufficient*"),
        ("sc_config", "missing.yaml", "ini option 'sc_config' (*missing.yaml): cannot read configuration*"),
    ],
    ids=["not-a-number", "out-of-range", "not-positive", "partial-above-sufficient", "missing-config-file"],
)
def test_a_bad_ini_value_is_a_usage_error_naming_the_option(
    sub: pytest.Pytester, option: str, value: str, expected: str
) -> None:
    sub.makefile(".ini", pytest=f"[pytest]\n{option} = {value}\n")
    make_tests(sub, "def test_never_runs(): pass\n")
    result = run(sub)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: *pytest.ini: {expected}"])


# -- the helpers -----------------------------------------------------------------------------------------------------


def test_assert_sufficient_returns_the_result_or_explains_the_failure() -> None:
    result = assert_sufficient(ANSWERED, CHUNKS, level="partial")
    assert isinstance(result, SufficiencyResult)
    assert result.level == "partial"
    assert assert_sufficient(UNANSWERED, CHUNKS, "insufficient").level == "insufficient"  # any level will do
    with pytest.raises(InsufficientContextError) as caught:
        assert_sufficient(UNANSWERED, iter(CHUNKS), level="partial")  # an iterator: read once
    failed = caught.value.result
    assert isinstance(caught.value, AssertionError)
    message = str(caught.value)
    first = re.fullmatch(
        r"context is not enough: expected level 'partial' or better, got 'insufficient': "
        r"score (\S+) < partial threshold 0\.5",
        message.splitlines()[0],
    )
    assert first is not None, message
    assert float(first[1]) == pytest.approx(failed.score, abs=5e-5)
    assert f"  query: {UNANSWERED!r}\n  contexts: 2 chunks\n" in message
    assert "'mercury', 'kelvin'" in message
    assert f"  missing terms: {', '.join(repr(t) for t in failed.missing_terms)}\n" in message
    for aspect in failed.missing_aspects:
        assert f"\n    - {aspect}" in message
    # A checker of one's own: its thresholds are the ones the message compares with.
    with pytest.raises(InsufficientContextError, match=r"got 'insufficient': score \S+ < sufficient threshold 0\.3\n"):
        assert_sufficient(UNANSWERED, CHUNKS, checker=SufficientContextChecker(thresholds=(0.3, 0.2)))
    with pytest.raises(ValueError, match="level must be 'sufficient', 'partial' or 'insufficient'; got 'good'"):
        assert_sufficient(ANSWERED, CHUNKS, level="good")


def test_assert_grounded_lists_each_uncovered_sentence_with_its_score_and_reason() -> None:
    grounded = assert_grounded("Water boils at 100 degrees Celsius at sea level [S1].", CHUNKS, min_attribution=1.0)
    assert isinstance(grounded, AnswerCoverage)
    with pytest.raises(UngroundedAnswerError) as caught:
        assert_grounded(UNGROUNDED, CHUNKS)
    report = caught.value.result
    message = str(caught.value)
    assert message.splitlines()[0] == (
        "answer is not grounded: supported_ratio 0.25 < min_attribution 0.9; "
        "attribution_coverage 0.5 < min_attribution 0.9; 1 unknown citation"
    )
    assert "  covered: 1 of 4 claim sentences\n" in message
    assert len(report.uncovered) == 3
    for claim in report.uncovered:
        assert f"\n    - {claim.sentence!r} (score 0.0): {claim.reason}" in message
    assert "'The moon is made of cheese [S1].' (score 0.0): not covered: best support 0.00 (S1) < 0.30" in message
    assert "\n  unknown citations (no retrieved chunk has this id): S9\n" in message
    assert "\n  missing citations (chunks the answer uses but never cites): S2\n" in message
    assert message.endswith("\n  retrieved chunk ids: S1, S2")
    # An unknown citation fails even when the ratios ask nothing.
    with pytest.raises(
        UngroundedAnswerError, match=r"supported_ratio 0\.25 >= min_attribution 0\.0; .*; 1 unknown citation\n"
    ):
        assert_grounded(UNGROUNDED, CHUNKS, min_attribution=0.0)
    with pytest.raises(ValueError, match=r"min_attribution must be in \[0, 1\]; got 1.5"):
        assert_grounded(UNGROUNDED, CHUNKS, min_attribution=1.5)
    # "" or "[S1]" has no claim, so nothing in it is unsupported; but it answers nothing, so it does not pass
    for empty in ("", "[S1]", " [S1][S2]. "):
        with pytest.raises(UngroundedAnswerError, match="says nothing: it has no word outside its citation markers"):
            assert_grounded(empty, CHUNKS, min_attribution=0.0)
    import numpy as np

    assert assert_grounded(CHUNKS[0] + " [S1]", CHUNKS, np.float32(0.5)).is_grounded  # a NumPy number is a number


def test_the_helpers_work_without_pytest() -> None:
    script = f"""
import sys
for name in ("pytest", "_pytest", "pluggy"):
    sys.modules[name] = None  # importing any of them now fails
from sufficient_context.testing import assert_grounded, assert_sufficient
print(assert_sufficient({ANSWERED!r}, {CHUNKS!r}, "partial").level)
try:
    assert_grounded({UNGROUNDED!r}, {CHUNKS!r})
except AssertionError as exc:
    print(type(exc).__name__, str(exc).splitlines()[0])
"""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [PACKAGE_ROOT, os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "partial",
        "UngroundedAnswerError answer is not grounded: supported_ratio 0.25 < min_attribution 0.9; "
        "attribution_coverage 0.5 < min_attribution 0.9; 1 unknown citation",
    ]


# -- the report ------------------------------------------------------------------------------------------------------


def test_sc_report_records_every_check_under_its_test(sub: pytest.Pytester) -> None:
    make_tests(
        sub,
        """
        import pytest

        @pytest.fixture
        def checked():
            assert_sufficient(ANSWERED, CHUNKS, "partial")

        def test_passes():
            assert_sufficient(ANSWERED, CHUNKS, "partial")
            assert_grounded(CHUNKS[0] + " [S1]", CHUNKS)

        def test_insufficient():
            assert_sufficient(UNANSWERED, CHUNKS)

        def test_ungrounded():
            assert_grounded(UNGROUNDED, CHUNKS)

        def test_caught(checked):
            with pytest.raises(AssertionError):
                assert_sufficient(UNANSWERED, CHUNKS, "partial")
        """,
    )
    result = run(sub, "--sc-report", "reports/sc.json")
    result.assert_outcomes(passed=2, failed=2)
    # pytest shows the message, not the helper's code (__tracebackhide__).
    result.stdout.fnmatch_lines(
        [
            "E *sufficient_context.testing.InsufficientContextError: context is not enough: expected level "
            "'sufficient' or better, got 'insufficient': score * < sufficient threshold 0.8",
            "E *missing terms: *'mercury', 'kelvin'",
            "E *sufficient_context.testing.UngroundedAnswerError: answer is not grounded: *",
            "E *- 'The moon is made of cheese [[]S1].' (score 0.0): not covered: *",
            "sufficient-context: 6 checks, 3 passed, 3 failed; report written to *sc.json",
        ]
    )
    assert "def assert_sufficient(" not in result.stdout.str()
    assert os.listdir(sub.path / "reports") == ["sc.json"]  # no temporary file left
    report = json.loads((sub.path / "reports" / "sc.json").read_text(encoding="utf-8"))
    assert report["counts"] == {"checks": 6, "passed": 3, "failed": 3}
    rows = [(r["nodeid"], r["when"], r["kind"], r["passed"]) for r in report["results"]]
    assert rows == [
        ("test_it.py::test_passes", "call", "sufficiency", True),
        ("test_it.py::test_passes", "call", "grounded", True),
        ("test_it.py::test_insufficient", "call", "sufficiency", False),
        ("test_it.py::test_ungrounded", "call", "grounded", False),
        ("test_it.py::test_caught", "setup", "sufficiency", True),
        ("test_it.py::test_caught", "call", "sufficiency", False),
    ]
    insufficient, ungrounded = report["results"][2], report["results"][3]
    assert insufficient["level"] == "insufficient"
    assert insufficient["required_level"] == "sufficient"
    assert insufficient["threshold"] == 0.8
    assert 0.0 <= insufficient["score"] < 0.8
    assert insufficient["message"].startswith("context is not enough: expected level 'sufficient' or better")
    assert (ungrounded["supported_ratio"], ungrounded["attribution_coverage"]) == (0.25, 0.5)
    assert ungrounded["unknown_citations"] == ["S9"]
    assert "'Paris is in France.' (score 0.0): no citation" in ungrounded["message"]
    assert report["results"][0]["message"] is None


@pytest.mark.parametrize("xdist", [(), ("-p", "xdist", "-n", "2")], ids=["serial", "xdist"])
def test_a_check_made_at_collection_is_filed_outside_any_test(sub: pytest.Pytester, xdist: tuple[str, ...]) -> None:
    # A module-level check was filed under the first test to run, as that test's setup; under xdist, each worker
    # collects the module and so makes it: one worker's is kept, as many checks as without xdist.
    make_tests(
        sub,
        """
        MODULE = assert_sufficient(ANSWERED, CHUNKS, "partial")

        def test_a():
            pass

        def test_b():
            assert_sufficient(UNANSWERED, CHUNKS, "insufficient")
        """,
    )
    result = run(sub, "--sc-report", "sc.json", *xdist)
    result.assert_outcomes(passed=2)
    report = json.loads((sub.path / "sc.json").read_text(encoding="utf-8"))
    rows = sorted(((r["nodeid"] or ""), r["when"] or "", r["level"]) for r in report["results"])
    assert rows == [("", "", "partial"), ("test_it.py::test_b", "call", "insufficient")]
    assert report["counts"] == {"checks": 2, "passed": 2, "failed": 0}


# -- loading ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["entry point", "entry point and -p module", "entry point and conftest", "-p name"])
def test_the_entry_point_loads_the_plugin_once(sub: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    # A stand-in for the installed distribution: its entry point, as pyproject.toml declares it.
    dist = sub.path / "site" / "sufficient_context-0.1.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: sufficient-context\nVersion: 0.1.0\n", "utf-8")
    (dist / "entry_points.txt").write_text(f"[pytest11]\nsufficient_context = {PLUGIN}\n", encoding="utf-8")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([os.environ["PYTHONPATH"], str(dist.parent)]))
    args = ["-p", "no:cacheprovider"]
    if how == "-p name":
        args += ["-p", "sufficient_context"]
    else:
        monkeypatch.delenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD")
    if how == "entry point and -p module":
        args += ["-p", PLUGIN]
    if how == "entry point and conftest":
        sub.makeconftest(f"pytest_plugins = [{PLUGIN!r}]\n")
    sub.makefile(".ini", pytest="[pytest]\nsc_gate_threshold = 0.7\n")
    make_tests(sub, "def test_loaded(evidence_gate):\n    assert evidence_gate.threshold == 0.7\n")
    sub.runpytest_subprocess(*args).assert_outcomes(passed=1)


def test_config_files_and_report_paths_that_are_not_regular_files_are_usage_errors(sub: pytest.Pytester) -> None:
    make_tests(sub, "def test_runs(): assert_grounded(CHUNKS[0] + ' [S1]', CHUNKS)\n")
    os.mkfifo(sub.path / "cfg.json")  # reading it would block pytest forever
    sub.makefile(".ini", pytest="[pytest]\nsc_config = cfg.json\n")
    result = run(sub)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: *ini option 'sc_config' (*cfg.json): *not a regular file*"])
    (sub.path / "pytest.ini").unlink()
    # the report replaces its file atomically: a link or FIFO there would be replaced, not written through
    (sub.path / "target.json").write_text("{}", encoding="utf-8")
    (sub.path / "link.json").symlink_to(sub.path / "target.json")
    for name in ("link.json", "cfg.json"):
        result = run(sub, "--sc-report", name)
        assert result.ret == pytest.ExitCode.USAGE_ERROR
        result.stderr.fnmatch_lines([f"ERROR: --sc-report {name}: is not a regular file*"])
    assert (sub.path / "target.json").read_text(encoding="utf-8") == "{}"
    # a report that cannot be written (a file where its folder should be) is said, and pytest's own outcome stays
    result = run(sub, "--sc-report", "test_it.py/r.json")
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(["sufficient-context: no report written to *test_it.py/r.json: *", "*1 passed*"])


def test_the_report_keeps_chunk_ids_that_are_not_valid_text(sub: pytest.Pytester) -> None:
    # an id read from bad bytes holds a lone surrogate, which has no UTF-8: the report still gets written
    make_tests(sub, "def test_runs(): assert_grounded(CHUNKS[0], [{'id': 'a\\ud800', 'content': CHUNKS[0]}])\n")
    result = run(sub, "--sc-report", "r.json")
    assert result.ret == pytest.ExitCode.TESTS_FAILED  # the answer cites nothing
    report = json.loads((sub.path / "r.json").read_text(encoding="utf-8"))
    assert report["counts"]["failed"] == 1
    assert "retrieved chunk ids: a\ud800" in json.dumps(report, ensure_ascii=False)
