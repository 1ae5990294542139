# Rulebench: `make run` and `make test` work on a fresh Debian machine with Swift.
SHELL := /bin/bash
SWIFT ?= swift
RELEASE_BIN = .build/release/rulebench
# Release builds link the Swift runtime and Foundation into the programs
# (--static-swift-stdlib): `rulebench` then starts in about 3 ms instead of
# 11 (BENCHMARKS.md, "Process start"). Every release build here uses the
# flag: a build without it compiles everything again.
RELEASE = $(SWIFT) build -c release --static-swift-stdlib

.PHONY: deps studio-deps build run test check-deps test-browser chromium test-planted bench test-asan test-tsan docs clean

# liblua5.4-dev (and pkg-config to find it) are installed when missing, and
# libsqlite3-dev: the match store (RulebenchMatch, through GRDB) links Debian's SQLite.
deps:
	@pkg-config --exists lua5.4 2>/dev/null || { \
		echo "Installing liblua5.4-dev and pkg-config..."; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update && $$SUDO apt-get install -y liblua5.4-dev pkg-config; }
	@pkg-config --exists sqlite3 2>/dev/null || { \
		echo "Installing libsqlite3-dev (for the match store)..."; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update && $$SUDO apt-get install -y libsqlite3-dev; }

# The studio, linked statically, needs libcurl's headers: Foundation's
# networking, which its web server links, is built on libcurl.
studio-deps:
	@pkg-config --exists libcurl 2>/dev/null || { \
		echo "Installing libcurl4-openssl-dev (for rulebench-studio's release build)..."; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update && $$SUDO apt-get install -y libcurl4-openssl-dev; }

# The programs: rulebench, rulebench-studio, which `rulebench studio` runs, and
# rulebench-serve, which `rulebench serve` and `rulebench join` run.
build: deps studio-deps
	$(RELEASE) --product rulebench
	$(RELEASE) --product rulebench-studio
	$(RELEASE) --product rulebench-serve

# Builds, runs every scenario of the repo, then a short fuzz of the desert pack.
run: build
	$(RELEASE_BIN) run scenarios
	$(RELEASE_BIN) fuzz desert --seed 1 --runs 20 --depth 60

# The XCTest bundle a build makes, under its scratch path, and how many of
# its processes run at once (scripts/test-parallel.sh: one class per
# process, the longest tests first; a test of one class never runs beside
# another of its class, as under `swift test`).
TEST_BUNDLE = debug/RulebenchPackageTests.xctest
JOBS ?= $(shell nproc)

# The XCTest run ends with a plain "N passed, N failed" summary line; then the
# studio's browser tests (test-browser) end with "browser tests: N passed, N failed".
# On CI (CI set) the tests then run again under AddressSanitizer, the
# parallel tests under ThreadSanitizer, and the documentation is built
# (warnings fail it).
# The validators of the CI templates and the outputs' consumers (actionlint,
# check-jsonschema, kubernetes-validate, junitparser, emmylua_ls; xmllint
# from apt) are installed into .build/ci-tools when missing; without them,
# the tests that need them skip with a message.
test: deps check-deps
	@scripts/install-ci-tools.sh .build/ci-tools
	$(SWIFT) build --build-tests
	scripts/test-parallel.sh .build/test.log $(JOBS) .build/$(TEST_BUNDLE)
	@$(MAKE) --no-print-directory test-browser
	@if [ -n "$$CI" ]; then $(MAKE) --no-print-directory test-asan test-tsan docs; fi

# Dependencies point down the layers of docs/architecture.md ("The layers, as
# checked"), but for the known uses scripts/check-deps-allowlist.txt lists.
check-deps:
	python3 scripts/check-deps.py

# Debian's chromium, which the browser tests drive by its path (Playwright never
# downloads a browser here), is installed when missing, as `deps` installs liblua.
CHROMIUM = /usr/lib/chromium/chromium
chromium:
	@[ -x $(CHROMIUM) ] || { \
		echo "Installing chromium (for the studio's browser tests)..."; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update && $$SUDO apt-get install -y --no-install-recommends chromium; }

# The studio's browser tests (Tests/Browser/*.py): Python Playwright from
# .build/ci-tools drives chromium against `rulebench studio` on a free port.
test-browser: deps chromium
	@scripts/install-ci-tools.sh .build/ci-tools
	$(SWIFT) build --product rulebench
	$(SWIFT) build --product rulebench-studio
	$(SWIFT) build --product rulebench-serve
	.build/ci-tools/bin/python Tests/Browser/run.py .build/debug/rulebench

# The planted-bug suite alone (Tests/RulebenchTests/Fuzz/Session/PlantedBugTests.swift:
# every bug of Benchmarks/mutants.json caught and shrunk; a few minutes).
test-planted: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --disable-swift-testing --filter PlantedBugTests

# The library's DocC documentation (Sources/Rulebench/Rulebench.docc and the
# doc comments), into .build/plugins/Swift-DocC/outputs/Rulebench.doccarchive.
docs: deps
	$(SWIFT) package generate-documentation --target Rulebench --warnings-as-errors

# Row (9) runs the rulebench beside rulebench-bench: both are built.
bench: build
	$(RELEASE) --product rulebench-bench
	.build/release/rulebench-bench

# LeakSanitizer is off: its only reports are Foundation's and XCTest's own
# allocations (see RELIABILITY.md); every other ASan check stays on. The
# tests of Tests/asan-skip.txt are left out: the plain run proves them, and
# the paths they take run under ASan in the smaller tests it names.
test-asan: deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	ASAN_OPTIONS=detect_leaks=0 SKIP_LIST=Tests/asan-skip.txt scripts/test-parallel.sh .build-asan/test.log $(JOBS) .build-asan/$(TEST_BUNDLE)

# ThreadSanitizer over the tests of the parallel work (--jobs): the worker
# pool and every command's workers (WorkerPoolTests, Parallel*Tests and the
# corpus merge's parallel test), and the WebSocket send queue's waiter and its
# cancellation (OutgoingQueueTests), and states loading the kernel at once
# (kernelcache.c's one table). Only those: the rest of the suite is
# single-threaded, and a TSan build and run of it all would triple CI's time.
# Any report fails the target (halt_on_error).
TSAN_TESTS = WorkerPoolTests|Parallel(Run|Explore|Fuzz|Solve|GuidedSharing)Tests|CorpusMergeTests/testParallel|OutgoingQueueTests|KernelLoadCacheTests/testStatesLoadingAtOnce
test-tsan: deps
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	TSAN_OPTIONS=halt_on_error=1 scripts/test-parallel.sh .build-tsan/test.log $(JOBS) .build-tsan/$(TEST_BUNDLE) '$(TSAN_TESTS)'

clean:
	rm -rf .build .build-asan .build-tsan
