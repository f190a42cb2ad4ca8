"""The plugin's module-level hooks: options, the configured defaults of the assertions, the ``--sc-report`` recorder."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from .. import testing
from .options import SETTINGS_KEY, add_options, read_settings
from .report import ReportPlugin

__all__ = [
    "pytest_addoption",
    "pytest_configure",
    "pytest_plugin_registered",
    "pytest_unconfigure",
]

_PACKAGE = __name__.rpartition(".")[0]  # sufficient_context.pytest_plugin
# The names the plugin is registered under: its entry point's (autoloading, ``-p sufficient_context``) and its
# module's (``-p sufficient_context.pytest_plugin``, ``pytest_plugins = [...]``).
_NAMES = ("sufficient_context", _PACKAGE)
_REPORT_PLUGIN = "sufficient_context-report"
_SESSION_KEY = pytest.StashKey[testing._Session]()


def pytest_plugin_registered(plugin: object, manager: pytest.PytestPluginManager) -> None:
    """Once registered under one of its names, block the other: registering the module again under the other name
    (an installed package's entry point plus ``-p sufficient_context.pytest_plugin``) would be an error."""
    if plugin is not sys.modules.get(_PACKAGE):
        return
    name = manager.get_name(plugin)
    for other in _NAMES:
        if other != name and manager.get_plugin(other) is None:
            manager.set_blocked(other)


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser)


def pytest_configure(config: pytest.Config) -> None:
    settings = read_settings(config)
    config.stash[SETTINGS_KEY] = settings
    record = None
    path = config.getoption("sc_report")
    if path is not None:
        if not str(path).strip():
            raise pytest.UsageError("--sc-report needs a file path")
        full = config.invocation_params.dir / Path(path).expanduser()
        if full.is_dir():
            raise pytest.UsageError(f"--sc-report {path}: is a directory; give the path of a file")
        # The report replaces the file atomically: a link, FIFO or device there would be replaced, not written to.
        if full.is_symlink() or (full.exists() and not full.is_file()):
            raise pytest.UsageError(f"--sc-report {path}: is not a regular file; give the path of a file to write")
        # An xdist worker records (its reports carry the checks to the controller) but does not write.
        worker = getattr(config, "workerinput", None)
        reporter = ReportPlugin(full, write=worker is None, worker=None if worker is None else worker["workerid"])
        config.pluginmanager.register(reporter, _REPORT_PLUGIN)
        record = reporter.recorder.add
    session = testing._Session(settings.checker, settings.claim_coverage, record)
    config.stash[_SESSION_KEY] = session
    testing._push_session(session)


def pytest_unconfigure(config: pytest.Config) -> None:
    session = config.stash.get(_SESSION_KEY, None)
    if session is not None:
        testing._pop_session(session)
    reporter = config.pluginmanager.get_plugin(_REPORT_PLUGIN)
    if reporter is not None:
        config.pluginmanager.unregister(reporter)
