"""Scale-out on Ray Data: the package's checks as a Ray Data stage, for evaluating millions of logged RAG turns
with the same results as one machine (extra ``[ray]``).

.. code-block:: python

    from sufficient_context import scale

    scale.write_results(scale.evaluate(scale.read("turns.jsonl")), "results/")  # rows scored once, on actors
    print(scale.summarize(scale.read_parquet("results/")))  # the local eval's summary.json

Ray is imported when a function runs, not with this module."""

from __future__ import annotations

from .columns import RESULT_COLUMNS, record_of
from .engine import run
from .readers import read, read_jsonl, read_parquet, write_results
from .stage import CHECKS, evaluate
from .summarize import summarize, summary_of

__all__ = [
    "CHECKS",
    "RESULT_COLUMNS",
    "evaluate",
    "read",
    "read_jsonl",
    "read_parquet",
    "record_of",
    "run",
    "summarize",
    "summary_of",
    "write_results",
]
