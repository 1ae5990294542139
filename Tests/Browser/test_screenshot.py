"""The README's picture: the studio on the desert pack, taken here so it shows the page as it is."""
import os

from harness import REPOSITORY, revision, wait_for_revision_after


def test_the_studio_on_the_desert_pack_for_the_readme(context):
    page = context.page = context.browser_context.new_page()   # a fresh page: the same picture whatever ran before
    context.pages.append(page)
    context.open("desert")
    legal = page.locator("#legal button")
    assert legal.count() > 0
    for _ in range(2):
        before = revision(page)
        page.locator("#legal button", has_text="move").first.click()
        wait_for_revision_after(page, before)
    page.wait_for_function("document.body.dataset.playing !== 'true'")
    # Every sound's file found (its chip settled), so the picture is the same on every run.
    page.wait_for_function("[...document.querySelectorAll('#cues span.sound')].every(s => s.dataset.file)")
    # The board's art loaded and decoded (an SVG <image> says nothing of it itself).
    page.evaluate("""() => Promise.all([...document.querySelectorAll('#board image')].map((node) => {
        const image = new Image();
        image.src = node.getAttribute('href');
        return image.decode().catch(() => {});
    }))""")
    # The README's copy is written when missing or asked for (STUDIO_SCREENSHOT=update): a picture's bytes
    # vary a little from run to run, and `make test` should not leave a changed file behind each time.
    readme_copy = REPOSITORY / "docs" / "images" / "studio-desert.png"
    update = os.environ.get("STUDIO_SCREENSHOT") == "update" or not readme_copy.exists()
    page.screenshot(path=str(readme_copy if update else REPOSITORY / ".build" / "studio-desert.png"), full_page=False)
