"""Plain-Python references of the sentence splitter and citation markers: test oracles of the C++ core.

Mirrors ``src/text/citations.*`` exactly (regular expressions) and ``src/text/sentences.*`` on a simplified
domain: text without single line breaks (paragraphs separated by blank lines only), so no list, heading or
line-wrap rules, and without CJK punctuation. Offsets are ``str`` indices. Slow by design; nothing at run time
uses it. (To be merged into ``_reference.py``.)
"""

from __future__ import annotations

import re

from ._reference import _HAS_LETTER_RE, reference_simple_fold

__all__ = [
    "reference_citation_ids",
    "reference_citation_runs",
    "reference_extract_citations",
    "reference_split_sentences",
    "reference_strip_citations",
]

# ==================================================================================================
# Citation markers (src/text/citations.*)
# ==================================================================================================

# An id: ASCII letters, digits and _ - . : #, with at least one letter or digit.
_ID = r"[_.:#-]*[A-Za-z0-9][A-Za-z0-9_.:#-]*"
# A group: [id (sep id)*] with sep "," or ";", spaces/tabs around; not a Markdown link "[x](url)".
_GROUP = rf"\[[ \t]*{_ID}(?:[ \t]*[,;][ \t]*{_ID})*[ \t]*\](?!\()"
_GROUP_RE = re.compile(_GROUP)
# A run: groups separated by spaces/tabs and at most one "," or ";".
_RUN_RE = re.compile(rf"{_GROUP}(?:[ \t]*[,;]?[ \t]*{_GROUP})*")
_ID_CHARS_RE = re.compile(r"[A-Za-z0-9_.:#-]+")

_CLOSING = (".", ",", ";", ":", "!", "?", ")", "]", "}",
            "\u201d", "\u2019", "\u00bb", "\u2026", "\u3002", "\uff0c", "\u3001", "\uff01", "\uff1f",
            "\uff09", "\uff1b", "\uff1a", "\u300d", "\u300f")  # fmt: skip
_OPENING = ("(", "[", "{", "\u201c", "\u2018", "\u00ab", "\uff08", "\u300c", "\u300e")


def reference_extract_citations(text: str) -> list[tuple[str, int, int]]:
    """(id, start, end) of every cited id, in order, duplicates kept."""
    out: list[tuple[str, int, int]] = []
    for group in _GROUP_RE.finditer(text):
        # Inside a matched group the maximal runs of id characters are exactly its ids.
        for id_match in _ID_CHARS_RE.finditer(text, group.start() + 1, group.end() - 1):
            out.append((id_match.group(), id_match.start(), id_match.end()))
    return out


def reference_citation_ids(text: str) -> list[str]:
    """Distinct cited ids in first-seen order."""
    return list(dict.fromkeys(id_ for id_, _, _ in reference_extract_citations(text)))


def reference_citation_runs(text: str) -> list[tuple[int, int]]:
    """(start, end) of every citation run."""
    return [m.span() for m in _RUN_RE.finditer(text)]


def _needs_space(out: str, rest: str, touched: bool) -> bool:
    if not out or out[-1] in "\n\r" or not rest or rest[0] in "\n\r":
        return False
    if rest.startswith(_CLOSING) or (touched and rest[0] in "\"'"):
        return False
    return not out.endswith(_OPENING)


def reference_strip_citations(text: str) -> str:
    """`text` without citation runs; spaces/tabs around each become one space or nothing."""
    out = ""
    cursor = 0
    for run in _RUN_RE.finditer(text):
        out = (out + text[cursor : run.start()]).rstrip(" \t")
        after = run.end()
        while after < len(text) and text[after] in " \t":
            after += 1
        if _needs_space(out, text[after:], after == run.end()):
            out += " "
        cursor = after
    return out + text[cursor:]


# ==================================================================================================
# Sentence splitter (src/text/sentences.*), simplified domain: no single line breaks, no CJK
# ==================================================================================================

# The built-in abbreviations: "never" ends a sentence on its line, "before_opener" ends one only before an
# opener word, "word" like any word. Lowercase entries match in any case, others exactly.
# fmt: off
_ABBREVIATIONS = {
    "never": (
        "Mr", "Mrs", "Ms", "Mx", "Dr", "Prof", "St", "Jr", "Sr", "Hon", "Gen", "Lt", "Col", "Capt", "Sgt", "Rev",
        "Gov", "Sen", "Rep", "Mt", "No", "Nos", "Art", "Arts", "Fig", "Figs", "Ch", "Cl", "Sch", "Ord", "Reg",
        "Regs", "Dept", "Co", "Jan", "Feb", "Mar", "Apr", "Jun", "Jul", "Aug", "Sep", "Sept", "Oct", "Nov", "Dec",
        "sec", "secs", "rs", "vol", "vols", "p", "pp", "para", "paras", "ref", "refs", "e.g", "i.e", "cf", "vs",
        "v", "viz", "approx", "ca", "incl", "esp", "govt",
    ),
    "before_opener": ("U.S", "U.K", "Inc", "Ltd", "Corp", "Bros", "Ph.D", "al"),
    "word": ("etc",),
}
_OPENERS = frozenset((
    "A", "Accordingly", "After", "All", "Also", "Although", "An", "And", "Any", "As", "At", "Before", "Both",
    "But", "By", "Consequently", "Each", "Every", "Finally", "For", "From", "Furthermore", "He", "Hence", "Her",
    "Here", "His", "How", "However", "I", "If", "In", "It", "Its", "Many", "Moreover", "Most", "My", "Not", "On",
    "Only", "Or", "Our", "She", "Similarly", "Since", "So", "Some", "Such", "That", "The", "Their", "Then",
    "There", "Therefore", "These", "They", "This", "Those", "Though", "Thus", "Under", "We", "What", "When",
    "Where", "Which", "While", "Who", "Why", "With", "Yet", "You",
))
# fmt: on
_TERMINALS = ".!?\u2026\u203c\u2047\u2048\u2049\u0964\u0965\u061f\u06d4"
_CLOSERS = ")]}\"'\u2019\u201d\u00bb\u203a\uff09\uff3d\u300d\u300f\u3011"
_CONTINUATION = ",;:)]}%.!?\u2019\u201d\u00bb\u203a\u2026\u3001\uff0c\uff09\uff1b\uff1a"
_LINE_BREAKS = "\n\r\x85\u2028\u2029"
_PARAGRAPH_RE = re.compile(r"\n[ \t]*\n")
_SCAN_RE = re.compile(rf"(?P<run>{_RUN_RE.pattern})|(?P<term>[{_TERMINALS}]+)")
_CLOSERS_RE = re.compile(f"[{re.escape(_CLOSERS)}]*")
_WORD_BEFORE_RE = re.compile(r"[A-Za-z0-9.]{1,33}\Z")
_DOTTED_ACRONYM_RE = re.compile(r"[A-Za-z](?:\.[A-Za-z])+\Z")
_ROMAN_RE = re.compile(r"[ivxIVX]{1,4}\Z")


def _abbreviation_kind(word: str) -> str | None:
    for kind, words in _ABBREVIATIONS.items():
        for entry in words:
            if word == entry or (entry.islower() and word.lower() == entry):
                return kind
    return None


def _kind_before_dot(text: str, begin: int, dot: int) -> str:
    found = _WORD_BEFORE_RE.search(text, begin, dot)
    if found is None:
        return "word"
    start = found.start()
    while start < dot and text[start] == ".":
        start += 1
    if start == dot or dot - start > 32:
        return "word"
    if start > begin and ord(text[start - 1]) >= 0x80 and text[start - 1].isalpha():
        return "word"
    word = text[start:dot]
    first = begin
    while first < len(text) and text[first].isspace():
        first += 1
    opens = start == first
    if any(c.isdigit() for c in word):
        before = start
        while before > begin and text[before - 1] in " \t":
            before -= 1
        after_colon = before < start and before > begin and text[before - 1] == ":"
        label = (opens and len(word) <= 3 and word.isdigit()) or (after_colon and word == "1")
        return "never" if label else "word"
    if opens and (len(word) == 1 or _ROMAN_RE.match(word)):
        return "never"
    kind = _abbreviation_kind(word)
    if kind is not None:
        return kind
    if len(word) == 1 and "A" <= word <= "Z":
        return "before_opener"
    if _DOTTED_ACRONYM_RE.match(word):
        return "before_opener"
    return "word"


# Lowercase letters, as src/text/sentences.cpp's is_lowercase: ASCII a-z; in the blocks the package's case folding
# covers, a letter that folding leaves unchanged; and the lowercase letters folding changes anyway (micro sign, long s,
# final sigma, Greek symbol variants, long s with dot). Letters of other scripts have no case.
_LOWERCASE_BLOCKS = ((0x00DF, 0x02AF), (0x0370, 0x058F), (0x1E00, 0x1EFF), (0xFF41, 0xFF5A))
_FOLDING_LOWERCASE = frozenset("\u00b5\u017f\u03c2\u03d0\u03d1\u03d5\u03d6\u03f0\u03f1\u03f5\u1e9b")


def _is_lowercase(c: str) -> bool:
    cp = ord(c)
    if cp < 0x80:
        return "a" <= c <= "z"
    if c in _FOLDING_LOWERCASE:
        return True
    in_block = any(first <= cp <= last for first, last in _LOWERCASE_BLOCKS)
    return in_block and _HAS_LETTER_RE.match(c) is not None and reference_simple_fold(c) == c


def _opens(text: str, pos: int, kind: str) -> bool:
    if kind == "before_opener":
        word = re.match(r"[A-Za-z]*", text[pos:])
        assert word is not None
        after = pos + word.end()
        if after < len(text) and ord(text[after]) >= 0x80:
            return False
        return word.group() in _OPENERS
    return not (_is_lowercase(text[pos]) or text[pos] in _CONTINUATION)


def _split_paragraph(text: str, start: int, end: int) -> list[int]:
    """Sentence end offsets inside text[start:end]."""
    cuts: list[int] = []
    begin = start
    pos = start
    while True:
        found = _SCAN_RE.search(text, pos, end)
        if found is None:
            return cuts
        if found.group("run") is not None:
            pos = found.end()
            continue
        dot = found.start()
        closers = _CLOSERS_RE.match(text, found.end(), end)
        assert closers is not None
        after = closers.end()
        kind = _kind_before_dot(text, begin, dot) if found.group() == "." else "word"
        if kind == "never":
            pos = after
            continue
        marker_at = after
        while marker_at < end and text[marker_at].isspace() and text[marker_at] not in _LINE_BREAKS:
            marker_at += 1
        marker = _RUN_RE.match(text, marker_at, end)
        if marker is not None:
            cuts.append(marker.end())
            begin = pos = marker.end()
            continue
        if after < end and not text[after].isspace():
            pos = after
            continue
        following = after
        while following < end and text[following].isspace():
            following += 1
        if following < end and not _opens(text, following, kind):
            pos = after
            continue
        cuts.append(after)
        begin = pos = after


def reference_split_sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) of every sentence, for text whose only line breaks are blank lines."""
    bounds = [0]
    for blank in _PARAGRAPH_RE.finditer(text):
        bounds += [blank.start(), blank.end()]
    bounds.append(len(text))
    cuts: list[int] = []
    for start, end in zip(bounds[::2], bounds[1::2]):
        cuts += [start, *_split_paragraph(text, start, end), end]
    spans = []
    for start, end in zip(cuts, cuts[1:]):
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if start < end:
            spans.append((start, end))
    return spans
