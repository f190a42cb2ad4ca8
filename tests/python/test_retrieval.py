"""The document folder reader and the FTS5 passage index (retrieval/): what the CLI's --docs and serve index."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sufficient_context.retrieval import PassageIndex, read_folder
from sufficient_context.retrieval.documents import document_files


def test_a_link_out_of_the_folder_is_skipped_with_a_warning(tmp_path: Path) -> None:
    docs, outside = tmp_path / "docs", tmp_path / "secret.txt"
    docs.mkdir()
    outside.write_text("The launch code is 0000.", encoding="utf-8")
    (docs / "a.md").write_text("Refunds take five days.", encoding="utf-8")
    (docs / "secret.txt").symlink_to(outside)
    (docs / "again.md").symlink_to(docs / "a.md")  # a link that stays inside is a document like any other
    with pytest.warns(UserWarning, match=r"skipped 'secret\.txt': a link to a file outside"):
        files = document_files(docs)
    assert [p.name for p in files] == ["a.md", "again.md"]
    with pytest.warns(UserWarning, match="outside"):
        texts = {p.source_path: p.text for p in read_folder(docs)}
    assert texts == {"a.md": "Refunds take five days.", "again.md": "Refunds take five days."}


def test_a_file_name_that_is_not_utf8_is_indexed_under_an_escaped_name(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    with open(os.path.join(os.fsencode(docs), b"r\xe9sum\xe9.md"), "wb") as fh:
        fh.write(b"Refunds take five days.")
    (docs / "r\u00e9sum\u00e9.md").write_text("Parking permits cost ten euros.", encoding="utf-8")
    passages = read_folder(docs)
    assert sorted(p.source_path for p in passages) == ["r\\xe9sum\\xe9.md", "r\u00e9sum\u00e9.md"]
    index = PassageIndex()
    index.add(passages)  # SQLite cannot store the lone surrogates Python reads such a name as
    hits = index.search("How long do refunds take?")
    assert [h.id for h in hits] == ["r\\xe9sum\\xe9.md#0"]


def test_a_query_of_one_word_repeated_searches_it_once(tmp_path: Path) -> None:
    index = PassageIndex(tmp_path / "index.db")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("Cheating is punished.\n\nRefunds take five days.", encoding="utf-8")
    index.add(read_folder(docs))
    once = index.search("cheating refunds")
    # 100,000 OR terms made FTS5 run for a minute; repeats and case variants are one term now
    assert index.search("cheating " * 100_000 + "CHEATING Refunds") == once
    assert [h.id for h in once] == ["a.md#0", "a.md#1"]


def test_a_heading_with_a_long_run_of_spaces_is_read_in_linear_time(tmp_path: Path) -> None:
    # The heading expression's lazy title tried the rest of the line from every character, with every split of the
    # spaces between its closing parts: 20,000 spaces inside a heading would take hours (cubic). No timing assert.
    docs = tmp_path / "docs"
    docs.mkdir()
    spaces = " " * 20_000
    text = f"## Refunds{spaces}and returns  ##\n\nRefunds take five days.\n\n#{spaces}#\n\nx\n\n#######{spaces}y\n\nz"
    (docs / "a.md").write_text(text, encoding="utf-8")
    passages = read_folder(docs)
    assert [(p.heading, p.text) for p in passages] == [
        (f"Refunds{spaces}and returns", "Refunds take five days."),
        ("#", "x"),  # "#" then spaces then "#": the title is the closing "#"
        ("#", f"#######{spaces}y"),  # seven "#"s open no heading
        ("#", "z"),
    ]
