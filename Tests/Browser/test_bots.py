"""Bot seats in the studio (Page/bots.js, StudioSession's bots): o of tic-tac-toe played by alphabeta
with a seed answers each of x's calls on its own turn, and makes the same moves again for the same seed."""
from harness import revision, wait_for_revision_after
from playwright.sync_api import expect


def set_bot(page, seat, kind, parameter, seed):
    page.get_by_label("Bot seed").fill(str(seed))
    page.get_by_label(f"Bot parameter for {seat}").fill(parameter)
    before = revision(page)
    page.get_by_label(f"Bot for {seat}", exact=True).select_option(kind)   # a choice is sent as it is made
    wait_for_revision_after(page, before)


def play_x(page):
    """x takes the first free cell each turn by clicking its call; o (the bot) answers within the same
    position. Returns the game's calls in order."""
    while True:
        legal = page.evaluate("window.studioPosition.legal.map((c) => c.label)")
        if not legal:
            break
        count = page.evaluate("window.studioPosition.count")
        before = revision(page)
        page.get_by_role("button", name=legal[0], exact=True).click()
        wait_for_revision_after(page, before)
        after = page.evaluate("window.studioPosition")
        # x's call and, unless it ended the game, o's answer: two steps, the last one o's.
        assert after["count"] in (count + 1, count + 2), (count, after["count"])
        if after["legal"]:
            assert after["count"] == count + 2, f"o did not answer x's {legal[0]}"
    return page.evaluate("window.studioPosition.entries.map((e) => e.call)")


def game(context, seed):
    page = context.page
    studio = context.open("rules/tictactoe")
    expect(page.get_by_label("Bots")).to_be_visible()
    set_bot(page, "o", "alphabeta", "9", seed)
    assert page.evaluate("window.studioPosition.bots") == {"o": "alphabeta:9"}
    assert page.evaluate("window.studioPosition.count") == 0, "o does not move on x's turn"
    calls = play_x(page)
    cells = page.evaluate("window.studioPosition.state.cells")
    studio.stop()
    context.studios.remove(studio)
    return calls, cells


def test_an_alphabeta_seat_answers_and_repeats_itself_for_a_seed(context):
    first, cells = game(context, 7)
    assert len(first) >= 5 and cells.count("o") == len(first) // 2, (first, cells)
    # x plays the first free cell: alphabeta as o never lets that line win.
    assert not any(all(cells[i] == "x" for i in line) for line in
                   [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]), cells
    again, _ = game(context, 7)
    assert again == first, (first, again)
