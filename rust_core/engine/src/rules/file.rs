//! Rule set files written by users (issue 7 part 4): TOML or JSON.
//!
//! ```toml
//! base = "contract"             # a preset to start from
//! name = "house"                # optional; default "<base>-custom"
//! deal_sizes = [10, 10, 10, 10, 12, 12, 12]
//! contracts = [
//!   { sets = 2 },
//!   { sets = 1, runs = 1 },
//!   { melds = [{ kind = "run", min = 7 }] },   # round 3: one run of 7 (C-8)
//!   { sets = 3 },
//!   { sets = 2, runs = 1 },
//!   { sets = 1, runs = 2 },
//!   { runs = 3, whole_hand = true },
//! ]
//! points = { Q = 20 }           # tables merge into the base's; other values replace
//! buy_limit_per_round = "none"  # "none" clears an optional option (TOML has no null)
//! ```
//!
//! A file without `base` must give every option (what [`RuleSet::to_toml`] and
//! [`RuleSet::to_json`] write). Unknown keys are refused with their path and the
//! nearest known key; values of the wrong type with their path and what was
//! expected; impossible values by [`RuleSet::validate`], with the key and the reason.

// Still reachable as `rules::file::{RuleOption, RULE_OPTIONS, rule_option}`.
pub use super::options::{rule_option, RuleOption, RULE_OPTIONS};
use super::{invalid, Contract, RuleSet, RANK_KEYS};
use crate::error::{Error, ErrorCode, Result};
use crate::limits::{read_capped, ReadError};
use crate::msg;
use serde_json::{Map, Value};
use std::fmt::Write as _;
use std::path::Path;

/// Reading and writing rule set files, as methods of `RuleSet` (defined here so that
/// rules.rs, which re-exports this module's options, never calls into it).
impl RuleSet {
    /// A rule set from JSON: a complete rule set (the form of [`RuleSet::to_json`]) or
    /// `"base"` plus changes, as in a rule set file (this module). Unknown keys and
    /// impossible values are refused with the key's path and the reason.
    pub fn from_json(text: &str) -> Result<RuleSet> {
        from_json(text)
    }

    /// A rule set from TOML: `base = "contract"` plus changes, or a complete rule set
    /// (the form of [`RuleSet::to_toml`]). See this module.
    pub fn from_toml(text: &str) -> Result<RuleSet> {
        from_toml(text)
    }

    /// A rule set file: JSON if the name ends in `.json` (or the text starts with `{`),
    /// TOML otherwise.
    pub fn from_file(path: &std::path::Path) -> Result<RuleSet> {
        from_file(path)
    }

    /// A preset name, else a rule set file's path (what `--rules` accepts).
    pub fn named_or_file(spec: &str) -> Result<RuleSet> {
        named_or_file(spec)
    }

    /// The complete rule set as TOML, every option with a comment naming its rule;
    /// [`RuleSet::from_toml`] reads it back to an equal rule set.
    pub fn to_toml(&self) -> String {
        to_toml(self)
    }
}

// ---------------------------------------------------------------------------------
// Reading

/// Largest rule set (file or text) read: 256 KiB. A complete rule set written by
/// [`to_toml`] is about 4 KiB, one with 30 rounds of 16-meld contracts under 100 KiB;
/// the limit is checked before parsing, so a huge file costs nothing.
pub const MAX_RULES_BYTES: usize = 256 << 10;

/// Longest key a "did you mean" hint is looked for (the longest option has 24
/// characters): a longer unknown key is refused without comparing it, so the hint
/// costs the same for a megabyte key as for a typo.
const MAX_HINT_KEY_CHARS: usize = 64;

/// Characters of an unknown key repeated in the refusal.
const MAX_SHOWN_KEY_CHARS: usize = 80;

/// `invalid_rules` for a text longer than [`MAX_RULES_BYTES`].
fn too_large(bytes: u64) -> Error {
    Error::with(
        ErrorCode::InvalidRules,
        None,
        msg!("rules.too_large", bytes = bytes, max = MAX_RULES_BYTES),
    )
}

/// A rule set from JSON text (see the module docs).
pub fn from_json(text: &str) -> Result<RuleSet> {
    if text.len() > MAX_RULES_BYTES {
        return Err(too_large(text.len() as u64));
    }
    let doc: Value = serde_json::from_str(text).map_err(|e| match non_finite_json(text, &e) {
        Some(value) => Error::with(
            ErrorCode::InvalidRules,
            None,
            msg!(
                "rules.not_finite_json",
                value = shown_key(&value),
                line = e.line(),
                column = e.column()
            ),
        ),
        None => Error::with(ErrorCode::InvalidRules, None, msg!("rules.bad_json", error = e)),
    })?;
    load(doc)
}

/// The number-like token where JSON parsing failed, when it is an infinity, a NaN
/// (`Infinity`, `-inf`, `NaN`, which JSON does not have) or a number out of range
/// (`1e999`): such a value is named, not reported as a syntax error.
fn non_finite_json(text: &str, e: &serde_json::Error) -> Option<String> {
    let line: Vec<char> = text.lines().nth(e.line().checked_sub(1)?)?.chars().collect();
    let in_token = |c: char| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.');
    let mut start = e.column().saturating_sub(1).min(line.len());
    while start > 0 && in_token(line[start - 1]) {
        start -= 1;
    }
    let end = (start..line.len()).find(|&i| !in_token(line[i])).unwrap_or(line.len());
    let token: String = line[start..end].iter().collect();
    let bare = token.trim_start_matches(['+', '-']);
    let named = ["infinity", "inf", "nan"].iter().any(|n| bare.eq_ignore_ascii_case(n));
    let out_of_range = e.to_string().starts_with("number out of range");
    (!token.is_empty() && (named || out_of_range)).then_some(token)
}

/// A rule set from TOML text (see the module docs).
pub fn from_toml(text: &str) -> Result<RuleSet> {
    if text.len() > MAX_RULES_BYTES {
        return Err(too_large(text.len() as u64));
    }
    let doc: toml::Table = toml::from_str(text).map_err(|e| {
        Error::with(
            ErrorCode::InvalidRules,
            None,
            msg!("rules.bad_toml", error = e.to_string().trim_end()),
        )
    })?;
    // JSON has no inf or nan: name them here, before they would turn into null.
    if let Some(path) = non_finite(&toml::Value::Table(doc.clone()), String::new()) {
        return Err(invalid(path.0, msg!("rules.not_finite", value = path.1)));
    }
    let doc = serde_json::to_value(doc)
        .map_err(|e| Error::with(ErrorCode::InvalidRules, None, msg!("rules.bad_toml", error = e)))?;
    load(doc)
}

/// The path and the value (`inf`, `-inf`, `nan`) of the first float in `value`
/// that is not a finite number.
fn non_finite(value: &toml::Value, path: String) -> Option<(String, String)> {
    match value {
        toml::Value::Float(f) if !f.is_finite() => Some((path, f.to_string())),
        toml::Value::Table(t) => t.iter().find_map(|(k, v)| {
            let key = shown_key(k);
            non_finite(v, if path.is_empty() { key } else { format!("{path}.{key}") })
        }),
        toml::Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, v)| non_finite(v, format!("{path}[{i}]"))),
        _ => None,
    }
}

/// A key as a refusal repeats it: at most [`MAX_SHOWN_KEY_CHARS`] characters.
fn shown_key(key: &str) -> String {
    match key.char_indices().nth(MAX_SHOWN_KEY_CHARS) {
        Some((cut, _)) => format!("{}… ({} bytes)", &key[..cut], key.len()),
        None => key.to_string(),
    }
}

/// A rule set file: JSON if its name ends in `.json` (or its text starts with `{`), else TOML.
/// A file above [`MAX_RULES_BYTES`] is refused before it is read.
pub fn from_file(path: &Path) -> Result<RuleSet> {
    let text = read_capped(path, MAX_RULES_BYTES).map_err(|e| match e {
        ReadError::Io(e) => Error::with(
            ErrorCode::InvalidArgument,
            None,
            msg!("file.cannot_read", path = path.display(), error = e),
        ),
        ReadError::TooLarge { bytes, .. } => {
            let reason = too_large(bytes).to_message();
            too_large(bytes).reworded(msg!("rules.in_file", path = path.display(), reason = reason))
        }
    })?;
    let json = match path.extension().and_then(|e| e.to_str()) {
        Some(ext) if ext.eq_ignore_ascii_case("json") => true,
        Some(ext) if ext.eq_ignore_ascii_case("toml") => false,
        _ => text.trim_start().starts_with('{'),
    };
    let loaded = if json { from_json(&text) } else { from_toml(&text) };
    loaded.map_err(|e| {
        let reason = e.to_message();
        e.reworded(msg!("rules.in_file", path = path.display(), reason = reason))
    })
}

/// A preset name, else the path of a rule set file.
pub fn named_or_file(spec: &str) -> Result<RuleSet> {
    if let Ok(rules) = RuleSet::preset(spec) {
        return Ok(rules);
    }
    let path = Path::new(spec);
    if path.is_file() {
        return from_file(path);
    }
    Err(Error::with(
        ErrorCode::InvalidRules,
        None,
        msg!(
            "rules.not_preset_or_file",
            spec = spec,
            presets = RuleSet::preset_names().join(", ")
        ),
    ))
}

/// A rule set from a parsed document with the keys of a rule set file (a scenario's
/// `"rule_set"` object, CONFORMANCE.md): the same checks as a file. The document is
/// capped as a file is, measured as JSON text.
pub fn from_value(doc: Value) -> Result<RuleSet> {
    let bytes = serde_json::to_string(&doc).map_or(usize::MAX, |t| t.len());
    if bytes > MAX_RULES_BYTES {
        return Err(too_large(bytes as u64));
    }
    load(doc)
}

fn load(doc: Value) -> Result<RuleSet> {
    let Value::Object(mut map) = doc else {
        return Err(Error::with(ErrorCode::InvalidRules, None, msg!("rules.not_a_table")));
    };
    check_keys(&map)?;
    let base = map.remove("base");
    let mut merged = match base {
        Some(Value::String(name)) => {
            let preset = RuleSet::preset(&name).map_err(|_| {
                invalid(
                    "base",
                    msg!(
                        "rules.base_unknown",
                        name = shown_key(&name),
                        presets = RuleSet::preset_names().join(", ")
                    ),
                )
            })?;
            if !map.contains_key("name") && !map.is_empty() {
                map.insert("name".into(), Value::String(format!("{}-custom", preset.name)));
            }
            let mut value = serde_json::to_value(&preset).expect("a RuleSet always serializes");
            merge(&mut value, Value::Object(map));
            value
        }
        Some(other) => {
            return Err(invalid("base", msg!("rules.base_not_name", value = other)));
        }
        None => {
            // `profile` came after the first complete files were written: it may be
            // left out, and is then the profile of the preset the file is named after.
            if let Some(missing) = RULE_OPTIONS
                .iter()
                .find(|o| !o.optional && o.key != "profile" && !map.contains_key(o.key))
            {
                return Err(invalid(missing.key, msg!("rules.missing_key")));
            }
            if !map.contains_key("profile") {
                let profile = map
                    .get("name")
                    .and_then(Value::as_str)
                    .and_then(|name| RuleSet::preset(name).ok())
                    .map(|preset| preset.profile)
                    .unwrap_or_default();
                map.insert(
                    "profile".into(),
                    serde_json::to_value(profile).expect("a profile serializes"),
                );
            }
            Value::Object(map)
        }
    };
    if let Value::Object(map) = &mut merged {
        for o in RULE_OPTIONS.iter().filter(|o| o.optional) {
            if let Some(v) = map.get_mut(o.key) {
                if v.as_str().is_some_and(|s| s.eq_ignore_ascii_case("none")) {
                    *v = Value::Null;
                }
            }
        }
    }
    let rules: RuleSet = serde_path_to_error::deserialize(merged).map_err(|e| {
        let path = e.path().to_string();
        let path = if path == "." { "(rule set)".to_string() } else { path };
        invalid(path, msg!("rules.bad_value", error = e.inner()))
    })?;
    rules.validate()?;
    Ok(rules)
}

/// Tables merge key by key; any other value replaces the base's.
fn merge(base: &mut Value, changes: Value) {
    match (base, changes) {
        (Value::Object(b), Value::Object(c)) => {
            for (k, v) in c {
                match b.get_mut(&k) {
                    Some(slot) if slot.is_object() && v.is_object() => merge(slot, v),
                    _ => {
                        b.insert(k, v);
                    }
                }
            }
        }
        (slot, v) => *slot = v,
    }
}

const TIER_KEYS: &[&str] = &["max_players", "decks", "jokers"];
const CONTRACT_KEYS: &[&str] = &["sets", "runs", "melds", "whole_hand"];
const MELD_KEYS: &[&str] = &["kind", "min"];

/// Refuse unknown keys, naming their path and the nearest known key.
fn check_keys(map: &Map<String, Value>) -> Result<()> {
    let top: Vec<&str> = std::iter::once("base")
        .chain(RULE_OPTIONS.iter().map(|o| o.key))
        .collect();
    check_object(map, "", &top)?;
    if let Some(Value::Array(tiers)) = map.get("deck_tiers") {
        for (i, t) in tiers.iter().enumerate() {
            if let Value::Object(t) = t {
                check_object(t, &format!("deck_tiers[{i}]."), TIER_KEYS)?;
            }
        }
    }
    if let Some(Value::Array(contracts)) = map.get("contracts") {
        for (i, c) in contracts.iter().enumerate() {
            let Value::Object(c) = c else { continue };
            check_object(c, &format!("contracts[{i}]."), CONTRACT_KEYS)?;
            if let Some(Value::Array(melds)) = c.get("melds") {
                for (j, m) in melds.iter().enumerate() {
                    if let Value::Object(m) = m {
                        check_object(m, &format!("contracts[{i}].melds[{j}]."), MELD_KEYS)?;
                    }
                }
            }
        }
    }
    if let Some(Value::Object(points)) = map.get("points") {
        for key in points.keys() {
            if !key.eq_ignore_ascii_case("joker") && super::rank_of_name(key).is_none() {
                return Err(invalid(
                    format!("points.{}", shown_key(key)),
                    msg!("rules.unknown_rank_key"),
                ));
            }
        }
    }
    Ok(())
}

fn check_object(map: &Map<String, Value>, prefix: &str, known: &[&str]) -> Result<()> {
    for key in map.keys() {
        if !known.contains(&key.as_str()) {
            let keys = known.join(", ");
            let reason = match nearest(key, known) {
                Some(near) => msg!("rules.unknown_key_hint", nearest = near, keys = keys),
                None => msg!("rules.unknown_key", keys = keys),
            };
            return Err(invalid(format!("{prefix}{}", shown_key(key)), reason));
        }
    }
    Ok(())
}

/// The known key closest to `key` (edit distance at most 3, or a prefix of it).
fn nearest<'a>(key: &str, known: &[&'a str]) -> Option<&'a str> {
    if key.chars().nth(MAX_HINT_KEY_CHARS).is_some() {
        return None;
    }
    known
        .iter()
        .map(|k| (distance(key, k), *k))
        .filter(|(d, k)| *d <= 3 || k.starts_with(key) || key.starts_with(k))
        .min()
        .map(|(_, k)| k)
}

/// Levenshtein distance.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

// ---------------------------------------------------------------------------------
// Writing

/// The complete rule set as TOML, each option under a comment (see [`RuleSet::to_toml`]).
pub fn to_toml(rules: &RuleSet) -> String {
    let value = serde_json::to_value(rules).expect("a RuleSet always serializes");
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Liverpool Rummy rule set '{}' (RULES.md ids in brackets).\n\
         # A complete rule set: every option is given. To change only a few, start a\n\
         # file with base = \"liverpool\" (or another preset) and list just those.\n",
        rules.name
    );
    for o in RULE_OPTIONS {
        let rule = if o.rules.is_empty() {
            String::new()
        } else {
            format!(" [{}]", o.rules)
        };
        let _ = writeln!(out, "# {}{rule}", o.doc);
        let text = match o.key {
            "points" => points_toml(&rules.points),
            "contracts" => contracts_toml(rules),
            "deck_tiers" => {
                let items: Vec<String> = rules
                    .deck_tiers
                    .iter()
                    .map(|t| {
                        format!(
                            "  {{ max_players = {}, decks = {}, jokers = {} }},\n",
                            t.max_players, t.decks, t.jokers
                        )
                    })
                    .collect();
                format!("[\n{}]", items.concat())
            }
            key => toml_value(&value[key]),
        };
        let _ = writeln!(out, "{} = {text}\n", o.key);
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

fn points_toml(points: &[u16; 14]) -> String {
    let items: Vec<String> = RANK_KEYS
        .iter()
        .zip(points)
        .map(|(k, p)| format!("{k} = {p}"))
        .collect();
    format!("{{ {} }}", items.join(", "))
}

/// The contracts as TOML, each with its sentence in this rule set ("exactly" where
/// the rule set caps the length).
fn contracts_toml(rules: &RuleSet) -> String {
    let mut out = String::from("[\n");
    for (i, c) in rules.contracts.iter().enumerate() {
        let mut parts = vec![];
        let counts = Contract::new(c.sets(), c.runs());
        if !c.has_own_lengths() && counts.melds() == c.melds() {
            if c.sets() > 0 {
                parts.push(format!("sets = {}", c.sets()));
            }
            if c.runs() > 0 {
                parts.push(format!("runs = {}", c.runs()));
            }
        } else {
            let melds: Vec<String> = c
                .melds()
                .iter()
                .map(|m| match m.min {
                    Some(min) => format!("{{ kind = \"{}\", min = {min} }}", m.kind.as_str()),
                    None => format!("{{ kind = \"{}\" }}", m.kind.as_str()),
                })
                .collect();
            parts.push(format!("melds = [{}]", melds.join(", ")));
        }
        if c.whole_hand {
            parts.push("whole_hand = true".into());
        }
        let _ = writeln!(
            out,
            "  {{ {} }},  # round {}: {}",
            parts.join(", "),
            i + 1,
            rules.describe_contract(c)
        );
    }
    out.push(']');
    out
}

/// A scalar or an array of scalars in TOML syntax; null is "none".
fn toml_value(v: &Value) -> String {
    match v {
        Value::Null => "\"none\"".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => toml::Value::String(s.clone()).to_string(),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(toml_value).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(_) => {
            // No option but points is a table; keep any future one readable.
            toml::Value::try_from(v).map(|t| t.to_string()).unwrap_or_default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(text: &str) -> String {
        let e = from_toml(text).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidRules, "{}", e.message);
        e.message
    }

    #[test]
    fn every_field_is_an_option_and_back() {
        let value = serde_json::to_value(RuleSet::liverpool()).unwrap();
        let keys: Vec<&str> = value.as_object().unwrap().keys().map(|k| k.as_str()).collect();
        for k in &keys {
            assert!(rule_option(k).is_some(), "RULE_OPTIONS lacks '{k}'");
        }
        for o in RULE_OPTIONS {
            assert!(keys.contains(&o.key), "RuleSet has no field '{}'", o.key);
        }
    }

    #[test]
    fn presets_round_trip_through_toml_and_json() {
        for name in RuleSet::preset_names() {
            let rules = RuleSet::preset(name).unwrap();
            assert_eq!(from_toml(&rules.to_toml()).unwrap(), rules, "{name}");
            assert_eq!(from_json(&rules.to_json()).unwrap(), rules, "{name}");
        }
    }

    #[test]
    fn base_plus_changes() {
        let rules = from_toml(
            "base = \"contract\"\n\
             contracts = [{ sets = 2 }, { sets = 1, runs = 1 }, { melds = [{ kind = \"run\", min = 7 }] }, \
             { sets = 3 }, { sets = 2, runs = 1 }, { sets = 1, runs = 2 }, { runs = 3, whole_hand = true }]\n\
             points = { Q = 20 }\n\
             buy_limit_per_round = \"none\"\n",
        )
        .unwrap();
        assert_eq!(rules.name, "contract-custom");
        assert_eq!(rules.contracts[2].describe(), "1 run of at least 7");
        assert_eq!(rules.points[12], 20);
        assert_eq!(rules.points[1], 15);
        assert_eq!(rules.buy_limit_per_round, None);
        assert_eq!(rules.deal_sizes, RuleSet::contract().deal_sizes);
        assert_eq!(from_toml("base = \"shanghai\"").unwrap(), RuleSet::shanghai());
    }

    #[test]
    fn unknown_keys_and_bad_values_name_their_path() {
        assert!(refusal("base = \"contract\"\ndeal_size = [7]")
            .starts_with("deal_size: unknown key (did you mean 'deal_sizes'?)"));
        assert!(refusal("base = \"contract\"\ncontracts = [{ set = 2 }]").starts_with("contracts[0].set: unknown key"));
        assert!(
            refusal("base = \"contract\"\ncontracts = [{ melds = [{ kind = \"run\", length = 7 }] }]")
                .starts_with("contracts[0].melds[0].length: unknown key")
        );
        assert!(refusal("base = \"contract\"\npoints = { Z = 3 }").starts_with("points.Z: unknown key"));
        assert!(refusal("base = \"canasta\"").starts_with("base: 'canasta' is not a preset"));
        assert!(
            refusal("base = \"contract\"\nbuying = \"sometimes\"").starts_with("buying: wrong value: unknown variant")
        );
        assert!(refusal("base = \"contract\"\nmin_players = \"three\"")
            .starts_with("min_players: wrong value: invalid type"));
        assert!(
            refusal("base = \"contract\"\ndeal_sizes = [10, 10, 10, 10, 12, 12, 12, 12]")
                .starts_with("deal_sizes: 8 deal sizes")
        );
        assert!(refusal("deal_sizes = [10]").starts_with("name: missing"));
        assert!(
            refusal("base = \"contract\"\nwild_rank = \"Z\"").starts_with("wild_rank: wrong value: 'Z' is not a rank")
        );
        assert!(refusal("base = \"contract\"\nwild_rank = \"Q\"").starts_with("points.Q: 10 but Q is wild"));
        assert!(refusal("this is not toml").starts_with("rule set TOML is not valid"));
    }

    #[test]
    fn impossible_deals_and_contracts_are_explained() {
        // 8 players x 20 cards cannot come out of 3 decks and 6 jokers.
        let m = refusal("base = \"contract\"\ndeal_sizes = [20, 10, 10, 10, 12, 12, 12]");
        assert!(m.starts_with("deal_sizes[0]: round 1: 6 players x 20 cards"), "{m}");
        // A contract of 3 runs of 5 cannot be laid from 12 cards with one to discard.
        let m = refusal(
            "base = \"contract\"\ncontracts = [{ sets = 2 }, { sets = 1, runs = 1 }, { runs = 2 }, { sets = 3 }, \
             { melds = [{ kind = \"run\", min = 5 }, { kind = \"run\", min = 5 }, { kind = \"run\", min = 5 }] }, \
             { sets = 1, runs = 2 }, { runs = 3, whole_hand = true }]",
        );
        assert!(
            m.starts_with("deal_sizes[4]: round 5: 12 cards dealt, 13 after drawing, cannot lay"),
            "{m}"
        );
        let m = refusal("base = \"contract\"\ncontracts = [{ sets = 2 }, { melds = [{ kind = \"run\", min = 15 }] }, { runs = 2 }, { sets = 3 }, { sets = 2, runs = 1 }, { sets = 1, runs = 2 }, { runs = 3, whole_hand = true }]");
        assert!(m.starts_with("contracts[1].melds[0].min: 15"), "{m}");
        let m = refusal("base = \"contract\"\nset_size_min = 2");
        assert!(m.starts_with("set_size_min: 2"), "{m}");
        let m = refusal("base = \"liverpool\"\ndeal_sizes = [5, 10, 10, 12, 12, 12, 12]");
        assert!(m.contains("keep one to discard"), "{m}");
    }

    #[test]
    fn infinities_and_nans_are_named_in_json_and_toml() {
        for (text, starts) in [
            (
                "{\"base\": \"liverpool\", \"cut_bonus\": Infinity}",
                "Infinity (line 1, column",
            ),
            (
                "{\"base\": \"liverpool\",\n \"cut_bonus\": -Infinity}",
                "-Infinity (line 2, column",
            ),
            ("{\"base\": \"liverpool\", \"cut_bonus\": NaN}", "NaN (line 1"),
            ("{\"base\": \"liverpool\", \"cut_bonus\": 1e999}", "1e999 (line 1"),
        ] {
            let e = from_json(text).unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidRules);
            assert!(e.message.starts_with(starts), "{text}: {}", e.message);
        }
        assert!(from_json("{\"base\": }")
            .unwrap_err()
            .message
            .starts_with("rule set JSON is not valid"));
        assert!(refusal("base = \"liverpool\"\ncut_bonus = -inf").starts_with("cut_bonus: -inf is not a number"));
        assert!(
            refusal("base = \"liverpool\"\ndeck_tiers = [{ max_players = 8, decks = 2, jokers = nan }]")
                .starts_with("deck_tiers[0].jokers: NaN is not a number")
        );
    }

    #[test]
    fn named_or_file_reads_presets_and_files() {
        assert_eq!(named_or_file("no_buy").unwrap(), RuleSet::no_buy());
        let dir = std::env::temp_dir().join(format!("liverpool-rules-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let toml_path = dir.join("house.toml");
        std::fs::write(&toml_path, "base = \"california\"\nname = \"house\"\n").unwrap();
        let house = named_or_file(toml_path.to_str().unwrap()).unwrap();
        assert_eq!(house.name, "house");
        assert_eq!(house.wild_rank, Some(12));
        let json_path = dir.join("house.json");
        std::fs::write(&json_path, "{\"base\": \"no-buy\", \"deal_sizz\": []}").unwrap();
        let e = from_file(&json_path).unwrap_err();
        assert!(e.message.contains("deal_sizz: unknown key"), "{}", e.message);
        assert_eq!(named_or_file("nonesuch").unwrap_err().code, ErrorCode::InvalidRules);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
