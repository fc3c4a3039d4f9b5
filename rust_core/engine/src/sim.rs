//! Batch simulation: many full games between native bots, in parallel.
//!
//! Game `i` of a batch seeded with `seed` draws its game seed and one seed per bot
//! from `Rng::for_stream(seed, i)`, so its result depends only on `(seed, i)`, the
//! bots and the rules: never on the thread count or on how the batch is split into
//! chunks ([`simulate_range`]).
//!
//! ```
//! use liverpool_engine::bots::BotKind;
//! use liverpool_engine::rules::RuleSet;
//! use liverpool_engine::sim::simulate;
//! use std::sync::Arc;
//!
//! let bots = [BotKind::Greedy; 4];
//! let result = simulate(4, 42, &bots, Arc::new(RuleSet::liverpool()), 4, Some(1)).unwrap();
//! assert_eq!(result.totals.len(), 4 * 4);
//! ```

use crate::bots::{Bot, BotKind, NativeBot};
use crate::error::{Error, ErrorCode, Result};
use crate::game::{GameState, RoundEnd, RoundEndReason};
use crate::msg;
use crate::rng::Rng;
use crate::rules::RuleSet;
use crate::search::with_threads;
use rayon::prelude::*;
use std::sync::Arc;

/// The most games one call may simulate (results take about 100 bytes per game).
pub const MAX_GAMES: u64 = 1 << 32;

/// What happened in one round of a simulated game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundRecord {
    /// L-10.1 / L-10.2: each seat's score, the cut bonus included.
    pub scores: Vec<i32>,
    /// The seat that went out (L-5.6, L-8.1); `None` for a round with no winner.
    pub went_out: Option<usize>,
    pub reason: RoundEndReason,
    /// Turns played, the round's last turn included (also when it ended without a
    /// discard: a round-7 go-down, L-8.1, or an empty stock, L-9.2).
    pub turns: u32,
    /// Buys (L-6) made by each seat this round.
    pub buys: Vec<u8>,
    /// L-2.3: the seat that earned the cut bonus.
    pub cut_bonus: Option<usize>,
}

/// One simulated game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub rounds: Vec<RoundRecord>,
    pub totals: Vec<i32>,
    /// L-10.3: the seats with the lowest total (several for a draw).
    pub winners: Vec<usize>,
}

/// The results of a batch as flat, row-major arrays (game, round, seat), ready for
/// numpy. A game always has `rounds` rounds (the rule set's).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SimResult {
    pub games: usize,
    pub rounds: usize,
    pub players: usize,
    /// `[games][rounds][players]`: round scores, cut bonus included.
    pub round_scores: Vec<i32>,
    /// `[games][rounds]`: the seat that went out, -1 for no winner.
    pub went_out: Vec<i8>,
    /// `[games][rounds]`: turns played.
    pub turns: Vec<i32>,
    /// `[games][rounds][players]`: buys per seat.
    pub buys: Vec<i16>,
    /// `[games][rounds]`: the seat that earned the cut bonus, -1 for none.
    pub cut_bonus: Vec<i8>,
    /// `[games][rounds]`: the round ended with no winner (L-9.2, L-9.3).
    pub no_winner: Vec<bool>,
    /// `[games][players]`: final totals.
    pub totals: Vec<i32>,
    /// `[games][players]`: the seat is among the game's winners (L-10.3).
    pub winners: Vec<bool>,
}

impl SimResult {
    fn empty(rounds: usize, players: usize) -> SimResult {
        SimResult {
            rounds,
            players,
            ..SimResult::default()
        }
    }

    fn push(&mut self, game: &GameRecord) {
        let seat = |s: Option<usize>| s.map_or(-1, |s| s as i8);
        for r in &game.rounds {
            self.round_scores.extend_from_slice(&r.scores);
            self.went_out.push(seat(r.went_out));
            self.turns.push(r.turns.min(i32::MAX as u32) as i32);
            self.buys.extend(r.buys.iter().map(|&b| b as i16));
            self.cut_bonus.push(seat(r.cut_bonus));
            self.no_winner.push(r.went_out.is_none());
        }
        self.totals.extend_from_slice(&game.totals);
        self.winners
            .extend((0..self.players).map(|s| game.winners.contains(&s)));
        self.games += 1;
    }

    /// Append the games of `other` (a later chunk of the same batch).
    pub fn append(&mut self, other: SimResult) {
        debug_assert_eq!((self.rounds, self.players), (other.rounds, other.players));
        self.games += other.games;
        self.round_scores.extend(other.round_scores);
        self.went_out.extend(other.went_out);
        self.turns.extend(other.turns);
        self.buys.extend(other.buys);
        self.cut_bonus.extend(other.cut_bonus);
        self.no_winner.extend(other.no_winner);
        self.totals.extend(other.totals);
        self.winners.extend(other.winners);
    }
}

/// The seeds of game `index` of a batch: the game's own seed and one per seat's bot.
pub fn game_seeds(seed: u64, index: u64, players: usize) -> (u64, Vec<u64>) {
    let mut rng = Rng::for_stream(seed, index);
    let game_seed = rng.next_u64();
    (game_seed, (0..players).map(|_| rng.next_u64()).collect())
}

/// L-10.1 / L-10.2 recomputed from the hands left at the end of a round: the points
/// of each hand, plus the cut bonus for the seat that earned it. The engine's round
/// scores must equal this (checked in debug builds and by the tests).
pub fn recompute_round_scores(state: &GameState) -> Vec<i32> {
    let rules = state.rules();
    (0..state.players())
        .map(|s| {
            let hand = rules.points_of(&state.hand_cards(s)) as i32;
            hand + if state.cut_bonus() == Some(s) {
                rules.cut_bonus
            } else {
                0
            }
        })
        .collect()
}

fn round_record(state: &GameState, end: &RoundEnd) -> RoundRecord {
    // The engine counts a turn when it ends with a discard; a round can also end
    // inside a turn.
    let unfinished = matches!(end.reason, RoundEndReason::WholeHand | RoundEndReason::StockExhausted);
    RoundRecord {
        scores: end.scores.clone(),
        went_out: end.winner,
        reason: end.reason,
        turns: state.turn() + u32::from(unfinished),
        buys: state.buys(),
        cut_bonus: state.cut_bonus(),
    }
}

/// Does any of these bots look at the game's history? The expert does (its
/// information set and its seeds are built from it); the greedy and random bots read
/// only the current state, so a game among them needs no history (a record of
/// every action, about 1,300 per game). Any other kind is assumed to read it.
fn bots_read_history(bots: &[BotKind]) -> bool {
    !bots.iter().all(|b| matches!(b, BotKind::Greedy | BotKind::Random))
}

/// Play game `index` of the batch seeded with `seed` to the end.
pub fn play_game(index: u64, seed: u64, bots: &[BotKind], rules: &Arc<RuleSet>) -> Result<GameRecord> {
    play_game_recording(index, seed, bots, rules, bots_read_history(bots))
}

/// [`play_game`], keeping the state's history or not (the game is the same).
fn play_game_recording(
    index: u64,
    seed: u64,
    bots: &[BotKind],
    rules: &Arc<RuleSet>,
    record_history: bool,
) -> Result<GameRecord> {
    let players = bots.len();
    let (game_seed, bot_seeds) = game_seeds(seed, index, players);
    let mut state = GameState::new(Arc::clone(rules), players, game_seed)?;
    let mut seats: Vec<NativeBot> = bots.iter().zip(bot_seeds).map(|(kind, s)| kind.build(s)).collect();
    let mut rounds = Vec::with_capacity(rules.rounds() as usize);
    while let Some(seat) = state.to_act() {
        let action = seats[seat].choose(&state, seat);
        // Only the round end is read: the event's `then` is not built.
        let round_end = state.apply_for_round_end(seat, &action, record_history).map_err(|e| {
            let reason = e.to_message();
            e.reworded(msg!(
                "sim.bot_refused",
                game = index,
                bot = bots[seat].name(),
                seat = seat,
                action = format!("{action:?}"),
                reason = reason
            ))
        })?;
        if let Some(end) = round_end {
            debug_assert_eq!(
                recompute_round_scores(&state),
                end.scores,
                "L-10: round scores from the final hands"
            );
            rounds.push(round_record(&state, &end));
        }
    }
    Ok(GameRecord {
        rounds,
        totals: state.totals(),
        winners: state.winners(),
    })
}

fn too_many_games(games: u64) -> Error {
    Error::with(
        ErrorCode::BatchTooLarge,
        None,
        msg!("sim.too_many_games", games = games, max = MAX_GAMES),
    )
}

/// The per-call limit on a batch (`batch_too_large` above [`MAX_GAMES`]). A caller
/// that runs one batch as several [`simulate_range`] chunks checks the whole batch
/// with it first, so chunking cannot bypass the limit.
pub fn check_batch(games: u64) -> Result<()> {
    if games > MAX_GAMES {
        return Err(too_many_games(games));
    }
    Ok(())
}

/// Simulate games `first..first + games` of the batch seeded with `seed` (one bot
/// kind per seat, so `bots.len()` is the number of players) on `threads` threads
/// (`None`: every core). The result does not depend on `threads`.
pub fn simulate_range(
    first: u64,
    games: u64,
    seed: u64,
    bots: &[BotKind],
    rules: Arc<RuleSet>,
    threads: Option<usize>,
) -> Result<SimResult> {
    rules.validate()?;
    if bots.is_empty() {
        return Err(Error::with(ErrorCode::InvalidArgument, None, msg!("sim.no_bots")));
    }
    check_batch(games)?;
    if first.checked_add(games).is_none() {
        return Err(too_many_games(games));
    }
    // Refuse a bad player count once, up front, with the engine's explanation.
    GameState::new(Arc::clone(&rules), bots.len(), seed)?;
    let records = with_threads(threads, || {
        (first..first + games)
            .into_par_iter()
            .map(|i| play_game(i, seed, bots, &rules))
            .collect::<Result<Vec<_>>>()
    })??;
    let mut result = SimResult::empty(rules.rounds() as usize, bots.len());
    for record in &records {
        result.push(record);
    }
    Ok(result)
}

/// Simulate `games` full games (see [`simulate_range`]). `players` must equal
/// `bots.len()`.
pub fn simulate(
    games: u64,
    seed: u64,
    bots: &[BotKind],
    rules: Arc<RuleSet>,
    players: usize,
    threads: Option<usize>,
) -> Result<SimResult> {
    if players != bots.len() {
        return Err(Error::with(
            ErrorCode::InvalidArgument,
            None,
            msg!("sim.bots_per_seat", players = players, bots = bots.len()),
        ));
    }
    simulate_range(0, games, seed, bots, rules, threads)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn liverpool() -> Arc<RuleSet> {
        Arc::new(RuleSet::liverpool())
    }

    #[test]
    fn results_do_not_depend_on_threads_or_chunks() {
        let bots = [BotKind::Greedy, BotKind::Random, BotKind::Greedy, BotKind::Greedy];
        let one = simulate(12, 5, &bots, liverpool(), 4, Some(1)).unwrap();
        let two = simulate(12, 5, &bots, liverpool(), 4, Some(2)).unwrap();
        assert_eq!(one, two);
        let mut chunked = simulate_range(0, 5, 5, &bots, liverpool(), Some(2)).unwrap();
        chunked.append(simulate_range(5, 7, 5, &bots, liverpool(), Some(1)).unwrap());
        assert_eq!(one, chunked);
        let other_seed = simulate(12, 6, &bots, liverpool(), 4, Some(1)).unwrap();
        assert_ne!(one.round_scores, other_seed.round_scores);
    }

    #[test]
    fn games_without_history_are_the_same_games() {
        // The greedy and random bots never read the history, so the simulator keeps
        // none for them; the games must not change.
        let bots = [BotKind::Greedy, BotKind::Random, BotKind::Greedy, BotKind::Greedy];
        assert!(!bots_read_history(&bots));
        for index in 0..3 {
            let kept = play_game_recording(index, 9, &bots, &liverpool(), true).unwrap();
            let dropped = play_game_recording(index, 9, &bots, &liverpool(), false).unwrap();
            assert_eq!(kept, dropped, "game {index}");
        }
        // The expert builds its information set from the history.
        assert!(bots_read_history(&[BotKind::Greedy, BotKind::Expert]));
    }

    #[test]
    fn shapes_and_consistency() {
        let bots = [BotKind::Greedy; 4];
        let r = simulate(6, 11, &bots, liverpool(), 4, None).unwrap();
        assert_eq!((r.games, r.rounds, r.players), (6, 7, 4));
        assert_eq!(r.round_scores.len(), 6 * 7 * 4);
        assert_eq!(r.buys.len(), 6 * 7 * 4);
        assert_eq!(r.went_out.len(), 6 * 7);
        for g in 0..6 {
            for s in 0..4 {
                // L-10.3: totals are the sums of the round scores.
                let sum: i32 = (0..7).map(|k| r.round_scores[(g * 7 + k) * 4 + s]).sum();
                assert_eq!(sum, r.totals[g * 4 + s]);
            }
            let row = &r.totals[g * 4..g * 4 + 4];
            let best = *row.iter().min().unwrap();
            for (s, &total) in row.iter().enumerate() {
                assert_eq!(r.winners[g * 4 + s], total == best, "L-10.3: lowest total wins");
            }
            for k in 0..7 {
                let i = g * 7 + k;
                assert_eq!(r.no_winner[i], r.went_out[i] == -1);
                if r.went_out[i] >= 0 {
                    // L-10.1: the player who goes out scores 0 (or the cut bonus).
                    let winner_score = r.round_scores[i * 4 + r.went_out[i] as usize];
                    let bonus = if r.cut_bonus[i] == r.went_out[i] { -50 } else { 0 };
                    assert_eq!(winner_score, bonus);
                }
                assert!(r.turns[i] >= 1);
            }
        }
    }

    #[test]
    fn every_preset_simulates_to_the_end_at_every_table_size() {
        // The fair buying window (L-5.1), W-7 calls and W-8 floating included: the
        // bots never make an illegal move and every game ends.
        for name in RuleSet::preset_names() {
            let rules = Arc::new(RuleSet::preset(name).unwrap());
            for players in [rules.min_players, rules.default_players, rules.max_players] {
                let n = players as usize;
                let mut bots = vec![BotKind::Greedy; n];
                bots[n - 1] = BotKind::Random;
                let r = simulate(2, 13, &bots, rules.clone(), n, Some(1)).unwrap();
                let rounds = rules.rounds() as usize;
                assert_eq!((r.games, r.rounds, r.players), (2, rounds, n), "{name}");
                for g in 0..2 {
                    for s in 0..n {
                        let sum: i32 = (0..rounds).map(|k| r.round_scores[(g * rounds + k) * n + s]).sum();
                        assert_eq!(sum, r.totals[g * n + s], "{name}: L-10.3 totals");
                    }
                }
            }
        }
    }

    #[test]
    fn bad_arguments_are_refused() {
        let e = simulate(1, 0, &[BotKind::Greedy; 3], liverpool(), 4, None).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidArgument);
        let e = simulate(1, 0, &[BotKind::Greedy; 9], liverpool(), 9, None).unwrap_err();
        assert_eq!(
            e.code,
            ErrorCode::InvalidArgument,
            "L-1.1: more seats than the rules allow"
        );
        let e = simulate(1, 0, &[BotKind::Greedy; 4], liverpool(), 4, Some(0)).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidArgument);
        assert!(
            simulate(0, 0, &[BotKind::Greedy; 4], liverpool(), 4, None)
                .unwrap()
                .games
                == 0
        );
    }
}
