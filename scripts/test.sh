#!/usr/bin/env bash
# Set up everything and run every check: engine purity, no import cycle, Rust tests, type stubs,
# Python tests (hypothesis 'ci' profile, doctests, executed notebooks), the
# conformance scenarios, a quick benchmark smoke run, and the real-browser test
# (every notebook in Voila + Chromium, screenshots in target/screenshots).
#
# `scripts/test.sh --long` (make test-long) runs the same steps with the exhaustive
# budgets: hypothesis profile `long`, 20x the Rust fuzz cases. docs/testing.md says
# which command runs what.
set -euo pipefail
cd "$(dirname "$0")/.."
export CI=${CI:-}
if [ "${1:-}" = "--long" ]; then
    export HYPOTHESIS_PROFILE=long
    export LIVERPOOL_FUZZ_CASES=${LIVERPOOL_FUZZ_CASES:-20000}
    export LIVERPOOL_FUZZ_EXAMPLES=${LIVERPOOL_FUZZ_EXAMPLES:-2000}
else
    export HYPOTHESIS_PROFILE=${HYPOTHESIS_PROFILE:-ci}
fi
# setup.sh installs Chromium, so here a missing browser is a failure, not a skip.
export LIVERPOOL_REQUIRE_BROWSER=1

started=$SECONDS
last=$SECONDS
last_name=""
# Each step prints how long the one before it took, and the end the whole run's time,
# so a slow step shows in every CI log.
step() {
    if [ -n "$last_name" ]; then printf '   (%s: %ds)\n' "$last_name" $((SECONDS - last)); fi
    last=$SECONDS
    last_name="$*"
    printf '\n== %s\n' "$*"
}
finish() {
    local code=$?
    if [ -n "$last_name" ]; then printf '   (%s: %ds)\n' "$last_name" $((SECONDS - last)); fi
    printf '\n== total: %ds\n' $((SECONDS - started))
    return $code
}
trap finish EXIT

step "setup"
bash scripts/setup.sh

step "the engine crate has no Python in its dependency tree"
if cargo tree -p liverpool-engine -e normal,build --prefix none | grep -E '^(pyo3|numpy)' ; then
    echo "liverpool-engine must not depend on pyo3 or numpy" >&2
    exit 1
fi
echo "ok: no pyo3/numpy under liverpool-engine"

step "no import cycle between the Rust files of the engine or the binding"
# scripts/check_imports.py says how child modules and re-exports count (docs/architecture.md).
.venv/bin/python scripts/check_imports.py

step "rustfmt and clippy (warnings are errors)"
cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings

step "cargo test (engine)"
# Debug build on purpose: overflow checks and debug assertions are on.
cargo test -p liverpool-engine

step "type stubs match the binary (mypy.stubtest)"
.venv/bin/python -m mypy.stubtest liverpool._core --allowlist scripts/stubtest-allowlist.txt

step "mypy --strict on the package"
.venv/bin/python -m mypy

step "conformance scenarios (shared examples and our own)"
SCENARIOS=(tests/scenarios)
if [ -d ../shared/conformance ]; then SCENARIOS=(../shared/conformance "${SCENARIOS[@]}"); fi
.venv/bin/liverpool conformance "${SCENARIOS[@]}"

step "benchmark smoke run (numbers are printed, never asserted)"
.venv/bin/liverpool bench --quick --json target/bench-quick.json

# The last two steps both run even if the first fails, so one run reports both.
failed=0
step "pytest (unit, property, differential, doctests, notebooks)"
# Two workers (pytest-xdist): the tests are independent (own temp dirs, free ports), and
# this halves the step on a 2-core machine. PYTEST_WORKERS=0 runs them in one process.
.venv/bin/python -m pytest -q -n "${PYTEST_WORKERS:-2}" -m "not browser" || failed=1

step "browser test: every notebook in Voila + Chromium (docs/browser-test.md)"
.venv/bin/python -m pytest -q -m browser tests/browser || failed=1
exit "$failed"
