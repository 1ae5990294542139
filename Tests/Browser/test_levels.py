"""Levels: a level file opens as a list of levels; picking one sets it up (its board is that level's),
and its stored solution plays a step at a time, each a verified step of the history that Undo takes back."""
import json
import re
import subprocess
import tempfile
from pathlib import Path

from harness import REPOSITORY, click_and_wait
from playwright.sync_api import expect

PIPES = str(REPOSITORY / "Benchmarks/packs/pipes")


def make_levels(binary, folder):
    """Three small pipes levels made by `rulebench generate` (the same every time: --seed 1), and each
    level's board (the grid option as rows of numbers) and stored calls, read from the file's text."""
    done = subprocess.run([binary, "generate", PIPES, "--count", "3", "--seed", "1", "--param", "rows=3", "--param", "columns=3",
                           "--param", "turns=4", "--goal", "solved", "--jobs", "1", "--out", "levels.yaml"],
                          cwd=folder, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    levels = []
    for line in (Path(folder) / "levels.yaml").read_text().splitlines():
        if line.startswith("    options: "):
            grid = json.loads(line[len("    options: "):])["grid"]
            levels.append({"rows": [[int(cell, 16) for cell in row] for row in grid.split("/")], "calls": []})
        elif line.startswith("        - { do: "):
            params = json.loads(re.search(r"with: (\{.*\}) \}$", line).group(1))
            levels[-1]["calls"].append(params)
    assert len(levels) == 3 and all(level["calls"] for level in levels), levels
    return levels


def board(page):
    return page.evaluate("window.studioPosition.state.rows")


def wait_for_level(page, number):
    expect(page.get_by_label("Levels")).to_have_attribute("data-level", str(number))


def test_a_level_file_opens_as_a_list_whose_levels_set_up_and_play_their_solutions(context):
    page = context.page
    folder = tempfile.mkdtemp(prefix="rulebench-levels-")
    levels = make_levels(context.binary, folder)
    context.open("levels.yaml", cwd=folder)
    expect(page.get_by_label("Levels")).to_be_visible()
    picker = page.get_by_label("Level", exact=True)
    expect(picker.locator("option")).to_have_count(3)
    wait_for_level(page, 1)
    assert board(page) == levels[0]["rows"]

    # The second level: set up by the engine with its options, an empty history.
    picker.select_option("2")
    wait_for_level(page, 2)
    expect(page.locator("#step-label")).to_have_text("step 0 of 0")
    assert board(page) == levels[1]["rows"]
    calls = levels[1]["calls"]
    expect(page.get_by_label("Solution", exact=True)).to_contain_text(f"0 of {len(calls)} calls played")
    expect(page.get_by_label("Levels")).to_have_attribute("data-goal-holds", "false")

    # Its solution, a step at a time: each a step of the history, its call the stored one, verified.
    for number, params in enumerate(calls, start=1):
        click_and_wait(page, "Solution step")
        expect(page.locator("#step-label")).to_have_text(f"step {number} of {number}")
        entry = page.locator("#entries li").nth(number - 1).text_content()
        assert entry.startswith("turn "), entry
        for key, value in params.items():
            assert f"{key}={value}" in entry, (entry, params)
        expect(page.get_by_label("Solution", exact=True)).to_contain_text(f"{number} of {len(calls)} calls played")
    expect(page.get_by_label("Levels")).to_have_attribute("data-goal-holds", "true")
    expect(page.get_by_role("button", name="Solution step", exact=True)).to_be_disabled()
    assert board(page) != levels[1]["rows"]

    # Undo takes the last step back (a verified undo in the engine); the solution can go on from there.
    click_and_wait(page, "Undo")
    expect(page.locator("#step-label")).to_have_text(f"step {len(calls) - 1} of {len(calls)}")
    expect(page.get_by_label("Levels")).to_have_attribute("data-goal-holds", "false")
    expect(page.get_by_label("Levels")).to_have_attribute("data-played", str(len(calls) - 1))
    expect(page.locator("#entries li").nth(len(calls) - 1)).to_contain_text("undo checked ✓")
    click_and_wait(page, "Solution step")
    expect(page.get_by_label("Levels")).to_have_attribute("data-goal-holds", "true")

    # The third level's solution played whole by one click.
    picker.select_option("3")
    wait_for_level(page, 3)
    assert board(page) == levels[2]["rows"]
    page.get_by_role("button", name="Play solution", exact=True).click()
    third = len(levels[2]["calls"])
    expect(page.get_by_label("Levels")).to_have_attribute("data-played", str(third))
    expect(page.locator("#step-label")).to_have_text(f"step {third} of {third}")
    expect(page.get_by_label("Levels")).to_have_attribute("data-goal-holds", "true")

    # A level's number comes from the wire: checked before it is used (a number outside the list, a string,
    # a number too large for an integer), and the page's own game goes on unchanged.
    errors = page.evaluate("""() => new Promise((resolve) => {
        const socket = new WebSocket(`ws://${location.host}/socket`);
        const errors = [];
        socket.addEventListener('message', (event) => {
            const message = JSON.parse(event.data);
            if (message.type === 'position' && !errors.length && !socket.sent) {
                socket.sent = true;
                socket.send('{"type": "level", "level": 4}');
                socket.send('{"type": "level", "level": "2"}');
                socket.send('{"type": "level", "level": 1e30}');
            }
            if (message.type === 'error') errors.push(message);
            if (errors.length === 3) { socket.close(); resolve(errors); }
        });
    })""")
    assert errors[0]["kind"] == "failed" and "no level 4: levels.yaml has levels 1 to 3" in errors[0]["message"], errors[0]
    assert errors[1]["kind"] == "malformed" and "level needs" in errors[1]["message"], errors[1]
    assert errors[2]["kind"] == "malformed", errors[2]
    wait_for_level(page, 3)
    expect(page.get_by_label("Levels")).to_have_attribute("data-played", str(third))
