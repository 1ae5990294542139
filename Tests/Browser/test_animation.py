"""Animation under Playwright's clock: the page draws the library's poses at their times.

The expected places come from the scenes themselves (where the view puts a token before and
after, and the square nodes in between) or from the poses the library sent (`animation.poses`,
a PoseReel: every node's pose sampled at a fixed rate), never from numbers or curves written here.
"""
import math
import re

from harness import revision, wait_for_revision_after
from playwright.sync_api import expect


def node(page, node_id):
    page.evaluate("window.studioBoard.drawNow()")
    g = page.locator(f'#board g[data-id="{node_id}"]')
    return float(g.get_attribute("data-x")), float(g.get_attribute("data-y"))


def poses(page):
    """The step's poses as the library sent them."""
    return page.evaluate("window.studioPosition.animation.poses")


def sample(reel, seconds):
    """The sample the page shows at a time: the nearest (PoseReel.sample(at:); JavaScript's Math.round)."""
    return max(0, min(reel["count"] - 1, math.floor(seconds * reel["rate"] + 0.5)))


def run_at(reel, node_id, i):
    """A track's run at sample i: [start] (hidden) or [start, look, x, y, opacity, rotation, scale, frame]."""
    runs = next(t for t in reel["tracks"] if t["id"] == node_id)["runs"]
    return [r for r in runs if r[0] <= i][-1]


def open_paused(context, *args):
    page = context.clocked_page()
    studio = context.open(*args)
    page.clock.pause_at(10_000)
    return page, studio


def perform(page, name):
    before = revision(page)
    page.get_by_role("button", name=name, exact=True).click()
    wait_for_revision_after(page, before)
    page.wait_for_function("document.body.dataset.playing === 'true'")


def finish(page, seconds):
    page.clock.run_for(int(seconds * 1000) + 50)
    page.wait_for_function("document.body.dataset.playing === 'false'")


def test_a_tween_is_at_its_start_midpoint_and_end_at_0_half_and_the_duration(context):
    page, _ = open_paused(context, "template")
    start = node(page, "token:p1")
    end = node(page, "square:p1:2")          # where the view puts square 2, one step on
    perform(page, "step token=p1")
    assert node(page, "token:p1") == start
    page.clock.run_for(125)                  # D/2 of the 0.25 s tween
    x, y = node(page, "token:p1")
    reel = poses(page)
    _, _, px, py, *_ = run_at(reel, "token:p1", sample(reel, 0.125))
    assert (x, y) == (px, py) and start[0] < x < end[0] and y == start[1], (x, y, px, py)
    # The timeline chart's playhead is at D/2 of the chart's time axis.
    head = page.evaluate("""() => {
        const plot = document.querySelector('#timeline #plot'), chart = document.querySelector('#timeline svg');
        const ratio = chart.getBoundingClientRect().width / Number(chart.getAttribute('width'));
        const head = document.getElementById('playhead');
        return { time: Number(head.dataset.time), left: parseFloat(head.style.left),
                 expected: (Number(plot.dataset.left) + 0.125 / Number(plot.dataset.span) * Number(plot.dataset.width)) * ratio };
    }""")
    assert head["time"] == 0.125 and abs(head["left"] - head["expected"]) < 0.5, head
    page.clock.run_for(125)
    assert node(page, "token:p1") == end
    assert page.evaluate("document.body.dataset.playing") == "false"


def test_every_node_is_drawn_at_the_pose_the_library_sent_for_the_time_not_one_of_its_own(context):
    """Pose once: at any time (also between two samples, where a page easing the keys itself would
    differ) every drawn node is the library's pose of the nearest sample, exactly: its place, opacity,
    rotation, scale and sprite frame. Sample i is NodeTrack.pose at i / rate (PoseReelTests)."""
    page, _ = open_paused(context, "scenarios/desert/equipment-jetpack-flies-with-a-passenger.yaml")
    perform(page, "Undo")
    finish(page, 1)
    perform(page, "Redo")                    # the flight: two pawns eased across the board, flame frames
    reel = poses(page)
    assert reel["rate"] == 60 and reel["duration"] > 0.3, (reel["rate"], reel["duration"])
    clock = Clock(page)
    places = set()
    for ms in range(0, int(reel["duration"] * 1000), 13):   # 13 ms: times between samples too
        clock.at(ms / 1000)
        i = sample(reel, ms / 1000)
        drawn = page.evaluate("""() => ({ sample: Number(document.body.dataset.sample),
            nodes: [...document.querySelectorAll('#board g.node')].map(g => [g.dataset.id, Number(g.dataset.x),
                Number(g.dataset.y), Number(g.dataset.opacity), g.dataset.frame ? Number(g.dataset.frame) : null,
                g.getAttribute('transform').match(/-?\\d+(?:\\.\\d+)?(?:e[+-]?\\d+)?/g).map(Number)]) })""")
        assert drawn["sample"] == i, (ms, drawn["sample"], i)
        shown = {}
        for track in reel["tracks"]:
            run = run_at(reel, track["id"], i)
            if len(run) > 1:
                shown[track["id"]] = run
        assert sorted(n[0] for n in drawn["nodes"]) == sorted(shown), ms
        for node_id, x, y, opacity, frame, transform in drawn["nodes"]:
            _, look, px, py, popacity, rotation, scale, pframe = shown[node_id]
            assert (x, y, opacity) == (px, py, popacity), (ms, node_id, (x, y, opacity), (px, py, popacity))
            assert transform == [px, py, rotation, scale], (ms, node_id, transform)
            assert frame == (pframe if reel["looks"][look].get("sprite") else None), (ms, node_id, frame, pframe)
            if node_id == "pawn:p1":
                places.add((x, y))
    assert len(places) > 10, "the flyer moved across the board, sample by sample"


def test_tweens_in_sequence_hop_square_by_square_and_undo_starts_where_the_do_ended(context):
    page, _ = open_paused(context, "template")
    start = node(page, "token:p1")
    middle = node(page, "square:p1:2")
    end = node(page, "square:p1:3")
    perform(page, "dash token=p1")           # frames 0.2 s, then two 0.25 s steps in sequence
    page.clock.run_for(200)
    assert node(page, "token:p1") == start
    page.clock.run_for(250)                  # the first hop ends on square 2
    assert node(page, "token:p1") == middle
    finish(page, 0.25)
    assert node(page, "token:p1") == end
    perform(page, "Undo")
    assert node(page, "token:p1") == end, "the undo starts where the do ended"
    finish(page, 0.7)
    assert node(page, "token:p1") == start


def test_sounds_fire_at_their_times_and_a_missing_file_shows_a_cue(context):
    page, _ = open_paused(context, "template")
    perform(page, "dash token=p1")           # whoosh at 0, a step sound as each hop starts (0.2 s, 0.45 s)
    def fired():
        page.evaluate("window.studioBoard.drawNow()")
        return page.eval_on_selector_all(
            "#cues span[data-kind=sound]", "spans => spans.map(s => [s.dataset.name, Number(s.dataset.firedAt)])")
    assert [name for name, _ in fired()] == ["whoosh"]
    page.clock.run_for(190)
    assert [name for name, _ in fired()] == ["whoosh"]
    page.clock.run_for(30)
    assert [name for name, _ in fired()] == ["whoosh", "step"]
    finish(page, 0.5)
    sounds = fired()
    assert [name for name, _ in sounds] == ["whoosh", "step", "step"]
    assert all(0 <= at - planned < 0.02 for (_, at), planned in zip(sounds, [0, 0.2, 0.45])), sounds
    # The template ships no sound files: each sound says so.
    expect(page.locator("#cues span.missing")).to_have_count(3)


def test_the_speed_control_scales_the_animation(context):
    page, _ = open_paused(context, "template")
    page.get_by_label("Speed").select_option("0.5")
    end = node(page, "square:p1:2")
    perform(page, "step token=p1")
    page.clock.run_for(260)                  # past 0.25 s of wall time: half the tween at half speed
    assert node(page, "token:p1") != end
    finish(page, 0.25)
    assert node(page, "token:p1") == end


class Clock:
    """Moves a paused page clock to absolute animation times (seconds since the step started)."""

    def __init__(self, page):
        self.page = page
        self.now = 0.0

    def at(self, seconds):
        step = round((seconds - self.now) * 1000)
        assert step >= 0, (seconds, self.now)
        if step:
            self.page.clock.run_for(step)
        self.now += step / 1000
        self.page.evaluate("window.studioBoard.drawNow()")


def scenario_starts(path):
    """The `starts:` expectations of a scenario (node.property: seconds), in step order: what the plan promises."""
    import re
    from harness import REPOSITORY
    found = []
    for line in (REPOSITORY / path).read_text().splitlines():
        match = re.search(r"starts: \{(.*)\}", line)
        if match:
            pairs = [item.split(": ") for item in match.group(1).split(", ")]
            found.append({key.strip().rsplit(".", 1)[0]: float(value) for key, value in pairs})
    return found


def check_starts(page, starts):
    """Each node is still where it was just before its start, and has left just after it."""
    clock = Clock(page)
    origin = {target: node(page, target) for target in starts}
    for target, start in sorted(starts.items(), key=lambda item: item[1]):
        if start > 0:
            clock.at(start - 0.01)
            assert node(page, target) == origin[target], f"{target} moved before {start}"
        clock.at(start + 0.02)
        assert node(page, target) != origin[target], f"{target} still at rest after {start}"


def test_a_staggered_deal_starts_each_card_at_its_offset_and_its_undo_mirrors_them(context):
    scenario = "scenarios/cards/deal-staggered-and-undone.yaml"
    do_starts, undo_starts = scenario_starts(scenario)
    page, _ = open_paused(context, scenario)   # the scenario ends undone: position 0, the deal to redo
    perform(page, "Redo")
    check_starts(page, do_starts)
    finish(page, 1)
    perform(page, "Undo")
    check_starts(page, undo_starts)


def test_a_sprite_shows_each_frame_at_its_time_and_cues_and_sounds_fire(context):
    page, _ = open_paused(context, "scenarios/desert/equipment-jetpack-flies-with-a-passenger.yaml")
    perform(page, "Undo")
    finish(page, 1)
    perform(page, "Redo")                       # the flight: the flame frames of the pawn's atlas
    keys = poses(page)
    runs = next(t for t in keys["tracks"] if t["id"] == "pawn:p1")["runs"]
    changes = [r for before, r in zip(runs, runs[1:]) if r[7] != before[7]]
    assert {r[7] for r in changes} >= {2, 3, 4}, "the jetpack plan steps the flyer's sprite through its flame frames"
    clock = Clock(page)
    for run in changes:
        clock.at(math.ceil(run[0] / keys["rate"] * 1000) / 1000)
        shown = page.locator('#board g[data-id="pawn:p1"]').get_attribute("data-frame")
        assert shown == str(run[7]), f"frame at sample {run[0]}: {shown}, posed {run[7]}"
    finish(page, keys["duration"])
    chips = page.eval_on_selector_all("#cues span", "spans => spans.map(s => [s.dataset.kind, s.dataset.name, Number(s.dataset.time), Number(s.dataset.firedAt)])")
    planned = sorted([("cue", c["name"], c["time"]) for c in keys["cues"]] + [("sound", s["name"], s["time"]) for s in keys["sounds"]])
    assert sorted((kind, name, time) for kind, name, time, _ in chips) == planned
    assert all(0 <= fired - time < 0.02 for _, _, time, fired in chips), chips
    # The desert ships its sound files: none is reported missing.
    # (Waited for from outside the page: its own timers are paused.)
    sounds = page.locator("#cues span.sound")
    for index in range(sounds.count()):
        expect(sounds.nth(index)).to_have_attribute("data-file", re.compile(r"^/sound/.+"))


def test_the_opening_plays_when_the_page_opens(context):
    page = context.clocked_page()
    page.clock.pause_at(10_000)             # before the page opens: the opening must not run away
    context.open("set")
    assert page.evaluate("document.body.dataset.playing") == "true"
    keys = poses(page)
    assert page.evaluate("window.studioPosition.animation.label") == "the opening"
    moving = [t for t in keys["tracks"] if len({(r[2], r[3]) for r in t["runs"] if len(r) > 1}) >= 2]
    assert moving, "the opening deal moves cards"
    track = moving[-1]
    shown = [r for r in track["runs"] if len(r) > 1]
    first, last = shown[0], shown[-1]
    assert track["runs"][0] != first, "the last card dealt is hidden until its flight starts"
    clock = Clock(page)
    clock.at(math.ceil(first[0] / keys["rate"] * 1000) / 1000)
    assert node(page, track["id"]) == (first[2], first[3])
    finish(page, keys["duration"])
    assert node(page, track["id"]) == (last[2], last[3])


# Records each sound the page starts (the media element's own play() still runs): what reaches the audio API.
RECORD_PLAYS = """(() => {
    const play = HTMLMediaElement.prototype.play;
    window.soundsPlayed = [];
    HTMLMediaElement.prototype.play = function () {
        window.soundsPlayed.push(new URL(this.src).pathname);
        return play.call(this);
    };
})()"""


def sound_files(page, count):
    """The files of the step's sound chips, once each has been handed to the player (or to Mute)."""
    sounds = page.locator("#cues span.sound")
    expect(sounds).to_have_count(count)
    for index in range(count):
        expect(sounds.nth(index)).to_have_attribute("data-file", re.compile(r"^/sound/.+"))
    return sorted(sounds.nth(index).get_attribute("data-file") for index in range(count))


def test_mute_plays_no_sound_while_the_cues_still_show_and_unmuted_plays_them(context):
    page = context.clocked_page()
    page.add_init_script(RECORD_PLAYS)
    context.open("scenarios/desert/equipment-jetpack-flies-with-a-passenger.yaml")
    page.clock.pause_at(10_000)
    page.get_by_label("Mute").check()
    perform(page, "Undo")
    finish(page, 1)
    perform(page, "Redo")                       # the flight: sounds and cues, with the desert's sound files
    keys = poses(page)
    assert keys["sounds"] and keys["cues"], "the jetpack plan has sounds and cues"
    finish(page, keys["duration"])
    files = sound_files(page, len(keys["sounds"]))
    expect(page.locator("#cues span.cue")).to_have_count(len(keys["cues"]))
    assert page.evaluate("window.soundsPlayed") == [], "a muted page played a sound"

    page.get_by_label("Mute").uncheck()
    page.get_by_role("button", name="Play again").click()
    finish(page, keys["duration"])
    assert sound_files(page, len(keys["sounds"])) == files
    expect(page.locator("#cues span.cue")).to_have_count(len(keys["cues"]))
    assert sorted(page.evaluate("window.soundsPlayed")) == files, "unmuted, every sound of the step plays"
