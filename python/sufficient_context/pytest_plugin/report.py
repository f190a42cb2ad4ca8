"""Recording the checks made during a session and writing the ``--sc-report`` JSON summary."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

from .. import __version__

__all__ = ["Recorder", "ReportPlugin", "write_json_atomic"]

_REPORT_ATTRIBUTE = "sc_checks"  # a test phase's checks, on its TestReport (so they travel with it under xdist)
# The checks made before a test began, outside any test (a module-level check, at collection), on its first report.
_OUTSIDE_ATTRIBUTE = "sc_checks_outside"


class Recorder:
    """The checks of a session: `add` collects a check, `take` hands the current phase's checks to its report, and
    `collect` files them under the report's test."""

    def __init__(self) -> None:
        self.pending: list[dict[str, Any]] = []
        self.results: list[dict[str, Any]] = []

    def add(self, check: dict[str, Any]) -> None:
        self.pending.append(check)

    def take(self) -> list[dict[str, Any]]:
        taken, self.pending = self.pending, []
        return taken

    def collect(self, nodeid: str | None, when: str | None, checks: list[dict[str, Any]]) -> None:
        self.results.extend({"nodeid": nodeid, "when": when, **check} for check in checks)

    def counts(self) -> dict[str, int]:
        passed = sum(1 for r in self.results if r["passed"])
        return {"checks": len(self.results), "passed": passed, "failed": len(self.results) - passed}

    def summary(self) -> dict[str, Any]:
        return {"tool": "sufficient-context", "version": __version__, "counts": self.counts(), "results": self.results}


class ReportPlugin:
    """Registered for ``--sc-report PATH``: files each check under the test (and phase) that made it, and writes the
    summary at the end of the session."""

    def __init__(self, path: Path, *, write: bool, worker: str | None = None) -> None:
        self.path = path
        self.recorder = Recorder()
        self._write = write
        self._worker = worker  # the xdist worker's id, in a worker
        self._outside: list[dict[str, Any]] = []
        self._outside_from: str | None = None  # the one worker whose checks made outside any test are kept
        self._written = False
        self._error: str | None = None

    def pytest_runtest_logstart(self) -> None:
        # Checks pending as a test begins were made outside any test (at collection): not the test's own.
        self._outside.extend(self.recorder.take())

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        report = yield
        if self._outside:
            setattr(report, _OUTSIDE_ATTRIBUTE, {"worker": self._worker, "checks": self._outside})
            self._outside = []
        checks = self.recorder.take()
        if checks:
            setattr(report, _REPORT_ATTRIBUTE, checks)
        return report

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        outside = getattr(report, _OUTSIDE_ATTRIBUTE, None)
        # Every xdist worker collects every module, so each makes the collection's checks: one worker's are kept,
        # as many as a run without xdist makes.
        if outside and self._outside_from in (None, outside["worker"]):
            self._outside_from = outside["worker"]
            self.recorder.collect(None, None, list(outside["checks"]))
        checks = getattr(report, _REPORT_ATTRIBUTE, None)
        if checks:
            self.recorder.collect(report.nodeid, report.when, list(checks))

    def pytest_sessionfinish(self) -> None:
        if not self._write:
            return
        self.recorder.collect(None, None, self.recorder.take())  # checks made outside any test (at collection)
        try:
            write_json_atomic(self.path, self.recorder.summary())
        except OSError as exc:  # the tests have run: say why there is no report, keep pytest's own summary
            self._error = f"sufficient-context: no report written to {self.path}: {exc.strerror or exc}"
            return
        self._written = True

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if self._error is not None:
            terminalreporter.write_line(self._error, red=True)
        if self._written:
            counts = self.recorder.counts()
            terminalreporter.write_line(
                f"sufficient-context: {counts['checks']} checks, {counts['passed']} passed, {counts['failed']} failed;"
                f" report written to {self.path}"
            )


def write_json_atomic(path: Path, data: Any) -> None:
    """Write `data` as JSON to `path` through a temporary file in the same directory and `os.replace`: a reader sees
    the old file or the new one, never a partial one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        # "x": created with the umask's permissions. A lone surrogate (a chunk id read from bad bytes) has no UTF-8:
        # written as the JSON escape \udXXX (backslashreplace), which reads back as the same str.
        with open(temporary, "x", encoding="utf-8", errors="backslashreplace") as fh:
            json.dump(data, fh, indent=2, ensure_ascii=False, allow_nan=False)
            fh.write("\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
