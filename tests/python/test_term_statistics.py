"""The compiled-in English tables equal what the parsers make of the packaged TSVs (the source of truth)."""

from __future__ import annotations

import pickle
from importlib import resources
from pathlib import Path

from sufficient_context import TermStatistics
from sufficient_context._core import checker as core
from sufficient_context._word_relations import english_word_relations


def _packaged(name: str) -> str:
    return resources.files("sufficient_context").joinpath(f"data/{name}").read_text("utf-8")


def test_english_statistics_equal_the_parsed_table_bit_for_bit() -> None:
    parsed = core.TermStatistics.from_tsv(_packaged("english_freq.tsv"))
    english = TermStatistics.english()
    assert english._core.items() == parsed.items()  # same stems, same order, same floats
    assert english == TermStatistics(parsed)
    assert english.zipf("the") == parsed.zipf("the")
    assert english.zipf("zorblax") is None
    assert "zorblax" not in english
    assert "" not in english


def test_english_statistics_are_one_shared_object() -> None:
    assert TermStatistics.english()._core is core.TermStatistics.english()
    assert pickle.loads(pickle.dumps(TermStatistics.english())) is TermStatistics.english()


def test_english_relations_equal_the_parsed_table() -> None:
    text = _packaged("english_relations.tsv")
    parsed = core.WordRelations.from_tsv(text)
    english = english_word_relations()
    assert english is english_word_relations()
    assert len(english) == len(parsed)
    keys = [line.split("\t", 1)[0] for line in text.splitlines() if line and not line.startswith("#")]
    for key in keys:
        assert english.related(key) == parsed.related(key), key
        assert english.antonyms(key) == parsed.antonyms(key), key
    assert english.related("zorblax") == []
    assert english.antonyms("") == []


def test_user_tables_are_still_parsed_from_tsv(tmp_path: Path) -> None:
    path = tmp_path / "mine.tsv"
    path.write_text("# mine\nzorblax\t2.5\nthe\t7.0\n", encoding="utf-8")
    mine = TermStatistics.from_tsv(str(path))
    assert mine.to_dict() == {"zorblax": 2.5, "the": 7.0}
    assert mine != TermStatistics.english()
