"""The result columns the Ray stage adds, and the conversion between them and the local runner's records (the
lines of ``results.jsonl``), so both engines' results compare field by field."""

from __future__ import annotations

from typing import Any

from ..querylog.inputs import clean_text
from ._deps import pyarrow_module

#: Result columns, in order. ``line`` is null for rows not read from a JSONL file; ``check`` is the check the
#: row's label grades; ``error`` is why the row could not be evaluated (its other results are then null).
RESULT_COLUMNS = (
    "line",
    "id",
    "kind",
    "label",
    "check",
    "error",
    "sufficiency_score",
    "sufficiency_level",
    "missing_terms",
    "missing_aspects",
    "claims_score",
    "grounded",
    "supported_ratio",
    "attribution_coverage",
    "uncovered",
    "thresholds",
)
THRESHOLD_KEYS = ("sufficient", "partial", "min_overlap")


def result_schema() -> Any:
    pa = pyarrow_module()
    strings = pa.list_(pa.string())
    uncovered = pa.struct([("sentence", pa.string()), ("score", pa.float64()), ("reason", pa.string())])
    types = {
        "line": pa.int64(),
        "id": pa.string(),
        "kind": pa.string(),
        "label": pa.bool_(),
        "check": pa.string(),
        "error": pa.string(),
        "sufficiency_score": pa.float64(),
        "sufficiency_level": pa.string(),
        "missing_terms": strings,
        "missing_aspects": strings,
        "claims_score": pa.float64(),
        "grounded": pa.bool_(),
        "supported_ratio": pa.float64(),
        "attribution_coverage": pa.float64(),
        "uncovered": pa.list_(uncovered),
        "thresholds": pa.struct([(k, pa.float64()) for k in THRESHOLD_KEYS]),
    }
    return pa.schema([(name, types[name]) for name in RESULT_COLUMNS])


def result_row(
    line: int | None,
    record: dict[str, Any] | None,
    check: str | None,
    error: str | None,
    thresholds: dict[str, float],
) -> dict[str, Any]:
    """One output row from a local-runner record (or from an error)."""
    row: dict[str, Any] = dict.fromkeys(RESULT_COLUMNS)
    row.update(line=line, check=check, error=error, thresholds=thresholds)
    if record is None:
        return row
    row.update(id=record["id"], kind=record["kind"], label=record["label"])
    suff = record.get("sufficiency")
    if suff is not None:
        row.update(
            sufficiency_score=suff["score"],
            sufficiency_level=suff["level"],
            missing_terms=suff["missing_terms"],
            missing_aspects=suff["missing_aspects"],
        )
    claim = record.get("claims")
    if claim is not None:
        row.update(
            claims_score=claim["score"],
            grounded=claim["grounded"],
            supported_ratio=claim["supported_ratio"],
            attribution_coverage=claim["attribution_coverage"],
            uncovered=claim["uncovered"],
        )
    return row


def to_table(rows: list[dict[str, Any]]) -> Any:
    """The rows as an Arrow table of :func:`result_schema`. Text that UTF-8 cannot hold (lone surrogates from
    JSON escapes) becomes U+FFFD, as in the query log."""
    pa = pyarrow_module()
    schema = result_schema()
    try:
        return pa.Table.from_pylist(rows, schema=schema)
    except UnicodeEncodeError:
        return pa.Table.from_pylist([_clean(row) for row in rows], schema=schema)


def _clean(value: Any) -> Any:
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


def record_of(row: dict[str, Any]) -> dict[str, Any] | None:
    """The local runner's record (a line of ``results.jsonl``) of one result row; None for an error row."""
    if row["error"] is not None:
        return None
    record: dict[str, Any] = {"line": row["line"], "id": row["id"], "kind": row["kind"], "label": row["label"]}
    if row["sufficiency_level"] is not None:
        record["sufficiency"] = {
            "score": row["sufficiency_score"],
            "level": row["sufficiency_level"],
            "missing_terms": row["missing_terms"],
            "missing_aspects": row["missing_aspects"],
        }
    if row["claims_score"] is not None:
        record["claims"] = {
            "score": row["claims_score"],
            "grounded": row["grounded"],
            "supported_ratio": row["supported_ratio"],
            "attribution_coverage": row["attribution_coverage"],
            "uncovered": row["uncovered"],
        }
    return record
