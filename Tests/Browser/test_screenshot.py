"""The README's pictures, taken here so they show the page as it is: the studio on the desert pack at
1440×900, and a fuzz finding opened at its blamed line."""
import os
import tempfile

from harness import REPOSITORY, revision, wait_for_revision_after
from test_findings import fuzzed_finding


def settle(page):
    """Every animation ended, every sound's file looked for, every image of the board decoded."""
    page.wait_for_function("document.body.dataset.playing !== 'true'")
    page.wait_for_function("[...document.querySelectorAll('#cues span.sound')].every(s => s.dataset.file || s.classList.contains('missing'))")
    page.evaluate("""() => Promise.all([...document.querySelectorAll('#board image')].map((node) => {
        const image = new Image();
        image.src = node.getAttribute('href');
        return image.decode().catch(() => {});
    }))""")


def save(page, name):
    # The README's copy is written when missing or asked for (STUDIO_SCREENSHOT=update): a picture's bytes
    # vary a little from run to run, and `make test` should not leave a changed file behind each time.
    readme_copy = REPOSITORY / "docs" / "images" / name
    update = os.environ.get("STUDIO_SCREENSHOT") == "update" or not readme_copy.exists()
    path = readme_copy if update else REPOSITORY / ".build" / name
    page.screenshot(path=str(path), full_page=False)
    assert path.stat().st_size > 10_000, path


def test_the_studio_on_the_desert_pack_for_the_readme(context):
    page = context.sized_page(1440, 900)
    context.open("desert")
    assert page.locator("#legal button").count() > 0
    for _ in range(2):
        before = revision(page)
        page.locator("#legal button", has_text="move").first.click()
        wait_for_revision_after(page, before)
    # A pawn selected: its targets lit on the board, as a user sees the moves.
    page.wait_for_function("document.body.dataset.playing !== 'true'")
    # (At the pawn's own disc: its sprite's whole strip of frames widens the node's box past the pawn.)
    disc = page.locator('#board g[data-id^="pawn:"] ellipse').first.bounding_box()
    page.mouse.click(disc["x"] + disc["width"] / 2, disc["y"] + disc["height"] / 2)
    page.wait_for_function("document.body.dataset.targets !== ''")
    settle(page)
    save(page, "studio-desert.png")


def test_a_finding_opened_at_its_blamed_line_for_the_readme(context):
    page = context.sized_page(1440, 900)
    with tempfile.TemporaryDirectory() as folder:
        finding = fuzzed_finding(context.binary, folder)
        context.open(str(finding.relative_to(folder)), cwd=folder)
        blamed = page.locator("#finding .blamed")
        blamed.wait_for()
        page.wait_for_function("""() => { const r = document.querySelector('#finding .blamed').getBoundingClientRect();
                                          return r.top >= 0 && r.bottom <= innerHeight; }""")
        settle(page)
        save(page, "studio-finding.png")
