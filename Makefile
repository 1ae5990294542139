# Rulebench: `make run` and `make test` work on a fresh Debian machine with Swift.
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
	@if $(RELEASE_BIN) help fuzz >/dev/null 2>&1; then \
		$(RELEASE_BIN) fuzz desert --seed 1 --runs 20 --depth 60; \
	else echo "(fuzz is not part of this build yet)"; fi

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

bench: deps
	$(SWIFT) build -c release --product rulebench-bench
	.build/release/rulebench-bench

test-asan: deps
	$(SWIFT) test --sanitize=address --scratch-path .build-asan

clean:
	rm -rf .build .build-asan
