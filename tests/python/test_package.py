from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from importlib import metadata, resources
from pathlib import Path

import sufficient_context as sc


def test_every_public_name_resolves() -> None:
    missing = [name for name in sc.__all__ if not hasattr(sc, name)]
    assert missing == []
    assert len(set(sc.__all__)) == len(sc.__all__)


def test_the_pipeline_and_query_log_load_on_first_use() -> None:
    # A fresh interpreter: this one has imported everything already.
    code = (
        "import sys, sufficient_context as sc\n"
        "lazy = ['sufficient_context.querylog', 'sufficient_context.pipeline', 'sqlite3']\n"
        "assert not [m for m in lazy if m in sys.modules], [m for m in lazy if m in sys.modules]\n"
        "from sufficient_context import QueryLog\n"
        "assert sc.QueryLog is QueryLog and 'sufficient_context.querylog' in sys.modules\n"
        "assert sc.GroundedAnswerer.__module__.startswith('sufficient_context.pipeline')\n"
        "assert {'QueryLog', 'GroundedAnswer', 'display'} <= set(dir(sc))\n"
        "assert 'sufficient_context.display' not in sys.modules\n"
        "assert 'answered' in sc.pipeline.STATUSES and sc.display.__name__ == 'sufficient_context.display'\n"
        "ns = {}\n"
        "exec('from sufficient_context import *', ns)\n"
        "assert ns['QueryLogError'] is sc.QueryLogError\n"
        "try:\n"
        "    sc.no_such_name\n"
        "except AttributeError as e:\n"
        "    assert 'no_such_name' in str(e)\n"
        "else:\n"
        "    raise SystemExit('no AttributeError')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_numpy_loads_only_where_arrays_are_made() -> None:
    # Text checks, their options and their validation run without NumPy (its import and OpenBLAS threads cost a
    # process ~75 ms and ~0.1 s of CPU); the first array input loads it, and the NumPy types are accepted after.
    code = textwrap.dedent(
        """
        import sys, sufficient_context as sc
        chunks = [{"id": "S1", "content": "The penalty for theft is seven years.", "score": 0.9}, "A second chunk."]
        r = sc.SufficientContextChecker().check_sufficiency("What is the penalty for theft?", chunks)
        a = sc.ClaimCoverage().check_answer("The penalty for theft is seven years [S1].", chunks)
        assert a.is_grounded and r.score > 0, (a, r)
        sc.SufficiencyStats().record(r)
        sc.EvidenceSufficiencyGate(threshold=0.5, strict_mode=True)
        sc.Chunk(content="x", temperature=0.5)
        def refusal(bad):
            try:
                sc.EvidenceSufficiencyGate(threshold=bad)
            except TypeError as e:
                return str(e)
            return "accepted"
        assert [refusal(bad)[:9] for bad in (True, "1")] == ["threshold"] * 2
        assert "numpy" not in sys.modules, "a text check loaded NumPy"
        import numpy as np
        g = sc.EvidenceSufficiencyGate(threshold=np.float32(0.5), strict_mode=np.bool_(True))
        assert g.evaluate(np.array([0.7, 0.2, 0.1]))[0]
        assert sc.evaluate_retrieval([np.float64(0.9), np.float32(0.8)], min_score=np.float64(0.5)).outcome
        assert sc.Chunk(content="x", embedding=[1.0, 2.0]).embedding.dtype == np.float32
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_version_matches_pyproject_and_the_distribution() -> None:
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    declared = re.search(r'^version = "([^"]+)"', pyproject.read_text(encoding="utf-8"), re.MULTILINE)
    assert declared is not None
    assert sc.__version__ == declared.group(1)
    try:
        installed = metadata.version("sufficient-context")
    except metadata.PackageNotFoundError:  # a developer build on PYTHONPATH has no distribution metadata
        return
    assert installed == sc.__version__


def test_typing_marker_stubs_and_data_ship_with_the_package() -> None:
    root = resources.files("sufficient_context")
    assert root.joinpath("py.typed").is_file()
    for stub in ("__init__", "text", "sentences", "similarity", "gate", "claims", "checker"):
        assert root.joinpath(f"_core/{stub}.pyi").is_file(), stub
    header = root.joinpath("data/english_freq.tsv").read_text(encoding="utf-8").splitlines()[:3]
    assert any("CC BY-SA 4.0" in line for line in header)


def test_every_row_of_the_bad_input_table_names_a_test_that_exists() -> None:
    root = Path(__file__).resolve().parents[2]
    table = (root / "docs" / "bad-input.md").read_text(encoding="utf-8")
    rows = [line for line in table.splitlines() if line.startswith("| ") and not line.startswith("| bad input")]
    assert len(rows) >= 20
    for row in rows:
        names = re.findall(r"`(?:(test_\w+\.py))?::(test_\w+)`", row)
        assert names, row
        current = ""
        for path, name in names:
            current = path or current
            source = (root / "tests" / "python" / current).read_text(encoding="utf-8")
            assert f"def {name}(" in source, (current, name)
