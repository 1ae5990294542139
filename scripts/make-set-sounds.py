#!/usr/bin/env python3
"""The set pack's sounds, synthesized: rules/set/sounds/*.wav, made by the project, nothing downloaded.

Each sound is a pure function of this file (noise from a fixed-seed linear congruential generator,
sines, envelopes), written as the desert's are: mono 8-bit PCM at 8000 Hz, so the same script always
writes the same bytes. `--check` writes nothing and exits 1 when a file in the pack differs from what
the script makes (the browser test test_stage.py runs it).

    python3 scripts/make-set-sounds.py            # (re)write the files
    python3 scripts/make-set-sounds.py --check    # are the shipped files this script's?
"""
import io
import math
import sys
import wave
from pathlib import Path

RATE = 8000
FOLDER = Path(__file__).resolve().parents[1] / "rules" / "set" / "sounds"


def noise(seed):
    """Uniform noise in -1..1 from a 32-bit LCG (Numerical Recipes' constants): the same every run."""
    state = seed
    while True:
        state = (1664525 * state + 1013904223) % 2**32
        yield state / 2**31 - 1


def swish(seconds=0.28):
    """Three cards flying off: low-passed noise whose cutoff sweeps up, swelling then fading."""
    n, source, out, low = int(RATE * seconds), noise(7), [], 0.0
    for i in range(n):
        t = i / n
        cutoff = 0.05 + 0.45 * t                      # the one-pole filter opens as the cards leave
        low += cutoff * (next(source) - low)
        out.append(0.9 * math.sin(math.pi * t) ** 2 * low * 1.5)
    return out


def card(seconds=0.09):
    """A card laid on the table: a bright click over a short low thump, both dying fast."""
    n, source, out = int(RATE * seconds), noise(11), []
    for i in range(n):
        t = i / RATE
        click = next(source) * math.exp(-t * 90)
        thump = math.sin(2 * math.pi * 140 * t) * math.exp(-t * 40)
        out.append(0.55 * click + 0.45 * thump)
    return out


SOUNDS = {"swish": swish, "card": card}


def wav(samples):
    """Mono 8-bit unsigned PCM at RATE, clipped to -1..1."""
    data = bytes(max(0, min(255, round(128 + 127 * max(-1.0, min(1.0, s))))) for s in samples)
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(1)
        w.setframerate(RATE)
        w.writeframes(data)
    return buffer.getvalue()


def main(argv):
    check = "--check" in argv
    differ = []
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name, make in SOUNDS.items():
        path = FOLDER / f"{name}.wav"
        made = wav(make())
        if check:
            if not path.exists() or path.read_bytes() != made:
                differ.append(str(path))
        else:
            path.write_bytes(made)
            print(f"wrote {path} ({len(made)} bytes)")
    if differ:
        print("not what scripts/make-set-sounds.py makes (run it without --check): " + ", ".join(differ), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
