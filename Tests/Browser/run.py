"""Runs the studio's browser tests: `python Tests/Browser/run.py PATH/TO/rulebench`.

One chromium (Debian's, by its path; never downloaded) and one page serve every test in
Tests/Browser/test_*.py; each test function takes the harness's Context. Prints one line per
test and a summary; exits 1 when any test failed. `make test-browser` runs it.
"""
import importlib.util
import os
import sys
import time
import traceback
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from harness import CHROMIUM, Context  # noqa: E402

HERE = Path(__file__).resolve().parent


def tests(selected):
    for file in sorted(HERE.glob("test_*.py")):
        spec = importlib.util.spec_from_file_location(file.stem, file)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for name in sorted(vars(module)):
            if name.startswith("test_") and (not selected or any(s in f"{file.stem}.{name}" for s in selected)):
                yield f"{file.stem}.{name}", getattr(module, name)


def main():
    binary = os.path.abspath(sys.argv[1])
    selected = sys.argv[2:]
    args = ["--autoplay-policy=no-user-gesture-required", "--mute-audio"]
    if os.geteuid() == 0:
        args.append("--no-sandbox")
    failed = passed = 0
    started = time.monotonic()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=args)
        # bypass_csp: Playwright's wait_for_function evaluates its predicate with `new Function`, which the
        # studio's Content-Security-Policy forbids; test_guard.py runs the page in a context that enforces it.
        browser_context = browser.new_context(viewport={"width": 1400, "height": 900}, bypass_csp=True)
        browser_context.set_default_timeout(15_000)
        page = browser_context.new_page()
        for name, test in tests(selected):
            context = Context(binary, browser, browser_context, page)
            try:
                test(context)
                context.stop_all()
                passed += 1
                print(f"pass  {name}", flush=True)
            except Exception:
                failed += 1
                print(f"FAIL  {name}\n{traceback.format_exc()}", flush=True)
                for studio in context.studios:
                    studio.process.kill()
                for extra in context.pages:
                    extra.close()
                page.close()
                page = browser_context.new_page()
        browser.close()
    print(f"browser tests: {passed} passed, {failed} failed ({time.monotonic() - started:.1f} s)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
