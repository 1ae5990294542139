"""Scenarios and fuzz findings opened in the studio: failures marked, a finding at its failing step."""
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from harness import REPOSITORY
from playwright.sync_api import expect


def planted_pack(folder):
    """A copy of the template whose step undo takes back two moves instead of one."""
    pack = Path(folder) / "template"
    shutil.copytree(REPOSITORY / "rules" / "template", pack)
    step = pack / "actions" / "step.lua"
    text = step.read_text()
    assert "game.moves = game.moves - 1" in text
    step.write_text(text.replace("game.moves = game.moves - 1", "game.moves = game.moves - 2"))
    return pack


def fuzzed_finding(binary, folder):
    """The finding `rulebench fuzz` writes for the planted bug, in `folder`."""
    planted_pack(folder)
    fuzz = subprocess.run([binary, "fuzz", "template", "--seed", "1", "--runs", "20", "--depth", "20",
                           "--out", "findings", "--corpus", "corpus"], cwd=folder, capture_output=True, text=True, timeout=120)
    assert fuzz.returncode == 1, fuzz.stdout + fuzz.stderr
    return next((Path(folder) / "findings").glob("*.yaml"))


def test_a_fuzz_finding_opens_at_its_failing_step_with_its_header(context):
    page = context.page
    with tempfile.TemporaryDirectory() as folder:
        finding = fuzzed_finding(context.binary, folder)
        header = [line for line in finding.read_text().splitlines() if line.startswith("#")]
        prop = next(l for l in header if l.startswith("# Finding: "))[len("# Finding: "):].removesuffix(" failed")
        blame_at = header.index(next(l for l in header if l.startswith("# Blame: ")))
        slots = [l[4:] for l in header[blame_at + 1:] if l.startswith("#   ")]
        file, line = re.search(r"([\w./-]+\.lua):(\d+)", header[blame_at]).groups()
        assert slots, header

        context.open(str(finding.relative_to(folder)), cwd=folder)
        box = page.get_by_label("Finding")
        expect(box).to_contain_text(f"Finding: {prop}")
        expect(box.get_by_label("Slots")).to_have_text("".join(slots))
        expect(box).to_contain_text(f"at {file}:{line}")
        source_line = (Path(folder) / file).read_text().splitlines()[int(line) - 1]
        expect(box.locator(".blamed")).to_have_text(f"{line:>4}  {source_line}")
        # It opens with the blamed line in view (whole, not clipped by its box or the dock), highlighted,
        # and the line of the blamed undo that writes the differing slot (the planted bug) marked beside it.
        expect(box.locator(".blamed")).to_be_in_viewport(ratio=1)
        expect(box.locator(".writes")).to_have_text(re.compile(r"^\s*\d+\s+game\.moves = game\.moves - 2$"))
        expect(box.locator(".writes")).to_be_in_viewport(ratio=1)
        # The page is at the failing step: the position after the scenario's last step, where its failure is marked.
        steps = page.locator("#scenario-steps button")
        failing = steps.nth(steps.count() - 1).get_attribute("data-position")
        expect(page.get_by_label("History")).to_have_value(failing)
        expect(page.locator("#entries .mark, #setup-marks .mark").filter(has_text="✗ step").first).to_be_visible()


def test_a_scenarios_failures_are_marked_at_their_steps(context):
    page = context.page
    with tempfile.TemporaryDirectory() as folder:
        planted_pack(folder)
        scenario = Path(folder) / "step.yaml"
        original = (REPOSITORY / "scenarios" / "template" / "step-undo-redo.yaml").read_text()
        scenario.write_text(re.sub(r"^rules: .*$", "rules: template", original, flags=re.M))
        code = subprocess.run([context.binary, "run", str(scenario)], cwd=folder, capture_output=True, text=True).returncode
        assert code == 1, "the planted bug must fail the scenario"
        context.open("step.yaml", cwd=folder)
        marked = page.locator("#entries .mark, #setup-marks .mark")
        expect(marked.first).to_be_visible()
        assert "step" in marked.first.text_content()
