"""The README's and api.md's examples run as a reader would copy them, and give what their comments state."""

from __future__ import annotations

import ast
import contextlib
import copy
import io
import re
import tokenize
from pathlib import Path

import pytest

import sufficient_context as sc

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
