//! Fuzz target: conformance scenario files (docs/guarantees.md). The project's
//! scenarios (`tests/scenarios/`), mutated as JSON or as raw bytes, always give a
//! report (PASS or FAIL with a reason), never a panic or a hang.

mod fuzz_common;

use fuzz_common::{config, mutate};
use liverpool_engine::game::run_scenario;
use liverpool_engine::rng::Rng;
use proptest::prelude::*;
use std::path::PathBuf;
use std::sync::OnceLock;

fn scenarios() -> &'static [String] {
    static TEXTS: OnceLock<Vec<String>> = OnceLock::new();
    TEXTS.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/scenarios");
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        files.iter().map(|f| std::fs::read_to_string(f).unwrap()).collect()
    })
}

proptest! {
    #![proptest_config(config(1000))]

    #[test]
    fn mutated_scenarios_report(pick in any::<usize>(), seed in any::<u64>(), mutations in 1usize..5) {
        let texts = scenarios();
        let mut value: serde_json::Value = serde_json::from_str(&texts[pick % texts.len()]).unwrap();
        let mut rng = Rng::from_seed(seed);
        mutate(&mut value, &mut rng, mutations);
        let report = run_scenario(&value.to_string());
        prop_assert!(report.passed() || !report.failure.unwrap().is_empty());
    }

    #[test]
    fn byte_mutated_scenarios_report(pick in any::<usize>(), edits in prop::collection::vec((any::<usize>(), any::<u8>()), 1..6)) {
        let texts = scenarios();
        let mut bytes = texts[pick % texts.len()].clone().into_bytes();
        for (at, b) in edits {
            let at = at % bytes.len().max(1);
            match b % 3 {
                0 => bytes[at] = b,
                1 => { bytes.remove(at); }
                _ => bytes.insert(at, b),
            }
            if bytes.is_empty() { break; }
        }
        let text = String::from_utf8_lossy(&bytes);
        let report = run_scenario(&text);
        prop_assert!(report.passed() || !report.failure.unwrap().is_empty());
    }
}
