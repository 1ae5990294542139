"""The seat picker: a seated pack shown as one seat sees it (no card hidden from it anywhere in the
page), its calls and refusals, and the author's view (everything) back."""
from harness import revision, wait_for_revision_after
from playwright.sync_api import expect


def choose_seat(page, value):
    before = revision(page)
    page.get_by_label("Seat").select_option(value)
    wait_for_revision_after(page, before)


def test_seat_p2_sees_no_hidden_card_and_the_authors_view_comes_back(context):
    page = context.page
    context.open("rules/cards")
    expect(page.get_by_label("Seat")).to_have_value("")
    before = revision(page)
    page.get_by_role("button", name="deal", exact=True).click()
    wait_for_revision_after(page, before)
    state = page.evaluate("window.studioPosition.state")
    hidden = [card["id"] for card in state["deck"]] + [card["id"] for card in state["hands"]["p1"]]
    own = [card["id"] for card in state["hands"]["p2"]]
    assert len(hidden) == 9 and len(own) == 3, (hidden, own)
    author = page.content()
    assert all(f'"{card}"' in author for card in hidden), "the author's view shows every card"

    choose_seat(page, "p2")
    seen = page.content()
    shown = page.evaluate("""() => { const p = window.studioPosition;
        return JSON.stringify([p.state, p.changes, p.legal, p.hash, p.render, p.entries, p.scene && p.scene.nodes]); }""")
    for card in hidden:
        assert card not in seen, f"p2's page shows {card}"
        assert card not in shown, f"p2's position message holds {card}"
    for card in own:
        assert f'"{card}"' in seen, f"p2 sees its own {card}"
    expect(page.get_by_label("Legal calls")).to_have_text("no legal calls")
    # p2 acting on p1's turn is refused with the pack's reason; nothing is performed.
    page.get_by_label("Call", exact=True).fill("play card=1")
    page.get_by_role("button", name="Perform").click()
    expect(page.locator("#status")).to_contain_text("it is p1's turn")
    expect(page.get_by_label("History")).to_have_attribute("max", "1")

    choose_seat(page, "")
    back = page.content()
    assert all(f'"{card}"' in back for card in hidden), "the author's view shows every card again"
    expect(page.get_by_role("button", name="play card=1", exact=True)).to_be_visible()
