"""The documentation site in a browser: readable at a laptop's width, nothing scrolls sideways.

The site is built strictly from the repository and opened from disk in headless Chromium (the
system's, as in test_html_browser.py), at 1366 and 1280 pixels wide: the guide's "which function
do I need" table fits the content column, and no signature of the API reference scrolls.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _support import require

ROOT = Path(__file__).resolve().parents[2]
FLAG = "THINKPARSE_REQUIRE_BROWSER"
CHROMIUM = os.environ.get("THINKPARSE_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

pytestmark = pytest.mark.slow

#: Elements between ``selector``'s first match and the page that scroll it sideways, and whether
#: the element sticks out of the window.
_SCROLLERS = """(selector) => {
    const found = document.querySelector(selector);
    if (!found) return null;
    const scrolling = [];
    for (let e = found; e && e !== document.documentElement; e = e.parentElement) {
        const overflow = getComputedStyle(e).overflowX;
        if ((overflow === 'auto' || overflow === 'scroll') && e.scrollWidth > e.clientWidth + 1)
            scrolling.push(`${e.tagName.toLowerCase()}.${e.className}`);
    }
    const box = found.getBoundingClientRect();
    return {scrolling, outside: box.right > window.innerWidth,
            page: document.documentElement.scrollWidth > window.innerWidth};
}"""

#: Signatures of the API reference whose text is wider than their box.
_WIDE_SIGNATURES = """() => [...document.querySelectorAll('.doc-signature')]
    .filter(s => [s, ...s.querySelectorAll('*')].some(e => e.scrollWidth > e.clientWidth + 1))
    .map(s => s.textContent.slice(0, 40))"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    require("mkdocstrings", FLAG)
    require("material", FLAG)
    out = tmp_path_factory.mktemp("site")
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(ROOT / "mkdocs.yml"),
         "--site-dir", str(out)],
        capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return out


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = require("playwright.sync_api", FLAG)
    if not os.access(CHROMIUM, os.X_OK):
        reason = f"no Chromium at {CHROMIUM} (apt-get install chromium, or set THINKPARSE_CHROMIUM)"
        if os.environ.get(FLAG) == "1":
            pytest.fail(f"{reason}, and {FLAG}=1 requires it")
        pytest.skip(f"{reason}; set {FLAG}=1 to make this a failure")
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield chromium
        chromium.close()


@pytest.mark.parametrize("width", [1366, 1280])
def test_guide_table_fits_the_column(site: Path, browser: Any, width: int) -> None:
    page = browser.new_page(viewport={"width": width, "height": 800})
    page.goto((site / "guide" / "index.html").as_uri())
    state = page.evaluate(_SCROLLERS, "table")
    page.close()
    assert state == {"scrolling": [], "outside": False, "page": False}


@pytest.mark.parametrize("width", [1366, 1280])
def test_api_signatures_do_not_scroll(site: Path, browser: Any, width: int) -> None:
    page = browser.new_page(viewport={"width": width, "height": 800})
    page.goto((site / "api" / "index.html").as_uri())
    wide = page.evaluate(_WIDE_SIGNATURES)
    count = page.evaluate("() => document.querySelectorAll('.doc-signature').length")
    page.close()
    assert count > 50
    assert wide == []
