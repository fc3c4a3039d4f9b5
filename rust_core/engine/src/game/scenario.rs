//! The conformance scenario runner (CONFORMANCE.md "Steps" and "Runner").
//!
//! A scenario is read as loose JSON so that unknown fields are ignored and every
//! problem — malformed JSON, a bad position, an unknown action — becomes a FAIL
//! line with a clear message, never a panic.

use super::action::{Action, Event};
use super::phase::Phase;
use super::position::Position;
use super::state::GameState;
use crate::card::{format_cards, Card};
use crate::error::{Error, ErrorCode};
use crate::limits::{read_capped, ReadError, MAX_INPUT_BYTES};
use crate::rules::RuleSet;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The outcome of one scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioReport {
    pub id: String,
    /// The file it came from, when run from a file.
    pub path: Option<PathBuf>,
    /// `None` when it passed; otherwise where and what differed, e.g.
    /// `step 3: hand_sizes: expected [5, 4, 10, 10], got [6, 4, 10, 10]`.
    pub failure: Option<String>,
    /// Steps run (up to and including a failing one).
    pub steps_run: usize,
}

impl ScenarioReport {
    pub fn passed(&self) -> bool {
        self.failure.is_none()
    }
    /// `PASS id` or `FAIL id: step N: what differed`.
    pub fn line(&self) -> String {
        match &self.failure {
            None => format!("PASS {}", self.id),
            Some(f) => format!("FAIL {}: {f}", self.id),
        }
    }
}

/// The outcome of a run over several files.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunSummary {
    pub reports: Vec<ScenarioReport>,
}

impl RunSummary {
    pub fn passed(&self) -> usize {
        self.reports.iter().filter(|r| r.passed()).count()
    }
    pub fn failed(&self) -> usize {
        self.reports.len() - self.passed()
    }
    pub fn all_passed(&self) -> bool {
        self.failed() == 0
    }
    /// One line per scenario, then `N passed, M failed`.
    pub fn lines(&self) -> Vec<String> {
        let mut out: Vec<String> = self.reports.iter().map(|r| r.line()).collect();
        out.push(format!("{} passed, {} failed", self.passed(), self.failed()));
        out
    }
}

/// Run one scenario given as JSON text.
pub fn run_scenario(json_text: &str) -> ScenarioReport {
    run_text(json_text, None, None)
}

/// [`run_scenario`] under `rules` when the scenario carries no `"rule_set"` of its
/// own (`liverpool conformance --rules`): the precedence is the scenario's
/// `rule_set`, then `rules`, then its position's `profile`.
pub fn run_scenario_with(json_text: &str, rules: Option<&Arc<RuleSet>>) -> ScenarioReport {
    run_text(json_text, None, rules)
}

/// Run one scenario file. An unreadable file is a failed report.
pub fn run_file(path: &Path) -> ScenarioReport {
    run_file_with(path, None)
}

/// [`run_file`] with a default rule set, as [`run_scenario_with`].
pub fn run_file_with(path: &Path, rules: Option<&Arc<RuleSet>>) -> ScenarioReport {
    let fallback_id = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "?".into());
    match read_capped(path, MAX_INPUT_BYTES) {
        Ok(text) => {
            let mut r = run_text(&text, Some(&fallback_id), rules);
            r.path = Some(path.to_path_buf());
            r
        }
        Err(e) => ScenarioReport {
            id: fallback_id,
            path: Some(path.to_path_buf()),
            failure: Some(match e {
                ReadError::Io(e) => format!("cannot read {}: {e}", path.display()),
                ReadError::TooLarge { bytes, max } => too_large(bytes, max),
            }),
            steps_run: 0,
        },
    }
}

/// The `*.json` files of a directory, sorted by name; a file path is returned as is.
pub fn scenario_files(path: &Path) -> std::io::Result<Vec<PathBuf>> {
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    Ok(files)
}

/// Run every scenario of the given files and directories.
pub fn run_paths(paths: &[PathBuf]) -> RunSummary {
    run_paths_with(paths, None)
}

/// [`run_paths`] with a default rule set, as [`run_scenario_with`].
pub fn run_paths_with(paths: &[PathBuf], rules: Option<&Arc<RuleSet>>) -> RunSummary {
    let mut summary = RunSummary::default();
    for p in paths {
        match scenario_files(p) {
            Ok(files) => summary.reports.extend(files.iter().map(|f| run_file_with(f, rules))),
            Err(e) => summary.reports.push(ScenarioReport {
                id: p.display().to_string(),
                path: Some(p.clone()),
                failure: Some(format!("cannot list {}: {e}", p.display())),
                steps_run: 0,
            }),
        }
    }
    summary
}

fn too_large(bytes: u64, max: usize) -> String {
    format!("the scenario has {bytes} bytes, more than the limit of {max}")
}

fn run_text(text: &str, fallback_id: Option<&str>, rules: Option<&Arc<RuleSet>>) -> ScenarioReport {
    let mut report = ScenarioReport {
        id: fallback_id.unwrap_or("(no id)").to_string(),
        path: None,
        failure: None,
        steps_run: 0,
    };
    if text.len() > MAX_INPUT_BYTES {
        report.failure = Some(too_large(text.len() as u64, MAX_INPUT_BYTES));
        return report;
    }
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            report.failure = Some(format!("not valid JSON: {e}"));
            return report;
        }
    };
    let Some(obj) = value.as_object() else {
        report.failure = Some("a scenario is a JSON object".into());
        return report;
    };
    if let Some(id) = obj.get("id").and_then(Value::as_str) {
        report.id = id.to_string();
    }
    if let Err(f) = run_object(obj, rules, &mut report.steps_run) {
        report.failure = Some(f);
    }
    report
}

fn run_object(
    obj: &Map<String, Value>,
    default_rules: Option<&Arc<RuleSet>>,
    steps_run: &mut usize,
) -> Result<(), String> {
    let pos_value = obj.get("position").ok_or("the scenario has no 'position'")?;
    let own_rules = scenario_rule_set(obj, pos_value)?;
    let position = Position::from_value(pos_value.clone()).map_err(|e| format!("position: {}", e.message))?;
    let rules = match (own_rules, default_rules) {
        (Some(own), _) => Some(Arc::new(own)),
        (None, Some(default)) => Some(Arc::clone(default)),
        (None, None) => None,
    };
    let state = match rules {
        Some(rules) => GameState::from_position_with_rules(&position, rules),
        None => GameState::from_position(&position),
    };
    let mut state = state.map_err(|e| format!("position: {}", e.message))?;
    if let Some(check) = obj.get("check") {
        run_check(&state, check).map_err(|d| format!("position check: {d}"))?;
    }
    let steps = match obj.get("steps") {
        None | Some(Value::Null) => return Ok(()),
        Some(Value::Array(steps)) => steps,
        Some(_) => return Err("'steps' must be a list".into()),
    };
    for (i, step) in steps.iter().enumerate() {
        *steps_run = i + 1;
        run_step(&mut state, step).map_err(|d| format!("step {}: {d}", i + 1))?;
    }
    Ok(())
}

/// The scenario's own rule set (CONFORMANCE.md "A custom rule set"): a top-level
/// `"rule_set"` object with the keys of a rule set file, checked as a file is. The
/// position's `profile`, if given, must name the same preset as its `base`.
fn scenario_rule_set(obj: &Map<String, Value>, position: &Value) -> Result<Option<RuleSet>, String> {
    let Some(doc) = obj.get("rule_set") else {
        return Ok(None);
    };
    if !doc.is_object() {
        return Err(format!(
            "rule_set: a rule set is an object with the keys of a rule set file, not {doc}"
        ));
    }
    let rules = crate::rules::file::from_value(doc.clone()).map_err(|e| format!("rule_set: {}", e.message))?;
    if let Some(profile) = position.get("profile") {
        let base = doc.get("base").and_then(Value::as_str);
        let same = match (profile.as_str(), base) {
            (Some(p), Some(b)) => matches!(
                (RuleSet::preset(p), RuleSet::preset(b)),
                (Ok(p), Ok(b)) if p.name == b.name
            ),
            (Some(p), None) => p == rules.name,
            (None, _) => false,
        };
        if !same {
            return Err(format!(
                "position.profile {profile} differs from the rule set's base {}: leave it out or make it equal",
                base.map_or_else(
                    || format!("(none; the rule set is '{}')", rules.name),
                    |b| format!("'{b}'")
                )
            ));
        }
    }
    Ok(Some(rules))
}

fn run_step(state: &mut GameState, step: &Value) -> Result<(), String> {
    let obj = step.as_object().ok_or("a step is a JSON object")?;
    let seat = obj
        .get("seat")
        .and_then(Value::as_u64)
        .ok_or("the step needs a 'seat' (a seat number)")? as usize;
    let action = parse_action(obj)?;
    let expected_error = parse_expect(obj.get("expect"))?;
    let what = format!("{} by seat {seat}", action.name());
    let before = state.clone();
    match (apply_step(state, seat, &action), expected_error) {
        (Ok(_), None) => {}
        (Err(e), None) => return Err(format!("{what}: expected ok, got error {}: {}", e.code, e.message)),
        (Ok(_), Some(code)) => return Err(format!("{what}: expected error {code}, but the action was accepted")),
        (Err(e), Some(code)) => {
            if e.code.as_str() != code {
                return Err(format!(
                    "{what}: expected error {code}, got error {}: {}",
                    e.code, e.message
                ));
            }
            // W-9: a failed go-down attempt is refused and changes nothing but the
            // penalty of the player (the attempt is kept in the history).
            let mut expected = before;
            if expected.is_failed_go_down(seat, &action, &e) {
                expected.seats[seat].penalty += i32::from(expected.rules.failed_go_down_penalty);
                expected.history.push(seat as u8, &action);
            }
            if *state != expected || state.history_len() != expected.history_len() {
                return Err(format!("{what}: refused with {code} but the state changed"));
            }
        }
    }
    if let Some(check) = obj.get("check") {
        run_check(state, check)?;
    }
    Ok(())
}

/// Apply one step, expanding the shorthands of CONFORMANCE.md "Steps" (scenario files
/// only; the engine itself never decides for a seat):
///
/// - `draw_stock` by the active player, straight from `draw` or with a buying window
///   or a W-7 call offer open: every seat still to answer passes, and the active
///   player draws (declining the discard first when it is on offer, L-5.1).
/// - `buy`, `call_rummy` or `call_liverpool` by a seat further down the order (the
///   engine says `not_your_turn`): every seat asked before it passes.
///
/// An expanded step is atomic: if its last action is refused, none of the passes it
/// stood for is kept and the step reports that action's error. Returns the events of
/// every action applied, in order.
pub fn apply_step(state: &mut GameState, seat: usize, action: &Action) -> Result<Vec<Event>, Error> {
    let window_open = |g: &GameState| matches!(g.phase(), Phase::Buying(_) | Phase::Calling(_));
    // Each pass shrinks a window; a draw opens at most one; so this bounds any expansion.
    let bound = 4 * state.players() + 4;
    match action {
        Action::DrawStock
            if seat == state.active()
                && matches!(
                    state.phase(),
                    Phase::Draw { declined: false } | Phase::Buying(_) | Phase::Calling(_)
                ) =>
        {
            let mut trial = state.clone();
            let mut events = Vec::new();
            for _ in 0..bound {
                if window_open(&trial) {
                    let asked = trial.to_act().unwrap_or(seat);
                    events.push(trial.apply(asked, &Action::Pass)?);
                } else if matches!(trial.phase(), Phase::Draw { .. }) {
                    events.push(trial.apply(seat, &Action::DrawStock)?);
                } else {
                    break; // drawn (phase play), or the round ended (L-9.2)
                }
            }
            *state = trial;
            Ok(events)
        }
        Action::Buy | Action::CallRummy | Action::CallLiverpool { .. } => {
            let mut trial = state.clone();
            let mut events = Vec::new();
            for _ in 0..bound {
                match trial.check(seat, action) {
                    // The seat asked passes — the caller itself too, when it is asked
                    // about rummy but calls Liverpool, which is offered after it (W-7).
                    Err(e) if e.code == ErrorCode::NotYourTurn && window_open(&trial) => {
                        let asked = trial.to_act().unwrap_or(seat);
                        match trial.apply(asked, &Action::Pass) {
                            Ok(event) => events.push(event),
                            Err(_) => return Err(e),
                        }
                    }
                    _ => break,
                }
            }
            events.push(trial.apply(seat, action)?);
            *state = trial;
            Ok(events)
        }
        _ => state.apply(seat, action).map(|e| vec![e]),
    }
}

const ACTION_NAMES: [&str; 13] = [
    "cut",
    "take_discard",
    "decline_discard",
    "buy",
    "pass",
    "draw_stock",
    "go_down",
    "lay_off",
    "swap_joker",
    "discard",
    "next_round",
    "call_liverpool",
    "call_rummy",
];

fn parse_action(obj: &Map<String, Value>) -> Result<Action, String> {
    let name = obj
        .get("do")
        .and_then(Value::as_str)
        .ok_or("the step needs a 'do' (the action name)")?;
    if !ACTION_NAMES.contains(&name) {
        return Err(format!("unknown action '{name}' (known: {})", ACTION_NAMES.join(", ")));
    }
    serde_json::from_value(Value::Object(obj.clone())).map_err(|e| format!("bad arguments for '{name}': {e}"))
}

/// `None` for `"ok"` (or no `expect`), `Some(code)` for `{"error": code}`.
fn parse_expect(expect: Option<&Value>) -> Result<Option<String>, String> {
    match expect {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s == "ok" => Ok(None),
        Some(Value::Object(o)) => match o.get("error").and_then(Value::as_str) {
            Some(code) => Ok(Some(code.to_string())),
            None => Err("'expect' must be \"ok\" or {\"error\": CODE}".into()),
        },
        Some(other) => Err(format!("'expect' must be \"ok\" or {{\"error\": CODE}}, not {other}")),
    }
}

// ----- checks -----------------------------------------------------------------

fn cards_of(v: &Value, what: &str) -> Result<Vec<Card>, String> {
    let list = v.as_array().ok_or(format!("{what}: expected a list of cards"))?;
    list.iter()
        .map(|c| {
            let s = c.as_str().ok_or(format!("{what}: {c} is not a card string"))?;
            Card::parse(s).map_err(|e| format!("{what}: {}", e.message))
        })
        .collect()
}

fn sorted(mut cards: Vec<Card>) -> Vec<Card> {
    cards.sort();
    cards
}

fn usize_of(v: &Value, what: &str) -> Result<usize, String> {
    v.as_u64()
        .map(|n| n as usize)
        .ok_or(format!("{what}: expected a non-negative integer, not {v}"))
}

fn opt_usize_of(v: &Value, what: &str) -> Result<Option<usize>, String> {
    if v.is_null() {
        Ok(None)
    } else {
        usize_of(v, what).map(Some)
    }
}

fn list_of<T>(v: &Value, what: &str, f: impl Fn(&Value) -> Option<T>) -> Result<Vec<T>, String> {
    let list = v.as_array().ok_or(format!("{what}: expected a list, not {v}"))?;
    list.iter()
        .map(|x| f(x).ok_or(format!("{what}: unexpected entry {x}")))
        .collect()
}

fn show_opt(v: Option<usize>) -> String {
    v.map_or("null".into(), |s| s.to_string())
}

/// Compare every known key of a `check` object with the state; unknown keys are
/// ignored. All differences are reported, separated by `; `.
pub fn run_check(state: &GameState, check: &Value) -> Result<(), String> {
    let obj = check.as_object().ok_or("'check' must be a JSON object")?;
    let mut diffs: Vec<String> = Vec::new();
    for (key, want) in obj {
        if let Err(d) = check_key(state, key, want) {
            diffs.push(d);
        }
    }
    if diffs.is_empty() {
        Ok(())
    } else {
        Err(diffs.join("; "))
    }
}

fn differ(key: &str, want: impl std::fmt::Display, got: impl std::fmt::Display) -> Result<(), String> {
    Err(format!("{key}: expected {want}, got {got}"))
}

fn check_key(state: &GameState, key: &str, want: &Value) -> Result<(), String> {
    let n = state.players();
    match key {
        "hand_sizes" => {
            let want = list_of(want, key, |v| v.as_u64().map(|x| x as usize))?;
            let got = state.hand_sizes();
            if want != got {
                return differ(key, format!("{want:?}"), format!("{got:?}"));
            }
        }
        "hands" => {
            let list = want.as_array().ok_or("hands: expected a list (null to skip a seat)")?;
            if list.len() != n {
                return differ(key, format!("{} hands", list.len()), format!("{n} players"));
            }
            for (s, h) in list.iter().enumerate() {
                if h.is_null() {
                    continue;
                }
                let want = sorted(cards_of(h, &format!("hands[{s}]"))?);
                let got = state.hand_cards(s);
                if want != sorted(got.clone()) {
                    return differ(&format!("hands[{s}]"), format_cards(&want), format_cards(&got));
                }
            }
        }
        "discard_top" => {
            let want = if want.is_null() {
                None
            } else {
                let s = want.as_str().ok_or("discard_top: expected a card or null")?;
                Some(Card::parse(s).map_err(|e| format!("discard_top: {}", e.message))?)
            };
            let got = state.discard_top();
            if want != got {
                let show = |c: Option<Card>| c.map_or("none (empty pile)".to_string(), |c| c.to_string());
                return differ(key, show(want), show(got));
            }
        }
        "stock_size" => {
            let want = usize_of(want, key)?;
            if want != state.stock().len() {
                return differ(key, want, state.stock().len());
            }
        }
        "table" => {
            let list = want.as_array().ok_or("table: expected a list of {owner, cards}")?;
            let table = state.table();
            if list.len() != table.len() {
                let got: Vec<String> = table.iter().map(|m| format!("[{}]", m.meld)).collect();
                return differ(
                    key,
                    format!("{} melds", list.len()),
                    format!("{} melds {}", table.len(), got.join(" ")),
                );
            }
            for (i, (w, m)) in list.iter().zip(table).enumerate() {
                let owner = w.get("owner").map(|o| usize_of(o, "table owner")).transpose()?;
                if owner.is_some_and(|o| o != m.owner) {
                    return differ(&format!("table[{i}].owner"), show_opt(owner), m.owner);
                }
                let cards = cards_of(w.get("cards").unwrap_or(&Value::Null), &format!("table[{i}].cards"))?;
                let got = m.meld.cards().to_vec();
                // L-4: a set's cards compare as a multiset, a run's in order, low to high.
                let same = if m.meld.is_set() {
                    sorted(cards.clone()) == sorted(got.clone())
                } else {
                    cards == got
                };
                if !same {
                    return differ(&format!("table[{i}]"), format_cards(&cards), format_cards(&got));
                }
            }
        }
        "active" => {
            let want = usize_of(want, key)?;
            if want != state.active() {
                return differ(key, want, state.active());
            }
        }
        "to_act" => {
            let want = opt_usize_of(want, key)?;
            if want != state.to_act() {
                return differ(key, show_opt(want), show_opt(state.to_act()));
            }
        }
        "phase" => {
            let want = want.as_str().ok_or("phase: expected a phase name")?;
            let got = state.phase().name();
            // The last round ends in game_over, which is also a round that is over.
            let ok = want == got || (want == "round_over" && state.phase() == Phase::GameOver);
            if !ok {
                return differ(key, want, got);
            }
        }
        "round_over" | "game_over" => {
            let want = want.as_bool().ok_or(format!("{key}: expected true or false"))?;
            let got = if key == "round_over" {
                state.is_round_over()
            } else {
                state.is_game_over()
            };
            if want != got {
                return differ(key, want, got);
            }
        }
        "round_scores" => {
            let want = if want.is_null() {
                None
            } else {
                Some(list_of(want, key, |v| v.as_i64().map(|x| x as i32))?)
            };
            let got = state.round_scores();
            if want != got {
                return differ(
                    key,
                    format!("{want:?}"),
                    format!("{got:?} (None: the round is not over)"),
                );
            }
        }
        "totals" => {
            let want = list_of(want, key, |v| v.as_i64().map(|x| x as i32))?;
            if want != state.totals() {
                return differ(key, format!("{want:?}"), format!("{:?}", state.totals()));
            }
        }
        "cut_bonus" => {
            let want = opt_usize_of(want, key)?;
            if want != state.cut_bonus() {
                return differ(key, show_opt(want), show_opt(state.cut_bonus()));
            }
        }
        "winners" => {
            let mut want = list_of(want, key, |v| v.as_u64().map(|x| x as usize))?;
            want.sort();
            if want != state.winners() {
                return differ(key, format!("{want:?}"), format!("{:?}", state.winners()));
            }
        }
        // Extensions beyond CONFORMANCE.md.
        "round" => {
            let want = usize_of(want, key)?;
            if want != state.round() as usize {
                return differ(key, want, state.round());
            }
        }
        "dealer" => {
            let want = usize_of(want, key)?;
            if want != state.dealer() {
                return differ(key, want, state.dealer());
            }
        }
        "down" => {
            let want = list_of(want, key, Value::as_bool)?;
            if want != state.down_flags() {
                return differ(key, format!("{want:?}"), format!("{:?}", state.down_flags()));
            }
        }
        "buys" => {
            let want = list_of(want, key, |v| v.as_u64().map(|x| x as u8))?;
            if want != state.buys() {
                return differ(key, format!("{want:?}"), format!("{:?}", state.buys()));
            }
        }
        "penalties" => {
            // W-9: points charged this round for failed go-down attempts.
            let want = list_of(want, key, |v| v.as_i64().map(|x| x as i32))?;
            if want != state.penalties() {
                return differ(key, format!("{want:?}"), format!("{:?}", state.penalties()));
            }
        }
        _ => {} // unknown keys are ignored
    }
    Ok(())
}
