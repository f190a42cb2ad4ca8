"""GroundedAnswerer on Markdown answers: structure is no claim, and what is shown stays valid Markdown."""

from __future__ import annotations

import re

import pytest

import sufficient_context as sc
from sufficient_context._samples import SAMPLE_CHUNKS, SAMPLE_QUERY

SCORED = [dict(chunk, score=score) for chunk, score in zip(SAMPLE_CHUNKS, (0.83, 0.61, 0.22))]
PARTIAL_QUERY = "How is cheating defined and punished?"  # answered with the caveat appended
GOOD = "Cheating under Section 420 is punishable with imprisonment of up to seven years and a fine [S1]."
DEFINED = "Whoever deceives a person to deliver property cheats [S2]."
BAD = "The fine is ten lakh rupees [S1]."


def answer(draft: str, mode: str = "remove", query: str = SAMPLE_QUERY) -> sc.GroundedAnswer:
    return sc.GroundedAnswerer(on_unsupported=mode).answer(query, SCORED, lambda system, user: draft)


@pytest.mark.parametrize("mode", ["remove", "flag"])
@pytest.mark.parametrize(
    "heading", ["## Punishment\n\n", "# Punishment for cheating #\n", "Punishment\n==========\n\n", "---\n\n"]
)
def test_a_heading_is_no_claim_and_stays_over_what_backs_it(heading: str, mode: str) -> None:
    # "## Punishment" was an uncited claim: removed, and it halved the confidence (flag: listed as unsupported).
    plain = answer(GOOD, mode)
    result = answer(f"{heading}{GOOD}", mode)
    assert result.status == "answered"
    assert result.answer == (GOOD if heading.startswith("---") else f"{heading}{GOOD}")  # a rule over nothing goes
    assert (result.removed_sentences, result.unsupported_sentences) == ((), ())
    assert (result.confidence, result.attribution_coverage) == (plain.confidence, plain.attribution_coverage)
    assert [claim["sentence"] for claim in result.claims] == [GOOD]


@pytest.mark.parametrize("mode", ["remove", "flag"])
def test_a_heading_the_chunks_do_not_back_is_not_shown_as_supported(mode: str) -> None:
    # A heading can state a claim; it is shown only when the chunks its section cites back it.
    draft = f"## Cheating is punished with death\n\n{GOOD}\n\n## Bail\n\n{BAD}"
    result = answer(draft, mode)
    if mode == "remove":
        assert result.answer == GOOD
        assert result.removed_sentences == (BAD, "## Cheating is punished with death")
    else:
        assert result.answer == draft
        assert result.unsupported_sentences == (BAD, "## Cheating is punished with death", "## Bail")
    only = answer(f"## Punishment\n\n{BAD}", mode)  # a heading does not make an unsupported answer supported
    assert only.status == "insufficient_evidence"
    assert only.answer == sc.NOT_IN_DOCUMENTATION_ANSWER


@pytest.mark.parametrize("mode", ["remove", "flag"])
@pytest.mark.parametrize(
    "listing",
    [
        "Sources:\n- [S1] ipc.pdf\n- [S3] crpc.pdf",
        "**References:**\n1. [S1] ipc.pdf, Section 420\n2. [S3] crpc.pdf, Section 154",
        "### Sources\n\n[S1] ipc.pdf\n[S3] crpc.pdf",
        "Sources: [S1], [S3]",
    ],
)
def test_the_models_own_source_list_is_dropped_and_cites_nothing(listing: str, mode: str) -> None:
    # Its lines were unsupported sentences: removed (flag: listed), the confidence cut, and the pipeline appends its
    # own Sources list of what the kept sentences cite; S3, named only there, must not become a source.
    plain = answer(GOOD, mode)
    result = answer(f"{GOOD}\n\n{listing}", mode)
    assert (result.status, result.answer) == ("answered", GOOD)
    assert (result.removed_sentences, result.unsupported_sentences) == ((), ())
    assert result.confidence == plain.confidence
    assert [source["label"] for source in result.sources] == ["S1"]
    assert result.text.count("Sources:") == 1


def fences_closed(text: str) -> bool:
    return len(re.findall(r"(?m)^```", text)) % 2 == 0


@pytest.mark.parametrize("closed", [True, False])
def test_a_removal_in_a_code_fence_leaves_it_closed_and_the_caveat_outside(closed: bool) -> None:
    # The ``` closer was read as a sentence of its own (uncited: removed), so the fence ran on over the caveat.
    draft = f"{GOOD}\n\n```text\n{DEFINED}\n{BAD}\n" + ("```\n" if closed else "")
    result = answer(draft, query=PARTIAL_QUERY)
    assert result.status == "answered_with_caveat"
    assert result.answer.startswith(f"{GOOD}\n\n```text\n{DEFINED}\n```\n\n*Note:")
    assert result.removed_sentences == (BAD,)
    assert fences_closed(result.answer)
    assert fences_closed(result.text)
    flagged = answer(draft, "flag", PARTIAL_QUERY)
    assert fences_closed(flagged.answer)
    assert flagged.unsupported_sentences == (BAD,)
    emptied = answer(f"{GOOD}\n\n```\n{BAD}\n```")  # nothing left inside: the fence goes too
    assert (emptied.answer, emptied.removed_sentences) == (GOOD, (BAD,))


def test_a_table_is_kept_or_removed_whole() -> None:
    # Rows ending in "." are separate sentences: the supported rows stayed, torn from the rest of their table. A row
    # read without its header is no claim the check can judge, so a table goes whole (as a one-sentence table did).
    table = "| Offence | Punishment |\n|---|---|\n| Cheating | seven years [S1]. |\n| Cheating | ten lakh [S1]. |"
    result = answer(f"{GOOD}\n\n{table}\n\n{DEFINED}")
    assert result.answer == f"{GOOD}\n\n{DEFINED}"
    assert re.sub(r"\s", "", "".join(result.removed_sentences)) == re.sub(r"\s", "", table)  # all of it, logged
    assert [claim["kept"] for claim in result.claims] == [True, False, False, False, True]
    assert answer(table).status == "insufficient_evidence"


def test_list_items_keep_their_markers_and_lines_after_a_removal() -> None:
    # An item whose first sentence went lost its "- " (it ran into the item above); numbered items are claims.
    draft = f"- {BAD} {GOOD}\n- {BAD[:-5]}\n  [S1]. {DEFINED}\n1. {GOOD}\n2. {BAD}\n3. {DEFINED}"
    result = answer(draft)
    assert result.answer == f"- {GOOD}\n- {DEFINED}\n1. {GOOD}\n3. {DEFINED}"
    assert len(result.removed_sentences) == 3
    assert answer(f"1. {GOOD}\n2. {DEFINED}").removed_sentences == ()


@pytest.mark.parametrize(
    "line",
    [
        "**Sources" + " " * 5000 + "x",  # four runs of white space in the label's expression: 400 spaces took 28 s
        "## Punishment" + " " * 200_000 + "x",  # the heading's lazy title: growing as the square (about a minute)
        "Sources: [S1]" + " " * 5000 + ", x",
    ],
)
def test_long_runs_of_white_space_in_markdown_lines_are_read_in_linear_time(line: str) -> None:
    # A hang regression: before the fix the first line alone took hours. Each is read as the text it is.
    result = answer(f"{GOOD}\n{line}")
    assert result.status == "answered"
    assert result.answer.startswith(GOOD)


def test_a_table_delimiter_with_a_long_run_of_white_space_is_read_in_linear_time() -> None:
    # Two runs of white space in a row of the delimiter's expression: growing as the square (about a minute).
    result = answer(f"{GOOD}\n\n| a | b |\n|---" + " " * 200_000 + "x\n")
    assert result.status == "answered"
    assert result.answer.startswith(GOOD)
