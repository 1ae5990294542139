"""Time travel: the History slider shows what `rulebench state` prints, step by step, and back."""
import json

from harness import leaves, page_leaves, revision, seek, wait_for_revision_after
from playwright.sync_api import expect

SCENARIOS = [
    "scenarios/template/step-undo-redo.yaml",
    "scenarios/desert/move-one-step-orthogonally.yaml",
    "scenarios/desert/solve-near-win-shortest-line-to-launch.yaml",
    "scenarios/cards/deal-staggered-and-undone.yaml",
    "scenarios/set/take-three-and-undo.yaml",
]


def same_leaves(page_values, expected):
    assert page_values.keys() == expected.keys(), sorted(set(page_values) ^ set(expected))
    for path, text in expected.items():
        assert json.loads(page_values[path]) == json.loads(text), f"{path}: page {page_values[path]}, state {text}"


def test_the_slider_shows_the_hash_and_state_rulebench_state_prints(context):
    page = context.page
    for scenario in SCENARIOS:
        studio = context.open(scenario)
        steps = page.locator("#scenario-steps button")
        count = steps.count()
        assert count > 0, scenario
        positions = [0] + [int(steps.nth(i).get_attribute("data-position")) for i in range(count)]
        expected = [json.loads(studio.cli("state", scenario, "--step", str(step), "--json")[1]) for step in range(len(positions))]
        order = list(range(len(positions)))
        for step in order + order[::-1]:        # every step forwards, then backwards
            seek(page, positions[step])
            assert page.get_by_label("State hash").text_content() == expected[step]["hash"], f"{scenario} step {step}"
            same_leaves(page_leaves(page), leaves(expected[step]["state"]))
        studio.stop()


def test_seeking_from_the_end_to_zero_and_back_gives_the_same_hashes(context):
    page = context.page
    context.open("scenarios/desert/launch-needs-all-parts-and-everyone-on-the-pad.yaml")
    end = int(page.get_by_label("History").get_attribute("max"))
    assert end >= 4
    seek(page, end)
    down = {}
    for position in range(end, -1, -1):
        seek(page, position)
        down[position] = page.get_by_label("State hash").text_content()
    for position in range(0, end + 1):
        seek(page, position)
        assert page.get_by_label("State hash").text_content() == down[position], f"position {position}"
    # Every step's undo and redo ran in the engine and was verified.
    for item in page.locator("#entries li").all():
        assert "undo checked ✓, redo checked ✓" in item.text_content(), item.text_content()


def test_one_seek_across_the_whole_history_lands_on_the_same_hashes(context):
    page = context.page
    context.open("scenarios/desert/launch-needs-all-parts-and-everyone-on-the-pad.yaml")
    end = int(page.get_by_label("History").get_attribute("max"))
    assert end >= 4
    hashes = {}
    for position in range(end + 1):
        seek(page, position)
        hashes[position] = page.get_by_label("State hash").text_content()
    for position in [end, 0, end, 1, end - 1, 2, 0]:
        seek(page, position)
        assert page.get_by_label("State hash").text_content() == hashes[position]


def test_an_undo_that_does_not_restore_the_state_is_shown_not_verified(context):
    page = context.page
    context.open("Tests/RulebenchTests/Fixtures/hostile-cli/rules/broken")   # bump's undo takes back two
    page.get_by_role("button", name="bump", exact=True).click()
    expect(page.get_by_label("History")).to_have_attribute("max", "1")
    seek(page, 0)
    step = page.locator('#entries li[data-step="1"]')
    expect(step).to_contain_text("undo NOT verified")
    expect(step).to_contain_text("n: before 0, after undo -1")   # the slot the undo left wrong


def spoken_steps(page):
    """Each History item as a screen reader reads it: the list's own marker, then the item's text
    (Chromium's accessibility tree; the marker is not in the DOM's text)."""
    session = page.context.new_cdp_session(page)
    try:
        nodes = {n["nodeId"]: n for n in session.send("Accessibility.getFullAXTree")["nodes"]}
    finally:
        session.detach()
    name = lambda n: n.get("name", {}).get("value", "")  # noqa: E731
    steps = next(n for n in nodes.values() if n.get("role", {}).get("value") == "list" and name(n) == "Steps")
    spoken = []
    for item_id in steps.get("childIds", []):
        parts = [nodes[c] for c in nodes[item_id].get("childIds", []) if c in nodes]
        spoken.append("".join(name(p) for p in parts if p.get("role", {}).get("value") in ("ListMarker", "StaticText")))
    return spoken


def test_the_history_list_numbers_each_step_once(context):
    page = context.page
    context.open("template")
    calls = ["dash token=p1", "step token=p2", "step token=p1"]
    for call in calls:
        before = revision(page)
        page.get_by_role("button", name=call, exact=True).click()
        wait_for_revision_after(page, before)
    spoken = spoken_steps(page)
    assert len(spoken) == 3, spoken
    for number, (text, call) in enumerate(zip(spoken, calls), start=1):
        assert text == f"{number}. {call}", spoken   # nothing checked yet, so nothing more said
    assert page.locator("#entries li").all_text_contents()[0] == "dash token=p1", "the number is the list's, not the text's"


def test_a_seek_to_any_integer_gets_an_error_and_the_studio_goes_on(context):
    """`{"type": "seek", "step": -9223372036854775808}` trapped the studio (abs(step - cursor)), losing its history."""
    page = context.page
    context.open("scenarios/template/step-undo-redo.yaml")
    end = int(page.get_by_label("History").get_attribute("max"))
    hash_before = page.get_by_label("State hash").text_content()
    replies = page.evaluate("""() => new Promise((resolve) => {
        const socket = new WebSocket(`ws://${location.host}/socket${location.search}`);
        const sent = ['-9223372036854775808', '9223372036854775807', '-1'];
        const replies = [];
        socket.addEventListener('open', () => {
            sent.forEach((step, i) => socket.send(`{"type": "seek", "step": ${step}, "id": ${i + 1}}`));
        });
        socket.addEventListener('message', (event) => {
            const reply = JSON.parse(event.data);
            if (reply.type !== 'error') return;   // positions, sent to every page
            replies.push(reply);
            if (replies.length === sent.length) { socket.close(); resolve(replies); }
        });
        socket.addEventListener('close', () => resolve(replies));   // a studio that died answers no more
    })""")
    assert [reply["id"] for reply in replies] == [1, 2, 3], replies
    for reply, step in zip(replies, ["-9223372036854775808", "9223372036854775807", "-1"]):
        assert reply["kind"] == "failed", reply
        assert reply["message"] == f"no history position {step}: the history has positions 0 to {end}", reply
    # Nothing moved, and the page's own socket still works.
    assert page.get_by_label("State hash").text_content() == hash_before
    seek(page, 0)
    seek(page, end)
