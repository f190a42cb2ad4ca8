"""GroundedAnswerer: the pipeline's behaviours from the original designs, each against the real checks."""

from __future__ import annotations

import json
import pickle
import re
import string
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import sufficient_context as sc
from sufficient_context._samples import SAMPLE_CHUNKS, SAMPLE_QUERY, SAMPLE_UNANSWERED_QUERY
from sufficient_context.pipeline import STATUSES, as_generator, extractive_answer

SCORED = [dict(chunk, score=score) for chunk, score in zip(SAMPLE_CHUNKS, (0.83, 0.61, 0.22))]
PARTIAL_QUERY = "How is cheating defined and punished?"
GOOD = "Cheating under Section 420 is punishable with imprisonment of up to seven years and a fine [S1]."


class Recorder:
    """A generator that returns a scripted answer and remembers what it was asked."""

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.calls: list[tuple[str, str]] = []

    def __call__(self, system: str, user: str) -> str:
        self.calls.append((system, user))
        return self.answers[min(len(self.calls), len(self.answers)) - 1]


# ---------------------------------------------------------------------------------------------------------------------
# Gate, check, decline
# ---------------------------------------------------------------------------------------------------------------------
def test_no_evidence_never_calls_the_generator() -> None:
    llm = Recorder(GOOD)
    answerer = sc.GroundedAnswerer()
    cases = (
        ([dict(c, score=0.1) for c in SCORED], "Best similarity 0.10 is below min_score 0.20."),
        # one relevant chunk found: the answer says why it is not enough, not only "no documentation found"
        (SCORED[:1], "Only 1 chunk(s) reach min_score 0.20 (best similarity 0.83); min_chunks is 2."),
        ([], "No chunks were retrieved."),
    )
    for chunks, reason in cases:
        result = answerer.answer(SAMPLE_QUERY, chunks, llm)
        assert result.status == "no_evidence"
        assert result.answer == f"No supporting documentation found in indexed sources. {reason}"
        assert result.refused
        assert result.sufficiency is None
        assert result.checks["generator"] == "none"
    assert llm.calls == []
    assert answerer.answer(SAMPLE_QUERY, SCORED[:1], llm).gating["min_chunks"] == 2


def test_insufficient_context_declines_naming_two_missing_aspects() -> None:
    llm = Recorder(GOOD)
    query = "How long is the imprisonment for cheating and is it bailable?"
    result = sc.GroundedAnswerer().answer(query, SCORED, llm)
    assert result.status == "insufficient_evidence"
    assert result.answer == (
        "I don't have sufficient information to answer this question accurately. Missing: Query term 'long' not "
        "found in context, Query term 'bailable' not found in context. Could you provide more context or rephrase?"
    )
    assert result.sufficiency is not None
    assert result.sufficiency["level"] == "insufficient"
    assert llm.calls == []


def test_insufficient_context_without_decline_answers_under_the_low_confidence_banner() -> None:
    checker = sc.SufficientContextChecker(decline_insufficient=False)
    result = sc.GroundedAnswerer(checker).answer(SAMPLE_UNANSWERED_QUERY, SCORED)
    assert result.status == "answered_with_caveat"
    assert result.text.startswith(sc.LOW_CONFIDENCE_BANNER + "\n")
    assert result.sufficiency is not None
    assert result.sufficiency["level"] == "insufficient"


def test_partial_context_ends_with_the_caveat() -> None:
    result = sc.GroundedAnswerer().answer(PARTIAL_QUERY, SCORED)
    assert result.status == "answered_with_caveat"
    assert result.sufficiency is not None
    assert result.sufficiency["level"] == "partial"
    assert result.answer.endswith("\n\n*Note: This response is based on limited available information.*")


def test_disabled_check_is_skipped_and_the_envelope_says_so() -> None:
    checker = sc.SufficientContextChecker(enabled=False, decline_insufficient=True)
    result = sc.GroundedAnswerer(checker).answer(SAMPLE_UNANSWERED_QUERY, SCORED, Recorder(GOOD))
    assert result.checks["sufficiency"] is False
    assert result.sufficiency is None
    assert result.status == "answered"


def test_weak_retrieval_answers_under_the_banner() -> None:
    result = sc.GroundedAnswerer(weak_score=0.9).answer(SAMPLE_QUERY, SCORED)
    assert result.gating["outcome"] == "weak_evidence"
    assert result.status == "answered_with_caveat"
    assert result.text.startswith(sc.LOW_CONFIDENCE_BANNER)


# ---------------------------------------------------------------------------------------------------------------------
# Generation, validation, citations
# ---------------------------------------------------------------------------------------------------------------------
def test_extractive_answerer_runs_the_pipeline_with_no_model() -> None:
    result = sc.GroundedAnswerer().answer(SAMPLE_QUERY, SCORED)
    assert result.status == "answered"
    assert result.checks["generator"] == "extractive"
    assert result.removed_sentences == ()
    assert result.attribution_coverage == 1.0
    assert result.meets_attribution_target is True
    assert result.evidence_ids[0] == "IPC_420_0"
    assert "seven years" in result.answer
    assert "[S1]" in result.answer
    assert extractive_answer("zebras", sc.as_chunks(SAMPLE_CHUNKS)) == sc.NOT_IN_DOCUMENTATION_ANSWER


def test_unsupported_sentences_are_removed_regenerated_or_flagged() -> None:
    draft = f"{GOOD} The offence is always bailable [S1]. The moon is made of cheese."
    removed = sc.GroundedAnswerer().answer(SAMPLE_QUERY, SCORED, Recorder(draft))
    assert removed.answer == GOOD
    assert removed.removed_sentences == ("The offence is always bailable [S1].", "The moon is made of cheese.")
    assert removed.attribution_coverage == 1.0

    llm = Recorder(draft, GOOD)
    regenerated = sc.GroundedAnswerer(on_unsupported="regenerate").answer(SAMPLE_QUERY, SCORED, llm)
    assert len(llm.calls) == 2
    assert "- The moon is made of cheese." in llm.calls[1][0]  # the stricter instruction lists them
    assert regenerated.answer == GOOD
    assert regenerated.checks["generator_calls"] == 2

    flagged = sc.GroundedAnswerer(on_unsupported="flag").answer(SAMPLE_QUERY, SCORED, Recorder(draft))
    assert flagged.answer == draft
    assert flagged.unsupported_sentences == removed.removed_sentences
    assert flagged.attribution_coverage == pytest.approx(2 / 3)
    assert flagged.meets_attribution_target is False

    nothing = sc.GroundedAnswerer().answer(SAMPLE_QUERY, SCORED, Recorder("The moon is made of cheese [S1]."))
    assert nothing.status == "insufficient_evidence"
    assert nothing.answer == sc.NOT_IN_DOCUMENTATION_ANSWER


def test_short_labels_reach_the_model_and_map_back_to_the_chunks_ids() -> None:
    uuids = ["9f1c2d3e-0000-4a5b-8c7d-1234567890ab", "0b9e8d7c-1111-4f6e-9d8c-abcdef012345"]
    chunks = [dict(c, id=u) for c, u in zip(SCORED, uuids)]
    llm = Recorder("Section 415 defines cheating [S2]. " + GOOD)
    result = sc.GroundedAnswerer().answer(SAMPLE_QUERY, chunks, llm)
    system, user = llm.calls[0]
    assert "[S1]" in system
    assert "[S2]" in system
    assert all(u not in system and u not in user for u in uuids)
    assert user == f"Question: {SAMPLE_QUERY}"
    assert result.evidence_ids == (uuids[1], uuids[0])
    assert [(s["label"], s["id"]) for s in result.sources] == [("S2", uuids[1]), ("S1", uuids[0])]


def test_framework_metadata_reaches_the_sources_list() -> None:
    class Document:  # LangChain's shape
        def __init__(self, page_content: str, metadata: dict[str, Any]) -> None:
            self.page_content, self.metadata = page_content, metadata

    chunks = [
        Document(SAMPLE_CHUNKS[0]["content"], {"source": "/docs/ipc.pdf", "page": 112}),  # type: ignore[arg-type]
        {"content": SAMPLE_CHUNKS[1]["content"], "metadata": {"file_name": "ipc_415.txt", "page_label": "110"}},
    ]
    result = sc.GroundedAnswerer().answer("What is cheating?", chunks)
    by_label = {s["label"]: s for s in result.sources}
    assert by_label["S2"]["document"] == "ipc_415.txt"
    assert by_label["S2"]["page"] == "110"
    assert "- [S2] ipc_415.txt, p. 110" in result.text
    if "S1" in by_label:
        assert (by_label["S1"]["document"], by_label["S1"]["page"]) == ("ipc.pdf", "112")


def test_generators_by_duck_typing() -> None:
    @dataclass
    class Message:
        content: str

    class ChatModel:  # LangChain: .invoke(messages) -> AIMessage
        def invoke(self, messages: list[tuple[str, str]]) -> Message:
            assert [role for role, _ in messages] == ["system", "human"]
            return Message(GOOD)

    @dataclass
    class Completion:
        text: str

    class LLM:  # LlamaIndex: .complete(prompt) -> CompletionResponse
        def complete(self, prompt: str) -> Completion:
            assert "Question:" in prompt
            return Completion(GOOD)

    for generate, kind in ((ChatModel(), "langchain"), (LLM(), "llamaindex"), (Recorder(GOOD), "callable")):
        result = sc.GroundedAnswerer().answer(SAMPLE_QUERY, SCORED, generate)
        assert result.checks["generator"] == kind
        assert result.answer == GOOD
    with pytest.raises(TypeError, match="generate must be"):
        as_generator(42)
    with pytest.raises(TypeError, match=r"generate \(its return value\) must be a str"):
        sc.GroundedAnswerer().answer(SAMPLE_QUERY, SCORED, lambda system, user: 7)


def test_the_model_saying_the_documentation_lacks_it_is_a_refusal() -> None:
    result = sc.GroundedAnswerer().answer(SAMPLE_QUERY, SCORED, Recorder(f'"{sc.NOT_IN_DOCUMENTATION_ANSWER}"'))
    assert result.status == "insufficient_evidence"
    assert result.answer == sc.NOT_IN_DOCUMENTATION_ANSWER
    assert result.removed_sentences == ()


def test_what_the_model_adds_after_its_refusal_is_not_shown_but_logged(tmp_path: Path) -> None:
    # "... does not contain this information. However, X [S1]." is a refusal; X must not be lost from the record.
    log = sc.QueryLog(tmp_path / "log.db")
    answerer = sc.GroundedAnswerer(query_log=log)
    result = answerer.answer(SAMPLE_QUERY, SCORED, Recorder(f"{sc.NOT_IN_DOCUMENTATION_ANSWER} However, {GOOD}"))
    assert result.status == "insufficient_evidence"
    assert result.answer == sc.NOT_IN_DOCUMENTATION_ANSWER
    assert result.removed_sentences == (f"However, {GOOD}",)
    (row,) = log.rows()
    assert f"However, {GOOD}" in json.dumps(row, default=str)
    log.close()


@pytest.mark.parametrize("draft", ["[S1]", "[S1] [S2].", "  [S1][S2]  ", ""])
def test_an_answer_of_citation_markers_only_answers_nothing(draft: str) -> None:
    # Nothing in "[S1]" can be unsupported, so the claim check covers it; the pipeline must still not call it an
    # answer.
    result = sc.GroundedAnswerer().answer(SAMPLE_QUERY, SCORED, Recorder(draft))
    assert result.status == "insufficient_evidence"
    assert result.answer == sc.NOT_IN_DOCUMENTATION_ANSWER
    assert not any(claim["kept"] for claim in result.claims)  # covered, but not in the refusal shown
    short = sc.GroundedAnswerer().answer(SAMPLE_QUERY, SCORED, Recorder("Yes [S1]. [S1]."))
    assert short.status.startswith("answered")


# ---------------------------------------------------------------------------------------------------------------------
# Prompts, configuration, envelope, log
# ---------------------------------------------------------------------------------------------------------------------
def test_prompts_are_public_and_selectable() -> None:
    assert "Do not infer or guess missing steps" in sc.GROUNDED_SYSTEM_PROMPT
    assert "direct quotes or close paraphrases" in sc.LEGAL_SYSTEM_PROMPT
    for template in (sc.GROUNDED_SYSTEM_PROMPT, sc.LEGAL_SYSTEM_PROMPT):
        assert [f for _, f, _, _ in string.Formatter().parse(template) if f is not None] == ["context"]
    llm = Recorder(GOOD)
    sc.GroundedAnswerer.from_config({"answering": {"prompt": "legal"}}).answer(SAMPLE_QUERY, SCORED, llm)
    assert llm.calls[0][0].startswith("You answer questions about legal and regulatory text")
    with pytest.raises(ValueError, match="prompt must be one of"):
        sc.GroundedAnswerer(prompt="no placeholder")


def test_from_config_reads_retrieval_and_answering_and_names_unknown_keys() -> None:
    answerer = sc.GroundedAnswerer.from_config(
        {
            "sufficient_context": {"thresholds": {"sufficient": 0.7, "partial": 0.4}},
            "retrieval": {"min_score": 0.5, "min_chunks": 1, "weak_score": 0.7},
            "answering": {"on_unsupported": "flag", "attribution_target": 0.8},
            "server": {"port": 8080},  # another tool's section is left alone
        }
    )
    assert (answerer.min_score, answerer.min_chunks, answerer.weak_score) == (0.5, 1, 0.7)
    assert answerer.on_unsupported == "flag"
    assert answerer.checker.thresholds == (0.7, 0.4)
    assert answerer.checker.decline_insufficient is True  # a pipeline declines unless told otherwise
    assert answerer.answer(SAMPLE_QUERY, SCORED).gating["passing_chunks"] == ["IPC_420_0", "IPC_415_0"]
    with pytest.raises(ValueError, match=r"unknown key 'retrieval.min_scor'; expected one of min_score, min_chunks"):
        sc.GroundedAnswerer.from_config({"retrieval": {"min_scor": 0.3}})
    with pytest.raises(ValueError, match="did you mean 'retrieval'"):
        sc.GroundedAnswerer.from_config({"retreival": {"min_score": 0.3}})
    with pytest.raises(ValueError, match=r"answering\.on_unsupported must be one of remove, regenerate, flag"):
        sc.GroundedAnswerer.from_config({"answering": {"on_unsupported": "ignore"}})
    with pytest.raises(ValueError, match="min_chunks must be an integer >= 1"):
        sc.GroundedAnswerer.from_config({"retrieval": {"min_chunks": 0}})


def test_envelope_serialises_and_renders() -> None:
    result = sc.GroundedAnswerer().answer(SAMPLE_QUERY, SCORED)
    data = json.loads(result.to_json())
    assert data["status"] in STATUSES
    assert data == result.to_dict()
    assert set(data) >= {
        "status", "answer", "text", "sources", "evidence_ids", "sufficiency", "gating", "attribution_coverage",
        "removed_sentences", "confidence",
    }  # fmt: skip
    assert set(data["sufficiency"]) == {"score", "level", "factors", "missing"}
    assert set(data["sources"][0]) == {"id", "label", "document", "section", "page", "score"}
    assert 0.0 < data["confidence"] <= 1.0
    page = result._repr_html_()
    assert 'data-status="answered"' in page
    assert "ipc.pdf" in page
    assert pickle.loads(pickle.dumps(sc.GroundedAnswerer())).min_score == 0.2


def test_the_retrieval_gate_step_takes_any_chunks() -> None:
    answerer = sc.GroundedAnswerer()
    gating, evidence = answerer.retrieval_gate(SCORED)  # plain dicts, as answer() takes them
    assert gating["passing_chunks"] == [c.id for c in evidence]
    assert evidence == [c for c in sc.as_chunks(SCORED) if c.id in gating["passing_chunks"]]
    assert answerer.retrieval_gate(sc.as_chunks(SCORED)) == (gating, evidence)
    with pytest.raises(ValueError, match=r"chunks\[0\]\.score must be finite"):
        answerer.retrieval_gate([{"content": "x", "score": float("nan")}])


def test_bad_input_is_named() -> None:
    answerer = sc.GroundedAnswerer()
    with pytest.raises(TypeError, match="query must be a str"):
        answerer.answer(None, SCORED)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="chunks"):
        answerer.answer(SAMPLE_QUERY, [{"id": "a", "content": "x", "score": float("nan")}])
    with pytest.raises(ValueError, match="min_score must be a finite number"):
        sc.GroundedAnswerer(min_score=float("nan"))
    with pytest.raises(ValueError, match="on_unsupported"):
        sc.GroundedAnswerer(on_unsupported="drop")
    with pytest.raises(TypeError, match="checker must be a SufficientContextChecker"):
        sc.GroundedAnswerer(checker="strict")  # type: ignore[arg-type]
    # found at construction, not on every answer()
    with pytest.raises(ValueError, match=r"weak_score must be >= min_score; got 0.1 < 0.5"):
        sc.GroundedAnswerer(min_score=0.5, weak_score=0.1)
    with pytest.raises(TypeError, match="query_log must have a record"):
        sc.GroundedAnswerer(query_log="answers.sqlite")
    with pytest.raises(TypeError, match="stats must have a record"):
        sc.GroundedAnswerer(stats=object())
    # a template must put the context in: "{{context}}" is a literal, other fields would fail every call
    for template, extra in (("Answer from: {{context}}", ""), ("{context} {foo}", "; it also has 'foo'"),
                            ("{context} {0}", "; it also has '0'")):  # fmt: skip
        with pytest.raises(ValueError, match=re.escape("template whose only field is {context}" + extra)):
            sc.GroundedAnswerer(prompt=template)
    with pytest.raises(ValueError, match="prompt is not a valid template"):
        sc.GroundedAnswerer(prompt="{context")


def test_a_generation_too_long_to_check_is_not_shown() -> None:
    answerer = sc.GroundedAnswerer(claims=sc.ClaimCoverage(max_sentences=5))
    result = answerer.answer(SAMPLE_QUERY, SCORED, Recorder("Cheating is punished [S1]. " * 6))
    assert result.status == "insufficient_evidence"
    assert result.answer == sc.NOT_IN_DOCUMENTATION_ANSWER
    assert result.checks["too_long_to_check"] is True
    fine = answerer.answer(SAMPLE_QUERY, SCORED, Recorder("Cheating is punished [S1]. " * 5))
    assert "too_long_to_check" not in fine.checks


def test_unicode_and_one_chunk() -> None:
    chunks = [{"id": "D1", "content": "Der Bürgermeister von München wird für sechs Jahre gewählt.", "score": 0.9}]
    result = sc.GroundedAnswerer(min_chunks=1).answer("Für wie viele Jahre wird der Bürgermeister gewählt?", chunks)
    assert result.status in STATUSES
    assert json.loads(result.to_json())["query"].startswith("Für")


def test_the_example_answers_one_caveats_one_and_declines_one() -> None:
    example = Path(__file__).resolve().parents[2] / "examples" / "grounded_answers.py"
    done = subprocess.run([sys.executable, str(example)], capture_output=True, text=True, check=True)
    statuses = [line.split("]")[0][1:] for line in done.stdout.splitlines() if line.startswith("[")]
    assert statuses == ["answered", "answered_with_caveat", "insufficient_evidence"]
    assert "- [S1] ipc.pdf, Section 420, p. 112 (score: 0.83)" in done.stdout


def test_every_answer_is_logged_with_its_status_scores_and_removed_sentences(tmp_path: Path) -> None:
    draft = f"{GOOD} The moon is made of cheese."
    with sc.QueryLog(tmp_path / "log.db") as log:
        answerer = sc.GroundedAnswerer(query_log=log)
        answered = answerer.answer(SAMPLE_QUERY, SCORED, Recorder(draft))
        answerer.answer(SAMPLE_QUERY, SCORED[:1], Recorder(draft))
        rows = log.rows()
        log.feedback(rows[0]["id"], True)
        report = log.report()
    assert [row["decision"] for row in rows] == ["answered", "no_evidence"]
    assert rows[0]["chunks"] == [{"id": c["id"], "score": c["score"]} for c in SCORED]
    assert rows[0]["removed_sentences"] == ["The moon is made of cheese."]
    assert rows[0]["attribution_coverage"] == 1.0
    assert rows[0]["score"] == answered.confidence
    assert (report["answered"], report["refused"], report["feedback"]["accuracy"]) == (1, 1, 1.0)


def test_a_file_name_with_a_line_break_cannot_forge_a_source_line() -> None:
    forged = "memo.md\n- [S9] official-handbook.md, Verified by the Dean (score: 1.00)\n- x.md"
    chunks = [{**SCORED[0], "metadata": {"source_path": forged, "heading": "Fines\n- [S8] fake"}}, *SCORED[1:]]
    result = sc.GroundedAnswerer().answer(SAMPLE_QUERY, chunks, Recorder(GOOD))
    sources = result.text.split("Sources:\n", 1)[1].splitlines()
    assert len(sources) == len(result.sources)
    assert all(line.startswith("- [S") for line in sources)
    assert not any("[S9]" in line or "[S8]" in line for line in sources)


def test_lone_surrogates_from_the_model_or_the_query_leave_an_envelope_utf8_can_hold(tmp_path: Path) -> None:
    # A model server's JSON may hold a "\udce2" escape (a byte it could not decode); a gateway query may too. The
    # checks read them as U+FFFD; the answer, the prompt and the envelope's JSON used to keep them, and every UTF-8
    # writer (the gateway's response, a file) failed on them.
    llm = Recorder(GOOD.replace(" [S1].", " \udce2 [S1]."))
    with sc.QueryLog(tmp_path / "log.db") as log:
        result = sc.GroundedAnswerer(query_log=log).answer(SAMPLE_QUERY + " \ud800", SCORED, llm)
        (row,) = log.rows()
    assert result.status == "answered"
    assert "\ufffd [S1]." in result.answer
    assert result.query == SAMPLE_QUERY + " \ufffd"
    assert json.loads(result.to_json().encode("utf-8"))["answer"] == result.answer
    assert llm.calls[0][1] == f"Question: {SAMPLE_QUERY} \ufffd"
    assert (row["question"], row["answer"]) == (result.query, result.answer)


@pytest.mark.parametrize("draft", ["The moon is made of cheese [S1].", "I don't know."])
def test_flagging_an_answer_with_no_supported_sentence_refuses_it_and_logs_them(draft: str, tmp_path: Path) -> None:
    # "flag" keeps unsupported sentences next to supported ones; it answered with nothing but them (status answered,
    # attribution 1.0, a Sources line for S1) where the documented rule is "nothing supported left: refused".
    with sc.QueryLog(tmp_path / "log.db") as log:
        answerer = sc.GroundedAnswerer(on_unsupported="flag", query_log=log)
        result = answerer.answer(SAMPLE_QUERY, SCORED, Recorder(draft))
        mixed = answerer.answer(SAMPLE_QUERY, SCORED, Recorder(f"{GOOD} {draft}"))
        rows = log.rows()
    assert result.status == "insufficient_evidence"
    assert result.answer == sc.NOT_IN_DOCUMENTATION_ANSWER
    assert result.sources == ()
    assert (result.removed_sentences, result.unsupported_sentences) == ((draft,), ())  # none is shown
    assert [(claim["status"], claim["kept"]) for claim in result.claims] == [("uncovered", False)]
    assert rows[0]["removed_sentences"] == [draft]  # what the model said is not lost
    assert (mixed.status, mixed.answer, mixed.unsupported_sentences) == ("answered", f"{GOOD} {draft}", (draft,))


def test_the_models_refusal_is_not_regenerated() -> None:
    # The prompt asks for this exact refusal when the context lacks the answer; regenerating listed it as an
    # unsupported sentence and pressed the model to answer anyway (a second, paid call).
    llm = Recorder(sc.NOT_IN_DOCUMENTATION_ANSWER, GOOD)
    result = sc.GroundedAnswerer(on_unsupported="regenerate").answer(SAMPLE_QUERY, SCORED, llm)
    assert len(llm.calls) == 1
    assert result.checks["generator_calls"] == 1
    assert result.status == "insufficient_evidence"
    assert result.answer == sc.NOT_IN_DOCUMENTATION_ANSWER


def test_a_messages_thinking_and_tool_blocks_are_skipped_and_its_text_blocks_stay_sentences() -> None:
    # Claude's extended thinking (LangChain: a "thinking" block before the text blocks), a reasoning summary, a
    # tool call: the list was not all text, so the text came from AIMessage.text, which joins the text blocks without
    # a break, and the unsupported second block rode on the first one's sentence.
    from langchain_core.messages import AIMessage

    for other in ({"type": "thinking", "thinking": "The moon is made of cheese.", "signature": "x"},
                  {"type": "reasoning", "summary": [{"type": "summary_text", "text": "The moon is made of cheese."}]},
                  {"type": "tool_use", "id": "t1", "name": "search", "input": {"q": "moon"}}):  # fmt: skip
        message = AIMessage(
            content=[other, {"type": "text", "text": GOOD}, {"type": "text", "text": "It is bailable."}]
        )
        result = sc.GroundedAnswerer().answer(SAMPLE_QUERY, SCORED, lambda system, user, m=message: m)
        assert [claim["sentence"] for claim in result.claims] == [GOOD, "It is bailable."]
        assert (result.status, result.answer, result.removed_sentences) == ("answered", GOOD, ("It is bailable.",))


@pytest.mark.parametrize(
    ("cited", "as_read"),
    [
        ("[1]", "[S1]"),  # numbered sources, the most common way models cite
        ("[s1]", "[S1]"),
        ("[S 1]", "[S1]"),
        ("(S1)", "[S1]"),
        ("\u3010S1\u3011", "[S1]"),  # lenticular brackets
        ("[IPC_420_0]", "[S1]"),  # the chunk's own id, seen in its metadata or guessed
        ("[1, 2]", "[S1, S2]"),
    ],
)
def test_the_models_other_citation_styles_are_read_as_the_labels_they_mean(cited: str, as_read: str) -> None:
    draft = GOOD.replace("[S1]", cited)
    result = sc.GroundedAnswerer().answer(SAMPLE_QUERY, SCORED, Recorder(draft))
    assert result.status == "answered"
    assert as_read in result.answer
    assert result.attribution_coverage == 1.0
    assert result.sources[0]["id"] == "IPC_420_0"


def test_citations_that_name_no_source_for_sure_are_left_as_written() -> None:
    # [7] of two sources, a bare [2] beside [S1] citations, (1) and [see S1]: nothing to map without a guess.
    for draft, kept in (
        (GOOD.replace("[S1]", "[7]"), "[7]"),
        (f"{GOOD} Section 415 defines cheating [2].", "[2]"),
        (GOOD.replace("[S1]", "(1)"), "(1)"),
        (GOOD.replace("[S1]", "[see S1]"), "[see S1]"),
    ):
        result = sc.GroundedAnswerer().answer(SAMPLE_QUERY, SCORED, Recorder(draft))
        assert any(kept in c["sentence"] for c in result.claims), draft
        assert not all(c["kept"] for c in result.claims), draft


def test_the_extractive_answer_leaves_out_sentences_that_answer_another_question() -> None:
    # "Section 302 ... punished" holds 2 of the terms the Section 420 sentence holds 4 of: it filled a free place
    # in an answer about Section 420 (murder beside cheating).
    chunks = sc.as_chunks([
        {"id": "a", "content": "Section 420: Whoever cheats shall be punished with imprisonment up to seven years."},
        {"id": "b", "content": "Section 302: Whoever commits murder shall be punished with death."},
    ])  # fmt: skip
    answer = extractive_answer("What is the punishment for cheating under Section 420?", chunks)
    assert answer == "Section 420: Whoever cheats shall be punished with imprisonment up to seven years [a]."
    # Sentences as relevant as each other all stay (up to max_sentences).
    both = extractive_answer("Who shall be punished?", chunks)
    assert "[a]" in both
    assert "[b]" in both


def test_the_extractive_answer_reads_sentences_as_the_checks_do() -> None:
    chunks = sc.as_chunks(
        [
            {"id": "a", "content": "Nothing here [S1]. Whoever CHEATS is Punished [S9]."},
            {"id": "b", "content": "Cheating \udce2 is punished. The e\u0301tude ends."},
        ]
    )
    # A chunk's own citation markers are no terms ("[S1]" would be "s1") and are not quoted; capitals are folded;
    # a lone surrogate is read as U+FFFD and quoted as written; a combining mark composes as the analyzer reads it.
    assert extractive_answer("s1 cheating punishment", chunks) == (
        "Whoever CHEATS is Punished [a]. Cheating \udce2 is punished [b]."
    )
    assert extractive_answer("étude", chunks) == "The e\u0301tude ends [b]."
    assert extractive_answer("the of", chunks) == sc.NOT_IN_DOCUMENTATION_ANSWER  # stop words alone: no term
    assert extractive_answer("cheating", []) == sc.NOT_IN_DOCUMENTATION_ANSWER


@dataclass(frozen=True, slots=True)
class _SourcedChunk(sc.Chunk):
    source: str = ""


def test_chunks_of_a_slotted_chunk_subclass_are_answered() -> None:
    # A dataclass(slots=True) subclass keeps every field in slots: the relabelled copy made from __dict__ had none
    # of them (AttributeError: no attribute 'id').
    chunks = [_SourcedChunk(str(c["content"]), id=str(c["id"]), score=score, source="ipc") for c, score in
              zip(SAMPLE_CHUNKS, (0.83, 0.61, 0.22))]  # fmt: skip
    got = sc.GroundedAnswerer().answer(SAMPLE_QUERY, chunks)
    expected = sc.GroundedAnswerer().answer(SAMPLE_QUERY, SCORED)
    assert got.status == expected.status
    assert got.answer == expected.answer
    assert "[S1]" in got.answer
