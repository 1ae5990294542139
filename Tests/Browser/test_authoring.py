"""What a Connect Four author needs of the board (issue 44): a click on a disc offers the drop of its
column (`names = { column = 3 }`), never that of the last part of its id (`disc:3:1` is column 3,
row 1), and one view declaration draws the board at every size the options give."""
from harness import click_and_wait
from playwright.sync_api import expect

FOURUP = "Tests/RulebenchTests/Fixtures/packs/fourup"


def test_a_click_on_a_disc_offers_the_drop_of_its_column(context):
    page = context.page
    context.open(FOURUP)
    click_and_wait(page, "drop column=3")
    click_and_wait(page, "drop column=1")
    everything = page.locator("#legal button").all_text_contents()
    assert everything == [f"drop column={c}" for c in range(1, 8)], everything
    # disc:3:1 is the red disc of column 3, row 1: its row's number names nothing.
    disc = page.locator('#board g[data-id="disc:3:1"]')
    expect(disc).to_have_count(1)
    disc.click()
    narrowed = page.locator("#legal button")
    expect(narrowed).to_have_count(1)
    assert narrowed.all_text_contents() == ["drop column=3"], narrowed.all_text_contents()
    # The click plays it: the yellow disc lands on the red one, in column 3, row 2.
    click_and_wait(page, "drop column=3")
    expect(page.locator('#board g[data-id="disc:3:2"]')).to_have_count(1)
    # A cell of another column offers that column's drop.
    page.locator('#board g[data-id="cell:6:4"]').click()
    expect(narrowed).to_have_count(1)
    assert narrowed.all_text_contents() == ["drop column=6"], narrowed.all_text_contents()
    page.locator('#board g[data-id="cell:6:4"]').click()
    expect(narrowed).to_have_count(7)


def test_one_view_draws_the_board_at_every_size_the_options_give(context):
    page = context.page
    for cols, rows, options in [(4, 4, ["--option", "cols=4", "--option", "rows=4"]), (7, 6, [])]:
        context.open(FOURUP, *options)
        board = page.get_by_label("Scene")
        expect(board).to_have_attribute("width", str(4 + cols * 40 + (cols - 1) * 4))
        expect(board).to_have_attribute("height", str(4 + rows * 40 + (rows - 1) * 4))
        expect(page.locator('#board g[data-id^="cell:"]')).to_have_count(cols * rows)
        assert page.locator("#legal button").all_text_contents() == [f"drop column={c}" for c in range(1, cols + 1)]
        context.stop_all()
