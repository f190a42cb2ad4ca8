"""The plugin's ini options: registration, validation (a bad value is a `pytest.UsageError` naming the option) and the
objects they configure, built on first use."""

from __future__ import annotations

import inspect
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Union

import pytest

from ..checker import SufficientContextChecker
from ..claims import ClaimCoverage
from ..config import load_checker_config, read_document
from ..gate import EvidenceSufficiencyGate

__all__ = ["INI_OPTIONS", "SETTINGS_KEY", "Settings", "add_options", "read_settings"]

CONFIG = "sc_config"
SUFFICIENT = "sc_sufficient_threshold"
PARTIAL = "sc_partial_threshold"
MIN_CONTEXTS = "sc_min_contexts"
GATE = "sc_gate_threshold"
MIN_OVERLAP = "sc_claim_min_overlap"

INI_OPTIONS = {
    CONFIG: "sufficient-context: YAML (needs PyYAML) or JSON file with a 'sufficient_context' section configuring the "
    "checker, relative to the ini file",
    SUFFICIENT: "sufficient-context: the checker's 'sufficient' threshold, in [0, 1] (overrides sc_config)",
    PARTIAL: "sufficient-context: the checker's 'partial' threshold, in [0, 1] (overrides sc_config)",
    MIN_CONTEXTS: "sufficient-context: the checker's min_contexts, an integer >= 1 (overrides sc_config)",
    GATE: "sufficient-context: the evidence_gate fixture's threshold, in [0, 1] (default 0.5)",
    MIN_OVERLAP: "sufficient-context: the claim_coverage fixture's min_overlap, in [0, 1] (default 0.3)",
}
_CHECKER_OPTIONS = (CONFIG, SUFFICIENT, PARTIAL, MIN_CONTEXTS)


@dataclass
class Settings:
    """What the ini options configure; the objects are built on first use and shared (the gate excepted)."""

    checker_kwargs: dict[str, Any] = field(default_factory=dict)
    gate_threshold: float = 0.5
    claim_min_overlap: float = 0.3
    _checker: SufficientContextChecker | None = field(default=None, repr=False)
    _coverage: ClaimCoverage | None = field(default=None, repr=False)

    def checker(self) -> SufficientContextChecker:
        if self._checker is None:
            self._checker = SufficientContextChecker(**self.checker_kwargs)
        return self._checker

    def claim_coverage(self) -> ClaimCoverage:
        if self._coverage is None:
            self._coverage = ClaimCoverage(min_overlap=self.claim_min_overlap)
        return self._coverage

    def evidence_gate(self) -> EvidenceSufficiencyGate:
        """A new gate each time: a gate has setters, and a test changing one must not change another's."""
        return EvidenceSufficiencyGate(threshold=self.gate_threshold)


SETTINGS_KEY = pytest.StashKey[Settings]()


def _ini_type() -> Any:
    # pytest >= 9.2 takes a union: in a native [tool.pytest] TOML table the numbers may then be written as numbers.
    # The string member comes first: INI files and [tool.pytest.ini_options] give strings, read here.
    return Union[str, float] if pytest.version_tuple >= (9, 2) else "string"


def add_options(parser: pytest.Parser) -> None:
    ini_type = _ini_type()
    for name, help_text in INI_OPTIONS.items():
        parser.addini(name, help_text, type=ini_type, default="")
    group = parser.getgroup("sufficient-context")
    group.addoption(
        "--sc-report",
        dest="sc_report",
        metavar="PATH",
        default=None,
        help="write a JSON summary of the assert_sufficient / assert_grounded checks to PATH",
    )


def read_settings(config: pytest.Config) -> Settings:
    """Validate the ini options; a bad value raises `pytest.UsageError` naming the option."""
    where = str(config.inipath) if config.inipath is not None else "the configuration"
    raw = {name: config.getini(name) for name in INI_OPTIONS}
    given = {name: value for name, value in raw.items() if not (isinstance(value, str) and not value.strip())}

    def fail(name: str, problem: str) -> pytest.UsageError:
        return pytest.UsageError(f"{where}: ini option {name!r} {problem}; got {given[name]!r}")

    def unit(name: str, default: float) -> float:
        if name not in given:
            return default
        value = given[name]
        try:
            number = float(value.strip()) if isinstance(value, str) else float(value)
        except (TypeError, ValueError):
            number = math.nan
        if isinstance(value, bool) or not (math.isfinite(number) and 0.0 <= number <= 1.0):
            raise fail(name, "must be a number in [0, 1]")
        return number

    kwargs: dict[str, Any] = {}
    if CONFIG in given:
        kwargs = _config_file(config, where, given[CONFIG])
    thresholds = kwargs.get("thresholds")
    if thresholds is None:
        thresholds = inspect.signature(SufficientContextChecker).parameters["thresholds"].default
    sufficient, partial = unit(SUFFICIENT, thresholds[0]), unit(PARTIAL, thresholds[1])
    if SUFFICIENT in given or PARTIAL in given:
        if partial > sufficient:
            named = " and ".join(repr(n) for n in (SUFFICIENT, PARTIAL) if n in given)
            unset = [n for n in (SUFFICIENT, PARTIAL) if n not in given]
            origin = f"{CONFIG}'s" if "thresholds" in kwargs else "the default"
            raise pytest.UsageError(
                f"{where}: ini option {named}: the checker needs partial <= sufficient; got partial={partial} > "
                f"sufficient={sufficient}" + (f" ({unset[0]} is not set: {origin})" if unset else "")
            )
        kwargs["thresholds"] = (sufficient, partial)
    if MIN_CONTEXTS in given:
        value = given[MIN_CONTEXTS]
        try:
            count = int(value.strip()) if isinstance(value, str) else value
        except ValueError:
            count = None
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise fail(MIN_CONTEXTS, "must be an integer >= 1")
        kwargs["min_contexts"] = count
    settings = Settings(kwargs, gate_threshold=unit(GATE, 0.5), claim_min_overlap=unit(MIN_OVERLAP, 0.3))
    if any(name in given for name in _CHECKER_OPTIONS):
        try:  # a checker costs a few milliseconds: build it now so that a bad combination is a usage error
            settings.checker()
        except (TypeError, ValueError) as exc:
            named = ", ".join(repr(n) for n in _CHECKER_OPTIONS if n in given)
            raise pytest.UsageError(
                f"{where}: ini option {named}: the checker refuses the configuration: {exc}"
            ) from None
    return settings


def _config_file(config: pytest.Config, where: str, value: object) -> dict[str, Any]:
    """The checker's keyword arguments from the sc_config file (JSON by its suffix, else YAML)."""
    if not isinstance(value, str):
        raise pytest.UsageError(f"{where}: ini option {CONFIG!r} must be a path; got {value!r}")
    base = config.inipath.parent if config.inipath is not None else config.invocation_params.dir
    path = base / Path(value.strip()).expanduser()
    prefix = f"{where}: ini option {CONFIG!r} ({os.fspath(path)})"
    try:
        if path.suffix.lower() == ".json":
            try:
                document = read_document(os.fspath(path))  # a regular file only: a FIFO would block forever
            except ImportError:  # no PyYAML, and not JSON after all
                raise ValueError("not valid JSON") from None
            if not isinstance(document, dict):
                raise ValueError(f"the JSON document must be an object; got {type(document).__name__}")
            return load_checker_config(document)
        return load_checker_config(path)
    except (ImportError, TypeError, ValueError) as exc:
        raise pytest.UsageError(f"{prefix}: {exc}") from None
