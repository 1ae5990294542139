# Rulebench: `make run` and `make test` work on a fresh Debian machine with Swift.
SHELL := /bin/bash
SWIFT ?= swift
RELEASE_BIN = .build/release/rulebench

.PHONY: deps build run test bench test-asan clean

# liblua5.4-dev (and pkg-config to find it) are installed when missing.
deps:
	@pkg-config --exists lua5.4 2>/dev/null || { \
		echo "Installing liblua5.4-dev and pkg-config..."; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update && $$SUDO apt-get install -y liblua5.4-dev pkg-config; }

build: deps
	$(SWIFT) build -c release --product rulebench

# Builds, runs every scenario of the repo, then a short fuzz of the desert pack.
run: build
	$(RELEASE_BIN) run scenarios
	$(RELEASE_BIN) fuzz desert --seed 1 --runs 20 --depth 60

# All tests are XCTest; the last line is a plain "N passed, N failed" summary.
test: deps
	$(SWIFT) build --build-tests
	@set -o pipefail; $(SWIFT) test --skip-build --disable-swift-testing 2>&1 | tee .build/test.log; status=$$?; \
	summary=$$(grep -E "Executed [0-9]+ tests?, with [0-9]+ failures?" .build/test.log | tail -1); \
	total=$$(echo "$$summary" | sed -E 's/.*Executed ([0-9]+) tests?.*/\1/'); \
	failed=$$(echo "$$summary" | sed -E 's/.*with ([0-9]+) failures?.*/\1/'); \
	if [ -n "$$summary" ]; then echo "$$((total - failed)) passed, $$failed failed"; fi; \
	exit $$status

bench: deps
	$(SWIFT) build -c release --product rulebench-bench
	.build/release/rulebench-bench

test-asan: deps
	$(SWIFT) test --sanitize=address --scratch-path .build-asan

clean:
	rm -rf .build .build-asan
