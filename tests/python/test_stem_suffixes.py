"""The Porter2 stemmer's suffix matching (one word-sized compare per rule, the word on a stack buffer up to 64
bytes) against Snowball on words built from the rules' own suffixes, at every length around the buffer's edge."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from snowballstemmer import EnglishStemmer

from sufficient_context import text

_SNOWBALL = EnglishStemmer()

# Every suffix of steps 0-5 and their pieces: chains of them reach rule after rule.
SUFFIXES = [
    "'s'", "'s", "'", "sses", "ied", "ies", "us", "ss", "s", "eedly", "eed", "edly", "ed", "ingly", "ing", "at", "bl",
    "iz", "y", "ational", "tional", "ization", "ation", "fulness", "ousness", "iveness", "biliti", "lessli", "entli",
    "aliti", "ousli", "iviti", "fulli", "enci", "anci", "abli", "alli", "bli", "ogi", "li", "izer", "ator", "alism",
    "ogist", "ical", "ful", "alize", "icate", "ative", "iciti", "ness", "ement", "ment", "ant", "ent", "ance", "ence",
    "able", "ible", "ate", "ive", "ize", "ism", "iti", "ous", "ion", "al", "er", "ic", "e", "ll", "l",
]  # fmt: skip
STEMS = [
    "", "a", "b", "y", "ya", "gener", "commun", "arsen", "past", "univers", "later", "emerg", "inter", "organ", "hop",
    "luxuri", "proc", "exc", "succ", "inn", "even", "sky", "news", "bias", "cri", "ti", "conn", "rel",
]  # fmt: skip

suffixed_words = st.builds(
    lambda stem, tail: stem + "".join(tail),
    st.sampled_from(STEMS) | st.text(alphabet="abcdeilnorstuy'", max_size=6),
    st.lists(st.sampled_from(SUFFIXES), min_size=1, max_size=4),
)


@settings(max_examples=1000, deadline=None)
@given(suffixed_words)
def test_stem_equals_snowball_on_suffix_chains(word: str) -> None:
    assert text.stem(word) == _SNOWBALL.stemWord(word)


def test_stem_equals_snowball_around_the_stack_buffer() -> None:
    for n in range(1, 140):
        for tail in ("ational", "ingly", "ies", "ness", "ed", "s", "y", "'s'", "ement"):
            for filler in ("b", "ab", "ay"):
                word = (filler * n)[:n] + tail
                assert text.stem(word) == _SNOWBALL.stemWord(word), word


def test_stem_equals_snowball_on_random_words() -> None:
    """Random words of 0-90 letters (vowels and y weighted up, apostrophes) behind the rules' own stems and before
    their suffixes: every length across the 16-byte blocks the stemmer scans at once and its 64-byte inline room."""
    rng = random.Random(20261128)
    letters = "abcdefghijklmnopqrstuvwxyzaeiouyyy''"
    for i in range(30000):
        middle = "".join(rng.choice(letters) for _ in range(rng.randrange(91 if i % 4 == 0 else 12)))
        word = rng.choice(STEMS) + middle + rng.choice(SUFFIXES)
        assert text.stem(word) == _SNOWBALL.stemWord(word), word
