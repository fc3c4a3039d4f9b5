//! The message table's tests: every template used and every used id in the table,
//! the table well formed, no free-text errors in engine code. Moved out of
//! messages.rs unchanged, so that messages.rs never imports error.rs (which uses it).

use super::*;
use crate::error::placeholders;
use std::collections::BTreeSet;
use std::path::Path;

/// The engine's non-test code, as (path, code): test modules and comments left out.
fn sources() -> Vec<(String, String)> {
    fn walk(dir: &Path, out: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).expect("src is readable") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("tests.rs") {
                let text = std::fs::read_to_string(&path).expect("a source file");
                let code = text.split("#[cfg(test)]\nmod tests {").next().unwrap_or("");
                let code: Vec<&str> = code.lines().filter(|l| !l.trim_start().starts_with("//")).collect();
                out.push((path.display().to_string(), code.join("\n")));
            }
        }
    }
    let mut out = vec![];
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut out);
    assert!(out.len() > 10, "found the engine sources");
    // The binding builds its argument errors with the same table (`arg.*`).
    let binding = Path::new(env!("CARGO_MANIFEST_DIR")).join("../python/src");
    if binding.is_dir() {
        walk(&binding, &mut out);
    }
    out
}

/// The ids of every `msg!("id", ...)` in the sources (the macro only takes a literal).
fn used_keys() -> BTreeSet<String> {
    let mut keys = BTreeSet::new();
    for (path, code) in sources() {
        for piece in code.split("msg!(").skip(1) {
            let piece = piece.trim_start();
            assert!(
                piece.starts_with('"'),
                "{path}: msg! without a literal id: {}",
                &piece[..40.min(piece.len())]
            );
            let end = piece[1..].find('"').expect("a closed literal");
            keys.insert(piece[1..1 + end].to_string());
        }
    }
    keys
}

#[test]
fn every_template_is_used_and_every_used_id_has_a_template() {
    let table: BTreeSet<String> = TEMPLATES.iter().map(|(k, _)| k.to_string()).collect();
    let mut used = used_keys();
    // Free text from outside the engine (the binding's own messages).
    used.insert("text".into());
    let unused: Vec<_> = table.difference(&used).collect();
    let missing: Vec<_> = used.difference(&table).collect();
    assert!(
        unused.is_empty() && missing.is_empty(),
        "unused: {unused:?}, missing: {missing:?}"
    );
}

#[test]
fn table_is_sorted_unique_and_well_formed() {
    for pair in TEMPLATES.windows(2) {
        assert!(pair[0].0 < pair[1].0, "{} then {}", pair[0].0, pair[1].0);
    }
    for (key, text) in TEMPLATES {
        assert_eq!(text.matches('{').count(), text.matches('}').count(), "{key}");
        for name in placeholders(text) {
            assert!(
                !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "{key}: {{{name}}}"
            );
        }
        assert_eq!(template(key), Some(*text));
    }
}

#[test]
fn engine_code_builds_no_free_text_errors() {
    for (path, code) in sources() {
        // error.rs defines them; the binding's errors.rs keeps a text someone
        // reworded by hand (never built by the binding itself).
        if path.ends_with("error.rs") || path.ends_with("errors.rs") {
            continue;
        }
        for bad in ["Error::new(", "Error::rule(", "Message::untranslated(", "Error { code"] {
            assert!(!code.contains(bad), "{path} builds an error with free text: {bad}");
        }
    }
}
