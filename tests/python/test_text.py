from __future__ import annotations

import gc
import random
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from snowballstemmer import EnglishStemmer

from sufficient_context import text
from sufficient_context._core import text as core
from sufficient_context._reference import (
    ENGLISH_STOPWORDS,
    reference_fold,
    reference_stem,
    reference_terms,
    reference_tokenize,
)
from sufficient_context.text import STOPWORDS, Token

# An alphabet that exercises every tokenizer rule: letters (accented, Greek, Cyrillic, Turkish i), digits,
# the connectors _ ' U+2019 . , and separators, ideographs, emoji, NBSP, U+FFFD, combining marks.
RULE_CHARS = [
    *"aAbeEsStTxyzO019 _'.,-:\n", "\u2019", "é", "É", "ß", "ẞ", "İ", "\u0131", "Σ", "ς", "Ж", "ж", "日", "本", "😀",
    "\u00a0", "\ufffd", "\u0301",
]  # fmt: skip
rule_text = st.text(alphabet=st.sampled_from(RULE_CHARS) | st.characters(), max_size=80)
VOCAB = [
    "the", "The", "running", "Runs", "caresses", "ponies", "Arthur's", "dogs'", "don't", "DON'T", "isn\u2019t",
    "generously", "happiness", "national", "IPC_420", "covid19", "10,000", "3.14", "café", "naïve", "Straße",
    "ΣΟΦΙΑ", "Привет", "日本", "state-of-the-art", "e.g.", "U.S.", "a", "an", "sky", "skies", "dying", "news",
]  # fmt: skip
SEPARATORS = [" ", " ", ", ", ". ", "\n", " — ", "; ", "(", ")"]
vocab_text = st.lists(st.tuples(st.sampled_from(VOCAB), st.sampled_from(SEPARATORS)), max_size=30).map(
    lambda parts: "".join(word + sep for word, sep in parts)
)


def as_tuples(tokens: list[Token]) -> list[tuple[str, int, int, str]]:
    return [tuple(t) for t in tokens]


# --- tokenize ---------------------------------------------------------------------------------------


def test_tokenize_examples() -> None:
    assert text.tokenize("Don't panic, Arthur's 42 towels.") == [
        Token("Don't", 0, 5, "word"),
        Token("panic", 6, 11, "word"),
        Token("Arthur's", 13, 21, "word"),
        Token("42", 22, 24, "number"),
        Token("towels", 25, 31, "word"),
    ]
    got = text.tokenize("IPC_420 covid19 snake_case 10,000 3.14. state-of-the-art")
    assert [(t.text, t.kind) for t in got] == [
        ("IPC_420", "identifier"),
        ("covid19", "identifier"),
        ("snake_case", "identifier"),
        ("10,000", "number"),
        ("3.14", "number"),
        ("state", "word"),
        ("of", "word"),
        ("the", "word"),
        ("art", "word"),
    ]


def test_tokenize_empty_and_single() -> None:
    assert text.tokenize("") == []
    assert text.tokenize(" ... ") == []
    assert text.tokenize(b"") == []
    assert text.tokenize("x") == [Token("x", 0, 1, "word")]
    assert text.count_tokens("") == 0


def test_spans_are_str_indices_for_non_ascii() -> None:
    s = "café — Ωμέγα 日本 😀 naïve"
    got = text.tokenize(s)
    assert [t.text for t in got] == ["café", "Ωμέγα", "日", "本", "naïve"]
    assert all(s[t.start : t.end] == t.text for t in got)
    assert got[-1].start == len(s) - 5


def test_bytes_are_decoded_with_replacement() -> None:
    raw = b"caf\xc3\xa9 \xff ok \xe6\x97"
    decoded = raw.decode("utf-8", errors="replace")
    got = text.tokenize(raw)
    assert [t.text for t in got] == ["café", "ok"]
    assert all(decoded[t.start : t.end] == t.text for t in got)
    assert text.tokenize(bytearray(b"a b")) == text.tokenize("a b")
    assert text.terms(memoryview(b"Running")) == text.terms("Running")


def test_lone_surrogates_are_separators() -> None:
    s = "ab\udc80cd \ud800"
    got = text.tokenize(s)
    assert got == [Token("ab", 0, 2, "word"), Token("cd", 3, 5, "word")]
    assert text.count_tokens(s) == 2
    assert text.fold("A\udc80B") == "a\ufffdb"
    assert text.terms("Cats\udc80dogs") == ["cat", "dog"]
    assert text.terms("x y", stopwords=["\udc80", "x"]) == ["y"]


def test_core_token_type() -> None:
    tokens = text.tokenize("a 1")
    assert all(type(t) is Token for t in tokens)
    assert tokens[1].kind == "number"
    assert [type(t) for t in core.tokenize("a 1")] == [tuple, tuple]
    assert core.tokenize("a 1") == [("a", 0, 1, "word"), ("1", 2, 3, "number")]
    with pytest.raises(TypeError, match="token_type must be tuple"):
        core.tokenize("a", int)  # type: ignore[type-var]
    with pytest.raises(TypeError, match="token_type must be tuple"):
        core.tokenize("a", Token("a", 0, 1, "word"))  # type: ignore[arg-type]


def test_core_rejects_surrogates_with_unicode_error() -> None:
    with pytest.raises(UnicodeEncodeError):
        core.tokenize("a\udc80")


@pytest.mark.parametrize("bad", [None, 42, 3.5, ["a"], object()])
def test_type_errors_name_the_argument(bad: object) -> None:
    with pytest.raises(TypeError, match="text must be str or bytes"):
        text.tokenize(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="text must be str or bytes"):
        text.terms(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="text must be str or bytes"):
        text.fold(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="text must be str or bytes"):
        text.count_tokens(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="word must be str or bytes"):
        text.stem(bad)  # type: ignore[arg-type]


def test_terms_argument_errors() -> None:
    with pytest.raises(TypeError, match="stem must be bool"):
        text.terms("x", stem="no")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="remove_stopwords must be bool"):
        text.terms("x", remove_stopwords=None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not a single str"):
        text.terms("x", stopwords="the")
    with pytest.raises(TypeError, match=r"stopwords\[1\] must be str; got int"):
        text.terms("x", stopwords=["a", 1])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="iterable of str; got int"):
        text.terms("x", stopwords=5)  # type: ignore[arg-type]


def test_count_tokens_matches_tokenize() -> None:
    s = "Hello, wörld: IPC_420 costs 10,000.50 — 日本 don't. " * 50
    assert text.count_tokens(s) == len(text.tokenize(s)) == 50 * 8


# --- fold, stem, stop words -------------------------------------------------------------------------


def test_fold_examples() -> None:
    assert text.fold("ÉCOLE Straße STRAẞE İstanbul ΣΟΦΟΣ Привет Don\u2019t") == (
        "école straße straße istanbul σοφοσ привет don't"
    )
    assert text.fold(b"ABC\xff") == "abc\ufffd"
    assert text.fold("") == ""


def test_fold_matches_reference_on_every_code_point() -> None:
    # The whole BMP (surrogates excluded) and every 7th code point above it.
    chars = [chr(cp) for cp in range(0x110000) if not (0xD800 <= cp <= 0xDFFF) and (cp < 0x10000 or cp % 7 == 0)]
    s = "".join(chars)
    folded = text.fold(s)  # NFKC, then simple folding
    assert folded == reference_fold(s)
    assert text.fold("cafe\u0301 \uff21\uff22 \ufb01") == text.fold("CAF\u00c9 ab fi") == "caf\u00e9 ab fi"


def test_classification_matches_reference_everywhere() -> None:
    # "a<c>a" tokenizes as one word, two words, three tokens or with a join, depending on the class of c.
    cps = [cp for cp in range(0x80, 0x110000) if not (0xD800 <= cp <= 0xDFFF) and (cp < 0x20000 or cp % 11 == 0)]
    s = " ".join(f"a{chr(cp)}a" for cp in cps)
    assert as_tuples(text.tokenize(s)) == reference_tokenize(s)


def test_stem() -> None:
    assert text.stem("Running") == "run"
    assert text.stem("caresses") == "caress"
    assert text.stem("Arthur's") == "arthur"
    assert text.stem("IPC_420") == "ipc_420"
    assert text.stem("") == ""
    words = ["generously", "happiness", "national", "skies", "dying", "news", "consign", "knightly"]
    assert [text.stem(w) for w in words] == EnglishStemmer().stemWords(words)


def test_stopwords() -> None:
    assert isinstance(STOPWORDS, frozenset)
    assert len(STOPWORDS) == 179
    assert STOPWORDS == ENGLISH_STOPWORDS
    assert {"the", "don't", "don", "t", "isn't"} <= STOPWORDS
    assert sorted(core.english_stopwords()) == core.english_stopwords()


# --- terms --------------------------------------------------------------------------------------------


def test_terms_options() -> None:
    s = "The Cats are running to Arthur's 10,000 IPC_420 houses"
    assert text.terms(s) == ["cat", "run", "arthur", "10,000", "ipc_420", "hous"]
    assert text.terms(s, stem=False) == ["cats", "running", "arthur's", "10,000", "ipc_420", "houses"]
    assert text.terms(s, remove_stopwords=False)[:3] == ["the", "cat", "are"]
    assert text.terms(s, stopwords=["CATS", "10,000"]) == [
        "the", "are", "run", "to", "arthur", "ipc_420", "hous",
    ]  # fmt: skip
    assert text.terms(s, stopwords=[]) == text.terms(s, remove_stopwords=False)
    assert text.terms(s, stopwords=iter(["the"]))[0] == "cat"
    assert text.terms("") == []
    assert text.terms("the and of") == []


def test_large_text_matches_reference() -> None:
    rng = random.Random(7)
    words = [*VOCAB, "Evidence", "sufficient", "context", "retrieved", "passages", "answer", "Section", "420"]
    s = "".join(rng.choice(words) + rng.choice(SEPARATORS) for _ in range(130_000))  # ~1 MB
    assert len(s.encode()) > 1_000_000
    assert as_tuples(text.tokenize(s)) == reference_tokenize(s)
    assert text.terms(s) == reference_terms(s)


def test_threads_get_identical_results() -> None:
    s = "Concurrent tokenizing of the same text, 10,000 times IPC_420 — naïve 日本. " * 2000
    expected = text.terms(s)
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: text.terms(s), range(8)))
    assert all(r == expected for r in results)


# --- properties -------------------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_tokenize_any_text(s: str) -> None:
    tokens = text.tokenize(s)
    previous_end = 0
    for t in tokens:
        assert 0 <= previous_end <= t.start < t.end <= len(s)
        assert s[t.start : t.end] == t.text
        previous_end = t.end
    assert as_tuples(tokens) == reference_tokenize(s.encode("utf-8", "surrogatepass").decode("utf-8", "replace"))


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_tokenize_any_bytes(raw: bytes) -> None:
    decoded = raw.decode("utf-8", errors="replace")
    tokens = text.tokenize(raw)
    assert all(decoded[t.start : t.end] == t.text for t in tokens)
    assert as_tuples(tokens) == reference_tokenize(decoded)


@settings(max_examples=300, deadline=None)
@given(rule_text)
def test_tokenize_matches_reference(s: str) -> None:
    assert as_tuples(text.tokenize(s)) == reference_tokenize(s)
    assert text.count_tokens(s) == len(reference_tokenize(s))
    assert text.fold(s) == reference_fold(s)


@settings(max_examples=300, deadline=None)
@given(rule_text, st.booleans(), st.booleans(), st.none() | st.lists(st.sampled_from(RULE_CHARS + VOCAB)))
def test_terms_pipeline_matches_reference(s: str, stem: bool, remove: bool, stopwords: list[str] | None) -> None:
    # The C++ stemmer stands in for the reference one: this checks the pipeline (which tokens are folded,
    # dropped and stemmed) apart from the stemmer, which the next test covers.
    got = text.terms(s, stem=stem, remove_stopwords=remove, stopwords=stopwords)
    assert got == reference_terms(s, stem=stem, remove_stopwords=remove, stopwords=stopwords, stemmer=core.stem)


@settings(max_examples=300, deadline=None)
@given(vocab_text | rule_text)
def test_terms_match_reference_with_snowball(s: str) -> None:
    assert text.terms(s) == reference_terms(s)
    assert [text.stem(w) for w in text.terms(s, stem=False)] == [
        reference_stem(w) for w in reference_terms(s, stem=False)
    ]


_SNOWBALL = EnglishStemmer()


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz'", min_size=1, max_size=14))
def test_stem_equals_snowball_on_plain_words(word: str) -> None:
    # Porter2 as Snowball 3.x defines it, on every a-z word shape (random ones reach rules real words rarely do).
    assert text.stem(word) == _SNOWBALL.stemWord(word)


def test_stem_equals_snowball_on_dataset_vocabulary() -> None:
    words = sorted({w for w in text.terms(" ".join(VOCAB * 3), stem=False) if w.isascii() and w.isalpha()})
    words += ["generously", "communication", "consolidated", "hopping", "luxuriating", "punishable", "skies"]
    assert [text.stem(w) for w in words] == [_SNOWBALL.stemWord(w) for w in words]


def test_token_spans_are_the_bulk_form_of_tokenize() -> None:
    sample = "Fine of Rs. 10,000 under IPC_420 for café owners; \uff21\uff22\uff23 東京 don\u2019t"
    spans = text.token_spans(sample)
    tokens = text.tokenize(sample)
    assert [sample[s:e] for s, e in zip(spans.starts.tolist(), spans.ends.tolist())] == [t.text for t in tokens]
    assert [text.TOKEN_KINDS[k] for k in spans.kinds.tolist()] == [t.kind for t in tokens]
    assert spans.starts.dtype.name == "int64"
    assert spans.kinds.dtype.name == "uint8"
    empty = text.token_spans("")
    assert (len(empty.starts), len(empty.ends), len(empty.kinds)) == (0, 0, 0)
    assert len(text.token_spans(b"caf\xc3\xa9 \xff bar").starts) == 2
    big = "word " * 2_000_000  # 10 MB: arrays, no per-token objects
    assert len(text.token_spans(big).starts) == 2_000_000


def test_tokens_are_not_tracked_by_the_garbage_collector() -> None:
    # Millions of tokens from a large text must not make every collection walk them; a token holds only a str and
    # ints, so it can never be in a cycle.
    tokens = text.tokenize("Whoever cheats [IPC_420] pays 10,000.")
    assert [t.text for t in tokens] == ["Whoever", "cheats", "IPC_420", "pays", "10,000"]
    assert not any(gc.is_tracked(t) for t in tokens)
