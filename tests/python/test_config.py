"""SufficientContextChecker.from_config: the `sufficient_context:` section of a YAML file or a mapping."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from sufficient_context.checker import SufficientContextChecker
from sufficient_context.config import load_checker_config

FULL = {
    "enabled": False,
    "min_contexts": 2,
    "thresholds": {"sufficient": 0.75, "partial": 0.4},
    "require_embeddings": False,
    "decline_insufficient": True,
    "weights": {"coverage": 0.7, "recency": 0.0},
    "scoring": "reference",
    "recency_days": 90,
}


def test_mapping_with_the_section_or_the_section_itself() -> None:
    for source in ({"sufficient_context": FULL, "other_section": {"anything": 1}}, FULL):
        checker = SufficientContextChecker.from_config(source)
        assert checker.enabled is False
        assert checker.min_contexts == 2
        assert checker.thresholds == (0.75, 0.4)
        assert checker.decline_insufficient is True
        assert checker.weights["coverage"] == 0.7
        assert checker.weights["recency"] == 0.0
        assert checker.scoring == "reference"
        assert checker.recency_days == 90.0


def test_yaml_file(tmp_path: Path) -> None:
    path = tmp_path / "gateway.yaml"
    path.write_text(
        "retrieval:\n  top_k: 5\n"
        "sufficient_context:\n  min_contexts: 3\n  thresholds:\n    partial: 0.45\n  weights: {relevance: 0.3}\n",
        encoding="utf-8",
    )
    checker = SufficientContextChecker.from_config(path)
    assert checker.min_contexts == 3
    assert checker.thresholds == (0.8, 0.45)
    assert checker.weights["relevance"] == 0.3
    assert SufficientContextChecker.from_config(str(path)).min_contexts == 3


def test_empty_section_means_defaults(tmp_path: Path) -> None:
    path = tmp_path / "g.yaml"
    path.write_text("sufficient_context:\n", encoding="utf-8")
    assert load_checker_config(path) == {}
    assert SufficientContextChecker.from_config(path).thresholds == (0.8, 0.5)


def test_file_without_the_section(tmp_path: Path) -> None:
    path = tmp_path / "g.yaml"
    path.write_text("retrieval: {top_k: 5}\n", encoding="utf-8")
    with pytest.raises(ValueError, match="has no top-level 'sufficient_context' section"):
        SufficientContextChecker.from_config(path)


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({"min_context": 2}, "unknown key 'sufficient_context.min_context'"),
        ({"thresholds": {"sufficient": 0.8, "low": 0.1}}, "unknown key 'sufficient_context.thresholds.low'"),
        ({"weights": {"novelty": 1.0}}, "unknown key 'sufficient_context.weights.novelty'"),
        ({"min_contexts": 0}, r"sufficient_context.min_contexts must be an integer >= 1; got 0"),
        ({"min_contexts": "2"}, "sufficient_context.min_contexts must be an integer"),
        ({"min_contexts": True}, "sufficient_context.min_contexts must be an integer"),
        ({"thresholds": {"sufficient": 0.4, "partial": 0.6}}, "0 <= partial <= sufficient <= 1"),
        ({"thresholds": {"sufficient": "high"}}, "sufficient_context.thresholds.sufficient must be a finite number"),
        ({"thresholds": [0.8, 0.5]}, "sufficient_context.thresholds must be a mapping"),
        ({"weights": {"coverage": -1}}, "sufficient_context.weights.coverage must be >= 0"),
        ({"scoring": "fancy"}, "sufficient_context.scoring must be 'default' or 'reference'"),
        ({"recency_days": 0}, "sufficient_context.recency_days must be > 0"),
        ({"recency_days": float("inf")}, "sufficient_context.recency_days must be a finite number"),
        ({"enabled": "yes"}, "sufficient_context.enabled must be true or false"),
        ({"require_embeddings": 1}, "sufficient_context.require_embeddings must be true or false"),
        ("not a mapping", "sufficient_context must be a mapping"),
    ],
)
def test_bad_keys_and_values_name_the_key(section: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SufficientContextChecker.from_config({"sufficient_context": section})


def test_require_embeddings_without_a_model_fails_at_construction() -> None:
    config = {"sufficient_context": {"require_embeddings": True}}
    with pytest.raises(ValueError, match="require_embeddings=True needs an embedding_model"):
        SufficientContextChecker.from_config(config)
    checker = SufficientContextChecker.from_config(config, embedding_model=lambda texts: [[1.0]] * len(texts))
    assert checker.require_embeddings


def test_yaml_missing_gives_an_install_hint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.yaml"
    path.write_text("sufficient_context: {}\n", encoding="utf-8")
    monkeypatch.setitem(sys.modules, "yaml", None)  # makes `import yaml` raise ImportError
    with pytest.raises(ImportError, match=r"pip install 'sufficient-context\[yaml\]'"):
        SufficientContextChecker.from_config(path)
    assert SufficientContextChecker.from_config({"min_contexts": 2}).min_contexts == 2  # mappings need no YAML
    # JSON is YAML (what `calibrate` writes): it reads without PyYAML, and so does the gateway's configuration.
    (tmp_path / "c.yaml").write_text('# fitted\n{"sufficient_context": {"min_contexts": 3}}\n', encoding="utf-8")
    assert SufficientContextChecker.from_config(tmp_path / "c.yaml").min_contexts == 3
    from sufficient_context.server.settings import ServerSettings

    (tmp_path / "s.yaml").write_text('{"server": {"port": 8123, "top_k": 3}}', encoding="utf-8")
    assert ServerSettings.load(tmp_path / "s.yaml").port == 8123


def test_bad_source_type() -> None:
    with pytest.raises(TypeError, match="source must be a path or a mapping"):
        load_checker_config(42)  # type: ignore[arg-type]


def test_alias_bombs_and_deep_nesting_are_refused_naming_the_file(tmp_path: Path) -> None:
    # Nine levels of nine aliases: 387 million values once expanded, from a 400-byte file.
    lines = ["a: &a [x, x, x, x, x, x, x, x, x]"]
    for prev, name in zip("abcdefgh", "bcdefghi"):
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
    lines.append("sufficient_context: {min_contexts: *i}")
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"bomb\.yaml' is too large for settings: more than 100,000 values"):
        SufficientContextChecker.from_config(bomb)
    for name, text in (("deep.json", "[" * 100_000 + "]" * 100_000), ("deep.yaml", "a: " + "[" * 3000 + "]" * 3000)):
        (tmp_path / name).write_text(text, encoding="utf-8")
        with pytest.raises(ValueError, match=rf"{name}' is (nested too deeply|too large .* nested deeper than 64)"):
            SufficientContextChecker.from_config(tmp_path / name)
    # JSON is read as JSON even with PyYAML there (which would read 1e-05 as a string)
    small = tmp_path / "small.json"
    small.write_text('# fitted\n{"sufficient_context": {"thresholds": {"sufficient": 1e-05, "partial": 1e-05}}}')
    assert SufficientContextChecker.from_config(small).thresholds == (1e-05, 1e-05)


def test_a_key_given_twice_is_refused_not_overwritten(tmp_path: Path) -> None:
    yaml_file = tmp_path / "twice.yaml"
    yaml_file.write_text("sufficient_context:\n  min_contexts: 2\n  min_contexts: 3\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"gives the key 'min_contexts' twice at line 3"):
        SufficientContextChecker.from_config(yaml_file)
    json_file = tmp_path / "twice.json"
    json_file.write_text('{"sufficient_context": {"min_contexts": 2, "min_contexts": 3}}', encoding="utf-8")
    with pytest.raises(ValueError, match=r"gives the key 'min_contexts' twice"):
        SufficientContextChecker.from_config(json_file)
    # a YAML merge key that a later key overrides is not a duplicate
    merged = tmp_path / "merged.yaml"
    merged.write_text(
        "base: &b {min_contexts: 2}\nsufficient_context:\n  <<: *b\n  min_contexts: 3\n", encoding="utf-8"
    )
    assert SufficientContextChecker.from_config(merged).min_contexts == 3


def test_a_bad_value_in_a_file_names_the_file_and_the_key(tmp_path: Path) -> None:
    # The errors named the key only: with several configurations around, the user had to guess which file.
    from sufficient_context.config import load_pipeline_config

    path = tmp_path / "team.yaml"
    path.write_text("sufficient_context:\n  min_contexts: two\n", encoding="utf-8")
    expected = f"configuration {str(path)!r}: sufficient_context.min_contexts must be an integer >= 1; got 'two'"
    for load in (load_checker_config, load_pipeline_config):
        with pytest.raises(ValueError, match="min_contexts") as info:
            load(path)
        assert str(info.value) == expected
    path.write_text("claims:\n  min_overlapp: 0.3\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"^configuration '.*team\.yaml': unknown key 'claims\.min_overlapp'"):
        load_pipeline_config(path)
    # A mapping has no file to name.
    with pytest.raises(ValueError, match=r"^sufficient_context\.min_contexts must be"):
        load_checker_config({"min_contexts": "two"})


def test_a_json_file_with_a_byte_order_mark_reads_as_json(tmp_path: Path) -> None:
    # A BOM (a calibrate output saved again by a Windows editor) hid the JSON from the JSON reader: PyYAML then read
    # 1e-05 as the text '1e-05' and the file was refused.
    path = tmp_path / "calibrated.yaml"
    body = '{"sufficient_context": {"thresholds": {"sufficient": 1e-05, "partial": 0}}}\n'
    path.write_bytes(b"\xef\xbb\xbf" + body.encode())
    assert load_checker_config(path) == {"thresholds": (1e-05, 0.0)}


def test_an_unhashable_yaml_key_is_a_yaml_error_with_its_line(tmp_path: Path) -> None:
    # "? [a, b]" as a key was a bare "TypeError: unhashable type: 'list'" naming neither the file nor the line.
    path = tmp_path / "g.yaml"
    path.write_text("sufficient_context:\n  ? [a, b]\n  : 2\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"g\.yaml' is not valid YAML at line 2, column 5: found unhashable key"):
        load_checker_config(path)


def test_a_number_yaml_reads_as_text_says_how_to_write_it(tmp_path: Path) -> None:
    path = tmp_path / "g.yaml"
    path.write_text("sufficient_context:\n  thresholds: {sufficient: 1e-5, partial: 0}\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"got '1e-5' \(read as text: .*1\.0e-5\)"):
        load_checker_config(path)
    path.write_text("sufficient_context:\n  thresholds: {sufficient: 1.0e-5, partial: 0}\n", encoding="utf-8")
    assert load_checker_config(path) == {"thresholds": (1e-05, 0.0)}
