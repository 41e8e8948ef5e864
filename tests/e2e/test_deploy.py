"""deploy/launch.py in a real browser: two processes behind Debian's nginx, each browser kept on its process."""

from __future__ import annotations

import urllib.request

import pytest

from deploy import launch
from tests.e2e.conftest import exceptions, wait_idle

pytestmark = pytest.mark.e2e


def upstream(url: str, cookie: str | None = None) -> tuple[str, str]:
    """(the process that answered, the te_process cookie nginx set) for one request."""
    headers = {"Cookie": f"{launch.COOKIE}={cookie}"} if cookie else {}
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=30) as r:
        set_cookies = r.headers.get_all("Set-Cookie") or []
        ours = next(c for c in set_cookies if c.startswith(f"{launch.COOKIE}="))
        return r.headers["X-TE-Upstream"], ours.split(";")[0].split("=", 1)[1]


def test_two_sessions_through_nginx_each_stay_on_their_process(browser, monkeypatch):
    """Two processes behind nginx: a browser without the cookie is given a process and keeps it; two browsers pinned
    to different processes both get working pages (the websocket is upgraded through nginx)."""
    monkeypatch.setenv("TE_WARM_PAGES", "0")  # models loaded first, as a class's; the pages' run is tested apart
    with launch.start(2, launch.free_port()) as cluster:
        by_name = {launch.upstream_name(i): f"127.0.0.1:{p}" for i, p in enumerate(cluster.ports)}
        health = f"{cluster.url}/_stcore/health"
        first, given = upstream(health)
        assert by_name[given] == first
        assert all(upstream(health, given) == (first, given) for _ in range(5))  # sticky
        assert {upstream(health, name)[0] for name in by_name} == set(by_name.values())  # both processes serve
        assert upstream(health, "te9")[1] in by_name  # an unknown cookie is replaced, not an error

        for name, address in by_name.items():
            context = browser.new_context(viewport={"width": 1400, "height": 1000})
            context.add_cookies([{"name": launch.COOKIE, "value": name, "url": cluster.url}])
            page = context.new_page()
            response = page.goto(f"{cluster.url}/attention?lang=zh")
            assert response.headers["x-te-upstream"] == address
            page.wait_for_selector(".st-key-attention_text input", timeout=120_000)
            wait_idle(page, 120_000)
            assert exceptions(page) == 0
            box = page.locator(".st-key-attention_text input")
            box.fill("hello there")
            box.press("Enter")
            wait_idle(page, 120_000)
            assert "attention_text=hello+there" in page.url and exceptions(page) == 0  # reruns over the websocket
            context.close()


# Set when Streamlit's status widget shows its connection state ("Connecting") at any moment: the reconnection can
# be over before a test would look for the widget, so the page records it as it happens.
WATCH_CONNECTING = """
window.__te_connecting = [];
new MutationObserver(() => {
    const status = document.querySelector('[data-testid="stConnectionStatus"]');
    if (status) window.__te_connecting.push(status.innerText);
}).observe(document.body, {childList: true, subtree: true, characterData: true});
"""


def test_a_student_whose_process_dies_reconnects_to_a_live_one_with_the_page_state(browser, monkeypatch):
    """A student on process 0 with the MoE page at layer 1 (the URL's state); process 0 is killed. Streamlit's
    client shows that it is connecting, nginx sends it to process 1, and the page comes back at layer 1 with no
    error."""
    import time

    from tests.e2e.conftest import SHOTS

    monkeypatch.setenv("TE_WARM_UP", "0")
    SHOTS.mkdir(parents=True, exist_ok=True)
    with launch.start(2, launch.free_port()) as cluster:
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        context.add_cookies([{"name": launch.COOKIE, "value": launch.upstream_name(0), "url": cluster.url}])
        page = context.new_page()
        response = page.goto(f"{cluster.url}/moe?moe_layer=1&lang=en")
        assert response.headers["x-te-upstream"] == f"127.0.0.1:{cluster.ports[0]}"
        layer = page.locator('.st-key-moe_layer input[type="range"]')  # react-aria's range input, visually hidden
        layer.wait_for(state="attached", timeout=120_000)
        wait_idle(page, 120_000)
        assert layer.input_value() == "1" and exceptions(page) == 0
        page.evaluate(WATCH_CONNECTING)

        cluster.children[0].proc.kill()
        page.wait_for_function("window.__te_connecting.length > 0", timeout=60_000)
        page.screenshot(path=SHOTS / "deploy-reconnecting-en.png")
        seen = time.monotonic()
        page.wait_for_function(
            "!document.querySelector('[data-testid=\"stConnectionStatus\"]')", timeout=120_000
        )  # connected again
        layer.wait_for(state="attached", timeout=120_000)
        wait_idle(page, 120_000)
        page.screenshot(path=SHOTS / "deploy-reconnected-en.png")
        assert "connecting" in page.evaluate("window.__te_connecting.join(' ')").lower()
        assert layer.input_value() == "1" and "moe_layer=1" in page.url
        assert exceptions(page) == 0 and page.get_by_text("Connection error").count() == 0
        cookie = next(c["value"] for c in context.cookies() if c["name"] == launch.COOKIE)
        assert cookie == launch.upstream_name(1)
        print(f"back {time.monotonic() - seen:.1f} s after the status showed")
        context.close()
