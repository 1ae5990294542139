"""Live edit: changing an action file while the page is open reloads the pack and replays the history."""
import shutil
import tempfile
from pathlib import Path

from harness import REPOSITORY, revision, wait_for_revision_after
from playwright.sync_api import expect


def test_editing_an_action_file_shows_the_new_behaviour_and_the_first_step_that_differs(context):
    page = context.page
    with tempfile.TemporaryDirectory() as folder:
        pack = Path(folder) / "race"
        shutil.copytree(REPOSITORY / "rules" / "template", pack)
        context.open(str(pack), cwd=folder)
        for call in ["dash token=p2", "step token=p1"]:
            before = revision(page)
            page.get_by_role("button", name=call, exact=True).click()
            wait_for_revision_after(page, before)
        square = page.locator('#state li[data-path="tokens.p1.square"]')
        assert square.get_attribute("data-value") == "2"

        step = pack / "actions" / "step.lua"
        text = step.read_text()
        assert "token.square = a.from + 1" in text
        step.write_text(text.replace("token.square = a.from + 1", "token.square = a.from + 2"))

        reload = page.get_by_label("Reload")
        expect(reload).to_contain_text("pack reloaded")
        # The dash (two steps) is the first step whose hash now differs.
        expect(reload).to_have_attribute("data-step", "1")
        expect(reload).to_contain_text("step 1 (dash token=p2) now gives state hash")
        expect(square).to_have_attribute("data-value", "3")
        expect(page.get_by_label("History")).to_have_value("2")

        # A pack that no longer loads keeps the game, and says why.
        step.write_text("return {")
        expect(reload).to_contain_text("the pack does not load any more")
        expect(square).to_have_attribute("data-value", "3")


def test_editing_the_base_pack_a_pack_extends_reloads_it_too(context):
    page = context.page
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder) / "base"
        shutil.copytree(REPOSITORY / "rules" / "template", base)
        race = Path(folder) / "race"
        race.mkdir()
        (race / "pack.lua").write_text('return { name = "race", version = "1.0", extends = "base" }\n')
        context.open(str(race), cwd=folder)
        before = revision(page)
        page.get_by_role("button", name="step token=p1", exact=True).click()
        wait_for_revision_after(page, before)
        square = page.locator('#state li[data-path="tokens.p1.square"]')
        assert square.get_attribute("data-value") == "2"

        # The step action is the base's: race has none of its own.
        step = base / "actions" / "step.lua"
        step.write_text(step.read_text().replace("token.square = a.from + 1", "token.square = a.from + 2"))

        reload = page.get_by_label("Reload")
        expect(reload).to_have_attribute("data-step", "1")
        expect(reload).to_contain_text("step 1 (step token=p1) now gives state hash")
        expect(square).to_have_attribute("data-value", "3")
