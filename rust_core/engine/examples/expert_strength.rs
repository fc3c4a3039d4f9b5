//! The expert in one seat against three greedy (or random) bots, seats rotated:
//! win rate with a 95% interval, mean totals and decision times.
//!
//! `cargo run --release -p liverpool-engine --example expert_strength -- GAMES [DETERMINIZATIONS] [DISCARDS] [OPPONENT]`

use liverpool_engine::bots::{Bot, BotKind, ExpertBot, ExpertBudget, NativeBot};
use liverpool_engine::game::GameState;
use liverpool_engine::sim::game_seeds;
use std::time::Instant;

/// One thread's games: wins, win shares, totals (expert, others), decision times.
type ThreadResult = (u32, f64, Vec<i32>, usize, Vec<f64>);

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(200);
    let mut budget = ExpertBudget::default();
    if let Some(d) = args.get(2).and_then(|a| a.parse().ok()) {
        budget.determinizations = d;
    }
    if let Some(k) = args.get(3).and_then(|a| a.parse().ok()) {
        budget.discard_candidates = k;
    }
    let opponent = BotKind::parse(args.get(4).map_or("greedy", |s| s.as_str())).expect("a bot name");
    let threads = 2;
    let results: Vec<ThreadResult> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mut wins = 0u32;
                    let mut share = 0.0;
                    let mut totals = vec![0i32; 2];
                    let mut expert_decisions = 0usize;
                    let mut times = Vec::new();
                    for i in (t as u64..games).step_by(threads) {
                        let expert_seat = (i % 4) as usize;
                        let (game_seed, seeds) = game_seeds(42, i, 4);
                        let mut state = GameState::new_liverpool(game_seed);
                        let mut bots: Vec<NativeBot> = (0..4)
                            .map(|s| {
                                if s == expert_seat {
                                    NativeBot::Expert(ExpertBot::with_budget(seeds[s], budget))
                                } else {
                                    opponent.build(seeds[s])
                                }
                            })
                            .collect();
                        while let Some(seat) = state.to_act() {
                            let start = Instant::now();
                            let action = bots[seat].choose(&state, seat);
                            if seat == expert_seat {
                                times.push(start.elapsed().as_secs_f64() * 1e3);
                                expert_decisions += 1;
                            }
                            state.apply(seat, &action).expect("legal");
                        }
                        let w = state.winners();
                        if w.contains(&expert_seat) {
                            wins += 1;
                            share += 1.0 / w.len() as f64;
                        }
                        let t = state.totals();
                        totals[0] += t[expert_seat];
                        totals[1] += (0..4).filter(|&s| s != expert_seat).map(|s| t[s]).sum::<i32>();
                    }
                    (wins, share, totals, expert_decisions, times)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let wins: u32 = results.iter().map(|r| r.0).sum();
    let share: f64 = results.iter().map(|r| r.1).sum();
    let expert_total: i64 = results.iter().map(|r| r.2[0] as i64).sum();
    let others_total: i64 = results.iter().map(|r| r.2[1] as i64).sum();
    let mut times: Vec<f64> = results.iter().flat_map(|r| r.4.iter().copied()).collect();
    times.sort_by(|a, b| a.total_cmp(b));
    let p = wins as f64 / games as f64;
    let half = 1.96 * (p * (1.0 - p) / games as f64).sqrt();
    let q = |f: f64| times[((times.len() - 1) as f64 * f) as usize];
    let sum: f64 = times.iter().sum();
    println!(
        "games {games} budget {budget:?} vs {}: win {:.3} ± {:.3} (share {:.3}); mean total expert {:.1} others {:.1}; decisions {} p50 {:.3} ms p90 {:.3} p99 {:.3} ms; expert cpu/game {:.3} s",
        opponent.name(),
        p,
        half,
        share / games as f64,
        expert_total as f64 / games as f64,
        others_total as f64 / (3 * games) as f64,
        times.len(),
        q(0.5),
        q(0.9),
        q(0.99),
        sum / 1e3 / games as f64
    );
}
