#!/usr/bin/env bash
# Create .venv and install the project (the Rust extension is built by maturin)
# with its dev, notebook, rl (PettingZoo, Gymnasium) and distributed (Ray)
# extras, plus what the browser test drives: Debian's Chromium (playwright is a
# pip package of the dev extra; `playwright install` is never used). Safe to run
# again: it only rebuilds or installs what is missing.
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
# uv (a pip package) installs: it downloads in parallel, builds the extension while it
# downloads, and links files from its cache instead of unpacking every wheel again, which
# matters for torch (the rl extra). It keeps its cache in ~/.cache/uv. If uv cannot be
# installed, pip does the same install, only slower.
if [ ! -x .venv/bin/uv ]; then
    .venv/bin/python -m pip install --quiet uv || true
fi
# Editable install: maturin compiles rust_core/python (release profile, see pyproject.toml).
EXTRAS=".[dev,notebooks,rl,distributed]"
if [ -x .venv/bin/uv ]; then
    # The system's certificate store, as pip uses it here.
    UV_NATIVE_TLS=1 \
        .venv/bin/uv pip install --quiet --python .venv/bin/python -e "$EXTRAS"
else
    .venv/bin/python -m pip install --quiet -e "$EXTRAS"
fi

# The browser test (tests/browser, docs/browser-test.md) drives /usr/bin/chromium.
# Fonts: the DejaVu fonts carry the suit symbols, or the screenshots would show boxes.
if [ ! -x /usr/bin/chromium ] || [ ! -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "setup: the browser test needs Debian's chromium and fonts-dejavu-core; as root run:" >&2
        echo "    apt-get update && apt-get install -y chromium fonts-dejavu-core" >&2
        exit 1
    fi
    echo "setup: installing chromium and fonts-dejavu-core (apt-get)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
fi
