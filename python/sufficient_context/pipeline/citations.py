"""The model's citations in the pipeline's own form, ``[S1]``: models asked for ``[S1]`` often write ``[1]``,
``[s1]``, ``(S1)``, ``【S1】`` or the chunk's own id. The pipeline numbered the sources itself, so each of these
names one of them without doubt; the claim check only reads ``[...]`` groups of the ids it was given."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence

__all__ = ["canonical_citations", "source_ids"]

# A bracketed group on one line, short: "[1]", "[S1, S2]", "(S1)", "【S1】", "[IPC_420_0]".
_GROUP = re.compile(r"(\[|\(|【)([^\[\]()【】\n]{1,200})(\]|\)|】)")
_LABEL = re.compile(r"[Ss]\s?(\d{1,6})")
_NUMBER = re.compile(r"\d{1,6}")
_LABEL_CITATION = re.compile(r"\[\s*S\d+\s*[\],]")
_CLOSE = {"[": "]", "(": ")", "【": "】"}


def canonical_citations(draft: str, count: int, ids: Mapping[str, str]) -> str:
    """`draft` with every group that cites the pipeline's sources another way rewritten as ``[S1, S2]``.

    `count` sources are labelled ``S1``..``S<count>``; `ids` maps a source's own id to its label. In a group, every
    part must name a source for the group to change: ``[s1]``, ``[S 1]``, ``(S1)``, ``【S1】``; ``[1]`` and ``【1】``
    when the draft has no ``[S...]`` citation (else a bare number is left as written); ``[IPC_420_0]`` (square
    brackets only). Anything else stays as written: ``(1)``, ``[7]`` of 3 sources, ``[see S1]``.
    """
    numbers = _LABEL_CITATION.search(draft) is None

    def label(part: str, opener: str) -> str | None:
        match = _LABEL.fullmatch(part)
        if match is not None:
            k = int(match.group(1))
            return f"S{k}" if 1 <= k <= count else None
        if opener == "(":
            return None
        if numbers and _NUMBER.fullmatch(part):
            k = int(part)
            return f"S{k}" if 1 <= k <= count else None
        return ids.get(part) if opener == "[" else None

    def rewrite(match: re.Match[str]) -> str:
        opener, inner, closer = match.groups()
        if _CLOSE[opener] != closer:
            return match.group(0)
        labels = [label(part.strip(), opener) for part in re.split(r"[,;]", inner)]
        if not labels or any(x is None for x in labels):
            return match.group(0)
        return "[" + ", ".join(x for x in labels if x is not None) + "]"

    return _GROUP.sub(rewrite, draft)


def source_ids(labels: Sequence[str], own_ids: Sequence[str]) -> dict[str, str]:
    """A source's own id -> its label, for the ids no label shadows and no two sources share."""
    seen = Counter(own_ids)
    return {own: label for label, own in zip(labels, own_ids) if seen[own] == 1 and own and not _LABEL.fullmatch(own)}
