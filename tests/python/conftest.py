"""Test-wide settings."""

from __future__ import annotations

import os

from hypothesis import settings

pytest_plugins = ["pytester"]

# CI runs the same examples every time (a failure there reproduces locally with HYPOTHESIS_PROFILE=ci);
# developers get fresh random examples on each run.
settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))
