"""Real Chromium, driven by Playwright, at phone size. Skipped on a machine without
Chromium, but never in CI (CI=true): there a missing browser is a failure."""

from __future__ import annotations

import os
import shutil

import pytest

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
# How long a page may take to show what a test waits for. Generous: on a busy 2-core CI machine,
# running the suite on two workers beside Chromium, a live update can take seconds to land.
WAIT_MS = 10_000
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}


# One browser per test module, not per session: Playwright's sync API keeps an event loop
# running in this thread while it is started, so a later module of the same worker (pytest-xdist
# hands out files in any order) that runs asyncio itself would find it and fail.
@pytest.fixture(scope="module")
def browser():
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI") == "true":
            pytest.fail(f"Chromium is missing at {CHROMIUM}: CI must run the browser tests")
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=WAIT_MS)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def phone(browser):
    """A new phone: its own cookies, Italian by default, a console that must stay clean."""
    contexts = []

    def make(locale="it-IT"):
        context = browser.new_context(locale=locale, **PHONE)
        contexts.append(context)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        page.on("console", lambda m: m.type == "error" and page.errors.append(m.text))
        return page

    yield make
    for context in contexts:
        context.close()
