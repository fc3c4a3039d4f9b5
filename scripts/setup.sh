#!/usr/bin/env bash
# Create .venv and install the project (the Rust extension is built by maturin)
# with its dev and notebook extras. Safe to run again: it only rebuilds what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
if ! command -v cargo >/dev/null 2>&1; then
    echo "setup: cargo (Rust) is required to build the engine" >&2
    exit 1
fi
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
# Editable install: maturin compiles rust_core/python (release profile, see pyproject.toml).
.venv/bin/python -m pip install --quiet -e ".[dev,notebooks]"
