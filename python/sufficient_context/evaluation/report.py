"""The evaluation report: one self-contained HTML file (plots embedded as PNG data URIs), from a Jinja2 template."""

from __future__ import annotations

import base64
import os
from typing import Any

import jinja2

from . import plots
from .summary import Summary

_ENV = jinja2.Environment(
    loader=jinja2.PackageLoader("sufficient_context.evaluation", "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
)
_NAMES = {"sufficiency": ("sufficient", "insufficient"), "claims": ("supported", "unsupported")}


def _data_uri(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def render_report(summary: Summary, title: str = "Evaluation") -> str:
    data = summary.to_dict()
    sections: list[dict[str, Any]] = []
    for check, threshold in (
        ("sufficiency", summary.thresholds["sufficient"]),
        ("claims", summary.thresholds["min_overlap"]),
    ):
        if check not in data:
            continue
        stats = summary.sufficiency if check == "sufficiency" else summary.claims
        section = data[check]
        figures = [("Scores by label", _data_uri(plots.histograms(stats, _NAMES[check], threshold)))]
        if section.get("labelled"):
            if section.get("auroc") is not None:  # with one label only, the "curve" would be a perfect one
                figures.append(("ROC curve", _data_uri(plots.roc(stats, section["auroc"]))))
            figures.append(
                (
                    "What each threshold refuses and lets through",
                    _data_uri(plots.threshold_sweep(stats, _NAMES[check], threshold)),
                )
            )
        sections.append(
            {"name": check, "names": _NAMES[check], "data": section, "figures": figures, "threshold": threshold}
        )
    return _ENV.get_template("report.html.j2").render(title=title, summary=data, sections=sections)


def write_report(summary: Summary, path: str | os.PathLike[str], title: str = "Evaluation") -> None:
    html = render_report(summary, title)
    tmp = f"{os.fspath(path)}.tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(html)
    os.replace(tmp, path)
