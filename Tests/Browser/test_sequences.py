"""Story sequences over the board (Page/sequence.js, docs/sequences.md): desert's intro plays on the first load,
steps on a click and on a key, its images and positions are where rules/desert/sequences/intro.yaml says; a step
that makes the storm pick up plays storm_rises; a choice performs its call and Undo takes it back; --sequence
previews one. These tests open the address the studio printed (`printed`), without the harness's
`sequences=off`."""
from harness import REPOSITORY, click_and_wait, revision, wait_for_revision_after
from playwright.sync_api import expect


def open_with_sequences(context, *args):
    studio = context.start(*args)
    page = context.page
    page.goto(studio.printed)
    page.wait_for_function("Number(document.body.dataset.revision || 0) > 0")
    return studio, page


def event(page, side):
    return page.locator(f"#sequence .sequence-event[data-side='{side}']")


def test_the_intro_plays_on_the_first_load_and_steps_on_click_and_key(context):
    _, page = open_with_sequences(context, "desert")
    overlay = page.get_by_role("dialog", name="Sequence")
    expect(overlay).to_be_visible()
    expect(overlay).to_have_attribute("data-name", "intro")
    expect(overlay).to_have_attribute("data-step", "1")
    # Step 1: one event, left, near, fading in, with the crew's picture.
    left = event(page, "left")
    expect(left).to_have_attribute("data-position", "near")
    expect(left).to_have_attribute("data-animation", "fade")
    expect(left.locator("img")).to_have_attribute("src", "/pack/art/story-crew.svg")
    expect(left).to_contain_text("The flying machine is down")
    expect(event(page, "right")).to_have_count(0)

    overlay.locator(".sequence-stage").click()           # a click steps on
    expect(overlay).to_have_attribute("data-step", "2")
    left, right = event(page, "left"), event(page, "right")
    expect(left).to_have_attribute("data-position", "far")
    expect(right).to_have_attribute("data-position", "near")
    expect(right.locator("img")).to_have_attribute("src", "/pack/art/story-part.svg")
    # The text is filled in from the state: p1's role and water after setup.
    role = page.evaluate("window.studioPosition.state.players.p1.role")
    water = page.evaluate("window.studioPosition.state.players.p1.water")
    expect(left).to_contain_text(f"The {role} counts the water: {water} swallows left.")
    # Where the file says: left on the left, right on the right; the near picture larger than the far one.
    page.wait_for_function("document.querySelectorAll('#sequence img').length === 2 && "
                           "[...document.querySelectorAll('#sequence img')].every((i) => i.complete && i.naturalWidth > 0)")
    left_box, right_box = left.bounding_box(), right.bounding_box()
    assert left_box["x"] + left_box["width"] <= right_box["x"], (left_box, right_box)
    far_image, near_image = left.locator("img").bounding_box(), right.locator("img").bounding_box()
    assert near_image["height"] > far_image["height"] * 1.5, (near_image, far_image)

    page.keyboard.press("ArrowRight")                     # a key steps on (Enter would press the focused Next)
    expect(overlay).to_have_attribute("data-step", "3")
    expect(event(page, "right")).to_have_attribute("data-animation", "shake")
    expect(event(page, "right").get_by_role("button")).to_have_count(1)
    page.keyboard.press("Escape")                         # and closes
    expect(overlay).to_be_hidden()
    expect(page.get_by_label("History")).to_have_attribute("max", "0")   # the sequence changed nothing


def test_a_choice_performs_its_call_and_undo_takes_it_back(context):
    _, page = open_with_sequences(context, "desert")
    overlay = page.get_by_role("dialog", name="Sequence")
    hash_before = page.get_by_label("State hash").text_content()
    player = page.evaluate("window.studioPosition.state.turn.player")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(overlay).to_have_attribute("data-step", "3")
    choice = overlay.get_by_role("button", name="Wait out the first gust (end the turn)")
    expect(choice).to_have_attribute("data-call", f"end_turn player={player}")
    before = revision(page)
    choice.click()
    wait_for_revision_after(page, before)
    expect(page.get_by_label("History")).to_have_attribute("max", "1")
    expect(page.locator("#entries li").first).to_contain_text(f"end_turn player={player}")
    page.keyboard.press("Escape")                         # a sequence the turn's storm cards started, if any
    expect(overlay).to_be_hidden()
    click_and_wait(page, "Undo")
    expect(page.get_by_label("History")).to_have_value("0")
    expect(page.get_by_label("State hash")).to_have_text(hash_before)


def test_a_step_that_makes_the_storm_pick_up_plays_storm_rises(context):
    scenario = "scenarios/desert/sequence-storm-rises-when-the-storm-picks-up.yaml"
    _, page = open_with_sequences(context, scenario)
    overlay = page.get_by_role("dialog", name="Sequence")
    # The scenario ends undone (its last step is `undo: 1`): opening it, and crossing steps, plays no sequence.
    expect(overlay).to_be_hidden()
    click_and_wait(page, "Redo")
    expect(overlay).to_be_hidden()
    click_and_wait(page, "Undo")
    click_and_wait(page, "end_turn player=p1")
    expect(overlay).to_be_visible()
    expect(overlay).to_have_attribute("data-name", "storm_rises")
    center = event(page, "center")
    expect(center).to_have_attribute("data-animation", "shake")
    expect(center).to_contain_text("The storm meter climbs to mark 2.")
    expect(center.locator("img")).to_have_attribute("src", "/pack/art/story-storm.svg")
    overlay.get_by_role("button", name="Close").click()
    expect(overlay).to_be_hidden()


def test_sequence_previews_one(context):
    _, page = open_with_sequences(context, "desert", "--sequence", "part_found")
    overlay = page.get_by_role("dialog", name="Sequence")
    expect(overlay).to_have_attribute("data-name", "part_found")
    expect(event(page, "left")).to_have_attribute("data-animation", "bounce")
