from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sufficient_context import _reference_sentences as ref
from sufficient_context.sentences import (
    Citation,
    Sentence,
    citation_ids,
    extract_citations,
    split_sentences,
    strip_citations,
)

EXAMPLE = "Cheating is punishable with imprisonment of up to seven years [IPC_420_0]. See also [S1][S3]."


def texts(text: str | bytes) -> list[str]:
    return [s.text for s in split_sentences(text)]


def check_sentences(text: str, sentences: list[Sentence]) -> None:
    """The contract: in order, inside, trimmed, non-empty, and no non-space character lost."""
    previous_end = 0
    covered = [False] * len(text)
    for sentence in sentences:
        assert isinstance(sentence, Sentence)
        assert previous_end <= sentence.start < sentence.end <= len(text)
        assert text[sentence.start : sentence.end] == sentence.text
        assert sentence.text == sentence.text.strip()
        previous_end = sentence.end
        covered[sentence.start : sentence.end] = [True] * (sentence.end - sentence.start)
    lost = [(i, ch) for i, ch in enumerate(text) if not ch.isspace() and not covered[i]]
    assert not lost


# --- split_sentences: the surface ----------------------------------------------------------------------------


def test_product_example() -> None:
    sentences = split_sentences(EXAMPLE)
    first_end = EXAMPLE.index("]. ") + 2
    assert sentences == [
        Sentence(EXAMPLE[:first_end], 0, first_end),
        Sentence("See also [S1][S3].", first_end + 1, len(EXAMPLE)),
    ]
    assert sentences[0].text.endswith("[IPC_420_0].")


def test_sentence_is_a_named_tuple() -> None:
    (sentence,) = split_sentences("  One sentence  ")
    assert sentence == ("One sentence", 2, 14)
    assert (sentence.text, sentence.start, sentence.end) == ("One sentence", 2, 14)


@pytest.mark.parametrize("text", ["", " ", "\n\n\t ", "\u3000\u00a0"])
def test_empty_and_blank(text: str) -> None:
    assert split_sentences(text) == []


def test_rules_reach_python() -> None:
    assert texts("Sec. 420 of the I.P.C. says Rs. 10,000.50 is due. Next.") == [
        "Sec. 420 of the I.P.C. says Rs. 10,000.50 is due.",
        "Next.",
    ]
    assert texts("Seven years. [S1] Next.") == ["Seven years. [S1]", "Next."]
    assert texts("Steps:\n1. File.\n2. Wait\n\nDone") == ["Steps:", "1. File.", "2. Wait", "Done"]
    assert texts("no punctuation at all") == ["no punctuation at all"]


def test_indices_are_code_points() -> None:
    text = "\U0001f600 Caf\u00e9 ok. \u8fd9\u662f\u3002\u90a3 [S1]. \u00c9t\u00e9."
    sentences = split_sentences(text)
    assert [s.text for s in sentences] == [
        "\U0001f600 Caf\u00e9 ok.",
        "\u8fd9\u662f\u3002",
        "\u90a3 [S1].",
        "\u00c9t\u00e9.",
    ]
    check_sentences(text, sentences)
    assert sentences[1].start == 11  # the emoji and the accented letter are one index each


def test_bytes_are_decoded_as_utf8_with_replacement() -> None:
    assert split_sentences("Caf\u00e9 ok. Next.".encode()) == split_sentences("Caf\u00e9 ok. Next.")
    broken = b"Fine. Broken \xe2\x82 end. \xff\xfe Next. Cut \xf0\x9f"
    decoded = broken.decode("utf-8", errors="replace")
    sentences = split_sentences(broken)
    check_sentences(decoded, sentences)
    assert [s.text for s in sentences] == [
        "Fine.",
        "Broken \ufffd end.",
        "\ufffd\ufffd Next.",
        "Cut \ufffd",
    ]
    assert split_sentences(bytearray(b"One. Two.")) == split_sentences("One. Two.")


def test_lone_surrogates_do_not_crash_and_keep_indices() -> None:
    text = "Bad \udcff byte. Next \ud800 one."
    sentences = split_sentences(text)
    assert [s.text for s in sentences] == ["Bad \udcff byte.", "Next \ud800 one."]
    check_sentences(text, sentences)
    assert extract_citations("x \udc80 [S1]") == [Citation("S1", 5, 7)]
    assert strip_citations("x \udc80 [S1] y") == "x \ufffd y"


@pytest.mark.parametrize(
    "function", [split_sentences, extract_citations, citation_ids, strip_citations], ids=lambda f: f.__name__
)
@pytest.mark.parametrize("bad", [None, 42, ["a"], 3.5])
def test_non_text_is_a_type_error_naming_the_argument(function: Callable[[Any], object], bad: object) -> None:
    with pytest.raises(TypeError, match=r"text must be str or bytes, got"):
        function(bad)


def test_large_text() -> None:
    unit = "Cheating is punishable [IPC_420_0]. Dr. Rao paid Rs. 1,000.50, e.g. in cash. [S1] \u8fd9\u662f\u3002\n\n"
    assert len(split_sentences(unit)) == 3
    repeats = (1 << 20) // len(unit) + 1
    text = unit * repeats
    sentences = split_sentences(text)
    assert len(sentences) == 3 * repeats
    assert sentences[-1] == Sentence("\u8fd9\u662f\u3002", len(text) - 5, len(text) - 2)
    assert len(extract_citations(text)) == 2 * repeats
    assert citation_ids(text) == ["IPC_420_0", "S1"]


# --- citations: the surface ----------------------------------------------------------------------------------


def test_extract_citations_example() -> None:
    citations = extract_citations(EXAMPLE)
    assert [c.id for c in citations] == ["IPC_420_0", "S1", "S3"]
    for citation in citations:
        assert isinstance(citation, Citation)
        assert EXAMPLE[citation.start : citation.end] == citation.id


def test_citation_forms() -> None:
    assert [c.id for c in extract_citations("a [S1, S3] b [S4; S5] [doc-3#p2][Normans#p14] [1]")] == [
        "S1",
        "S3",
        "S4",
        "S5",
        "doc-3#p2",
        "Normans#p14",
        "1",
    ]
    assert extract_citations("[citation needed] [...] [x](http://y) [S1 [S2 ") == []
    assert extract_citations("\u00e9\u00e9 [S1]") == [Citation("S1", 4, 6)]


def test_citation_ids_unique_in_first_seen_order() -> None:
    assert citation_ids("[S3] [s1] [S1][S3] [S2, S1]") == ["S3", "s1", "S1", "S2"]
    assert citation_ids("") == []


def test_strip_citations() -> None:
    assert strip_citations(EXAMPLE) == ("Cheating is punishable with imprisonment of up to seven years. See also.")
    assert strip_citations("see [S1] next, word[S2]next") == "see next, word next"
    assert strip_citations("[S1] Start\nend [S2]\n") == "Start\nend\n"
    assert strip_citations(b"a [S1] b") == "a b"
    assert strip_citations("nothing [to strip]") == "nothing [to strip]"


# --- properties ------------------------------------------------------------------------------------------------

_MARKER_PIECES = st.sampled_from(
    [
        "[", "]", "S1", "S3", "IPC_420_0", "doc-3#p2", "a.b:c", "_", "-", ",", ";", " ", "  ", "\t", "\n", "(",
        ")", ".", "...", "x y", "\u00e9", "\U0001f600", "[S1]", "[S1, S3]", "[S2][S4]", "[citation needed]",
        "\"", "'", "\u201c", "\u201d", "\u3002",
    ]
)  # fmt: skip
_MARKER_TEXT = st.lists(_MARKER_PIECES | st.text(max_size=3), max_size=30).map("".join)


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_split_never_crashes_and_keeps_the_contract(text: str) -> None:
    check_sentences(text, split_sentences(text))


_WITH_SURROGATES = st.lists(
    st.characters(categories=["Cs"]) | st.characters() | st.sampled_from([". ", "A", "[S1]", "\n"]), max_size=30
).map("".join)


@settings(max_examples=200, deadline=None)
@given(_WITH_SURROGATES)
def test_split_with_surrogates_keeps_the_contract(text: str) -> None:
    assert extract_citations(text) == [Citation(*c) for c in ref.reference_extract_citations(text)]
    check_sentences(text, split_sentences(text))


@settings(max_examples=200, deadline=None)
@given(st.binary())
def test_split_bytes_equals_split_of_the_decoded_text(data: bytes) -> None:
    decoded = data.decode("utf-8", errors="replace")
    sentences = split_sentences(data)
    assert sentences == split_sentences(decoded)
    check_sentences(decoded, sentences)


@settings(max_examples=400, deadline=None)
@given(_MARKER_TEXT)
def test_citations_equal_the_regex_oracle(text: str) -> None:
    assert extract_citations(text) == [Citation(*c) for c in ref.reference_extract_citations(text)]
    assert citation_ids(text) == ref.reference_citation_ids(text)


@settings(max_examples=400, deadline=None)
@given(_MARKER_TEXT)
def test_strip_equals_the_oracle(text: str) -> None:
    assert strip_citations(text) == ref.reference_strip_citations(text)


@settings(max_examples=200, deadline=None)
@given(_MARKER_TEXT)
def test_split_with_markers_keeps_the_contract(text: str) -> None:
    check_sentences(text, split_sentences(text))


# The splitter oracle's domain: words, numbers, abbreviations, markers and punctuation separated by spaces, tabs or
# blank lines (no single line breaks, no CJK).
_WORDS = st.sampled_from(
    [
        "cheating", "is", "punishable", "The", "It", "However", "Smith", "court", "Rao", "Dr.", "Mr.", "e.g.",
        "E.g.", "etc.", "U.S.", "Inc.", "No.", "no.", "J.", "a.", "iv.", "1.", "12.", "420", "10.5", "1,000.50",
        "v2.0", "\u00c9t\u00e9", "\u00e9t\u00e9", "(aside)", "\"quoted\"", "[S1]", "[S1][S3]", "[S1, S3]",
        "[IPC_420_0]", "[citation needed]", "[here](x)", "%", ",", ";", "-", "\u2014", "I.P.C.", "Sec.",
        "p.", "Jan.", "vol.", ":", "Steps:",
    ]
)  # fmt: skip
_PUNCT = st.sampled_from([".", "?", "!", "?!", "...", '."', ".)", "\u2026", ".\u201d", "\u0964"])
_SEPARATORS = st.sampled_from([" ", " ", " ", "", "  ", "\t", "\n\n", " \n \n "])
_SPLITTER_TEXT = st.lists(st.tuples(_WORDS | _PUNCT, _SEPARATORS), max_size=40).map(
    lambda pairs: "".join(token + sep for token, sep in pairs)
)


@settings(max_examples=500, deadline=None)
@given(_SPLITTER_TEXT)
def test_split_equals_the_simplified_oracle(text: str) -> None:
    sentences = split_sentences(text)
    assert [(s.start, s.end) for s in sentences] == ref.reference_split_sentences(text)
    check_sentences(text, sentences)


def test_core_takes_str_only() -> None:
    from sufficient_context._core import sentences as core

    assert core.split_sentences("One. Two.") == [(0, 4), (5, 9)]
    with pytest.raises(TypeError):
        core.split_sentences(b"One. Two.")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        core.extract_citations(bytearray(b"[S1]"))  # type: ignore[arg-type]
    with pytest.raises(UnicodeEncodeError):
        core.strip_citations("a \ud800 [S1]")


def test_a_sentence_starts_at_a_letter_exactly_when_the_oracle_says_so() -> None:
    # Lowercase is the package's notion (cased blocks, folding, and the lowercase letters folding changes: long s
    # U+017F, micro sign U+00B5), so "Word one." followed by a long s stays one sentence in C++ and in the oracle.
    # Line separators and fullwidth terminal marks are outside the oracle's domain.
    skip = {0x85, 0x2028, 0x2029, 0xFF01, 0xFF1F, 0xFF61}
    for cp in [*range(0x80, 0x3000), *range(0xFF00, 0xFF70)]:
        if cp in skip:
            continue
        text = f"Word one. {chr(cp)}x two"
        got = [(s.start, s.end) for s in split_sentences(text)]
        assert got == ref.reference_split_sentences(text), hex(cp)
