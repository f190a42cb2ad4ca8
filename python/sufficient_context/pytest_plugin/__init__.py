"""pytest plugin: sufficiency and grounding assertions, configured fixtures and a JSON report of the checks.

Installed with the package, pytest loads it by itself (entry point ``sufficient_context`` in ``pytest11``). From a
source tree, or with ``PYTEST_DISABLE_PLUGIN_AUTOLOAD=1``, load it with ``-p sufficient_context.pytest_plugin`` (or
``-p sufficient_context``, the entry point's name, when installed), or with
``pytest_plugins = ["sufficient_context.pytest_plugin"]`` in the root ``conftest.py``; loading it both ways is
harmless. ``-p no:sufficient_context`` turns it off.

.. code-block:: python

    from sufficient_context.testing import assert_grounded, assert_sufficient

    def test_retrieval(sufficiency_checker):
        chunks = my_retriever("What is the punishment for cheating under section 420 IPC?")
        assert_sufficient("What is the punishment for cheating under section 420 IPC?", chunks, level="partial")

    def test_answer(claim_coverage):
        assert_grounded(my_answer, my_chunks, min_attribution=1.0)

``assert_sufficient(query, contexts, level="sufficient", *, checker=None)`` passes when the level is at least
`level` (sufficient > partial > insufficient); ``assert_grounded(answer, chunks, min_attribution=0.9, *,
coverage=None)`` when ``supported_ratio`` and ``attribution_coverage`` both reach `min_attribution` and no citation
names an unknown chunk. Both return the result; a failure is an `AssertionError` whose message states the level and
the score against the threshold, the missing terms and aspects (or the ratios, each uncovered sentence with its score
and reason, the unknown and missing citations). Without `checker` / `coverage` they use the fixtures' objects below.
The helpers are also ``sufficient_context.testing``, which works without pytest.

Fixtures
--------
``sufficiency_checker`` (session)
    The `SufficientContextChecker` of the ini options.
``claim_coverage`` (session)
    The `ClaimCoverage` with min_overlap ``sc_claim_min_overlap``.
``evidence_gate`` (a new one per test: a gate has setters)
    The `EvidenceSufficiencyGate` with threshold ``sc_gate_threshold``.

Ini options (``pytest.ini``, ``tox.ini``, ``setup.cfg`` or ``[tool.pytest.ini_options]`` of ``pyproject.toml``)
----------------------------------------------------------------------------------------------------------------

=========================== ========================================================================== ============
option                      meaning                                                                    default
=========================== ========================================================================== ============
``sc_config``               YAML (needs PyYAML) or ``.json`` file whose ``sufficient_context:``        none
                            section configures the checker (see ``sufficient_context.config``);
                            relative to the ini file
``sc_sufficient_threshold`` the checker's "sufficient" threshold, in [0, 1]; overrides ``sc_config``   0.8
``sc_partial_threshold``    the checker's "partial" threshold, in [0, 1], <= sufficient; idem          0.5
``sc_min_contexts``         the checker's min_contexts, an integer >= 1; idem                          1
``sc_gate_threshold``       the ``evidence_gate`` fixture's threshold, in [0, 1]                       0.5
``sc_claim_min_overlap``    the ``claim_coverage`` fixture's min_overlap, in [0, 1]                    0.3
=========================== ========================================================================== ============

A bad value stops pytest with a usage error naming the option.

Report
------
``--sc-report PATH`` writes (atomically) a JSON summary of the checks the helpers made: ``counts`` (checks, passed,
failed) and ``results``, one per check: ``nodeid`` and ``when`` (setup, call or teardown) of the test that made it
(both null for a check made outside any test, such as a module-level one at collection; under xdist, counted once,
not once per worker), ``kind`` ("sufficiency" or "grounded"), ``passed``, then ``level``, ``required_level``,
``score``, ``threshold`` and ``missing_terms``, or ``supported_ratio``, ``attribution_coverage``,
``min_attribution``, ``is_grounded``, ``unknown_citations`` and ``missing_citations``; and ``message``, the failure
message (null when it passed).
"""

from __future__ import annotations

from ..testing import (
    ContextCheckError,
    InsufficientContextError,
    UngroundedAnswerError,
    assert_grounded,
    assert_sufficient,
)
from .fixtures import claim_coverage, evidence_gate, sufficiency_checker
from .hooks import pytest_addoption, pytest_configure, pytest_plugin_registered, pytest_unconfigure

__all__ = [
    "ContextCheckError",
    "InsufficientContextError",
    "UngroundedAnswerError",
    "assert_grounded",
    "assert_sufficient",
    "claim_coverage",
    "evidence_gate",
    "pytest_addoption",
    "pytest_configure",
    "pytest_plugin_registered",
    "pytest_unconfigure",
    "sufficiency_checker",
]
