"""The plugin's fixtures, configured by its ini options."""

from __future__ import annotations

import pytest

from ..checker import SufficientContextChecker
from ..claims import ClaimCoverage
from ..gate import EvidenceSufficiencyGate
from .options import SETTINGS_KEY

__all__ = ["claim_coverage", "evidence_gate", "sufficiency_checker"]


@pytest.fixture(scope="session")
def sufficiency_checker(pytestconfig: pytest.Config) -> SufficientContextChecker:
    """The `SufficientContextChecker` of ``sc_config``, ``sc_sufficient_threshold``, ``sc_partial_threshold`` and
    ``sc_min_contexts`` (shared: a checker is immutable). `assert_sufficient` uses it when given no checker."""
    return pytestconfig.stash[SETTINGS_KEY].checker()


@pytest.fixture
def evidence_gate(pytestconfig: pytest.Config) -> EvidenceSufficiencyGate:
    """A new `EvidenceSufficiencyGate` with threshold ``sc_gate_threshold`` for each test (a gate has setters)."""
    return pytestconfig.stash[SETTINGS_KEY].evidence_gate()


@pytest.fixture(scope="session")
def claim_coverage(pytestconfig: pytest.Config) -> ClaimCoverage:
    """The `ClaimCoverage` with min_overlap ``sc_claim_min_overlap`` (shared: it is immutable). `assert_grounded`
    uses it when given no coverage."""
    return pytestconfig.stash[SETTINGS_KEY].claim_coverage()
