from __future__ import annotations

import io
import subprocess
import sys

import pytest

from sufficient_context import cli


def test_demo_reports_terms_coverage_cosines_and_citations() -> None:
    out = io.StringIO()
    assert cli.run_demo(out) == 0
    report = out.getvalue()
    assert "Key terms (folded, stop words removed, stemmed): punish, cheat, section, 420, indian, penal, code" in report
    assert "Coverage: 7/7 key terms found in the chunks; none missing" in report
    # The statute chunk shares the most terms with the query, the CrPC chunk none of the key ones.
    rows = {line.split()[0]: line.split() for line in report.splitlines() if line.startswith(("IPC_", "CrPC_"))}
    assert float(rows["IPC_420_0"][2]) > float(rows["IPC_415_0"][2]) > float(rows["CrPC_154_0"][2])
    assert rows["CrPC_154_0"][3] == "-"
    # The answer goes through ClaimCoverage itself: one meta, one covered, one uncovered sentence.
    statuses = [line.split()[0] for line in report.splitlines() if line.startswith("   ")]
    assert statuses == ["meta:", "covered", "uncovered"]
    assert "'ten' not in IPC_420_0, which says 'seven'" in report
    assert "Answer: not grounded; 1 of 2 claim sentences supported (supported_ratio 0.50)" in report
    # The checker answers the sample query from the chunks and refuses the one they never address.
    verdicts = [line.split()[0] for line in report.splitlines() if line.startswith("  ") and line[2] != " "]
    verdicts = [v for v in verdicts if v in ("sufficient", "partial", "insufficient")]
    assert verdicts == ["sufficient", "insufficient"]
    assert "Query term 'bailable' not found in context" in report


def test_console_entry_point_runs_demo_and_rejects_unknown_commands() -> None:
    done = subprocess.run([sys.executable, "-m", "sufficient_context.cli", "demo"], capture_output=True, text=True)
    assert done.returncode == 0
    assert "SIMD path:" in done.stdout
    with pytest.raises(SystemExit) as exc:
        cli.main(["frobnicate"])
    assert exc.value.code == 2
