"""Only the studio's own page may use it: a page of another origin (another port of 127.0.0.1, which
the browser counts as the same site and sends the studio's cookie to, or a data: URL, whose origin is
null) cannot open the game's socket or read its files, even knowing the token; a pack's SVG opened by
itself runs no script; the studio's own page still plays."""
import http.server
import shutil
import tempfile
import threading
from pathlib import Path

from harness import REPOSITORY
from playwright.sync_api import expect

# Resolves to what a script of the page could do with the studio: 'opened' or 'refused'.
TRY_SOCKET = """(url) => new Promise((resolve) => {
    const socket = new WebSocket(url);
    socket.addEventListener('open', () => { socket.close(); resolve('opened'); });
    socket.addEventListener('error', () => resolve('refused'));
})"""
TRY_FETCH = """(url) => fetch(url).then((r) => r.text()).then((text) => 'read: ' + text.slice(0, 40), () => 'refused')"""


class OtherSite:
    """A tiny web server on another loopback port: the page of another origin."""

    def __init__(self, folder):
        handler = lambda *args: http.server.SimpleHTTPRequestHandler(*args, directory=folder)  # noqa: E731
        http.server.SimpleHTTPRequestHandler.log_message = lambda *args: None
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def open_strictly(context, studio):
    """The studio's page in a context that enforces its policy; returns the page and the policy
    violations it reports (none may come: the page has no inline script or style)."""
    page = context.strict_page()
    violations = []
    page.on("console", lambda message: violations.append(message.text) if "Content Security Policy" in message.text else None)
    page.goto(studio.url)
    expect(page.get_by_label("Connection")).to_have_text("connected")
    return page, violations


def test_a_page_of_another_origin_cannot_use_the_studio(context):
    studio = context.start("template")
    page, violations = open_strictly(context, studio)   # the browser now holds the studio's cookie
    socket = f"ws://{studio.origin.removeprefix('http://')}/socket"
    # The studio's own page may open the socket (with its cookie alone) and fetch its files.
    assert page.evaluate(TRY_SOCKET, socket) == "opened"
    assert page.evaluate(TRY_FETCH, "/board.js").startswith("read: ")
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "index.html").write_text("<!doctype html><title>another site</title><p>hello")
        other = OtherSite(folder)
        try:
            page.goto(other.url)
            for url in [socket, f"{socket}?token={studio.token}"]:
                assert page.evaluate(TRY_SOCKET, url) == "refused", url
            assert page.evaluate(TRY_FETCH, f"{studio.origin}/?token={studio.token}") == "refused"
        finally:
            other.close()
    page.goto("data:text/html,<title>a file or a sandboxed frame</title>")
    assert page.evaluate(TRY_SOCKET, f"{socket}?token={studio.token}") == "refused"
    # Nothing reached the game; its own page still plays, under its policy.
    page.goto(studio.url)
    expect(page.get_by_label("History")).to_have_attribute("max", "0")
    page.get_by_role("button", name="step token=p1", exact=True).click()
    expect(page.get_by_label("History")).to_have_attribute("max", "1")
    expect(page.locator("#board g").first).to_be_visible()
    assert violations == [], violations


def test_a_packs_svg_opened_by_itself_runs_no_script(context):
    with tempfile.TemporaryDirectory() as folder:
        pack = Path(folder) / "race"
        shutil.copytree(REPOSITORY / "rules" / "template", pack)
        (pack / "art.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'><script>"
                                      "document.documentElement.setAttribute('data-ran', 'yes')</script></svg>")
        studio = context.start(str(pack), cwd=folder)
        page, _ = open_strictly(context, studio)
        response = page.goto(f"{studio.origin}/pack/art.svg")
        assert response.status == 200
        assert response.headers["content-security-policy"].startswith("sandbox;"), response.headers
        assert page.evaluate("document.documentElement.getAttribute('data-ran')") is None
        # The page itself is served under the strict policy, and works under it (every other test plays on it).
        response = page.goto(studio.url)
        assert "script-src 'self'" in response.headers["content-security-policy"], response.headers
        assert response.headers["x-content-type-options"] == "nosniff"
