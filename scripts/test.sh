#!/usr/bin/env bash
# Set up everything and run every check: engine purity, no import cycle, Rust tests, type stubs,
# Python tests (hypothesis 'ci' profile, doctests, executed notebooks), the
# conformance scenarios, a quick benchmark smoke run, and the real-browser test
# (every notebook in Voila + Chromium, screenshots in target/screenshots).
#
# `scripts/test.sh --long` (make test-long) runs the same steps with the exhaustive
# budgets: hypothesis profile `long`, 20x the Rust fuzz cases, and LIVERPOOL_LONG=1
# (the expert's whole game in the Rust id round trip, whole card-table games in every
# language in the browser). docs/testing.md says which command runs what.
set -euo pipefail
cd "$(dirname "$0")/.."
export CI=${CI:-}
if [ "${1:-}" = "--long" ]; then
    export HYPOTHESIS_PROFILE=long
    # Rust tests that check a sample in `make test` check it all (tests_encoding.rs).
    export LIVERPOOL_LONG=1
    export LIVERPOOL_FUZZ_CASES=${LIVERPOOL_FUZZ_CASES:-20000}
    export LIVERPOOL_FUZZ_EXAMPLES=${LIVERPOOL_FUZZ_EXAMPLES:-2000}
else
    export HYPOTHESIS_PROFILE=${HYPOTHESIS_PROFILE:-ci}
fi
# setup.sh installs Chromium, so here a missing browser is a failure, not a skip.
export LIVERPOOL_REQUIRE_BROWSER=1
# Python caches what it compiles (__pycache__, in .venv and the checkout). Some machines
# set PYTHONDONTWRITEBYTECODE, and uv installs without compiling, so every process (two
# pytest workers, each notebook's kernel, Voila's, the CLI's subprocesses) compiled the
# sources of what it imported again: torch alone 4.4 s an import instead of 2.1 s. On a
# clean clone here that was ~50 s of the pytest step (docs/testing.md).
unset PYTHONDONTWRITEBYTECODE

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
    local code=${1:-$?}
    if [ -n "$last_name" ]; then printf '   (%s: %ds)\n' "$last_name" $((SECONDS - last)); fi
    printf '\n== total: %ds\n' $((SECONDS - started))
    return $code
}

# Background jobs run in their own process group (set -m), so that when the run stops
# early (a step fails, Ctrl-C) each is stopped with everything it started (cargo, Voila,
# Chromium) by that group's id, which is the job's pid.
background_pids=()
stop_background() {
    local pid
    for pid in "${background_pids[@]}"; do kill -- -"$pid" 2>/dev/null || true; done
}
trap 'code=$?; stop_background; finish "$code"' EXIT

# in_background LOG FUNCTION: runs FUNCTION (set -euo pipefail) with its output in LOG;
# its pid is left in $background_pid.
in_background() {
    local log=$1
    shift
    set -m
    ( trap - EXIT; set -euo pipefail; "$@" ) > "$log" 2>&1 &
    background_pid=$!
    set +m
    background_pids+=("$background_pid")
}

# wait_background PID: waits for that job; its exit code is left in $background_code.
wait_background() {
    local pid=$1 kept=() other
    background_code=0
    wait "$pid" || background_code=$?
    for other in "${background_pids[@]}"; do
        if [ "$other" != "$pid" ]; then kept+=("$other"); fi
    done
    background_pids=("${kept[@]}")
}

# The Rust checks need nothing from .venv, so they run alongside setup.sh: setup spends
# much of its time downloading (network) and in the serial end of the extension's
# release build (fat LTO, one codegen unit), when the second core would otherwise idle.
# Cargo locks each profile's folder on its own, so the release build (setup) and the
# debug builds (clippy, tests) do not wait for each other. Their output is printed
# when setup is done, each part with its own time.
rust_checks() {
    local part_started=$SECONDS
    part() {
        if [ -n "${1:-}" ]; then printf '\n== %s\n' "$1"; fi
        part_started=$SECONDS
    }
    part_done() { printf '   (%s: %ds)\n' "$1" $((SECONDS - part_started)); }

    part "the engine crate has no Python in its dependency tree"
    if cargo tree -p liverpool-engine -e normal,build --prefix none | grep -E '^(pyo3|numpy)' ; then
        echo "liverpool-engine must not depend on pyo3 or numpy" >&2
        return 1
    fi
    echo "ok: no pyo3/numpy under liverpool-engine"
    part_done "no Python under the engine"

    part "no import cycle between the Rust files of the engine or the binding"
    # scripts/check_imports.py (standard library only) says how child modules and
    # re-exports count (docs/architecture.md, "Layers and imports").
    "${PYTHON:-python3}" scripts/check_imports.py
    part_done "no import cycle"

    part "rustfmt and clippy (warnings are errors)"
    cargo fmt --all --check
    cargo clippy --workspace --all-targets -- -D warnings
    part_done "rustfmt and clippy"

    part "cargo test (engine)"
    # Debug build on purpose: overflow checks and debug assertions are on.
    cargo test -p liverpool-engine
    part_done "cargo test"
}

step "setup, with the Rust checks alongside (rustfmt, clippy, cargo test)"
mkdir -p target
rust_log=target/rust-checks.log
in_background "$rust_log" rust_checks
rust_pid=$background_pid
setup_started=$SECONDS
bash scripts/setup.sh
echo "setup.sh done in $((SECONDS - setup_started))s; the Rust checks (their log follows):"
# Waited for here, not left to run on alongside pytest: measured on a clean clone, that
# put 150 CPU s more into the busiest part of the run, and the whole took longer
# (581 s against 514 s), while alongside setup they fit in its span.
wait_background "$rust_pid"
cat "$rust_log"
if [ "$background_code" -ne 0 ]; then
    echo "the Rust checks failed (exit $background_code; log above, also in $rust_log)" >&2
    exit 1
fi

step "conformance scenarios (shared examples and our own)"
SCENARIOS=(tests/scenarios)
if [ -d ../shared/conformance ]; then SCENARIOS=(../shared/conformance "${SCENARIOS[@]}"); fi
.venv/bin/liverpool conformance "${SCENARIOS[@]}"

# The browser test mostly waits (Voila running a page's cells, Chromium drawing it): alone,
# on one worker, it kept about half of one core busy for ~250 s. So it runs on two
# workers, each with its own Voila and Chromium (the English pages and the way-in on one,
# pt and es on the other: tests/browser/conftest.py, `worker_group`), alongside the type
# checks and pytest; its log is printed after pytest. All of them run even if one fails,
# so one run reports them all, and both pytest runs print their slowest tests.
browser_test() {
    local started=$SECONDS code=0
    .venv/bin/python -m pytest -q -n 2 -m browser tests/browser --durations=10 || code=$?
    printf '   (browser test: %ds)\n' $((SECONDS - started))
    return "$code"
}
browser_log=target/browser-test.log
in_background "$browser_log" browser_test
browser_pid=$background_pid

# The type checks need one core for ~30 s; alone they left the other core to the
# browser's waiting. They run alongside pytest instead, their log printed after it.
type_checks() {
    local started=$SECONDS
    printf '== type stubs match the binary (mypy.stubtest)\n'
    .venv/bin/python -m mypy.stubtest liverpool._core --allowlist scripts/stubtest-allowlist.txt
    printf '   (stubtest: %ds)\n\n== mypy --strict on the package\n' $((SECONDS - started))
    started=$SECONDS
    .venv/bin/python -m mypy
    printf '   (mypy: %ds)\n' $((SECONDS - started))
}
types_log=target/type-checks.log
in_background "$types_log" type_checks
types_pid=$background_pid

failed=0
step "pytest (unit, property, differential, doctests, notebooks), with the type checks and the browser test alongside"
# Two workers (pytest-xdist): the tests are independent (own temp dirs, free ports), and
# this halves the step on a 2-core machine. PYTEST_WORKERS=0 runs them in one process.
# --dist worksteal: a worker that runs out of tests takes some from the other, so one
# slow test at the end (the state machine, the Ray run) does not leave a core idle.
.venv/bin/python -m pytest -q -n "${PYTEST_WORKERS:-2}" --dist worksteal -m "not browser" --durations=15 || failed=1

step "type checks: stubtest and mypy --strict; ran alongside pytest"
wait_background "$types_pid"
cat "$types_log"
if [ "$background_code" -ne 0 ]; then failed=1; fi

step "browser test: every notebook in Voila + Chromium (docs/browser-test.md); ran alongside pytest"
wait_background "$browser_pid"
cat "$browser_log"
if [ "$background_code" -ne 0 ]; then failed=1; fi

# Last, on a machine left quiet by the steps above: the benchmark's numbers (the
# contract search's worst case among them) are those of the optimized extension alone.
step "benchmark smoke run (numbers are printed, never asserted)"
.venv/bin/liverpool bench --quick --json target/bench-quick.json || failed=1
exit "$failed"
