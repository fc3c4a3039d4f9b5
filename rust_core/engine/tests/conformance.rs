//! Runs every conformance scenario shipped beside RULES.md (`shared/conformance/`)
//! through the engine's scenario runner; all must pass.

use liverpool_engine::game::{run_paths, scenario::scenario_files};
use std::path::PathBuf;

fn shared_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/conformance")
}

#[test]
fn shared_conformance_scenarios_pass() {
    let dir = shared_dir();
    if !dir.is_dir() {
        eprintln!("skipped: {} not found", dir.display());
        return;
    }
    let files = scenario_files(&dir).expect("the scenario directory can be listed");
    assert!(!files.is_empty(), "no scenario files in {}", dir.display());
    let summary = run_paths(&[dir]);
    let lines = summary.lines();
    for line in &lines {
        println!("{line}");
    }
    assert!(summary.all_passed(), "{}", lines.join("\n"));
}

/// The project's own scenarios (`tests/scenarios/`), written separately from the engine.
#[test]
fn project_scenarios_pass() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/scenarios");
    if !dir.is_dir() {
        eprintln!("skipped: {} not found", dir.display());
        return;
    }
    let summary = run_paths(&[dir]);
    for line in summary.lines() {
        println!("{line}");
    }
    assert!(summary.all_passed());
}
