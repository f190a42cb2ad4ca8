"""Test-wide settings, and the headless browser the console and rendering tests share."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

pytest_plugins = ["pytester"]

# CI runs the same examples every time (a failure there reproduces locally with HYPOTHESIS_PROFILE=ci);
# developers get fresh random examples on each run.
settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium through Selenium (imported here, so the tests that use no browser need no Selenium)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        pytest.fail(f"the browser tests need Chromium and chromedriver ({CHROMIUM}, {CHROMEDRIVER})")
    options = Options()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000"):
        options.add_argument(arg)
    # The browser is not ours to sanitize: when the suite runs with the ASan runtime preloaded, keep it out.
    env = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "ASAN_OPTIONS")}
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER, env=env))
    yield driver
    driver.quit()
