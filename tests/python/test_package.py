from __future__ import annotations

import re
from importlib import metadata, resources
from pathlib import Path

import sufficient_context as sc


def test_every_public_name_resolves() -> None:
    missing = [name for name in sc.__all__ if not hasattr(sc, name)]
    assert missing == []
    assert len(set(sc.__all__)) == len(sc.__all__)


def test_version_matches_pyproject_and_the_distribution() -> None:
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    declared = re.search(r'^version = "([^"]+)"', pyproject.read_text(encoding="utf-8"), re.MULTILINE)
    assert declared is not None
    assert sc.__version__ == declared.group(1)
    try:
        installed = metadata.version("sufficient-context")
    except metadata.PackageNotFoundError:  # a developer build on PYTHONPATH has no distribution metadata
        return
    assert installed == sc.__version__


def test_typing_marker_stubs_and_data_ship_with_the_package() -> None:
    root = resources.files("sufficient_context")
    assert root.joinpath("py.typed").is_file()
    for stub in ("__init__", "text", "sentences", "similarity", "gate", "claims", "checker"):
        assert root.joinpath(f"_core/{stub}.pyi").is_file(), stub
    header = root.joinpath("data/english_freq.tsv").read_text(encoding="utf-8").splitlines()[:3]
    assert any("CC BY-SA 4.0" in line for line in header)
