"""The reasoning fragment and page in a real browser (H1, H2, H3).

Headless Chromium from the system (Debian's ``chromium`` package, ``/usr/bin/chromium``, or
``THINKPARSE_CHROMIUM``), driven by Playwright's sync API with ``executable_path``; nothing is
downloaded.  Without Playwright or the browser the tests skip, unless
``THINKPARSE_REQUIRE_BROWSER=1``, which makes that a failure.

Pages are served from ``http://thinkparse.test/`` by request interception, with the headers a
test chooses; every other request is aborted and recorded, so a page that reaches for the
network fails the test.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _png import look
from _support import require

from thinkparse import Extraction, Split, Usage, parse, render_html, render_page, render_script
from thinkparse.render._page import CSP

FLAG = "THINKPARSE_REQUIRE_BROWSER"
CHROMIUM = os.environ.get("THINKPARSE_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
ORIGIN = "http://thinkparse.test"

pytestmark = pytest.mark.slow


class Server:
    """Pages by path, served through Playwright's request interception."""

    def __init__(self) -> None:
        self.pages: dict[str, tuple[str, dict[str, str]]] = {}
        self.blocked: list[str] = []

    def handle(self, route: Any) -> None:
        url = route.request.url
        if url.startswith(ORIGIN + "/") and url[len(ORIGIN):] in self.pages:
            body, headers = self.pages[url[len(ORIGIN):]]
            route.fulfill(status=200, body=body.encode("utf-8"),
                          headers={"Content-Type": "text/html; charset=utf-8", **headers})
        else:
            self.blocked.append(url)
            route.abort()


@pytest.fixture(scope="module")
def playwright_api() -> Iterator[Any]:
    sync_api = require("playwright.sync_api", FLAG)
    if not os.access(CHROMIUM, os.X_OK):
        reason = f"no Chromium at {CHROMIUM} (apt-get install chromium, or set THINKPARSE_CHROMIUM)"
        if os.environ.get(FLAG) == "1":
            pytest.fail(f"{reason}, and {FLAG}=1 requires it")
        pytest.skip(f"{reason}; set {FLAG}=1 to make this a failure")
    with sync_api.sync_playwright() as p:
        yield p


def _launch(p: Any, user_data: Path, **options: Any) -> Any:
    return p.chromium.launch_persistent_context(
        str(user_data), executable_path=CHROMIUM, headless=True, args=ARGS,
        viewport={"width": 900, "height": 700}, **options)


@pytest.fixture(scope="module")
def browser(playwright_api: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A persistent context on a fresh user-data directory, and its server."""
    context = _launch(playwright_api, tmp_path_factory.mktemp("chromium-profile"))
    server = Server()
    context.route("**/*", server.handle)
    context.server = server
    yield context
    context.close()


class Opened:
    """A page and what it logged."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.errors: list[str] = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))


_count = 0


def open_page(browser: Any, html: str, headers: dict[str, str] | None = None) -> Opened:
    global _count
    _count += 1
    path = f"/page-{_count}.html"
    browser.server.pages[path] = (html, headers or {})
    browser.server.blocked.clear()
    opened = Opened(browser.new_page())
    opened.page.goto(ORIGIN + path)
    opened.page.evaluate(
        "() => { window.__events = []; document.addEventListener('svmai:event', e => "
        "window.__events.push({detail: e.detail, bubbles: e.bubbles, tag: e.target.tagName})); }")
    return opened


def host(body: str, script: str | None = None) -> str:
    """A bare host page: no CSP, no CSS, so escaping alone has to keep it safe."""
    return ("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>host</title>"
            f'<link rel="icon" href="data:,"></head><body>{body}'
            f"{render_script() if script is None else script}</body></html>")


def state(page: Any, box: str = "[data-ai-reasoning]") -> tuple[str, str, bool]:
    """(data-collapsed, aria-expanded, reasoning visible) of the first matching container."""
    container = page.locator(box).first
    return (container.get_attribute("data-collapsed"),
            container.locator("[data-ai-reasoning-toggle]").get_attribute("aria-expanded"),
            container.locator("[data-ai-reasoning-body]").is_visible())


EXPANDED, COLLAPSED = ("false", "true", True), ("true", "false", False)
MESSAGE = parse("<REASONING>Add 2 and 2.\nCheck: 4 - 2 = 2.</REASONING>It is 4.")


def test_click_enter_space_toggle(browser: Any) -> None:  # H1, H3
    o = open_page(browser, host(render_html(MESSAGE, msg_id="m1")))
    page, button = o.page, o.page.locator("[data-ai-reasoning-toggle]")
    assert state(page) == COLLAPSED
    button.click()
    assert state(page) == EXPANDED
    button.focus()
    page.keyboard.press("Enter")
    assert state(page) == COLLAPSED
    page.keyboard.press("Space")
    assert state(page) == EXPANDED
    payloads = [e["detail"]["payload"]["expanded"] for e in page.evaluate("window.__events")]
    assert payloads == [True, False, True]
    assert o.errors == [] and browser.server.blocked == []


def test_event_detail_exact(browser: Any) -> None:  # H1, H3
    body = render_html(MESSAGE, msg_id="m1") + render_html(Split("b", "x" * 9))
    o = open_page(browser, host(body))
    buttons = o.page.locator("[data-ai-reasoning-toggle]")
    buttons.nth(0).click()
    buttons.nth(0).click()
    buttons.nth(1).click()
    assert o.page.evaluate("window.__events") == [
        {"detail": {"type": "reasoning_toggle", "payload": {"msgId": "m1", "expanded": True,
                                                            "tokens": 8}},
         "bubbles": True, "tag": "BUTTON"},
        {"detail": {"type": "reasoning_toggle", "payload": {"msgId": "m1", "expanded": False,
                                                            "tokens": 8}},
         "bubbles": True, "tag": "BUTTON"},
        {"detail": {"type": "reasoning_toggle", "payload": {"msgId": None, "expanded": True,
                                                            "tokens": 3}},
         "bubbles": True, "tag": "BUTTON"},
    ]


def test_fragment_inserted_after_load(browser: Any) -> None:  # H1: event delegation
    o = open_page(browser, host("<p>empty at load</p>"))
    o.page.evaluate("h => document.body.insertAdjacentHTML('beforeend', h)",
                    render_html(MESSAGE, msg_id="late"))
    o.page.locator("[data-ai-reasoning-toggle]").click()
    assert state(o.page) == EXPANDED
    assert [e["detail"]["payload"]["msgId"] for e in o.page.evaluate("window.__events")] == ["late"]


def test_script_included_twice_toggles_once(browser: Any) -> None:  # H1
    o = open_page(browser, host(render_html(MESSAGE), render_script() + render_script()))
    o.page.locator("[data-ai-reasoning-toggle]").click()
    assert state(o.page) == EXPANDED
    assert len(o.page.evaluate("window.__events")) == 1


def test_initially_expanded(browser: Any) -> None:  # H1
    o = open_page(browser, host(render_html(MESSAGE, collapsed=False)))
    assert state(o.page) == EXPANDED
    o.page.locator("[data-ai-reasoning-toggle]").click()
    assert state(o.page) == COLLAPSED


# --- XSS ------------------------------------------------------------------------------------------
F = "window.__xss=1"
XSS_CORPUS = [
    f"<script>{F}</script>",
    f"<SCRIPT SRC=data:text/javascript,{F}></SCRIPT>",
    f'<img src=x onerror="{F}">',
    f"<img src=x onerror={F}//",
    f"<svg onload={F}>",
    f"<svg><script>{F}</script></svg>",
    f'<a href="javascript:{F}" id="xss-link">click me</a>',
    f"javascript:{F}",
    f'"><script>{F}</script>',
    f"'><img src=x onerror={F}>",
    f'" onmouseover="{F}" x="',
    f"' autofocus onfocus='{F}' x='",
    f"</script><script>{F}</script>",
    f"</textarea></title></style></noscript><script>{F}</script>",
    '<iframe srcdoc="<script>parent.__xss=1</script>"></iframe>',
    f"<details open ontoggle={F}>",
    f"<body onload={F}>",
    f"<input autofocus onfocus={F}>",
    f"<math><mtext><table><mglyph><style><img src=x onerror={F}>",
    f'<noscript><p title="</noscript><img src=x onerror={F}>">',
    f'<meta http-equiv="refresh" content="0;url=javascript:{F}">',
    f'<base href="javascript:{F}//">',
    f"<object data=\"javascript:{F}\"></object>",
    f"<embed src=\"javascript:{F}\">",
    f"<style>@import 'javascript:{F}';</style>",
    f"<!--<script>{F}</script>-->",
    f"<![CDATA[<script>{F}</script>]]>",
    f"&lt;script&gt;{F}&lt;/script&gt;",
    f"&#60;script&#62;{F}&#60;/script&#62;",
    f'<button data-ai-reasoning-toggle onclick="{F}">fake toggle</button>',
    f"<template><script>{F}</script></template>",
    f"\u0000<script>{F}</script>",
    f"<scr<script>ipt>{F}</scr</script>ipt>",
    f"`${{{F}}}` {{{{constructor.constructor('{F}')()}}}}",
]


def _xss_records() -> list[tuple[str, Split]]:
    out = []
    for i, payload in enumerate(XSS_CORPUS):
        out.append((f"v{i}", Split(payload, "safe")))
        out.append((f"r{i}", Split("safe", payload)))
        out.append((payload, Split("safe", "safe")))
    return out


def _poke(page: Any) -> None:
    """Give every trap its chance: expand all reasoning, hover, focus, click every element."""
    page.locator("[data-ai-reasoning-toggle]").evaluate_all("bs => bs.forEach(b => b.click())")
    page.evaluate("() => document.querySelectorAll('body *').forEach(e => {"
                  " e.dispatchEvent(new MouseEvent('mouseover', {bubbles: true}));"
                  " if (e.focus) e.focus(); })")
    page.wait_for_timeout(300)


def _no_injected_markup(page: Any, scripts: int) -> None:
    found = page.evaluate(
        "() => ({scripts: document.scripts.length,"
        " handlers: [...document.querySelectorAll('*')].flatMap(e => [...e.attributes]"
        "   .filter(a => a.name.startsWith('on') || a.name === 'style').map(a => a.name)),"
        " tags: [...new Set([...document.body.querySelectorAll('*')].map(e => e.localName))]"
        "   .sort()})")
    assert found["scripts"] == scripts and found["handlers"] == []
    allowed = {"article", "bdi", "button", "div", "dd", "dl", "dt", "h1", "line", "main", "p",
               "rect", "script", "section", "span", "svg", "text", "title"}
    assert set(found["tags"]) <= allowed, found["tags"]


def test_xss_fragments_never_execute(browser: Any) -> None:  # H1, H3
    records = _xss_records()
    body = "".join(render_html(r, msg_id=m) for m, r in records)
    o = open_page(browser, host(body))
    _poke(o.page)
    assert o.page.evaluate("window.__xss") is None
    _no_injected_markup(o.page, scripts=1)
    answers = o.page.locator(".tp-answer").all_text_contents()
    bodies = o.page.locator("[data-ai-reasoning-body]").all_text_contents()
    ids = o.page.locator("[data-ai-reasoning]").evaluate_all(
        "els => els.map(e => e.getAttribute('data-msg-id'))")
    # Shown literally (the HTML parser turns NUL into U+FFFD, as for any text).
    lit = [p.replace("\0", "\ufffd") for p in XSS_CORPUS]
    assert answers[0::3] == lit and bodies[1::3] == lit
    assert ids[2::3] == [p.replace("\0", "\ufffd") for p in XSS_CORPUS]
    assert browser.server.blocked == []


def test_xss_page_never_executes(browser: Any) -> None:  # H2, H3
    # The page's own CSP would block injected scripts anyway: remove it, so only escaping counts.
    page_html = render_page(_xss_records(), title=XSS_CORPUS[0])
    meta = f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
    assert meta in page_html
    o = open_page(browser, page_html.replace(meta, ""))
    _poke(o.page)
    assert o.page.evaluate("window.__xss") is None
    _no_injected_markup(o.page, scripts=1)
    assert o.page.title() == XSS_CORPUS[0]
    heads = o.page.locator(".tp-id").all_text_contents()
    assert heads[2::3] == [p.replace("\0", "\ufffd") for p in XSS_CORPUS]
    assert o.errors == [] and browser.server.blocked == []


def test_xss_control_detects_execution(browser: Any) -> None:  # the traps work when not escaped
    o = open_page(browser, host(XSS_CORPUS[2] + "<p>x</p>"))
    o.page.wait_for_timeout(300)
    assert o.page.evaluate("window.__xss") == 1


# --- CSP ------------------------------------------------------------------------------------------
NONCE = "dGhpbmtwYXJzZS10ZXN0"
STRICT = (f"default-src 'none'; script-src 'nonce-{NONCE}'; style-src 'nonce-{NONCE}'; "
          "img-src data:")


def test_page_under_strict_csp(browser: Any) -> None:  # H1, H2, H3
    records = [("a", MESSAGE), ("b", parse("<REASONING>x</REASONING><REDACTED>p</REDACTED>"))]
    o = open_page(browser, render_page(records, nonce=NONCE),
                  {"Content-Security-Policy": STRICT})
    o.page.locator("[data-ai-reasoning-toggle]").first.click()
    assert state(o.page) == EXPANDED
    # The stylesheet applied too (no style attributes anywhere).
    assert o.page.locator(".tp-card").first.evaluate(
        "e => getComputedStyle(e).borderTopLeftRadius") == "8px"
    assert o.errors == [] and browser.server.blocked == []


def test_fragment_under_strict_csp(browser: Any) -> None:  # H1
    html = host(render_html(MESSAGE), render_script(nonce=NONCE))
    o = open_page(browser, html, {"Content-Security-Policy": STRICT})
    o.page.locator("[data-ai-reasoning-toggle]").click()
    assert state(o.page) == EXPANDED
    assert o.errors == []


def test_csp_control_without_nonce(browser: Any) -> None:  # the check above can fail
    o = open_page(browser, host(render_html(MESSAGE)), {"Content-Security-Policy": STRICT})
    o.page.locator("[data-ai-reasoning-toggle]").click()
    assert state(o.page) == COLLAPSED
    assert any("Content Security Policy" in e for e in o.errors)


def test_page_own_csp_and_no_network(browser: Any) -> None:  # H2: standalone, no network
    o = open_page(browser, render_page([("a", MESSAGE)]))
    o.page.locator("[data-ai-reasoning-toggle]").click()
    assert state(o.page) == EXPANDED
    assert o.errors == [] and browser.server.blocked == []


# --- without scripting ----------------------------------------------------------------------------
def test_readable_without_javascript(playwright_api: Any, tmp_path: Path) -> None:  # H2
    context = _launch(playwright_api, tmp_path / "profile", java_script_enabled=False)
    try:
        server = Server()
        context.route("**/*", server.handle)
        server.pages["/p.html"] = (render_page([("a", MESSAGE)]), {})
        page = context.new_page()
        page.goto(ORIGIN + "/p.html")
        body = page.locator("[data-ai-reasoning-body]")
        assert body.is_visible() and body.text_content() == "Add 2 and 2.\nCheck: 4 - 2 = 2."
        assert server.blocked == []
    finally:
        context.close()


# --- scale ----------------------------------------------------------------------------------------
def _records(n: int) -> list[Any]:
    out: list[Any] = []
    for i in range(n):
        if i % 4 == 3:
            out.append(Extraction(f"answer {i}", None, 64 + i % 50, 0, True, ("sig",),
                                  "anthropic", "blocks", Usage(reasoning_tokens=64 + i % 50)))
        else:
            steps = "\n".join(f"Step {k}: check value {k * i}." for k in range(1 + i % 40))
            out.append((f"rec-{i}", parse(f"<REASONING>{steps}</REASONING>Answer {i}.")))
    return out


def test_thousand_records_load(browser: Any, record_property: Any) -> None:  # H2, H3
    html = render_page(_records(1000), title="1 000 records")
    o = Opened(browser.new_page())
    browser.server.pages["/big.html"] = (html, {})
    start = time.perf_counter()
    o.page.goto(ORIGIN + "/big.html", wait_until="load")
    last = o.page.locator("[data-ai-reasoning-toggle]").last
    last.click()
    interactive = time.perf_counter() - start
    assert last.get_attribute("aria-expanded") == "true"
    assert o.page.locator(".tp-card").count() == 1000
    assert o.page.locator(".tp-stats dd").first.text_content() == "1,000"
    assert o.errors == []
    record_property("page_1000_seconds", round(interactive, 3))
    print(f"\n1 000-record page ({len(html):,} characters): loaded and toggled in "
          f"{interactive:.2f} s")


# --- screenshots ----------------------------------------------------------------------------------
def card_screenshots(browser: Any, out: Path) -> dict[str, bytes]:
    """A card collapsed and expanded, light and dark, saved under ``out``."""
    records = [("msg-42", parse(
        "<REASONING>The user asks for the total.\nUnit price 12.50 x 4 = 50.00; tax 8% adds "
        "4.00.\nTotal: 54.00. Check: 54 / 4 = 13.50 per unit.</REASONING>"
        "The total is 54.00 including tax."))]
    o = open_page(browser, render_page(records, title="thinkparse"))
    shots: dict[str, bytes] = {}
    for scheme in ("light", "dark"):
        o.page.emulate_media(color_scheme=scheme)
        card = o.page.locator(".tp-card").first
        for label in ("collapsed", "expanded"):
            if label == "expanded":
                card.locator("[data-ai-reasoning-toggle]").click()
            card.locator("[data-ai-reasoning-toggle]").blur()
            path = out / f"card-{label}-{scheme}.png"
            shots[f"{label}-{scheme}"] = card.screenshot(path=str(path), animations="disabled")
        card.locator("[data-ai-reasoning-toggle]").click()  # back to collapsed
    assert o.errors == []
    return shots


def test_screenshots(browser: Any, tmp_path: Path) -> None:  # H3
    shots = card_screenshots(browser, tmp_path)
    looks = {k: look(v) for k, v in shots.items()}
    for name, (width, height, colours, _) in looks.items():
        assert (tmp_path / f"card-{name}.png").stat().st_size > 0
        assert width > 300 and height > 40 and colours > 20, (name, looks[name])
    for scheme in ("light", "dark"):  # expanding shows more: the card grows
        assert looks[f"expanded-{scheme}"][1] > looks[f"collapsed-{scheme}"][1] + 30
    for label in ("collapsed", "expanded"):  # the dark theme is darker
        assert looks[f"{label}-light"][3] > 180 > 80 > looks[f"{label}-dark"][3]

