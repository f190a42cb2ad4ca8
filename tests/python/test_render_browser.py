"""The evaluation report and the notebook views in a real browser (headless Chromium): text from documents, models
and datasets (markup, a long unbroken token, a right-to-left override) shows as text, in its own box, in its own
direction."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import sufficient_context as sc
from sufficient_context.display import compare, render_html
from sufficient_context.evaluation import evaluate_file

INJECT = '<img src=x id="injected" onerror="document.title=\'PWNED\'">'
TOKEN = "K" * 2000  # no space to wrap at


def _fits_the_window(driver: Any) -> bool:
    return bool(
        driver.execute_script("return document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    )


def _reads_left_to_right(driver: Any, element: Any) -> bool:
    """Whether the element's first character is drawn left of its second (a U+202E override would swap them)."""
    return bool(driver.execute_script(
        """const text = arguments[0].firstChild, range = document.createRange();
        const x = i => {
            range.setStart(text, i); range.setEnd(text, i + 1); return range.getBoundingClientRect().left;
        };
        return x(0) < x(1);""", element))  # fmt: skip


def test_report_of_hostile_rows_runs_nothing_and_keeps_its_tables_on_the_page(tmp_path: Path, browser: Any) -> None:
    rows = [
        {"query": "What is the punishment for cheating?", "contexts": ["Cheating is punished with seven years."],
         "label": "sufficient" if i % 2 else "insufficient", "kind": (INJECT, TOKEN)[i % 2]}
        for i in range(6)
    ]  # fmt: skip
    lines = [json.dumps(row) for row in rows] + [json.dumps({"query": "q", "contexts": ["c"], "label": TOKEN * 50})]
    data = tmp_path / "rows.jsonl"
    data.write_text("\n".join(lines) + "\n", encoding="utf-8")
    evaluate_file(data, tmp_path / "out", threads=1)

    (bad,) = json.loads((tmp_path / "out" / "summary.json").read_text(encoding="utf-8"))["bad_row_examples"]
    assert bad["line"] == 7
    assert bad["error"].startswith("label must be one of")
    assert len(bad["error"]) <= 300  # not the 100 kB label
    browser.get((tmp_path / "out" / "report.html").as_uri())
    assert browser.title == f"Evaluation of {data}"
    assert not browser.find_elements("id", "injected")
    assert INJECT in browser.find_element("tag name", "body").text
    assert _fits_the_window(browser)  # the per-kind table's numbers are on the page, not 2,000 characters right
    (headers,) = [t for t in browser.find_elements("tag name", "table") if "AUROC" in t.text and "kind" in t.text]
    width = browser.execute_script("return document.documentElement.clientWidth")
    assert headers.rect["x"] + headers.rect["width"] <= width


def test_report_draws_no_roc_curve_for_one_label(tmp_path: Path) -> None:
    data = tmp_path / "one-label.jsonl"
    row = {"query": "What is the punishment for cheating?", "contexts": ["Cheating is punished."], "label": True}
    data.write_text(json.dumps(row) + "\n", encoding="utf-8")
    summary = evaluate_file(data, tmp_path / "out", threads=1)
    assert summary.to_dict()["sufficiency"]["auroc"] is None
    html = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert "ROC curve" not in html  # one label: a "curve" from (0, 0) to (0, 1) would read as a perfect one
    assert html.count("data:image/png;base64,") == 2  # the score histogram and the threshold sweep


def test_notebook_views_wrap_long_tokens_and_end_a_direction_override_with_its_sentence(
    tmp_path: Path, browser: Any
) -> None:
    chunks = [{"id": f"id-{TOKEN}", "content": "Cheating is punished with seven years.", "score": 0.9}]
    answer = f"Cheating is punished {INJECT} \u202e[id-{TOKEN}]. It is punished with seven years [id-{TOKEN}]."
    coverage = sc.ClaimCoverage().check_answer(answer, chunks)
    views = [coverage, coverage.claims[1], sc.evaluate_retrieval(chunks)]
    page = "".join(render_html(v) for v in views) + compare(views, labels=[TOKEN, "claim", "gate"])._repr_html_()
    (tmp_path / "views.html").write_text(f"<!doctype html><meta charset=utf-8><body>{page}", encoding="utf-8")
    browser.get((tmp_path / "views.html").as_uri())
    assert not browser.find_elements("id", "injected")
    assert _fits_the_window(browser)
    # the override in the first sentence does not run on into the second, a span of its own
    second = browser.find_elements("css selector", ".sc-answer .sc-claim")[1]
    assert second.text.startswith("It is punished")
    assert _reads_left_to_right(browser, second)
