"""Notebook views (``sufficient_context.display``): every result type renders through the Jinja2 templates, user
text is escaped, bars follow their own value, answers show each sentence's reason, ``compare`` lays results side by
side, and a notebook executed with nbclient displays them."""

from __future__ import annotations

import json
import os
import sys
from html.parser import HTMLParser
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

import sufficient_context as sc
from sufficient_context._samples import SAMPLE_ANSWER, SAMPLE_CHUNKS, SAMPLE_QUERY
from sufficient_context.display import Comparison, compare, render_html, summary_text

SCORED = [dict(chunk, score=score) for chunk, score in zip(SAMPLE_CHUNKS, (0.83, 0.61, 0.22))]
XSS = "<script>alert(1)</script>"


def _flagging_answer() -> sc.GroundedAnswer:
    # One meta sentence, one the chunk backs, one it does not: kept and flagged.
    scripted = SAMPLE_ANSWER.replace("IPC_420_0", "S1")
    return sc.GroundedAnswerer(on_unsupported="flag").answer(SAMPLE_QUERY, SCORED, lambda system, user: scripted)


def _results() -> dict[str, Any]:
    coverage = sc.ClaimCoverage().check_answer(SAMPLE_ANSWER, SAMPLE_CHUNKS)
    return {
        "sc-sufficiency": sc.SufficientContextChecker().check_sufficiency(SAMPLE_QUERY, SAMPLE_CHUNKS),
        "sc-claim-result": coverage.claims[1],
        "sc-answer-coverage": coverage,
        "sc-retrieval": sc.evaluate_retrieval(SCORED),
        "sc-evidence-sufficiency": sc.is_evidence_sufficient(SAMPLE_QUERY, SAMPLE_CHUNKS),
        "sc-grounded-answer": sc.GroundedAnswerer().answer(SAMPLE_QUERY, SCORED),
    }


class _Node:
    def __init__(self, tag: str, attrs: dict[str, str]) -> None:
        self.tag, self.attrs = tag, attrs
        self.children: list[_Node] = []
        self.parts: list[str] = []  # own text and children's, in order

    @property
    def classes(self) -> list[str]:
        return self.attrs.get("class", "").split()

    @property
    def text(self) -> str:
        return "".join(self.parts)

    def find(self, cls: str) -> list[_Node]:
        found = [self] if cls in self.classes else []
        for child in self.children:
            found += child.find(cls)
        return found


class _Tree(HTMLParser):
    """The page as a tree (the views use no void elements, so every start tag has an end tag)."""

    def __init__(self, page: str) -> None:
        super().__init__()
        self.root = _Node("#root", {})
        self._stack = [self.root]
        self.feed(page)
        self.close()
        assert self._stack == [self.root], "unbalanced tags"

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = _Node(tag, {k: v or "" for k, v in attrs})
        self._stack[-1].children.append(node)
        self._stack.append(node)

    def handle_endtag(self, tag: str) -> None:
        node = self._stack.pop()
        assert node.tag == tag, f"</{tag}> closes <{node.tag}>"
        self._stack[-1].parts.append(node.text)

    def handle_data(self, data: str) -> None:
        self._stack[-1].parts.append(data)


# ---------------------------------------------------------------------------------------------------------------------
# Each view
# ---------------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("root_class", list(_results()))
def test_every_result_type_renders(root_class: str) -> None:
    result = _results()[root_class]
    page = result._repr_html_()
    assert page == render_html(result)
    tree = _Tree(page)
    assert len(tree.root.find(root_class)) == 1
    assert len(tree.root.find("sc-view")) == 1
    assert page.count("<style>") == 1
    assert "var(--jp-" in page  # theme-aware colours
    for external in ("<script", "http://", "https://", "@import", "url(", "<link"):
        assert external not in page  # self-contained: no network, no JavaScript
    assert tree.root.find("sc-badge")
    assert summary_text(result)


def test_user_text_is_escaped() -> None:
    chunks = [
        {"id": f"c{XSS}", "content": f"Cheating {XSS} is punished.", "score": 0.9},
        {"id": "b", "content": "x", "score": 0.5},
    ]
    answer = f"Cheating {XSS} is punished [c{XSS}]. {XSS} [S9]."
    results = [
        sc.ClaimCoverage().check_answer(answer, chunks),
        sc.ClaimCoverage().check_answer(answer, chunks).claims[0],
        sc.evaluate_retrieval(chunks),
        sc.is_evidence_sufficient(f"What is the punishment for {XSS}?", chunks),
        sc.GroundedAnswerer().answer(f"Punishment for cheating {XSS}?", chunks, lambda system, user: answer),
        sc.SufficientContextChecker().check_sufficiency(f"cheating {XSS}", chunks),
    ]
    pages = [render_html(r) for r in results] + [compare(results[:2], labels=[XSS, "two"])._repr_html_()]
    for page in pages:
        assert "<script" not in page
    assert all("&lt;script&gt;" in page for page in pages[:5] + pages[6:])  # the checker keeps only terms of it


def test_each_bar_is_coloured_by_its_own_value() -> None:
    result = sc.SufficientContextChecker().check_sufficiency(
        "Is cheating under Section 420 bailable and compoundable?",
        ["Section 420: cheating under section 420 is punishable."],
    )
    assert result.level == "insufficient"
    assert result.signals["relevance"] >= 0.8
    assert result.signals["coverage"] < 0.5
    rows = _Tree(render_html(result)).root.find("sc-signal")
    assert [row.attrs["data-signal"] for row in rows] == list(result.signals)
    for row in rows:
        value = result.signals[row.attrs["data-signal"]]
        expected = "sc-tone-good" if value >= 0.8 else "sc-tone-fair" if value >= 0.5 else "sc-tone-poor"
        (bar,) = row.find("sc-bar")
        assert expected in bar.classes, (row.attrs["data-signal"], value, bar.classes)
    tones = {row.attrs["data-signal"]: row.find("sc-bar")[0].classes[1] for row in rows}
    assert tones["relevance"] == "sc-tone-good"  # green although the result is insufficient
    assert tones["coverage"] == "sc-tone-poor"


def _walk(node: _Node) -> list[_Node]:
    out = [node]
    for child in node.children:
        out += _walk(child)
    return out


def test_reasons_have_headings() -> None:
    low = sc.SufficientContextChecker().check_sufficiency("Is cheating bailable?", SAMPLE_CHUNKS[:1])
    high = _results()["sc-sufficiency"]
    for result, heading, cls, items in ((low, "Missing", "sc-aspects", low.missing_aspects),
                                        (high, "Why", "sc-factors", high.confidence_factors)):  # fmt: skip
        assert items
        nodes = _walk(_Tree(render_html(result)).root)
        (listing,) = [n for n in nodes if cls in n.classes]
        assert [li.text for li in listing.children] == items
        headings = [n for n in nodes if n.tag == "h4"]
        assert heading in [h.text for h in headings]


def test_answer_views_show_each_sentence_verdict_score_and_reason_on_the_page() -> None:
    report = sc.ClaimCoverage().check_answer(SAMPLE_ANSWER, SAMPLE_CHUNKS)
    (table,) = _Tree(render_html(report)).root.find("sc-sentences")
    rows = table.find("sc-row")
    assert len(rows) == len(report.claims) == 3
    for row, claim in zip(rows, report.claims):
        cells = [c.text for c in row.children]
        assert cells[0] == claim.sentence
        assert cells[1] == claim.status
        assert cells[2] == ("—" if claim.is_meta else f"{claim.score:.2f} / {claim.threshold:.2f}")
        assert row.find("sc-reason")[0].text == claim.reason  # text on the page, not a tooltip

    flagged = _flagging_answer()
    (table,) = _Tree(render_html(flagged)).root.find("sc-sentences")
    rows = table.find("sc-row")
    assert [r.children[1].text for r in rows] == ["meta", "supported", "unsupported"]
    assert rows[2].children[0].text == flagged.unsupported_sentences[0]
    assert rows[1].children[3].text == "S1 = IPC_420_0 (0.83)"
    validated = [c for c in flagged.claims if c["status"] != "meta"]
    assert [r.children[2].text for r in rows[1:]] == [f"{c['score']:.2f} / {c['threshold']:.2f}" for c in validated]
    assert rows[2].find("sc-reason")[0].text == f"Kept and flagged: {validated[1]['reason']}"  # the pipeline's own
    assert all(r.find("sc-reason")[0].text for r in rows)

    removed = sc.GroundedAnswerer().answer(SAMPLE_QUERY, SCORED, lambda s, u: SAMPLE_ANSWER.replace("IPC_420_0", "S1"))
    rows = _Tree(render_html(removed)).root.find("sc-row")
    assert [r.children[1].text for r in rows] == ["meta", "supported", "removed"]
    assert rows[2].children[0].text == removed.removed_sentences[0]
    assert rows[2].find("sc-reason")[0].text.startswith("Removed from the answer: not covered")

    weak = sc.GroundedAnswerer(weak_score=0.9).answer(SAMPLE_QUERY, SCORED)
    (banner,) = _Tree(render_html(weak)).root.find("sc-message")
    assert banner.text == sc.LOW_CONFIDENCE_BANNER


def test_compare_puts_results_side_by_side() -> None:
    results = _results()
    picked = [results["sc-sufficiency"], results["sc-retrieval"], results["sc-answer-coverage"]]
    view = compare(picked)
    assert isinstance(view, Comparison)
    page = view._repr_html_()
    tree = _Tree(page)
    (row,) = tree.root.find("sc-compare")
    cards = row.find("sc-card")
    assert len(cards) == 3
    assert [c.find("sc-card-label")[0].text for c in cards] == [
        "1. SufficiencyResult",
        "2. RetrievalDecision",
        "3. AnswerCoverage",
    ]
    assert [len(c.find(cls)) for c, cls in zip(cards, ("sc-sufficiency", "sc-retrieval", "sc-answer-coverage"))] == [
        1,
        1,
        1,
    ]
    assert page.count("<style>") == 1  # one CSS block for the whole row
    text = str(view).splitlines()
    assert len(text) == 3
    assert text[0] == f"1. SufficiencyResult: {summary_text(picked[0])}"
    labelled = compare(picked[:2], labels=("before", "after"))
    assert [c.find("sc-card-label")[0].text for c in _Tree(labelled._repr_html_()).root.find("sc-card")] == [
        "before",
        "after",
    ]
    with pytest.raises(ValueError, match="got 2 results but 1 labels"):
        compare(picked[:2], labels=["one"])
    with pytest.raises(TypeError, match="no notebook view for dict"):
        compare([{}])
    with pytest.raises(TypeError, match="no notebook view for object"):
        render_html(object())


def test_templates_ship_inside_the_package() -> None:
    # The wheel packs python/sufficient_context whole: templates inside it travel with the code.
    names = {p.name for p in resources.files("sufficient_context.display").joinpath("templates").iterdir()}
    assert {"base.html.j2", "macros.html.j2", "style.css.j2", "compare.html.j2"} <= names
    assert len([n for n in names if n.endswith(".html.j2")]) == 6 + 3


# ---------------------------------------------------------------------------------------------------------------------
# A real notebook
# ---------------------------------------------------------------------------------------------------------------------
def test_notebook_shows_the_views(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import nbclient
    import nbformat

    # The kernel runs this interpreter and imports this copy of the package; Jupyter state stays in tmp_path.
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(sc.__file__)))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in (package_parent, os.environ.get("PYTHONPATH")) if p))
    spec = tmp_path / "jupyter" / "kernels" / "python3"
    spec.mkdir(parents=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    (spec / "kernel.json").write_text(json.dumps({"argv": argv, "display_name": "Python 3", "language": "python"}))
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "runtime"))
    monkeypatch.setenv("JUPYTER_PLATFORM_DIRS", "1")
    monkeypatch.setenv("IPYTHONDIR", str(tmp_path / "ipython"))

    cells = [
        "import sufficient_context as sc\nfrom sufficient_context.display import compare",
        "r = sc.SufficientContextChecker().check_sufficiency('What is the punishment for cheating?', "
        "['Whoever cheats shall be punished with imprisonment.'])",
        "r",
        "compare([r, sc.evaluate_retrieval([0.9, 0.4])], labels=['check', 'gate'])",
    ]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in cells])
    nbformat.write(nb, tmp_path / "views.ipynb")
    nb = nbformat.read(tmp_path / "views.ipynb", as_version=4)
    nbclient.NotebookClient(
        nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()

    def html_of(cell: Any) -> str:
        (output,) = [o for o in cell.outputs if o.output_type == "execute_result"]
        assert "text/plain" in output.data
        return str(output.data["text/html"])

    single = _Tree(html_of(nb.cells[2])).root
    assert len(single.find("sc-sufficiency")) == 1
    assert single.find("sc-badge")[0].text in ("sufficient", "partial", "insufficient")
    assert single.find("sc-bar-fill")
    row = _Tree(html_of(nb.cells[3])).root
    cards = row.find("sc-card")
    assert [c.find("sc-card-label")[0].text for c in cards] == ["check", "gate"]
    assert row.find("sc-sufficiency")
    assert row.find("sc-retrieval")
