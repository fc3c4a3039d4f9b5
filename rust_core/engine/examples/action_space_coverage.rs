//! Measures what the caps of the action space (docs/action-space.md) must cover: over
//! games of every preset played by greedy and by random bots, the most go-downs and
//! joker swaps `legal_actions` lists at once, how often a cap is exceeded (and how
//! often a hand had more go-downs than the engine lists, `GO_DOWN_LIMIT`), and the
//! most table melds in one round, next to the space's slots.
//!
//! `cargo run --release -p liverpool-engine --example action_space_coverage [games]`

use liverpool_engine::bots::{Bot, BotKind};
use liverpool_engine::game::{Action, GameState, GO_DOWN_CAP, GO_DOWN_LIMIT, SWAP_JOKER_CAP};
use liverpool_engine::rules::RuleSet;
use liverpool_engine::search::all_go_downs_limited;
use liverpool_engine::sim::game_seeds;
use std::sync::Arc;

fn main() {
    let games: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(200);
    println!("games per (preset, bot, players): {games}; caps: go_down {GO_DOWN_CAP}, swap_joker {SWAP_JOKER_CAP}");
    println!("preset | bot | players | decisions | play decisions | max go-downs | over go-down cap | beyond GO_DOWN_LIMIT | max swaps | over swap cap | max table melds | slots | unencodable");
    for name in RuleSet::preset_names() {
        let rules = Arc::new(RuleSet::preset(name).unwrap());
        for kind in [BotKind::Greedy, BotKind::Random] {
            for players in [rules.min_players as usize, 4, rules.max_players as usize] {
                let mut decisions = 0u64;
                let mut play = 0u64;
                let (mut max_gd, mut over_gd, mut max_sw, mut over_sw, mut max_table, mut unencodable) =
                    (0, 0u64, 0, 0u64, 0, 0u64);
                let mut truncated = 0u64;
                let slots = GameState::new(Arc::clone(&rules), players, 0)
                    .unwrap()
                    .action_space()
                    .slots;
                for index in 0..games {
                    let (seed, bot_seeds) = game_seeds(7, index, players);
                    let mut g = GameState::new(Arc::clone(&rules), players, seed).unwrap();
                    let mut bots: Vec<_> = bot_seeds.iter().map(|&s| kind.build(s)).collect();
                    while let Some(seat) = g.to_act() {
                        decisions += 1;
                        max_table = max_table.max(g.table().len());
                        if g.phase().name() == "play" {
                            play += 1;
                            let legal = g.legal_actions(None);
                            let gd = legal.iter().filter(|a| matches!(a, Action::GoDown { .. })).count();
                            let sw = legal.iter().filter(|a| matches!(a, Action::SwapJoker { .. })).count();
                            max_gd = max_gd.max(gd);
                            max_sw = max_sw.max(sw);
                            over_gd += u64::from(gd > GO_DOWN_CAP);
                            if gd >= GO_DOWN_LIMIT / 2 {
                                let hand = g.hand(seat);
                                truncated += u64::from(
                                    all_go_downs_limited(hand, &g.contract(), g.rules(), GO_DOWN_LIMIT).truncated,
                                );
                            }
                            over_sw += u64::from(sw > SWAP_JOKER_CAP);
                            if (gd > 0 || sw > 0 || index % 8 == 0) && legal.iter().any(|a| g.action_id(a).is_err()) {
                                unencodable += 1;
                            }
                        }
                        let action = bots[seat].choose(&g, seat);
                        g.apply(seat, &action).unwrap();
                    }
                }
                println!(
                    "{name} | {} | {players} | {decisions} | {play} | {max_gd} | {over_gd} | {truncated} | {max_sw} | {over_sw} | {max_table} | {slots} | {unencodable}",
                    kind.name()
                );
            }
        }
    }
}
