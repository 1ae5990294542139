"""The studio as a stage: the board is the page, moves on the board, the keyboard, and behaviour that
follows the game (a narrowing and an error cleared when it moves, "Undo turn" at step 0, checks said in
words, live edit keeping every step, a do-only fanfare silent on undo)."""
import re
import tempfile
from pathlib import Path

from harness import click_and_wait, copied_pack, revision, wait_for_revision_after
from playwright.sync_api import expect

# A pack whose calls name the board's cells: `move` one cell either way (one call per target), and
# `jump` two cells on, soft or hard (two calls per target: a choice). Piece b is `movable` (dragged
# onto a target); piece a is not (moved by clicking it, then a target).
HOPS_PACK = """return {
  name = "hops", version = "1.0", description = "Two pieces on a row of six cells.",
  setup = function(game) game.at = { a = 2, b = 6 } end,
  view = {
    size = { 380, 80 },
    scene = function(game, add)
      for i = 1, 6 do
        add{ id = "cell:" .. i, x = 40 + (i - 1) * 60, y = 40, w = 54, h = 54, shape = "rect", color = "#eeeeee",
             names = { to = i }, label = "cell " .. i }
      end
      for _, name in ipairs({ "a", "b" }) do
        add{ id = "piece:" .. name, x = 40 + (game.at[name] - 1) * 60, y = 40, w = 30, h = 30, shape = "circle",
             color = "#333333", layer = 1, label = "piece " .. name, movable = name == "b" }
      end
    end,
  },
}
"""
HOPS_MOVE = """return {
  params = { piece = "string", to = "integer" },
  legal = function(game, emit)
    for _, name in ipairs({ "a", "b" }) do
      for _, to in ipairs({ game.at[name] - 1, game.at[name] + 1 }) do
        if to >= 1 and to <= 6 then emit{ piece = name, to = to } end
      end
    end
  end,
  check = function(game, a)
    if not game.at[a.piece] then return "no piece " .. a.piece end
    if math.abs(game.at[a.piece] - a.to) ~= 1 then return "a move is one cell" end
  end,
  apply = function(game, a) game.at[a.piece] = a.to end,
}
"""
HOPS_JUMP = """return {
  params = { piece = "string", to = "integer", landing = "string" },
  legal = function(game, emit)
    for _, name in ipairs({ "a", "b" }) do
      local to = game.at[name] + 2
      if to <= 6 then
        emit{ piece = name, to = to, landing = "soft" }
        emit{ piece = name, to = to, landing = "hard" }
      end
    end
  end,
  check = function(game, a)
    if not game.at[a.piece] then return "no piece " .. a.piece end
    if game.at[a.piece] + 2 ~= a.to then return "a jump is two cells on" end
  end,
  apply = function(game, a) game.at[a.piece] = a.to end,
}
"""


def hops_pack(folder):
    pack = Path(folder) / "hops"
    (pack / "actions").mkdir(parents=True)
    (pack / "pack.lua").write_text(HOPS_PACK)
    (pack / "actions" / "move.lua").write_text(HOPS_MOVE)
    (pack / "actions" / "jump.lua").write_text(HOPS_JUMP)
    return pack


def at(page, piece):
    return page.locator(f'#state li[data-path="at.{piece}"]')


def test_desert_is_drawn_at_least_at_80_percent_of_its_size_at_1280_by_720(context):
    page = context.sized_page(1280, 720)
    context.open("desert")
    page.wait_for_function("document.querySelector('#board svg') && document.querySelector('#board svg').getScreenCTM()")
    drawn = page.evaluate("""() => {
        const svg = document.querySelector('#board svg');
        const tile = document.querySelector('#board g.node[data-id^="tile:"] rect').getBoundingClientRect();
        const box = svg.getBoundingClientRect();
        return { scale: svg.getScreenCTM().a, tile: tile.width, tileNatural: Number(document.querySelector('#board g.node[data-id^="tile:"] rect').getAttribute('width')),
                 inside: box.left >= 0 && box.top >= 0 && box.right <= innerWidth && box.bottom <= innerHeight };
    }""")
    assert drawn["scale"] >= 0.8, drawn
    assert drawn["tile"] / drawn["tileNatural"] >= 0.8, drawn
    assert drawn["inside"], drawn
    # Still so with a step's timeline shown under it.
    click_and_wait(page, page.locator("#legal button", has_text="move").first.text_content())
    page.wait_for_function("document.querySelector('#timeline svg')")
    after = page.evaluate("[document.querySelector('#board svg').getScreenCTM().a, document.querySelector('#board svg').getAttribute('viewBox')]")
    assert after[0] >= 0.8, after
    # Zoom keeps it sharp (an SVG viewBox, no bitmap scaling) and "fit" brings the whole scene back.
    page.get_by_role("button", name="Zoom in").click()
    page.wait_for_function(f"document.querySelector('#board svg').getScreenCTM().a > {after[0] * 1.2}")
    assert page.evaluate("document.querySelector('#board svg').getAttribute('viewBox')") != "0 0 844 536"
    page.get_by_role("button", name="Fit").click()
    page.wait_for_function(f"document.querySelector('#board svg').getScreenCTM().a < {after[0] * 1.01}")
    assert page.evaluate("document.querySelector('#board svg').getAttribute('viewBox')") == "0 0 844 536"


def press(page, key):
    before = revision(page)
    page.keyboard.press(key)
    wait_for_revision_after(page, before)


def test_arrow_keys_home_and_end_move_through_the_history(context):
    page = context.page
    context.open("template")
    for call in ["step token=p1", "step token=p2", "dash token=p1"]:
        click_and_wait(page, call)
    slider = page.get_by_label("History")
    page.locator("header h1").click()          # the keys belong to the page, not to a field
    press(page, "ArrowLeft")
    expect(slider).to_have_value("2")
    press(page, "ArrowLeft")
    expect(slider).to_have_value("1")
    press(page, "ArrowRight")
    expect(slider).to_have_value("2")
    press(page, "Home")
    expect(slider).to_have_value("0")
    press(page, "End")
    expect(slider).to_have_value("3")
    # The slider's own arrow keys take one step too (not the browser's, which would skip the animation).
    slider.focus()
    press(page, "ArrowLeft")
    expect(slider).to_have_value("2")
    expect(page.locator('#entries li[data-step="3"]')).to_contain_text("undo checked ✓")


def test_space_plays_the_steps_animation_again(context):
    page = context.clocked_page()
    context.open("template")
    page.clock.pause_at(10_000)
    click_and_wait(page, "step token=p1")
    page.clock.run_for(400)
    page.wait_for_function("document.body.dataset.playing === 'false'")
    page.locator("header h1").click()
    page.keyboard.press(" ")
    page.wait_for_function("document.body.dataset.playing === 'true'")


def test_clicking_a_target_performs_the_one_call_that_fits_and_offers_a_choice_when_two_do(context):
    page = context.page
    with tempfile.TemporaryDirectory() as folder:
        context.open(str(hops_pack(folder)), cwd=folder)
        page.locator('#board g[data-id="piece:a"]').click()
        # Its targets are lit: the cells its calls name (1 and 3 by a move, 4 by a jump).
        expect(page.locator("body")).to_have_attribute("data-targets", "cell:1 cell:3 cell:4")
        expect(page.locator('#board g[data-id="cell:3"]')).to_have_class("node target")
        # One call fits cell 3: it is performed.
        before = revision(page)
        page.locator('#board g[data-id="cell:3"]').click()
        wait_for_revision_after(page, before)
        expect(at(page, "a")).to_have_attribute("data-value", "3")
        expect(page.locator("#entries li").first).to_contain_text("move piece=a to=3")
        expect(page.locator("#choice")).to_be_hidden()
        # Two calls fit cell 5 (a soft and a hard landing): the choice is offered, nothing performed yet.
        page.locator('#board g[data-id="piece:a"]').click()
        page.locator('#board g[data-id="cell:5"]').click()
        choice = page.get_by_role("menu", name="Choose a call")
        expect(choice).to_be_visible()
        expect(choice.get_by_role("menuitem")).to_have_text(["jump landing=soft piece=a to=5", "jump landing=hard piece=a to=5"])
        expect(page.get_by_label("History")).to_have_attribute("max", "1")
        before = revision(page)
        choice.get_by_role("menuitem", name="jump landing=soft piece=a to=5").click()
        wait_for_revision_after(page, before)
        expect(at(page, "a")).to_have_attribute("data-value", "5")
        expect(choice).to_be_hidden()
        # The list of calls stays.
        expect(page.locator("#legal button").first).to_be_visible()


def test_dragging_a_piece_onto_a_target_performs_the_move(context):
    page = context.page
    with tempfile.TemporaryDirectory() as folder:
        context.open(str(hops_pack(folder)), cwd=folder)
        piece = page.locator('#board g[data-id="piece:b"]').bounding_box()
        cell = page.locator('#board g[data-id="cell:5"]').bounding_box()
        before = revision(page)
        page.mouse.move(piece["x"] + piece["width"] / 2, piece["y"] + piece["height"] / 2)
        page.mouse.down()
        page.mouse.move(cell["x"] + cell["width"] / 2, cell["y"] + 8, steps=8)
        expect(page.locator('#board g[data-id="cell:5"]')).to_have_class("node target hover-target")
        page.mouse.up()
        wait_for_revision_after(page, before)
        expect(at(page, "b")).to_have_attribute("data-value", "5")


def test_only_a_node_the_view_marks_movable_starts_a_drag(context):
    page = context.page
    with tempfile.TemporaryDirectory() as folder:
        context.open(str(hops_pack(folder)), cwd=folder)
        expect(page.locator('#board g[data-movable="true"]')).to_have_count(1)
        expect(page.locator('#board g[data-id="piece:b"]')).to_have_attribute("data-movable", "true")
        frame = page.locator("#board-frame")

        def drag(piece_id, cell_id):
            piece = page.locator(f'#board g[data-id="{piece_id}"]').bounding_box()
            cell = page.locator(f'#board g[data-id="{cell_id}"]').bounding_box()
            page.mouse.move(piece["x"] + piece["width"] / 2, piece["y"] + piece["height"] / 2)
            page.mouse.down()
            page.mouse.move(cell["x"] + cell["width"] / 2, cell["y"] + 8, steps=8)
            dragging = "dragging" in (frame.get_attribute("class") or "")
            page.mouse.up()
            return dragging

        # Piece a (not movable) has targets (cells 1, 3, 4), yet pressing it and moving onto cell 3 drags nothing.
        assert not drag("piece:a", "cell:3"), "a node without `movable` started a drag"
        expect(page.locator("#narrow")).to_have_text("")
        # Clicking it, then cell 1, still moves it: had the drag moved it to 3, cell 1 would be no target of it.
        page.locator('#board g[data-id="piece:a"]').click()
        before = revision(page)
        page.locator('#board g[data-id="cell:1"]').click()
        wait_for_revision_after(page, before)
        expect(at(page, "a")).to_have_attribute("data-value", "1")
        expect(page.get_by_label("History")).to_have_attribute("max", "1")
        # Piece b (movable) drags.
        before = revision(page)
        assert drag("piece:b", "cell:5")
        wait_for_revision_after(page, before)
        expect(at(page, "b")).to_have_attribute("data-value", "5")
    # The desert marks its pawns movable, and nothing else.
    context.open("desert")
    movable = page.locator('#board g[data-movable="true"]')
    expect(movable).not_to_have_count(0)
    assert all(i.startswith("pawn:") for i in movable.evaluate_all("gs => gs.map(g => g.dataset.id)"))


def test_a_nodes_narrowing_and_a_refused_calls_error_clear_when_the_game_moves(context):
    page = context.page
    context.open("template")
    everything = page.locator("#legal button").count()
    narrow = page.locator("#narrow")

    def narrowed():
        page.locator('#board g[data-id="token:p1"]').click()
        expect(narrow).to_contain_text("naming token:p1")
        expect(page.locator("#legal button")).not_to_have_count(everything)

    narrowed()
    click_and_wait(page, "step token=p1")          # performed from the narrowed list
    expect(narrow).to_have_text("")
    expect(page.locator("#legal button", has_text="p2").first).to_be_visible()
    narrowed()
    click_and_wait(page, "Undo")
    expect(narrow).to_have_text("")
    narrowed()
    click_and_wait(page, "Redo")
    expect(narrow).to_have_text("")

    page.get_by_label("Call", exact=True).fill("dash token=p9")
    page.get_by_role("button", name="Perform").click()
    status = page.locator("#status")
    expect(status).to_contain_text("rejected")
    expect(status).to_have_class("error")
    click_and_wait(page, "step token=p2")
    expect(status).to_have_text("")
    expect(status).not_to_have_class("error")


def test_undo_turn_is_disabled_at_step_0_and_history_lines_say_what_was_checked(context):
    page = context.page
    context.open("template")
    expect(page.get_by_role("button", name="Undo turn")).to_be_disabled()
    click_and_wait(page, "step token=p1")
    expect(page.get_by_role("button", name="Undo turn")).to_be_enabled()
    line = page.locator('#entries li[data-step="1"]')
    expect(line).not_to_contain_text("not run yet")
    expect(line).not_to_contain_text("checked")
    click_and_wait(page, "Undo")
    expect(page.get_by_role("button", name="Undo turn")).to_be_disabled()
    expect(line).to_contain_text("undo checked ✓")
    click_and_wait(page, "Redo")
    expect(line).to_contain_text("undo checked ✓, redo checked ✓")
    expect(page.get_by_label("Verified")).to_have_text("step 1 (step token=p1): undo checked ✓, redo checked ✓")


def test_live_edit_keeps_the_whole_history_and_a_fix_brings_the_same_steps_back(context):
    page = context.page
    with tempfile.TemporaryDirectory() as folder:
        pack = copied_pack(folder)
        context.open(str(pack), cwd=folder)
        calls = ["step token=p1", "step token=p2", "dash token=p1", "step token=p2"]
        for call in calls:
            click_and_wait(page, call)
        entries = page.locator("#entries li")
        hashes = [entries.nth(i).get_attribute("data-hash") for i in range(4)]
        assert all(hashes) and len(set(hashes)) == 4, hashes

        dash = pack / "actions" / "dash.lua"
        good = dash.read_text()
        assert "if token.square + 2 > game.length then" in good
        dash.write_text(good.replace("if token.square + 2 > game.length then", "if true then"))
        reload = page.get_by_label("Reload")
        expect(reload).to_have_attribute("data-step", "3")
        expect(reload).to_contain_text("step 3 (dash token=p1) now fails")
        # Steps 1 and 2 replayed; 3 fails and 4 waits behind it, both still listed.
        expect(page.get_by_label("History")).to_have_attribute("max", "2")
        pending = page.locator('#entries li[data-pending="true"]')
        expect(pending).to_have_count(2)
        expect(pending.nth(0)).to_have_class("pending fails")
        expect(pending.nth(0)).to_contain_text("dash token=p1")
        expect(pending.nth(1)).to_contain_text("step token=p2")

        dash.write_text(good)
        expect(reload).to_contain_text("every step replays as before")
        expect(page.get_by_label("History")).to_have_attribute("max", "4")
        expect(pending).to_have_count(0)
        expect(page.get_by_label("History")).to_have_value("4")
        assert [entries.nth(i).get_attribute("data-hash") for i in range(4)] == hashes
        assert [t.split(" ")[0:2] for t in entries.all_text_contents()] == [c.split(" ") for c in calls]


FANFARE_WIN = """-- win: p1 wins; the fanfare is the do's alone, the whoosh plays both ways.
return {
  params = {},
  legal = function(game, emit) if not game.winner then emit{} end end,
  apply = function(game) game.winner = "p1" end,
  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    return anim.sequence{
      anim.sound "whoosh",
      anim.wait(0.1),
      anim.sound{ name = "fanfare", do_only = true },
      anim.cue{ name = "confetti", do_only = true },
      anim.wait(0.1),
    }
  end,
}
"""


def test_undoing_a_win_whose_fanfare_is_do_only_plays_no_fanfare(context):
    page = context.clocked_page()
    with tempfile.TemporaryDirectory() as folder:
        pack = copied_pack(folder)
        (pack / "actions" / "win.lua").write_text(FANFARE_WIN)
        context.open(str(pack), cwd=folder)
        page.clock.pause_at(10_000)

        def played(call):
            click_and_wait(page, call)
            page.clock.run_for(400)
            page.wait_for_function("document.body.dataset.playing === 'false'")
            return page.eval_on_selector_all("#cues span", "spans => spans.map(s => `${s.dataset.kind}:${s.dataset.name}`)")

        assert played("win") == ["sound:whoosh", "sound:fanfare", "cue:confetti"]
        # The mirrored undo plan keeps the whoosh and its time, and plays neither the fanfare nor the cue.
        assert played("Undo") == ["sound:whoosh"]
        assert played("Redo") == ["sound:whoosh", "sound:fanfare", "cue:confetti"]


def test_the_timeline_is_never_drawn_smaller_than_its_size_zooms_and_links_bars_to_nodes(context):
    page = context.sized_page(1000, 700)
    context.open("template")
    click_and_wait(page, "dash token=p1")
    page.wait_for_function("document.body.dataset.playing === 'false'")
    chart = page.locator("#timeline svg")
    natural = float(chart.get_attribute("width"))
    drawn = chart.bounding_box()["width"]
    assert drawn >= natural - 0.5, (drawn, natural)   # its 12 px text stays 12 px on a narrow window
    page.get_by_label("Time zoom").fill("2")
    assert abs(chart.bounding_box()["width"] - 2 * drawn) < 2, (chart.bounding_box()["width"], drawn)
    # Each bar names its node: hovering one lights the other.
    bar = page.locator('#timeline rect[data-node="token:p1"]').first
    bar.hover()
    expect(page.locator('#board g[data-id="token:p1"]')).to_have_class("node linked")
    page.locator('#board g[data-id="square:p2:5"]').hover()
    expect(page.locator('#timeline .linked')).to_have_count(0)
    page.locator('#board g[data-id="token:p1"]').hover()
    expect(bar).to_have_class("linked")


def test_the_state_tree_folds_searches_and_opens_on_the_slots_the_step_changed(context):
    page = context.page
    context.open("template")
    square = page.locator('#state li[data-path="tokens.p1.square"]')
    expect(square).to_be_visible()
    page.get_by_label("fold tokens", exact=True).click()
    expect(square).to_be_hidden()
    page.get_by_label("fold tokens", exact=True).click()
    expect(square).to_be_visible()
    page.get_by_label("Search the state").fill("p2 square")
    expect(square).to_be_hidden()
    expect(page.locator('#state li[data-path="tokens.p2.square"]')).to_be_visible()
    page.get_by_label("Search the state").fill("")
    expect(square).to_be_visible()

    # A large state (desert) opens folded but for the tables holding what the step changed.
    context.open("desert")
    click_and_wait(page, page.locator("#legal button", has_text="move").first.text_content())
    changed = page.locator("#state li.changed-value")
    assert changed.count() > 0
    for i in range(changed.count()):
        expect(changed.nth(i)).to_be_visible()
    assert page.locator("#state > ul > li.folded").count() > 0


def test_a_node_appearing_in_a_step_is_hidden_until_its_first_run_not_shown_at_its_final_look(context):
    page = context.clocked_page()
    context.open("scenarios/desert/excavate-second-clue-reveals-part.yaml")   # step 4's excavation reveals the propeller
    page.clock.pause_at(10_000)
    expect(page.get_by_label("History")).to_have_value("4")
    page.locator("header h1").click()
    press(page, "ArrowLeft")                  # the undo: the part fades out and goes
    page.clock.run_for(3000)
    page.wait_for_function("document.body.dataset.playing === 'false'")
    part = page.locator('#board g[data-id="part:propeller"]')
    expect(part).to_have_count(0)
    press(page, "ArrowRight")                 # the redo: its fade-in starts once the tile has turned
    page.wait_for_function("document.body.dataset.playing === 'true'")
    reel = page.evaluate("window.studioPosition.animation.poses")
    runs = next(t for t in reel["tracks"] if t["id"] == "part:propeller")["runs"]
    appear = next(r[0] for r in runs if len(r) > 1) / reel["rate"]
    assert len(runs[0]) == 1 and appear > 0, runs[:3]
    page.evaluate("window.studioBoard.drawNow()")
    expect(part).to_have_count(0)             # not its final look from the start
    page.clock.run_for(int(appear * 1000) + 20)
    page.evaluate("window.studioBoard.drawNow()")
    assert float(part.get_attribute("data-opacity")) < 0.2, part.get_attribute("data-opacity")
    page.clock.run_for(2000)
    page.wait_for_function("document.body.dataset.playing === 'false'")
    expect(part).to_have_attribute("data-opacity", "1")


# A pack whose `plant` step adds a flag its plan does not animate (the plan only waits 0.4 s): the flag
# must fade in over the step, as a desert tile's new sand does, and fade out over the undo.
FLAG_PACK = """return {
  name = "flag", version = "1.0", description = "A flag planted without an animation of its own.",
  setup = function(game) game.planted = false end,
  view = {
    size = { 200, 100 },
    scene = function(game, add)
      add{ id = "ground", x = 100, y = 80, w = 180, h = 20, color = "#7a5" }
      if game.planted then add{ id = "flag", x = 100, y = 40, w = 30, h = 40, color = "#c33", opacity = 0.8 } end
    end,
  },
}
"""
FLAG_PLANT = """return {
  params = {},
  legal = function(game, emit) if not game.planted then emit{} end end,
  apply = function(game) game.planted = true end,
  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    return anim.wait(0.4)
  end,
}
"""


def test_a_node_a_step_adds_without_animating_it_fades_in_over_the_step(context):
    page = context.clocked_page()
    with tempfile.TemporaryDirectory() as folder:
        pack = Path(folder) / "flag"
        (pack / "actions").mkdir(parents=True)
        (pack / "pack.lua").write_text(FLAG_PACK)
        (pack / "actions" / "plant.lua").write_text(FLAG_PLANT)
        context.open(str(pack), cwd=folder)
        page.clock.pause_at(10_000)
        flag = page.locator('#board g[data-id="flag"]')

        def opacity():
            page.evaluate("window.studioBoard.drawNow()")
            return float(flag.get_attribute("data-opacity"))

        click_and_wait(page, "plant")
        page.wait_for_function("document.body.dataset.playing === 'true'")
        assert opacity() == 0, "not its final look from the start: invisible"
        page.clock.run_for(200)                   # half the 0.4 s step: half its own opacity of 0.8
        assert abs(opacity() - 0.4) < 0.8 / 24 + 1e-9, opacity()   # within a sample (1/60 s of 0.4 s)
        page.clock.run_for(300)
        page.wait_for_function("document.body.dataset.playing === 'false'")
        assert opacity() == 0.8
        # The undo's mirrored plan: it fades out over the step, then is gone.
        click_and_wait(page, "Undo")
        page.wait_for_function("document.body.dataset.playing === 'true'")
        assert opacity() == 0.8
        page.clock.run_for(200)
        assert abs(opacity() - 0.4) < 0.8 / 24 + 1e-9, opacity()
        page.clock.run_for(300)
        page.wait_for_function("document.body.dataset.playing === 'false'")
        expect(flag).to_have_count(0)


def test_the_set_pack_ships_its_sounds_and_the_studio_plays_them(context):
    from test_animation import RECORD_PLAYS   # the page's sound log: what reaches the audio API
    import subprocess
    import sys
    from harness import REPOSITORY
    # The files are the project's own: exactly what scripts/make-set-sounds.py synthesizes.
    made = subprocess.run([sys.executable, str(REPOSITORY / "scripts" / "make-set-sounds.py"), "--check"],
                          capture_output=True, text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    page = context.clocked_page()
    page.add_init_script(RECORD_PLAYS)
    context.open("set")
    page.clock.pause_at(10_000)
    page.clock.run_for(3000)                       # the opening deal
    page.wait_for_function("document.body.dataset.playing === 'false'")
    take = page.locator("#legal button", has_text="take").first.text_content()
    click_and_wait(page, take)
    page.clock.run_for(3000)
    page.wait_for_function("document.body.dataset.playing === 'false'")
    sounds = page.locator("#cues span.sound")
    expect(sounds).to_have_count(4)                # the take's swish, a card for each refill
    for index in range(4):
        expect(sounds.nth(index)).to_have_attribute("data-file", re.compile(r"^/sound/(swish|card)$"))
    expect(page.locator("#cues span.missing")).to_have_count(0)
    assert sorted(page.evaluate("window.soundsPlayed")) == ["/sound/card"] * 3 + ["/sound/swish"]
    # Each file loads and decodes as audio (a WAV of the pack, served as audio).
    decoded = page.evaluate("""async () => {
        const out = {};
        for (const name of ['swish', 'card']) {
            const response = await fetch(`/sound/${name}`);
            const audio = await new OfflineAudioContext(1, 8000, 8000).decodeAudioData(await response.arrayBuffer());
            out[name] = { type: response.headers.get('content-type'), seconds: audio.duration };
        }
        return out;
    }""")
    for name, sound in decoded.items():
        assert sound["type"].startswith("audio/") and 0.05 < sound["seconds"] < 0.5, (name, sound)
