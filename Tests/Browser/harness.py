"""The studio's browser-test harness: `rulebench studio` processes and one chromium.

Each test starts its own studio (`Studio.start`) on a free port, in a folder of its choosing,
and drives it through one reused page; stopping a studio sends SIGINT (Ctrl-C) and requires a
clean exit 0. Waits are on conditions (Playwright's expect), never on fixed sleeps; animation
time is Playwright's clock, never the wall clock.
"""
import json
import os
import re
import shutil
import signal
import subprocess
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/lib/chromium/chromium"


class Studio:
    """One `rulebench studio` process and the address it printed, which carries the run's token
    (`http://127.0.0.1:PORT/?token=…`): `url` is that address, `origin` its scheme, host and port."""

    command = "studio"

    def __init__(self, binary, args, cwd):
        self.binary = binary
        self.cwd = Path(cwd)
        self.process = subprocess.Popen([binary, self.command, *args, "--port", "0"], cwd=cwd,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"(http://[^/\s]+)/\?token=([0-9a-f]+)\s", line)
        if not match:
            self.process.kill()
            raise AssertionError(f"rulebench {self.command} {' '.join(args)} printed no address: {line!r} {self.process.stderr.read()}")
        self.printed = match.group(0).strip()
        # The studio's story-sequence overlay (Page/sequence.js) would cover the board when a pack's
        # intro plays on the first load: tests of other things open the page with it off;
        # test_sequences.py opens `printed`, the address as the studio printed it.
        self.url = self.printed + ("&sequences=off" if self.command == "studio" else "")
        self.origin = match.group(1)
        self.token = match.group(2)

    def stop(self):
        """Ctrl-C ends the studio cleanly: exit 0 within a few seconds."""
        self.process.send_signal(signal.SIGINT)
        code = self.process.wait(timeout=10)
        assert code == 0, f"rulebench {self.command} ended with {code} after Ctrl-C: {self.process.stderr.read()}"

    def cli(self, *args):
        """Runs another rulebench command in the studio's folder; returns (exit code, stdout)."""
        done = subprocess.run([self.binary, *args], cwd=self.cwd, capture_output=True, text=True, timeout=120)
        return done.returncode, done.stdout


class MatchServer(Studio):
    """One `rulebench serve` process (the match server), started and stopped as a studio is."""

    command = "serve"


class Context:
    """What a test gets: the rulebench binary, the browser context and its reused page."""

    def __init__(self, binary, browser, browser_context, page):
        self.binary = binary
        self.browser = browser
        self.browser_context = browser_context
        self.page = page
        self.studios = []
        self.pages = []

    def clocked_page(self):
        """A page in a browser context of its own whose clock the test drives (Playwright's clock is the
        whole context's, and stays installed, so the shared page never gets one); closed after the test."""
        clocked = self.browser.new_context(viewport={"width": 1400, "height": 900}, bypass_csp=True)
        clocked.set_default_timeout(15_000)
        self.page = clocked.new_page()
        self.page.clock.install(time=0)
        self.pages.append(clocked)
        return self.page

    def sized_page(self, width, height):
        """A page in a browser context of its own with a window of `width`×`height` (the tests of the
        layout and the README's pictures); it becomes the test's page and is closed after the test."""
        sized = self.browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
        sized.set_default_timeout(15_000)
        self.pages.append(sized)
        self.page = sized.new_page()
        return self.page

    def strict_page(self):
        """A page in a browser context of its own that enforces the studio's Content-Security-Policy
        (the shared one bypasses it for wait_for_function); wait in it with `expect`, which needs no eval."""
        strict = self.browser.new_context(viewport={"width": 1400, "height": 900})
        strict.set_default_timeout(15_000)
        self.pages.append(strict)
        return strict.new_page()

    def start(self, *args, cwd=REPOSITORY):
        studio = Studio(self.binary, list(args), cwd)
        self.studios.append(studio)
        return studio

    def serve(self, *args, cwd=REPOSITORY):
        """Starts `rulebench serve ARGS --port 0`; stopped (Ctrl-C, exit 0 required) after the test."""
        server = MatchServer(self.binary, list(args), cwd)
        self.studios.append(server)
        return server

    def open(self, *args, cwd=REPOSITORY, page=None):
        """Starts a studio and opens it in the page; returns the studio once the first position is shown."""
        studio = self.start(*args, cwd=cwd)
        page = page or self.page
        page.goto(studio.url)
        page.wait_for_function("Number(document.body.dataset.revision || 0) > 0")
        return studio

    def stop_all(self):
        for extra in self.pages:
            extra.close()
        self.pages = []
        studios, self.studios = self.studios, []
        for studio in studios:
            studio.stop()


def seek(page, position):
    """Moves the History slider to `position` and waits until the page shows it."""
    page.get_by_label("History").fill(str(position))
    page.wait_for_function(f"document.getElementById('history').value === '{position}' && "
                           f"document.getElementById('step-label').textContent.startsWith('step {position} of')")


def copied_pack(folder, source="template", name="race"):
    """A copy of the shipped pack `rules/SOURCE` in `folder`, named `name`, for a test to edit."""
    pack = Path(folder) / name
    shutil.copytree(REPOSITORY / "rules" / source, pack)
    return pack


def revision(page):
    return int(page.evaluate("Number(document.body.dataset.revision || 0)"))


def wait_for_revision_after(page, before):
    page.wait_for_function(f"Number(document.body.dataset.revision || 0) > {before}")


def click_and_wait(page, name):
    """Clicks the button named exactly `name` and waits until the page shows the position it made."""
    before = revision(page)
    page.get_by_role("button", name=name, exact=True).click()
    wait_for_revision_after(page, before)


def leaves(value, path=""):
    """The state's leaves as {dotted path: JSON text}, the way the page's tree shows them."""
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = ((str(i), v) for i, v in enumerate(value, start=1))
    else:
        return {path: json.dumps(value, separators=(",", ":"), ensure_ascii=False)}
    out = {}
    for key, child in items:
        out.update(leaves(child, f"{path}.{key}" if path else str(key)))
    return out


def page_leaves(page):
    """The leaves the page's state tree shows, read from the DOM."""
    return page.evaluate("""() => {
        const out = {};
        for (const li of document.querySelectorAll('#state li')) {
            if (li.querySelector('ul')) continue;
            out[li.dataset.path] = li.dataset.value;
        }
        return out;
    }""")
