from __future__ import annotations

import ast
import contextlib
import copy
import io
import re
import subprocess
import sys
import textwrap
import tokenize
from importlib import metadata, resources
from pathlib import Path

import pytest

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


# The documentation's examples, run as a reader would copy them: every value a comment states after an expression
# (`x  # 0.726`, or the comment lines under it) must be what the expression gives. Floats as shown, rounded; `...`
# elides; an annotation after a literal (`'no_evidence' (1 chunk >= 0.20)`) is prose. Blocks that need what the
# docs leave to the reader (a vector store, a model, Ray) are named with the reason they are not run.
_DOC_SKIPPED = {
    "my_llm": "needs the reader's chunks and model",
    "store.as_retriever": "needs a LangChain vector store and chat model",
    "index.as_query_engine": "needs a LlamaIndex index and LLM",
    "scale.": "needs Ray",
    "def test_rag_answer": "needs the reader's RAG fixture",
    "SufficiencyStats()\n": "a signature",
}
_DOC_PLACEHOLDERS = {  # names the docs use as the reader's own values
    "corpus_texts": ["Section 420 of the code.", "Section 415 defines cheating."],
    "chunks_with_metadata": [
        {
            "id": "IPC_420_0",
            "content": "Whoever cheats ...",
            "score": 0.83,
            "metadata": {"source_path": "statutes/ipc.pdf", "heading": "Cheating", "page_number": 112},
        }
    ],
    "weights": [0.65, 0.35],
    "query": "What is the punishment for cheating?",
}


def _doc_python_blocks(name: str) -> list[str]:
    text = (Path(__file__).resolve().parents[2] / name).read_text(encoding="utf-8")
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.M | re.S)


def _doc_literal(stated: str) -> tuple[bool, object]:
    """The literal `stated` opens with, when the rest is nothing or a parenthesised remark."""
    for end in range(len(stated), 0, -1):
        rest = stated[end:].strip()
        if rest and not rest.startswith("("):
            continue
        try:
            return True, ast.literal_eval(stated[:end].strip())
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
    return False, None


def _doc_matches(actual: object, stated: object) -> bool:
    if stated is Ellipsis:
        return True
    if isinstance(stated, float) and not isinstance(actual, bool) and isinstance(actual, (int, float)):
        shown = repr(stated)
        decimals = len(shown.split(".")[1]) if "." in shown and "e" not in shown else 12
        return abs(actual - stated) <= 0.5 * 10.0**-decimals + 1e-12
    if isinstance(stated, (tuple, list)) and isinstance(actual, (tuple, list)):
        return len(actual) == len(stated) and all(_doc_matches(a, s) for a, s in zip(actual, stated))
    if isinstance(stated, dict) and isinstance(actual, dict):
        return actual.keys() == stated.keys() and all(_doc_matches(actual[k], v) for k, v in stated.items())
    return bool(actual == stated) and isinstance(actual, bool) == isinstance(stated, bool)


def _doc_check(source: str, namespace: dict[str, object]) -> int:
    """Runs one block statement by statement in `namespace`; returns how many stated values it compared."""
    lines = source.splitlines()
    comments = {
        tok.start[0]: tok.string[1:].removeprefix(" ")
        for tok in tokenize.generate_tokens(io.StringIO(source).readline)
        if tok.type == tokenize.COMMENT
    }
    body = ast.parse(source).body
    checked = 0
    for i, stmt in enumerate(body):
        end = stmt.end_lineno or stmt.lineno
        stated_lines = [comments[end]] if end in comments else []
        stop = body[i + 1].lineno if i + 1 < len(body) else len(lines) + 1
        for n in range(end + 1, stop):
            if not lines[n - 1].strip().startswith("#"):
                break
            stated_lines.append(comments[n])
        code = compile(ast.Module([stmt], []), "<doc>", "exec")
        if not isinstance(stmt, ast.Expr) or not stated_lines:
            exec(code, namespace)
            continue
        stated = "\n".join(stated_lines)
        error = re.match(r"(\w+Error): (.*)", stated, flags=re.S)
        if error:
            raised: BaseException | None = None
            try:
                exec(code, namespace)
            except Exception as exc:
                raised = exc
            assert (type(raised).__name__, str(raised)) == (error[1], error[2]), stated
            checked += 1
            continue
        if isinstance(stmt.value, ast.Call) and getattr(stmt.value.func, "id", "") == "print":
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                exec(code, namespace)
            assert out.getvalue().rstrip("\n") == stated, stated
            checked += 1
            continue
        value = eval(compile(ast.Expression(stmt.value), "<doc>", "eval"), namespace)
        if not re.match(r"[\[({'\"<\d-]|True|False|None", stated):
            continue  # a remark, not a value
        ok, literal = _doc_literal(stated)
        if ok:
            assert _doc_matches(value, literal), (ast.unparse(stmt), value, stated)
        else:  # a repr, wrapped and with `...` for what it leaves out
            shown = " ".join(stated.split())
            pattern = ".*?".join(re.escape(part) for part in shown.split("..."))
            assert re.fullmatch(pattern, " ".join(repr(value).split()), flags=re.S), (ast.unparse(stmt), value, stated)
        checked += 1
    return checked


@pytest.mark.parametrize("name", ["README.md", "docs/api.md"])
def test_the_documentation_examples_run_and_state_what_they_return(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import numpy as np

    monkeypatch.chdir(tmp_path)  # the QueryLog example writes queries.sqlite
    namespace: dict[str, object] = {"sc": sc, "np": np, **copy.deepcopy(_DOC_PLACEHOLDERS)}
    checked = 0
    for block in _doc_python_blocks(name):
        if any(marker in block for marker in _DOC_SKIPPED):
            continue
        try:
            ast.parse(block)
        except SyntaxError:
            continue  # a signature (`name(arg: type = default) -> type`), not an example
        checked += _doc_check(block, namespace)
    assert checked >= (2 if name == "README.md" else 30)
