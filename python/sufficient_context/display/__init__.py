"""Notebook views of the result types: ``render_html(result)`` and ``compare(results)``, from Jinja2 templates.

Each result's ``_repr_html_`` calls :func:`render_html`; the views use JupyterLab's theme variables, so they read in
light and dark themes, and need no script or network access.
"""

from __future__ import annotations

from .render import Comparison, compare, render_html, summary_text

__all__ = ["Comparison", "compare", "render_html", "summary_text"]
