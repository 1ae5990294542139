"""Playing on the page: legal calls as buttons, Undo, Redo, Save, rejected calls, several tabs, pack files."""
import http.client
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import urlparse

from harness import REPOSITORY, click_and_wait, revision, wait_for_revision_after
from playwright.sync_api import expect


def test_clicked_actions_make_a_history_that_replays(context):
    page = context.page
    studio = context.open("template")
    click_and_wait(page, "dash token=p1")
    click_and_wait(page, "step token=p2")
    click_and_wait(page, "Undo")
    click_and_wait(page, "Redo")
    click_and_wait(page, "Undo")
    click_and_wait(page, "dash token=p2")
    expect(page.get_by_label("History")).to_have_attribute("max", "2")
    saved = studio.cwd / ".build" / "studio-browser-test-history.json"
    # A path relative to the studio's folder (an absolute one is refused: see test_saving_is_kept_inside_the_folder).
    page.get_by_label("Save as").fill(".build/studio-browser-test-history.json")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#status")).to_contain_text("saved 2 steps")
    code, out = studio.cli("replay", str(saved))
    assert code == 0, out
    # The saved history opens in the studio at the same position, every step there.
    end_hash = page.get_by_label("State hash").text_content()
    context.open(str(saved))
    expect(page.get_by_label("History")).to_have_attribute("max", "2")
    expect(page.get_by_label("History")).to_have_value("2")
    expect(page.get_by_label("State hash")).to_have_text(end_hash)
    saved.unlink()


def test_saving_is_kept_inside_the_folder(context):
    page = context.page
    context.open("template")
    page.get_by_label("Save as").fill("/tmp/studio-browser-test-escape.json")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#status")).to_contain_text("an absolute path is not saved to")
    page.get_by_label("Save as").fill("../studio-browser-test-escape.json")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#status")).to_contain_text("'..' leaves the studio's folder")


def assert_refused(page, typed, reason):
    """Typing `typed` into the Call field shows `reason` and performs nothing."""
    page.get_by_label("Call", exact=True).fill(typed)
    page.get_by_role("button", name="Perform").click()
    expect(page.locator("#status")).to_contain_text(reason)
    expect(page.get_by_label("History")).to_have_attribute("max", "0")


def test_a_rejected_call_shows_the_packs_reason(context):
    context.open("template")
    assert_refused(context.page, "dash token=p9", "rejected")


def test_every_tab_sees_the_same_game(context):
    page = context.page
    studio = context.open("template")
    other = context.browser_context.new_page()
    try:
        other.goto(studio.url)
        other.wait_for_function("Number(document.body.dataset.revision || 0) > 0")
        click_and_wait(page, "dash token=p1")
        expect(other.get_by_label("State hash")).to_have_text(page.get_by_label("State hash").text_content())
        expect(other.get_by_label("History")).to_have_attribute("max", "1")
    finally:
        other.close()


def test_a_malformed_message_gets_an_error_and_the_next_message_works(context):
    page = context.page
    context.open("template")
    replies = page.evaluate("""() => new Promise((resolve) => {
        const socket = new WebSocket(`ws://${location.host}/socket`);
        const replies = [];
        socket.addEventListener('message', (event) => {
            replies.push(JSON.parse(event.data));
            if (replies.length === 1) socket.send('{"type": "perform"');
            else if (replies.length === 2) socket.send('{"type": "teleport"}');
            else if (replies.length === 3) socket.send('{"type": "sync", "id": 7}');
            else { socket.close(); resolve(replies); }
        });
    })""")
    assert replies[0]["type"] == "position"
    assert replies[1]["type"] == "error" and replies[1]["kind"] == "malformed" and "not JSON" in replies[1]["message"], replies[1]
    assert replies[2]["type"] == "error" and "unknown message type 'teleport'" in replies[2]["message"], replies[2]
    assert replies[3]["type"] == "position" and replies[3]["step"] == 0, replies[3]
    # The page's own socket still works.
    click_and_wait(page, "step token=p1")
    expect(page.get_by_label("History")).to_have_attribute("max", "1")


def test_it_listens_on_loopback_and_a_click_on_a_node_narrows_the_calls(context):
    page = context.page
    studio = context.open("template")
    assert studio.url.startswith("http://127.0.0.1:"), studio.url
    everything = page.locator("#legal button").all_text_contents()
    assert any("p2" in call for call in everything)
    page.locator('#board g[data-id="token:p1"]').click()
    narrowed = page.locator("#legal button")
    expect(narrowed).not_to_have_count(len(everything))
    assert narrowed.all_text_contents() == [call for call in everything if "token=p1" in call.split()]
    page.locator('#board g[data-id="token:p1"]').click()
    expect(narrowed).to_have_count(len(everything))


def test_a_pack_without_a_view_shows_its_render_text_state_and_calls(context):
    page = context.page
    context.open("Benchmarks/packs/eight")
    expect(page.get_by_label("Scene")).to_have_count(0)
    expect(page.get_by_label("Render")).to_be_visible()
    first = page.locator("#legal button").first
    call = first.text_content()
    click_and_wait(page, call)
    expect(page.locator("#entries")).to_contain_text(call)
    expect(page.locator("#changes li").first).to_be_visible()


def test_pack_files_are_served_and_nothing_outside_the_pack(context):
    with tempfile.TemporaryDirectory() as folder:
        pack = Path(folder) / "race"
        shutil.copytree(REPOSITORY / "rules" / "template", pack)
        (pack / "art.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
        (Path(folder) / "secret.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'><!-- secret --></svg>")
        os.symlink(Path(folder) / "secret.svg", pack / "link.svg")
        studio = context.start(str(pack), cwd=folder)
        address = urlparse(studio.url)

        def status(path):
            connection = http.client.HTTPConnection(address.hostname, address.port, timeout=10)
            connection.request("GET", f"{path}?token={studio.token}")
            response = connection.getresponse()
            body = response.read()
            connection.close()
            return response.status, body

        assert status("/pack/art.svg")[0] == 200
        for path in ["/pack/../secret.svg", "/pack/%2e%2e/secret.svg", "/pack/link.svg", "/pack/actions/step.lua"]:
            code, body = status(path)
            assert code == 404 and b"secret" not in body, (path, code)


def test_undo_turn_takes_back_the_turn(context):
    page = context.page
    context.open("template")
    for call in ["step token=p1", "step token=p2", "dash token=p1"]:
        click_and_wait(page, call)
    start = page.get_by_label("State hash").text_content()
    click_and_wait(page, "Undo turn")          # the template has no checkpoint: the whole game is one turn
    expect(page.get_by_label("History")).to_have_value("0")
    expect(page.get_by_label("History")).to_have_attribute("max", "3")
    assert page.get_by_label("State hash").text_content() != start
    for item in page.locator("#entries li").all():
        assert "undo checked ✓" in item.text_content(), item.text_content()


NAME_ACTION = """-- name: gives a token a name, a string that may hold blanks.
return {
  params = { token = "string", name = "string" },
  check = function(game, a) if not game.tokens[a.token] then return "no token " .. a.token end end,
  apply = function(game, a) game.tokens[a.token].name = a.name end,
}
"""


def test_a_typed_call_reads_a_quoted_value_with_blanks_as_play_does(context):
    page = context.page
    with tempfile.TemporaryDirectory() as folder:
        pack = Path(folder) / "race"
        shutil.copytree(REPOSITORY / "rules" / "template", pack)
        (pack / "actions" / "name.lua").write_text(NAME_ACTION)
        studio = context.open(str(pack), "--seed", "3", cwd=folder)
        typed = 'name token=p1 name="Red Baron"'
        before = revision(page)
        page.get_by_label("Call", exact=True).fill(typed)
        page.get_by_role("button", name="Perform").click()
        wait_for_revision_after(page, before)
        expect(page.locator('#state li[data-path="tokens.p1.name"]')).to_have_attribute("data-value", '"Red Baron"')
        expect(page.locator("#entries li").first).to_contain_text('name name="Red Baron" token=p1')   # its label
        # `play` reads the same line to the same state.
        played = subprocess.run([context.binary, "play", str(pack), "--seed", "3"], input=f"{typed}\nhash\n",
                                cwd=folder, capture_output=True, text=True, timeout=60)
        assert f'hash: "{page.get_by_label("State hash").text_content()}"' in played.stdout, played.stdout

        # A quote left open is refused with its column, and nothing is performed.
        unclosed = 'name token=p2 name="Red Baron'
        column = unclosed.index('"') + 1
        page.get_by_label("Call", exact=True).fill(unclosed)
        page.get_by_role("button", name="Perform").click()
        expect(page.locator("#status")).to_contain_text(f"the quote at column {column} is not closed")
        expect(page.get_by_label("History")).to_have_attribute("max", "1")
        studio.stop()


def test_a_typed_call_with_a_param_twice_is_refused_by_name(context):
    """`step token=p1 token=p2` took the last param silently."""
    context.open("template")
    assert_refused(context.page, "step token=p1 token=p2", "the param 'token' is given twice (give each param once)")
