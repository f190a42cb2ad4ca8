"""The summary of evaluated rows as one Ray aggregation: each block is tallied into the local runner's mergeable
``Summary`` (the same ``tally`` the runner calls per row) and the partial summaries are merged. Its sums are exact
and its counts order-free, so the JSON equals the local ``eval``'s whatever the blocks and the merge order."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..evaluation.runner import tally
from ..evaluation.summary import Summary
from ._deps import ray_module
from .columns import THRESHOLD_KEYS

if TYPE_CHECKING:
    import ray.data

_NEEDED = ("line", "kind", "label", "check", "error", "thresholds", "sufficiency_score", "sufficiency_level",
           "claims_score", "grounded", "supported_ratio", "attribution_coverage")  # fmt: skip


class Partial:
    """A summary so far and the thresholds its rows were scored with (None before the first row)."""

    __slots__ = ("summary",)

    def __init__(self, summary: Summary | None = None) -> None:
        self.summary = summary

    def merge(self, other: Partial) -> Partial:
        if other.summary is None:
            return self
        if self.summary is None:
            return other
        if self.summary.thresholds != other.summary.thresholds:
            raise ValueError(
                "the rows were scored with different thresholds "
                f"({self.summary.thresholds} and {other.summary.thresholds}); summarize one run's results at a time"
            )
        examples = sorted(self.summary.bad_examples + other.summary.bad_examples, key=lambda e: (e["line"], e["error"]))
        self.summary.merge(other.summary)
        # The first bad rows by line number, as a local run (which reads in line order) reports them.
        self.summary.bad_examples = examples[: Summary.MAX_EXAMPLES]
        return self


def tally_block(block: Any) -> Partial:
    """The partial summary of one block (an Arrow table of result rows)."""
    partial = Partial()
    for row in block.to_pylist():
        thresholds = {k: row["thresholds"][k] for k in THRESHOLD_KEYS}
        if partial.summary is None:
            partial.summary = Summary(thresholds)
        elif partial.summary.thresholds != thresholds:
            partial.merge(Partial(Summary(thresholds)))  # raises: rows of two runs
        summary = partial.summary
        if row["error"] is not None:
            summary.bad(row["line"] or 0, row["error"])
        else:
            tally(summary, _tallied(row), row["check"])
    if partial.summary is not None:
        partial.summary.bad_examples.sort(key=lambda e: (e["line"], e["error"]))
    return partial


def _tallied(row: dict[str, Any]) -> dict[str, Any]:
    """The part of a row's record that ``tally`` reads (the lists of terms and sentences are not read back). Not
    ``record_of``: ``summary_of`` selects only the columns in ``_NEEDED``, so the others are not in the row."""
    record: dict[str, Any] = {"label": row["label"], "kind": row["kind"]}
    if row["sufficiency_level"] is not None:
        record["sufficiency"] = {"score": row["sufficiency_score"], "level": row["sufficiency_level"]}
    if row["claims_score"] is not None:
        record["claims"] = {
            "score": row["claims_score"],
            "grounded": row["grounded"],
            "supported_ratio": row["supported_ratio"],
            "attribution_coverage": row["attribution_coverage"],
        }
    return record


def summary_of(results: ray.data.Dataset) -> Summary:
    """The :class:`~sufficient_context.evaluation.Summary` of evaluated rows (for ``write_report``)."""
    ray = ray_module()
    from ray.data.aggregate import AggregateFnV2

    if not isinstance(results, ray.data.Dataset):
        raise TypeError(f"results must be a ray.data.Dataset; got {type(results).__name__}")

    class SummaryAggregate(AggregateFnV2[Partial, Partial]):
        def __init__(self) -> None:
            super().__init__("summary", zero_factory=Partial, on=None, ignore_nulls=False)

        def aggregate_block(self, block: Any) -> Partial:
            from ray.data.block import BlockAccessor

            return tally_block(BlockAccessor.for_block(block).to_arrow())

        def combine(self, current: Partial, new: Partial) -> Partial:
            return current.merge(new)

    outcome = results.select_columns(list(_NEEDED)).aggregate(SummaryAggregate())
    partial = None if outcome is None else outcome["summary"]
    if partial is None or partial.summary is None:
        raise ValueError("results hold no rows")
    return partial.summary  # type: ignore[no-any-return]


def summarize(results: ray.data.Dataset) -> dict[str, Any]:
    """Level counts, score distribution, and AUROC / accuracy per ``kind`` when labels exist: the same JSON as
    the local ``eval``'s ``summary.json``."""
    return summary_of(results).to_dict()
