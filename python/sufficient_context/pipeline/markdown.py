"""Markdown in a model's answer: which lines are claims, and what is shown once unsupported sentences are gone.

Models answer in Markdown. Its structure is not a claim: a heading, a code fence's ``` lines, a thematic break and
the model's own trailing "Sources:" list are blanked (spaces, same length, so offsets still index the draft) in the
text the claim check reads. The shown answer is the draft without the sentences that are not kept, rebuilt line by
line so it stays valid Markdown: a list item keeps its marker when its first sentence goes, a heading stays only
over kept sentences it is supported by, a fence stays closed, a table is kept or dropped whole, and the model's source
list is dropped (the pipeline lists the sources the kept sentences cite).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ..claims import AnswerCoverage, ClaimResult

__all__ = ["Layout", "layout"]

_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})(.*)")
_SETEXT = re.compile(r" {0,3}(=+|-+)[ \t]*")
_BREAK = re.compile(r" {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*")
# Space runs are possessive ("*+") where what follows never starts with a space or tab, so giving spaces back never
# helps a match: otherwise a run of n spaces splits n**k ways before a failure ("**Sources" + 400 spaces + "x" took
# 28 s).
_TABLE_DELIMITER = re.compile(r" {0,3}\|?[ \t]*+:?-+:?[ \t]*+(?:\|[ \t]*+:?-+:?[ \t]*+)*\|?[ \t]*")
_MARKER = re.compile(r"([ \t]*)([-*+•]|\d{1,9}[.)]|\(?[A-Za-z]\))[ \t]+")
_EMPHASIS = r"(?:\*\*|__|\*|_)?"
_GROUPS = r"(?:\[[^\]\n]*\][ \t]*+[,;]?[ \t]*+)+\.?"
_SOURCES_LABEL = re.compile(
    rf" {{0,3}}(?:#{{1,6}}[ \t]++)?{_EMPHASIS}[ \t]*+(?:sources?|references?|citations?|bibliography)[ \t]*+"
    rf"{_EMPHASIS}[ \t]*+:?[ \t]*+{_EMPHASIS}[ \t]*+(?:{_GROUPS})?",
    re.IGNORECASE,
)
_SOURCE_ITEM = re.compile(r"[ \t]*(?:(?:[-*+•]|\d{1,9}[.)])[ \t]+\S|\[)")


def _atx(line: str) -> tuple[int, str] | None:
    r"""(level, title) of an ATX heading line, else None: what ``" {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*"``
    matches (fullmatch) as group 1's length and group 2, without its lazy title, which tried the rest of the line
    from every character (a heading with 8,000 spaces inside took 0.35 s, growing as the square; see
    retrieval/documents.py's _heading)."""
    indent = len(line) - len(line.lstrip(" "))
    if indent > 3:
        return None
    after = len(line) - len(line[indent:].lstrip("#"))
    level = after - indent
    if not 1 <= level <= 6:
        return None
    rest = line[after:]
    if rest and rest[0] not in " \t":
        return None
    # The shortest title whose remainder is white space, or white space, "#"s and white space.
    title = rest.lstrip(" \t").rstrip(" \t")
    body = title.rstrip("#")
    if body != title and body and body[-1] in " \t":
        title = body.rstrip(" \t")
    return level, title


@dataclass(frozen=True)
class _Heading:
    start: int  # its first line
    end: int  # its last line's end
    level: int
    title: str


@dataclass(frozen=True)
class _Fence:
    opener: tuple[int, int]
    closer: tuple[int, int] | None  # None: the draft never closes it
    marker: str


@dataclass(frozen=True)
class Layout:
    """A draft's Markdown structure. ``text``: what the claim check reads (the draft, its structure blanked)."""

    draft: str
    text: str
    headings: tuple[_Heading, ...]
    fences: tuple[_Fence, ...]
    breaks: tuple[tuple[int, int], ...]
    tables: tuple[tuple[int, int], ...]
    sources: tuple[int, int] | None  # the model's own trailing source list

    def keep(
        self, report: AnswerCoverage, keep_uncovered: bool, heading_supported: Callable[[str, list[str]], bool]
    ) -> tuple[str, list[ClaimResult], tuple[str, ...]]:
        """The answer to show, the kept claims, and the headings the chunks do not support.

        Uncovered claims (and unsupported headings) are kept only with `keep_uncovered` ("flag"). A table is one
        unit: one of its sentences not kept drops all of them (a row read without its header is no claim the check
        can judge). A heading stays over kept claims only, when `heading_supported(title, ids those claims cite)`:
        a heading can state a claim too ("## Cheating is punished with death")."""
        claims = list(report.claims)  # in order, disjoint
        starts = [c.start for c in claims]
        ends = [c.end for c in claims]
        keeping = {id(c) for c in claims if c.is_covered or keep_uncovered}
        for start, end in self.tables:
            inside = claims[bisect_right(ends, start) : bisect_left(starts, end)]
            if any(id(c) not in keeping for c in inside):
                keeping -= {id(c) for c in inside}
        kept = [c for c in claims if id(c) in keeping]
        kept_starts = [c.start for c in kept]
        deleted = [(c.start, c.end) for c in claims if id(c) not in keeping]
        unsupported: list[str] = []
        following = [len(self.draft)] * 7  # by level: where the next heading of that level starts
        section_ends: list[int] = []
        for heading in reversed(self.headings):
            section_ends.append(min(following[1 : heading.level + 1]))
            following[heading.level] = heading.start
        for heading, section_end in zip(self.headings, reversed(section_ends)):
            under = kept[bisect_left(kept_starts, heading.end) : bisect_left(kept_starts, section_end)]
            ids = list(dict.fromkeys(i for c in under for i in c.citations))
            supported = bool(under) and heading_supported(heading.title, ids)
            if under and not supported:
                unsupported.append(self.draft[heading.start : heading.end].strip())
            if not under or not (supported or keep_uncovered):
                deleted.append((heading.start, heading.end))
        closers: list[str] = []
        for fence in self.fences:
            body_end = fence.closer[0] if fence.closer is not None else len(self.draft)
            if bisect_left(kept_starts, fence.opener[1]) < bisect_left(kept_starts, body_end):
                if fence.closer is None:
                    closers.append(fence.marker)
            else:
                deleted.append(fence.opener)
                if fence.closer is not None:
                    deleted.append(fence.closer)
        if self.sources is not None:
            deleted.append(self.sources)
        shown = _rebuild(self.draft, deleted, self.breaks, [(f.opener[0], (f.closer or (0, len(self.draft)))[1])
                                                            for f in self.fences])  # fmt: skip
        if closers:  # an unclosed fence would make everything after it (the caveat too) code
            shown = shown + "\n" + "\n".join(closers)
        return shown, kept, tuple(unsupported)


def layout(draft: str) -> Layout:
    """The Markdown structure of `draft` (see the module docstring); a draft without any has ``text == draft``."""
    lines: list[tuple[int, int]] = []
    position = 0
    for raw in draft.split("\n"):
        lines.append((position, position + len(raw)))
        position += len(raw) + 1
    line_text = [draft[a:b] for a, b in lines]
    blank_spans: list[tuple[int, int]] = []
    headings: list[_Heading] = []
    fences: list[_Fence] = []
    breaks: list[tuple[int, int]] = []
    tables: list[tuple[int, int]] = []
    in_code = [False] * len(lines)
    i = 0
    while i < len(lines):
        text = line_text[i]
        fence = _FENCE.fullmatch(text)
        if fence is not None and not (fence.group(1)[0] == "`" and "`" in fence.group(2)):
            marker = fence.group(1)
            closer = next(
                (j for j in range(i + 1, len(lines))
                 if re.fullmatch(rf" {{0,3}}{re.escape(marker[0])}{{{len(marker)},}}[ \t]*", line_text[j])),
                None,
            )  # fmt: skip
            last = closer if closer is not None else len(lines) - 1
            for j in range(i + 1, last + 1):
                in_code[j] = True
            blank_spans.append(lines[i])
            if closer is not None:
                blank_spans.append(lines[closer])
            fences.append(_Fence(lines[i], None if closer is None else lines[closer], marker))
            i = last + 1
            continue
        heading = _atx(text)
        previous_blank = i == 0 or not line_text[i - 1].strip()
        if heading is not None:
            headings.append(_Heading(lines[i][0], lines[i][1], heading[0], heading[1].strip()))
            blank_spans.append(lines[i])
        elif (text.strip() and previous_blank and i + 1 < len(lines) and _SETEXT.fullmatch(line_text[i + 1])
              and "|" not in text and _MARKER.match(text) is None):  # fmt: skip
            level = 1 if line_text[i + 1].strip()[0] == "=" else 2
            headings.append(_Heading(lines[i][0], lines[i + 1][1], level, text.strip()))
            blank_spans.append((lines[i][0], lines[i + 1][1]))
            i += 2
            continue
        elif _BREAK.fullmatch(text):
            breaks.append(lines[i])
            blank_spans.append(lines[i])
        elif (
            "|" in text
            and i + 1 < len(lines)
            and "|" in line_text[i + 1]
            and _TABLE_DELIMITER.fullmatch(line_text[i + 1])
        ):
            j = i + 2
            while j < len(lines) and line_text[j].strip() and _FENCE.fullmatch(line_text[j]) is None:
                j += 1
            tables.append((lines[i][0], lines[j - 1][1]))
            i = j
            continue
        i += 1
    sources = _source_list(lines, line_text, in_code, tables)
    if sources is not None:
        headings = [h for h in headings if h.start < sources[0]]
        blank_spans = [s for s in blank_spans if s[0] < sources[0]] + [sources]
    chars = list(draft)
    for start, end in blank_spans:
        for k in range(start, end):
            if chars[k] != "\n":
                chars[k] = " "
    return Layout(draft, "".join(chars), tuple(headings), tuple(fences), tuple(breaks), tuple(tables), sources)


def _source_list(
    lines: Sequence[tuple[int, int]],
    line_text: Sequence[str],
    in_code: Sequence[bool],
    tables: Iterable[tuple[int, int]],
) -> tuple[int, int] | None:
    """The span of the draft's trailing source list: a "Sources:" / "References:" label (a heading or bold too, or
    followed by its [S1] markers on the line) and nothing after it but list items or lines opening with "["."""
    last = len(lines) - 1
    while last >= 0 and not line_text[last].strip():
        last -= 1
    for label in range(last, -1, -1):
        text = line_text[label]
        if in_code[label]:
            return None
        if _SOURCES_LABEL.fullmatch(text) is not None:
            items = [line_text[j] for j in range(label + 1, last + 1) if line_text[j].strip()]
            inline = "[" in text
            if (items or inline) and all(_SOURCE_ITEM.match(item) for item in items):
                start = lines[label][0]
                if any(a <= start <= b for a, b in tables):
                    return None
                return start, lines[last][1]
            return None
        if text.strip() and _SOURCE_ITEM.match(text) is None:
            return None
    return None


def _rebuild(
    draft: str, deleted: Sequence[tuple[int, int]], breaks: Sequence[tuple[int, int]], code: Sequence[tuple[int, int]]
) -> str:
    """`draft` without the `deleted` spans (disjoint), line by line: a line left blank by a deletion goes; a list
    item whose first sentence went keeps its marker (on the line after, too, when that sentence ran on); blank lines
    and thematic breaks do not pile up."""
    spans = sorted(deleted)
    fences = sorted(code)
    starts = {a for a, _ in breaks}
    out: list[tuple[str, bool, bool]] = []  # (line, is a thematic break, is in a code block)
    pending = ""  # the marker of an item whose first line went with a sentence that runs on
    position = k = f = 0
    for raw in draft.split("\n"):
        start, end = position, position + len(raw)
        position = end + 1
        while k < len(spans) and spans[k][1] <= start:
            k += 1
        while f < len(fences) and fences[f][1] <= start:
            f += 1
        in_code = f < len(fences) and fences[f][0] <= start
        kept = ""
        cursor = start
        runs_on = cut = False
        j = k
        while j < len(spans) and spans[j][0] <= end:
            a, b = spans[j]
            runs_on = runs_on or b > end
            if a < end and b > start:
                cut = True
                kept += draft[cursor:a] if a > cursor else ""
                cursor = max(cursor, min(b, end))
                while cursor < end and draft[cursor] in " \t":  # the space after a removed sentence goes with it
                    cursor += 1
            j += 1
        if not cut:
            out.append((raw, start in starts, in_code))
            pending = ""
            continue
        kept += draft[cursor:end]
        marker = None if in_code else _MARKER.match(raw)
        if not kept.strip():
            pending = (marker.group(0) if marker is not None else pending) if runs_on else ""
            continue
        if marker is not None and not kept.startswith(marker.group(0)):
            kept = marker.group(0) + kept.lstrip()
        elif pending and _MARKER.match(kept) is None:
            kept = pending + kept.lstrip()
        pending = ""
        out.append((kept.rstrip(), False, in_code))
    lines: list[tuple[str, bool]] = []  # (line, is a thematic break)
    seen_text = False
    for text, is_break, in_code in out:
        if not text.strip():
            if (not lines or not lines[-1][0].strip()) and not in_code:
                continue
        elif is_break:
            if not seen_text or _last_is_break(lines):  # a break after nothing, or twice
                continue
        else:
            seen_text = True
        lines.append((text, is_break))
    while lines and (not lines[-1][0].strip() or lines[-1][1]):  # a break with nothing after it goes
        lines.pop()
    return "\n".join(line for line, _ in lines).strip()


def _last_is_break(lines: Sequence[tuple[str, bool]]) -> bool:
    """Whether the last non-blank line of `lines` is a thematic break."""
    return next((is_break for line, is_break in reversed(lines) if line.strip()), False)
