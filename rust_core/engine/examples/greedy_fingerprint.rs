//! Every per-round number of a few fixed simulation batches (greedy bots under each
//! preset, plus one table with a random bot), as JSON on stdout, for checking that a
//! change to the engine or the greedy bot leaves every game exactly as it was:
//!
//! ```text
//! cargo run --release -p liverpool-engine --example greedy_fingerprint > before.json
//! # change something, then
//! cargo run --release -p liverpool-engine --example greedy_fingerprint > after.json
//! cmp before.json after.json
//! ```
//!
//! The layout matches `liverpool.simulate(...)` arrays turned into nested lists
//! (games, rounds, seats), so a Python run of the same batches compares equal.

use liverpool_engine::bots::BotKind;
use liverpool_engine::rules::RuleSet;
use liverpool_engine::sim::{simulate, SimResult};
use serde_json::{json, Map, Value};
use std::sync::Arc;

/// `flat` cut into rows of `width`, then rows grouped by `group` (1: no grouping).
fn nest<T: Copy + Into<Value>>(flat: &[T], group: usize, width: usize) -> Value {
    let rows: Vec<Value> = flat
        .chunks(width)
        .map(|r| Value::Array(r.iter().map(|&x| x.into()).collect()))
        .collect();
    if group == 1 {
        return Value::Array(rows);
    }
    Value::Array(rows.chunks(group).map(|g| Value::Array(g.to_vec())).collect())
}

fn record(r: &SimResult) -> Value {
    let (rounds, players) = (r.rounds, r.players);
    json!({
        "round_scores": nest(&r.round_scores, rounds, players),
        "went_out": nest(&r.went_out, 1, rounds),
        "turns": nest(&r.turns, 1, rounds),
        "buys": nest(&r.buys, rounds, players),
        "cut_bonus": nest(&r.cut_bonus, 1, rounds),
        "totals": nest(&r.totals, 1, players),
    })
}

fn main() {
    let greedy = [BotKind::Greedy; 4];
    let mixed = [BotKind::Greedy, BotKind::Random, BotKind::Greedy, BotKind::Greedy];
    let batches: [(&str, u64, u64, &[BotKind]); 8] = [
        ("liverpool", 300, 5, &greedy),
        ("shanghai", 200, 5, &greedy),
        ("liverpool-classic", 200, 5, &greedy),
        ("california", 100, 7, &greedy),
        ("contract", 100, 7, &greedy),
        ("double-progressive", 100, 7, &greedy),
        ("no-buy", 100, 7, &greedy),
        ("liverpool", 100, 9, &mixed),
    ];
    let mut out = Map::new();
    for (name, games, seed, bots) in batches {
        let rules = Arc::new(RuleSet::preset(name).expect("a preset"));
        let r = simulate(games, seed, bots, rules, bots.len(), None).expect("simulation");
        let names: Vec<&str> = bots.iter().map(|b| b.name()).collect();
        out.insert(format!("{name}/{seed}/{}", names.join(",")), record(&r));
    }
    println!("{}", Value::Object(out));
}
