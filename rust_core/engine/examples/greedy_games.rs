//! Throughput of full greedy games on one thread, and what the games look like.
//!
//! ```text
//! cargo run --release -p liverpool-engine --example greedy_games [GAMES] [SEED]
//! ```
//!
//! Prints games per second (one thread, then every core) and per-round averages:
//! turns, buys, no-winner rounds. A measurement, never an assertion: speed belongs
//! here and in `liverpool bench`, not in tests.

use liverpool_engine::bots::BotKind;
use liverpool_engine::rules::RuleSet;
use liverpool_engine::sim::simulate;
use std::sync::Arc;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2000);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2024);
    let rules = Arc::new(RuleSet::liverpool());
    let bots = [BotKind::Greedy; 4];

    // Warm-up (thread pools, caches).
    simulate(games.min(50), seed + 1, &bots, rules.clone(), 4, Some(1)).expect("simulation");

    let start = Instant::now();
    let r = simulate(games, seed, &bots, rules.clone(), 4, Some(1)).expect("simulation");
    let one = games as f64 / start.elapsed().as_secs_f64();
    let start = Instant::now();
    simulate(games, seed, &bots, rules.clone(), 4, None).expect("simulation");
    let all = games as f64 / start.elapsed().as_secs_f64();
    println!("{games} greedy games: {one:.0} games/s on one thread, {all:.0} games/s on every core");

    for k in 0..r.rounds {
        let rows: Vec<usize> = (0..r.games).map(|g| g * r.rounds + k).collect();
        let mean_turns = rows.iter().map(|&i| r.turns[i] as f64).sum::<f64>() / rows.len() as f64;
        let max_turns = rows.iter().map(|&i| r.turns[i]).max().unwrap_or(0);
        let no_winner = rows.iter().filter(|&&i| r.no_winner[i]).count();
        let buys: f64 = rows
            .iter()
            .map(|&i| {
                r.buys[i * r.players..(i + 1) * r.players]
                    .iter()
                    .map(|&b| b as f64)
                    .sum::<f64>()
            })
            .sum::<f64>()
            / rows.len() as f64;
        println!(
            "round {}: mean turns {mean_turns:.1} (max {max_turns}), buys/round {buys:.2}, no winner {no_winner}",
            k + 1
        );
    }
    let mean_total = r.totals.iter().map(|&t| t as f64).sum::<f64>() / r.totals.len() as f64;
    println!("mean total per seat {mean_total:.1}");
}
