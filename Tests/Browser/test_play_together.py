"""Play together: three seats of desert and a spectator, each in a browser context of its own, play one
match of `rulebench serve` through the match page (the lobby, the board, the calls, takebacks).

What is checked, and how:
- Every seat's page and the spectator's reach every version, and draw the board at it.
- A call out of turn, typed in a seat's page, is refused with the pack's reason (desert's
  `turn_check`: "it is P's turn, not Q's"), and nothing changes.
- One seat's browser goes offline: its page says the connection is lost, the others play on, and
  when it is back online the page reconnects by itself and asks for the steps after the version it
  holds: it ends at the same version, with every step listed once.
- A spectator comes at version 20 or so and is sent the whole public view (no spectator watched the
  steps before, so the server holds no spectator's view of them), then the steps after it.
- No secret reaches a seat or the spectator. The secrets are not read from the server (it has no
  route that shows them); they are computed apart: the match's calls (version by version, as the
  seats received them) and its seed make a scenario, and `rulebench state` plays it and prints the
  full state after each step, decks and tiles included. Then every WebSocket message each page
  received, every board (`/scene` answer) it fetched, and each page's final DOM are searched:
  each message is checked against the secrets of the version it brings its page to (the highest it
  names; a page's DOM, the last version), since a card drawn or a tile excavated is public after:
  * deck order: the storm and gear decks are face down to every seat. The first four cards of
    each deck in their order (when it holds four) must not appear as four consecutive card names
    (card names alone are public: the discards show them; their order in the deck is the secret);
  * tiles: a tile not excavated is face down (to every seat but one that looked under it with a
    terrascope): its face (`faces[tile]` in desert 2.0: `well1`, `propeller_row`...) must not appear
    as a word; a face whose name is only its kind (`pad`, `mirage`, `crash`, words the public view
    uses) must not appear beside the tile's id or cell, nor may its art (`art/tile-KIND.svg`).
The screenshot of two seats' boards side by side is the README's picture (docs/images/play-together.png).
"""
import json
import os
import random
import re
import subprocess
import tempfile
from pathlib import Path

from playwright.sync_api import expect

from harness import REPOSITORY

SEED = 11
SEATS = ["p1", "p2", "p3"]
STEPS = 30


class Seat:
    """One browser context on the match page, and everything it received."""

    def __init__(self, context, name, strict=False):
        self.name = name
        self.browser_context = context.browser.new_context(viewport={"width": 1100, "height": 820}, bypass_csp=not strict)
        self.browser_context.set_default_timeout(15_000)
        context.pages.append(self.browser_context)
        self.page = self.browser_context.new_page()
        self.frames = []     # every WebSocket text message received, as sent
        self.boards = []     # every board (/scene answer) fetched, as sent
        self.page.on("response", self._response)
        self.offline = False
        self.sockets = []
        if strict:
            self.page.on("websocket", lambda socket: socket.on("framereceived", self._frame))
        else:
            # A seat's socket passes through the test (Playwright's WebSocket route), which records
            # every message the server sends it and can drop the connection as a network would.
            self.page.route_web_socket(re.compile(r"/api/matches/\d+/socket"), self._route)

    def _frame(self, payload):
        self.frames.append(payload if isinstance(payload, str) else payload.decode("utf-8", "replace"))

    def _route(self, page_side):
        if self.offline:
            page_side.close(code=4000, reason="offline")
            return
        server_side = page_side.connect_to_server()

        def down(message):
            self._frame(message)
            page_side.send(message)
        server_side.on_message(down)
        page_side.on_message(server_side.send)
        self.sockets.append((page_side, server_side))

    def go_offline(self):
        """The connection drops (both ends closed) and every new one fails until `go_online`."""
        self.offline = True
        for page_side, server_side in self.sockets:
            server_side.close()
            page_side.close(code=4000, reason="dropped")
        self.sockets = []

    def go_online(self):
        self.offline = False

    def _response(self, response):
        if response.url.endswith("/scene") and response.ok:
            self.boards.append(response.text())

    def at(self, version):
        """Waits until the page shows `version` and has drawn the board at it (works under the strict CSP)."""
        expect(self.page.locator("body")).to_have_attribute("data-version", str(version))
        expect(self.page.locator("body")).to_have_attribute("data-drawn", str(version))

    def legal(self):
        return self.page.locator("#legal button")


def join(seat, server, match, name):
    seat.page.goto(server.url)
    row = seat.page.locator(f"#matches tr[data-match='{match}']")
    row.get_by_role("button", name=f"Join {name}").click()
    expect(seat.page.locator("#connection")).to_have_attribute("data-state", "connected")


def current_player(seats):
    """The seat whose turn it is: the one offered end_turn (desert offers it to the current player only)."""
    for seat in seats:
        if seat.page.locator("#legal button", has_text="end_turn").count():
            return seat
    raise AssertionError("no seat is offered end_turn")


def test_three_seats_and_a_spectator_play_desert_together(context):
    data = tempfile.mkdtemp(prefix="rulebench-play-")
    server = context.serve("desert", "--data", data)
    seats = [Seat(context, name) for name in SEATS]
    watcher = Seat(context, "spectator", strict=True)   # the page under the server's strict CSP, as a browser gets it

    # The lobby: create the match (pack, options, seed), then each context joins its seat.
    first = seats[0].page
    first.goto(server.url)
    first.locator("#create-options").fill('{"players": 3}')
    first.locator("#create-seed").fill(str(SEED))
    first.get_by_role("button", name="Create").click()
    expect(first.locator("#matches tr[data-match]")).to_have_count(1)
    match = first.locator("#matches tr[data-match]").get_attribute("data-match")
    for seat, name in zip(seats, SEATS):
        join(seat, server, match, name)
        assert "credential" not in seat.page.url and not re.search(r"[0-9a-f]{64}", seat.page.url.split("token=")[-1].split("#")[-1])
    everyone = seats + [watcher]
    for seat in seats:
        seat.at(0)
    expect(seats[0].page.locator("#presence li.connected")).to_have_count(3)

    # A call out of turn: refused with the pack's reason, and nothing changes.
    turn = current_player(seats)
    other = next(s for s in seats if s is not turn)
    other.page.locator("#call").fill(f"end_turn player={other.name}")
    other.page.get_by_role("button", name="Perform").click()
    expect(other.page.locator("#status")).to_have_text(f"refused (rejected): it is {turn.name}'s turn, not {other.name}'s")
    assert other.page.locator("body").get_attribute("data-version") == "0"

    # 30 steps: the seat whose turn it is makes a seeded choice among its calls; every fifth step it
    # takes its call back (a takeback refused, at a barrier or a finished turn, is shown and play goes on).
    chooser = random.Random(SEED)
    version, takebacks, watcher_joined_at = 0, 0, 0
    offline, came_back = None, None
    while version < STEPS:
        online = [s for s in seats if s is not offline]
        if version == 12 and came_back is None and offline is None:
            # One seat that is not playing now loses its connection; the others play on.
            offline = next(s for s in seats if s is not current_player(seats))
            offline.go_offline()
            expect(offline.page.locator("#connection")).to_have_attribute("data-state", "reconnecting")
            online = [s for s in seats if s is not offline]
        if offline is not None and (version >= 16 or not any(s.page.locator("#legal button", has_text="end_turn").count() for s in online)):
            offline.go_online()
            expect(offline.page.locator("#connection")).to_have_attribute("data-state", "connected", timeout=10_000)
            offline.at(version)   # caught up by itself: the steps after the version it held
            came_back, offline = offline, None
            online = seats
        if version >= 20 and watcher_joined_at == 0:
            # A spectator comes to watch: no spectator watched the steps so far, so the server holds
            # no spectator's view of them and sends the whole public view (the state as every seat may see it).
            watcher.page.goto(server.url)
            watcher.page.locator(f"#matches tr[data-match='{match}']").get_by_role("button", name="Watch").click()
            watcher_joined_at = version
            watcher.at(version)
            expect(watcher.page.locator("#steps li.caught-up")).to_have_text(f"caught up from version 0 to {version} (the board as it is now)")
            assert any(json.loads(m).get("type") == "view" for m in watcher.frames)
        turn = current_player(online)
        calls = [turn.legal().nth(i).text_content() for i in range(turn.legal().count())]
        moves = [c for c in calls if not c.startswith("end_turn")]
        call = chooser.choice(moves) if moves and chooser.random() < 0.8 else next(c for c in calls if c.startswith("end_turn"))
        turn.legal().filter(has_text=re.compile("^" + re.escape(call) + "$")).first.click()
        version += 1
        for seat in everyone:
            if seat is not offline and (seat is not watcher or watcher_joined_at):
                seat.at(version)
        if version % 5 == 4 and version < STEPS:
            turn.page.get_by_role("button", name="Take back my last call").click()
            expect(turn.page.locator(f"body[data-version='{version + 1}'], #status.error").first).to_be_attached()
            if turn.page.locator("body").get_attribute("data-version") == str(version + 1):
                version += 1
                takebacks += 1
                for seat in everyone:
                    if seat is not offline and (seat is not watcher or watcher_joined_at):
                        seat.at(version)
    assert came_back is not None and offline is None
    assert takebacks >= 2, f"only {takebacks} takebacks were accepted: the test should exercise them"
    for seat in seats:
        seat.at(version)
        expect(seat.page.locator("#steps li")).to_have_count(version)   # each step once, the dropped seat's too
    watcher.at(version)
    expect(watcher.page.locator("#steps li")).to_have_count(1 + version - watcher_joined_at)
    expect(watcher.page.locator("#legal button")).to_have_count(0)
    expect(watcher.page.locator("#board > svg")).to_have_count(1)

    # The README's picture: two seats' boards side by side.
    screenshot(seats[0].page, seats[1].page)

    # The secrets, computed apart from the server, and searched for in all each page received, each
    # message against the secrets of the version it brought the page to (a card drawn, a tile
    # excavated, is public from then on).
    steps = [json.loads(m)["step"] for m in seats[0].frames if json.loads(m).get("type") in ("step", "accepted")]
    states = played_states(context.binary, steps)
    names = sorted({card for state in states for deck in ("storm_deck", "gear_deck", "storm_discard", "gear_discard")
                    for card in state[deck]}, key=len, reverse=True)
    assert any(deck_windows(state) for state in states) and face_down_tiles(states, 0, "spectator")
    for seat in everyone:
        assert len(seat.frames) > version - (watcher_joined_at if seat is watcher else 0) and seat.boards, f"{seat.name}: too little recorded"
        for texts in (seat.frames, seat.boards, [seat.page.content()]):
            at = 0
            for text in texts:
                at = version if text.startswith("<") else max(at, versions_in(text))
                leak_free(text, deck_windows(states[at]), face_down_tiles(states, at, seat.name), names, f"{seat.name} at version {at}")


def versions_in(text):
    """The version a message brings its page to: the highest it names."""
    value = json.loads(text)
    found = [value.get("version"), value.get("current"), (value.get("step") or {}).get("version")]
    return max([v for v in found if isinstance(v, int)], default=0)


def played_states(binary, steps):
    """The full state after setup and after each version, from a scenario of the match's calls."""
    by_version = {s["version"]: s for s in steps}
    lines = ["scenario: the match played in the browser test, replayed to know its secrets",
             f"rules: {REPOSITORY / 'rules' / 'desert'}", "setup:", f"  seed: {SEED}", "  options: { players: 3 }", "steps:"]
    for version in sorted(by_version):
        step = by_version[version]
        if "takeback" in step:
            lines.append("  - undo: 1")
        else:
            lines.append(f"  - do: {step['call']['name']}")
            lines.append(f"    with: {json.dumps(step['call']['params'])}")
    assert sorted(by_version) == list(range(1, len(by_version) + 1)), "every version's step was received"
    with tempfile.TemporaryDirectory() as folder:
        scenario = Path(folder) / "match.yaml"
        scenario.write_text("\n".join(lines) + "\n")
        states = []
        for step in range(0, len(by_version) + 1):
            done = subprocess.run([binary, "state", str(scenario), "--step", str(step), "--json"],
                                  capture_output=True, text=True, timeout=60)
            assert done.returncode == 0, done.stderr
            states.append(json.loads(done.stdout)["state"])
    return states


def deck_windows(state):
    """The first four cards of each deck in their order, when it holds four (the order a seat must not learn)."""
    return {tuple(state[deck][:4]) for deck in ("storm_deck", "gear_deck") if len(state[deck]) >= 4}


def face_down_tiles(states, at, seat):
    """The tiles face down at version `at` to `seat` (not excavated, and not looked under by the seat with
    a terrascope, which shows a face to its user alone; nor one whose back only it has), as
    (tile id, cell, face, kind). A face is
    `faces[tile]` (desert 2.0, where a tile's id says only where it was dealt), or the tile's id itself
    (desert 1.0, whose tile ids were their faces)."""
    tiles = {tile for tile, fields in states[at]["tiles"].items() if not fields["excavated"]}
    for state in states[:at + 1]:
        tiles -= {tile for tile, seats in (state.get("peeked") or {}).items() if seat in (seats or [])}
    state = states[at]
    faces = state.get("faces") or {}
    # A back only one tile has (desert 2.0's "wreck": the crash site) shows what is under it: not a secret.
    backs = [fields.get("back") for fields in state["tiles"].values()]
    tiles -= {tile for tile in tiles if state["tiles"][tile].get("back") is not None and backs.count(state["tiles"][tile]["back"]) == 1}
    return {(tile, state["tiles"][tile]["cell"], faces.get(tile, tile), re.sub(r"\d+$|_(row|col)$", "", faces.get(tile, tile)))
            for tile in tiles}


def word(text, name):
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", text) is not None


def pieces(text):
    """The smallest parts of what a page received that each speak of one thing: every JSON object's
    own strings (a board's node, a plan's item, a state's table), or for the DOM each element's markup."""
    try:
        value = json.loads(text)
    except ValueError:
        return re.split(r"(?=<)", text)
    out = []

    def walk(v):
        if isinstance(v, dict):
            out.append(" ".join(f"{k} {x}" for k, x in v.items() if not isinstance(x, (dict, list))))
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            out.append(" ".join(str(x) for x in v if not isinstance(x, (dict, list))))
            for x in v:
                walk(x)
    walk(value)
    return out


def leak_free(text, decks, hidden, names, seat):
    """No deck's order, no face-down tile's face: a face named by a number or a row/column (well1,
    gear5, propeller_row) may not appear at all; a face whose name is only its kind (crash, pad,
    mirage: the public view speaks of "the launch pad" before it is found) may not appear beside
    its tile's id or cell, nor may the face's art (art/tile-KIND.svg)."""
    found = [m.group(0) for m in re.finditer("|".join(re.escape(n) for n in names), text)]
    for window in decks:
        for i in range(len(found) - 3):
            assert tuple(found[i:i + 4]) != window, f"{seat} received the deck order {window}: {text[:300]}"
    for tile, cell, face, kind in hidden:
        if face != kind:
            assert not word(text, face), f"{seat} received face-down tile {tile}'s face {face}: {text[:300]}"
            continue
        for piece in pieces(text):
            if word(piece, tile) or word(piece, cell):
                assert not word(piece, face) and f"tile-{kind}." not in piece, \
                    f"{seat} received face-down tile {tile} at {cell} as {face}: {piece[:300]}"


def screenshot(left, right):
    """Two seats' pages side by side, composed in a page of their own from each page's picture (same size)."""
    import base64
    for p in (left, right):
        p.evaluate("window.scrollTo(0, 0)")
    shots = [base64.b64encode(p.screenshot()).decode() for p in (left, right)]
    page = left.context.new_page()
    page.set_viewport_size({"width": 2208, "height": 820})
    page.set_content("<body style='margin:0;display:flex;gap:8px;background:#3b2f25'>"
                     + "".join(f"<img src='data:image/png;base64,{s}' width='1100' height='820'>" for s in shots) + "</body>")
    readme_copy = REPOSITORY / "docs" / "images" / "play-together.png"
    update = os.environ.get("STUDIO_SCREENSHOT") == "update" or not readme_copy.exists()
    page.screenshot(path=str(readme_copy if update else REPOSITORY / ".build" / "play-together.png"))
    page.close()
