from __future__ import annotations

import json
import pickle
from html.parser import HTMLParser

import pytest

from sufficient_context._samples import SAMPLE_CHUNKS
from sufficient_context.chunks import Chunk
from sufficient_context.query_types import (
    GENERAL,
    EvidenceSufficiency,
    QueryTypeRules,
    classify_query,
    is_evidence_sufficient,
)

CHUNKS = [
    {"id": "IPC_415", "content": "Cheating means deceiving a person fraudulently or dishonestly."},
    {"id": "IPC_420", "content": "Whoever cheats shall be punished with imprisonment for seven years."},
    {"id": "IPC_1", "content": "This Code extends to the whole of India."},
    {"id": "CrPC_154", "content": "To file an FIR, first submit a written complaint at the police station."},
]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("What is the punishment for cheating?", "punishment"),
        ("Is cheating punishable?", "punishment"),
        ("What penalties apply to theft?", "punishment"),
        ("What is cheating?", "definition"),
        ("What does mens rea mean?", "definition"),
        ("Define dishonestly.", "definition"),
        ("How to file an FIR?", "procedure"),
        ("What are the steps to register a company?", "procedure"),
        ("What is the extent of the Code?", "scope"),
        ("Does the Code apply to Jammu and Kashmir?", "scope"),
        ("Who founded the Oberoi Group?", "general"),
        ("", "general"),
    ],
)
def test_classify_query(query: str, expected: str) -> None:
    assert classify_query(query) == expected


def test_query_patterns_with_many_wildcards() -> None:
    # word (* word)^9 zzz: up to 8^9 ways per start to a plain depth-first search (over 10 s a query).
    rules = QueryTypeRules({"x": ([" ".join(["* word"] * 10) + " zzz"], ["e"])})
    assert classify_query("word " * 100 + "?", rules) == GENERAL
    assert classify_query("word " * 100 + "zzz?", rules) == "x"
    # Tokens: alpha 0, beta 10, gamma 15, delta 50, zzz 101, words elsewhere. The last "word" of the pattern falls on
    # token 100 from the starts 19..82: the query phrase covers tokens 19..101 (delta), not gamma, beta or alpha.
    query = "alpha " + "word " * 9 + "beta " + "word " * 4 + "gamma " + "word " * 34 + "delta " + "word " * 50 + "zzz?"
    chunks = [{"id": "C", "content": "alpha beta gamma word e"}, {"id": "D", "content": "alpha beta gamma word"}]
    result = is_evidence_sufficient(query, chunks, rules)
    assert result.query_type == "x"
    assert result.key_terms == ("alpha", "word", "beta", "gamma")
    assert result.relevant_chunks == ("C", "D")
    assert result.supporting_chunks == ("C",)
    assert result.is_sufficient


def test_is_evidence_sufficient_by_type() -> None:
    punishment = is_evidence_sufficient("What is the punishment for cheating?", CHUNKS)
    assert isinstance(punishment, EvidenceSufficiency)
    assert punishment == EvidenceSufficiency(
        is_sufficient=True,
        reason="punishment query: a relevant chunk has punishment language ('cheating'): IPC_420",
        query_type="punishment",
        supporting_chunks=("IPC_420",),
        relevant_chunks=("IPC_415", "IPC_420"),
        key_terms=("cheating",),
    )
    missing = is_evidence_sufficient("What is the punishment for cheating?", [CHUNKS[0], CHUNKS[2]])
    assert not missing.is_sufficient
    assert missing.supporting_chunks == ()
    assert missing.reason == "punishment query: no relevant chunk has punishment language"
    definition = is_evidence_sufficient("What is cheating?", CHUNKS)
    # IPC_420's section text ("Whoever cheats ... shall be punished") defines its offence too.
    assert (definition.query_type, definition.supporting_chunks) == ("definition", ("IPC_415", "IPC_420"))
    scope = is_evidence_sufficient("What is the extent of this Code?", CHUNKS)
    assert (scope.query_type, scope.supporting_chunks, scope.key_terms) == ("scope", ("IPC_1",), ("Code",))
    procedure = is_evidence_sufficient("How to file an FIR?", CHUNKS)
    assert (procedure.query_type, procedure.supporting_chunks) == ("procedure", ("CrPC_154",))
    general = is_evidence_sufficient("Who was deceived dishonestly?", CHUNKS)
    assert (general.query_type, general.is_sufficient, general.supporting_chunks) == (GENERAL, True, ("IPC_415",))
    none = is_evidence_sufficient("Who founded Tata Motors?", CHUNKS)
    assert not none.is_sufficient
    assert none.reason == "general query: no chunk holds a key term of the query ('founded', 'Tata', 'Motors')"
    one_term = is_evidence_sufficient("Was anyone deceived by Tata Motors?", CHUNKS)
    assert (one_term.is_sufficient, one_term.supporting_chunks) == (True, ("IPC_415",))  # any key term: "deceived"
    section = is_evidence_sufficient("What is Section 420 IPC?", SAMPLE_CHUNKS)
    assert (section.query_type, section.is_sufficient, section.supporting_chunks) == (
        "definition",
        True,
        ("IPC_420_0",),
    )
    empty = is_evidence_sufficient("What is cheating?", [])
    assert (empty.is_sufficient, empty.reason) == (False, "no chunks retrieved")
    # a query without a key term names nothing a chunk could hold: never sufficient (it used to be, for any chunk)
    for query in ("", "\U0001f600", "what is it?", "Is it?"):
        nothing = is_evidence_sufficient(query, CHUNKS)
        assert (nothing.is_sufficient, nothing.key_terms, nothing.relevant_chunks) == (False, (), ()), query
        assert nothing.reason == f"{nothing.query_type} query: the query has no key term to look for"
    assert is_evidence_sufficient("What is cheating?", ["Cheating means lying."]).supporting_chunks == ("S1",)
    assert is_evidence_sufficient("What is cheating?", [Chunk(content="Cheating is a crime.", id="X")]).is_sufficient


def test_rules_are_data_users_extend() -> None:
    rules = QueryTypeRules()
    assert list(rules.types) == ["punishment", "procedure", "scope", "definition"]
    assert rules.types == QueryTypeRules.default_types()
    assert "punishment" in rules.types["punishment"][0]
    eligibility = rules.extend("eligibility", ["eligible", "who can"], ["eligible", "must be"])
    assert list(eligibility.types) == ["punishment", "procedure", "scope", "eligibility", "definition"]
    assert eligibility.classify("Who is eligible for bail?") == "eligibility"
    assert rules.classify("Who is eligible for bail?") == "definition"  # the original is unchanged
    result = is_evidence_sufficient(
        "Who is eligible for bail?", ["Bail is granted to an eligible accused.", "bail"], rules=eligibility
    )
    assert (result.query_type, result.supporting_chunks, result.relevant_chunks) == ("eligibility", ("S1",),
                                                                                     ("S1", "S2"))  # fmt: skip
    more = rules.extend("punishment", ["sanction"], ["sanctioned"])
    assert more.classify("What sanction applies?") == "punishment"
    assert more.types["punishment"][0][-1] == "sanction"
    first = rules.extend("urgent", ["urgent"], ["immediately"], before="punishment")
    assert next(iter(first.types)) == "urgent"
    only = QueryTypeRules({"tax": (["tax"], ["taxable"])}, min_term_fraction=1.0)
    assert only.classify("What is the tax on gold?") == "tax"
    assert only.classify("What is gold?") == GENERAL
    assert only.min_term_fraction == 1.0
    assert classify_query("What is the tax on gold?", only) == "tax"


def test_rules_validate_pickle_and_repr() -> None:
    with pytest.raises(ValueError, match="'general'"):
        QueryTypeRules({"general": (["x"], ["y"])})
    with pytest.raises(ValueError, match="empty name"):
        QueryTypeRules({"": (["x"], ["y"])})
    with pytest.raises(ValueError, match="min_term_fraction must be in"):
        QueryTypeRules(min_term_fraction=0.0)
    with pytest.raises(TypeError, match="min_term_fraction must be a number"):
        QueryTypeRules(min_term_fraction="half")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"types\['tax'\] must be a pair"):
        QueryTypeRules({"tax": ["tax"]})  # type: ignore[dict-item]
    with pytest.raises(TypeError, match=r"types\['tax'\]\[0\] must be an iterable of str"):
        QueryTypeRules({"tax": ("tax", ["x"])})
    with pytest.raises(ValueError, match="before must name an existing type"):
        QueryTypeRules().extend("new", ["x"], before="nope")
    with pytest.raises(TypeError, match="query must be str; got bytes"):
        classify_query(b"What is it?")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="query must be str"):
        is_evidence_sufficient(None, CHUNKS)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rules must be a QueryTypeRules"):
        classify_query("x", rules={"a": 1})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"retrieved_chunks\[0\] has no 'content'"):
        is_evidence_sufficient("x", [{"id": "a"}])
    rules = QueryTypeRules().extend("tax", ["tax"], ["taxable"])
    clone = pickle.loads(pickle.dumps(rules))
    assert clone == rules
    assert hash(clone) == hash(rules)
    assert clone.classify("What is the tax?") == "tax"
    assert repr(QueryTypeRules({"tax": (["tax"], ["taxable"])})) == (
        "QueryTypeRules(types={'tax': (('tax',), ('taxable',))}, min_term_fraction=0.5)"
    )
    assert QueryTypeRules() != rules
    assert classify_query("What is the punishment \ud800?") == "punishment"  # lone surrogates tolerated


def test_result_to_dict_and_html() -> None:
    result = is_evidence_sufficient("What is the punishment for cheating?", CHUNKS)
    data = json.loads(json.dumps(result.to_dict()))
    assert data == {
        "is_sufficient": True,
        "reason": result.reason,
        "query_type": "punishment",
        "supporting_chunks": ["IPC_420"],
        "relevant_chunks": ["IPC_415", "IPC_420"],
        "key_terms": ["cheating"],
    }
    found: list[dict[str, str | None]] = []

    class Parser(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            if tag == "div":
                found.append(dict(attrs))

    Parser().feed(result._repr_html_())
    assert found == [{"class": "sc-evidence-sufficiency", "data-sufficient": "true"}]
    assert pickle.loads(pickle.dumps(result)) == result
