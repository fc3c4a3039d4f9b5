//! `ExpertBot`: determinized Monte Carlo search over the cards its seat cannot see.
//!
//! For a decision with more than one sensible move it
//!
//! 1. builds the seat's [`InfoSet`] (its hand, the discards, the table, sizes, buys,
//!    scores and the public history: nothing hidden, so it cannot peek);
//! 2. deals `determinizations` samples of the unseen cards consistent with it
//!    (`InfoSet::sample`);
//! 3. plays each candidate move on every sample (the same samples and the same
//!    rollout seeds for every candidate: common random numbers) and then the rest of
//!    the round with four greedy bots;
//! 4. keeps the candidate with the best mean margin: the seat's round score minus the
//!    mean of the others' (L-10: the lowest total wins, so what counts is how many
//!    points the seat gains on its opponents, not its own score alone).
//!
//! Candidates are pruned with greedy knowledge: take or draw, buy or pass, call or
//! pass (W-7), go down with the best go-down or wait, and the few discards that
//! keep the hand closest to its contract. Lay-offs and joker swaps once down are the
//! greedy bot's (each card laid off is a card that cannot count against the seat).
//! The cut aims at the exact cut when the rules reward it (L-2.3). Decisions with a
//! single move cost nothing. `docs/bots.md` has the measured strength.

use super::bot::Bot;
use super::estimate::{connections, could_help, estimate};
use super::greedy::GreedyBot;
use crate::card::{Card, JOKER_ID};
use crate::deal::draw_cut;
use crate::error::Message;
use crate::game::{Action, GameState, InfoSet, Phase};
use crate::msg;
use crate::rng::Rng;
use std::cmp::Reverse;

/// How much the expert searches per decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExpertBudget {
    /// Samples of the hidden cards, each played out once per candidate move.
    pub determinizations: u32,
    /// The most discards compared (the best by the greedy ranking).
    pub discard_candidates: usize,
}

impl Default for ExpertBudget {
    /// The default: a few milliseconds per decision (docs/bots.md has the figures).
    fn default() -> Self {
        ExpertBudget {
            determinizations: 16,
            discard_candidates: 4,
        }
    }
}

/// The expert's choice and why, for hints.
#[derive(Clone, Debug)]
pub struct Advice {
    pub action: Action,
    /// A short sentence (message id `hint.*` with its arguments).
    pub reason: Message,
}

/// The determinized Monte Carlo player (module documentation). Deterministic: the
/// decision is a function of the seat's info set, the budget and the seed.
#[derive(Clone, Debug)]
pub struct ExpertBot {
    seed: u64,
    budget: ExpertBudget,
}

/// How a discard ranks, smaller first: cards missing for the contract after it, most
/// points, fewest connections, card id.
type DiscardRank = (u32, Reverse<u16>, u32, u8);

/// A candidate move and its margin on each sample (lower is better).
struct Scored {
    action: Action,
    margins: Vec<f64>,
}

/// No search while some hand holds more cards than this (public: hand sizes). Greedy
/// players rarely pass 20; a random player that buys half the discards reaches 40,
/// where one play-out costs hundreds of milliseconds.
const MAX_SEARCHED_HAND: usize = 22;

/// How many standard errors a move must gain over greedy's on the same samples.
const CONFIDENCE: f64 = 1.0;

/// Is `a` better (lower) than `b` by more than [`CONFIDENCE`] standard errors of
/// their paired differences?
fn clearly_better(a: &[f64], b: &[f64]) -> bool {
    let n = a.len().min(b.len());
    if n < 2 {
        return a.iter().sum::<f64>() < b.iter().sum::<f64>();
    }
    let diffs: Vec<f64> = b.iter().zip(a).map(|(x, y)| x - y).collect();
    if diffs.iter().any(|d| !d.is_finite()) {
        return diffs.iter().sum::<f64>() > 0.0;
    }
    let mean = diffs.iter().sum::<f64>() / n as f64;
    let var = diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    mean > CONFIDENCE * (var / n as f64).sqrt()
}

impl ExpertBot {
    pub fn new(seed: u64) -> ExpertBot {
        ExpertBot::with_budget(seed, ExpertBudget::default())
    }

    pub fn with_budget(seed: u64, budget: ExpertBudget) -> ExpertBot {
        let budget = ExpertBudget {
            determinizations: budget.determinizations.max(1),
            discard_candidates: budget.discard_candidates.max(1),
        };
        ExpertBot { seed, budget }
    }

    pub fn budget(&self) -> ExpertBudget {
        self.budget
    }

    /// The move the expert suggests for `seat` and a reason, read from `seat`'s
    /// info set only.
    pub fn advise(&self, state: &GameState, seat: usize) -> Advice {
        self.advise_from(&state.info_set(seat))
    }

    /// The decision itself: nothing but the info set and the bot's seed and budget.
    pub fn advise_from(&self, info: &InfoSet) -> Advice {
        let seat = info.seat();
        // Each decision has its own stream: the same info set and seed give the same samples.
        let mut rng = Rng::for_stream(self.seed, (info.history_len() as u64) << 5 | seat as u64);
        // Whose turn it is can depend on the stock's size (L-6.6: a buyer needs a
        // penalty card), so it is read from a sample, which has a stock of that size.
        let public = info.sample(&mut rng);
        if public.to_act() != Some(seat) {
            return Advice {
                action: Action::NextRound,
                reason: msg!("hint.not_your_turn", seat = seat),
            };
        }
        match public.phase() {
            Phase::Cut => self.cut(info, &mut rng),
            Phase::RoundOver | Phase::GameOver => only(Action::NextRound),
            Phase::Draw { declined: true } => only(Action::DrawStock),
            _ => self.search(info, &mut rng),
        }
    }

    /// L-2.3: the exact cut (players × hand size + 1) when the rules give it a bonus;
    /// otherwise any size (the cut never changes the deal, L-2.2 Decision).
    fn cut(&self, info: &InfoSet, rng: &mut Rng) -> Advice {
        let public = info.public();
        let rules = public.rules();
        let stock = info.stock_len();
        if rules.cut_bonus < 0 {
            if let Ok(deal) = rules.deal_size(public.round()) {
                let exact = public.players() * deal as usize + 1;
                let action = Action::Cut {
                    size: Some(exact as i64),
                };
                if exact < stock && info.sample(rng).can(info.seat(), &action) {
                    return Advice {
                        action,
                        reason: msg!("hint.cut_exact", size = exact, bonus = -rules.cut_bonus),
                    };
                }
            }
        }
        let size = draw_cut(rng, stock, rules.cut_range);
        Advice {
            action: Action::Cut {
                size: Some(size as i64),
            },
            reason: msg!("hint.cut_any", size = size),
        }
    }

    fn search(&self, info: &InfoSet, rng: &mut Rng) -> Advice {
        let seat = info.seat();
        let samples: Vec<GameState> = (0..self.budget.determinizations).map(|_| info.sample(rng)).collect();
        let first = &samples[0];
        let greedy = GreedyBot::new(rng.next_u64()).choose(first, seat);
        if info.hand_sizes().iter().any(|&n| n > MAX_SEARCHED_HAND) {
            // Play-outs with such hands cost seconds (greedy's contract search grows
            // with the hand): greedy's move, unsearched.
            let reason = forced_reason(first, &greedy);
            return Advice { action: greedy, reason };
        }
        let candidates = self.candidates(first, seat, &greedy);
        match candidates.len() {
            0 => return only(greedy),
            1 => {
                let action = candidates.into_iter().next().expect("one candidate");
                let reason = forced_reason(first, &action);
                return Advice { action, reason };
            }
            _ => {}
        }
        let mut scored: Vec<Scored> = candidates
            .into_iter()
            .map(|action| Scored {
                action,
                margins: Vec::with_capacity(samples.len()),
            })
            .collect();
        // One greedy bot per seat for every play-out of this decision: building one
        // costs more than a few of its moves, and in a round it never uses its RNG
        // (only the cut does).
        let mut bots: Vec<GreedyBot> = (0..first.players())
            .map(|s| GreedyBot::with_rng(Rng::for_stream(rng.next_u64(), s as u64)))
            .collect();
        for sample in &samples {
            for c in scored.iter_mut() {
                c.margins.push(margin_after(sample, seat, &c.action, &mut bots));
            }
        }
        let mean = |c: &Scored| c.margins.iter().sum::<f64>() / c.margins.len() as f64;
        // Lowest mean margin first; ties keep the candidates' order (greedy's first).
        let mut order: Vec<usize> = (0..scored.len()).collect();
        order.sort_by(|&a, &b| mean(&scored[a]).total_cmp(&mean(&scored[b])).then(a.cmp(&b)));
        // Greedy's move (candidate 0) stands unless another beats it clearly on the
        // same samples: its play-outs assume greedy play afterwards, so a move that
        // only looks better by chance (waiting to go down, say) would be repeated
        // turn after turn.
        if order[0] != 0 && !clearly_better(&scored[order[0]].margins, &scored[0].margins) {
            let at = order.iter().position(|&i| i == 0).expect("greedy is a candidate");
            order.remove(at);
            order.insert(0, 0);
        }
        let best = &scored[order[0]];
        let runner_up = &scored[order[1]];
        let gain = format!("{:.1}", (mean(runner_up) - mean(best)).max(0.0));
        let reason = explain(first, seat, &best.action, &runner_up.action, samples.len(), &gain);
        Advice {
            action: best.action.clone(),
            reason,
        }
    }

    /// The moves worth comparing in `state` (a sample: every candidate's legality
    /// depends only on what the seat sees), greedy's choice first.
    fn candidates(&self, state: &GameState, seat: usize, greedy: &Action) -> Vec<Action> {
        let mut out: Vec<Action> = Vec::new();
        let push = |a: Action, out: &mut Vec<Action>| {
            if !out.contains(&a) && state.can(seat, &a) {
                out.push(a);
            }
        };
        push(greedy.clone(), &mut out);
        let down = state.is_down(seat);
        // A discard that cannot bring the hand closer to its contract is not worth
        // taking or buying before going down; once down, greedy's rule stands (take
        // it only to lay it off, never buy).
        let offered_helps = state
            .discard_top()
            .is_some_and(|c| !down && could_help(state.hand(seat), c, &state.contract(), state.rules()));
        match state.phase() {
            Phase::Draw { declined: false } if offered_helps => {
                push(Action::TakeDiscard, &mut out);
                push(Action::DrawStock, &mut out);
            }
            Phase::Buying(_) if offered_helps => {
                push(Action::Buy, &mut out);
                push(Action::Pass, &mut out);
            }
            Phase::Calling(_) => {
                for a in state.legal_actions(Some(seat)) {
                    push(a, &mut out);
                }
            }
            Phase::CallDiscard { .. } => {
                for card in self.discard_choices(state, seat) {
                    push(Action::Discard { card }, &mut out);
                }
            }
            Phase::Play => {
                if down {
                    // Once down, shedding and the discard are greedy's: lay off what
                    // fits, throw the highest card that fits nowhere.
                    return out;
                }
                for card in self.discard_choices(state, seat) {
                    push(Action::Discard { card }, &mut out);
                }
            }
            _ => {}
        }
        out
    }

    /// The discards worth comparing: natural cards (W-8: not the card just taken),
    /// those whose loss leaves the fewest cards missing for the contract first, then
    /// the most points, then the fewest connections; a joker only when nothing else
    /// may go.
    fn discard_choices(&self, state: &GameState, seat: usize) -> Vec<Card> {
        let hand = *state.hand(seat);
        let contract = state.contract();
        let rules = state.rules();
        let barred = state
            .taken_discard()
            .filter(|&c| rules.no_discard_of_taken_card && hand.get(c) == 1);
        let down = state.is_down(seat);
        let mut ranked: Vec<(DiscardRank, Card)> = (0..JOKER_ID)
            .filter(|&id| hand.0[id as usize] > 0)
            .map(|id| Card::from_id(id).expect("id < 52"))
            .filter(|&c| Some(c) != barred)
            .map(|c| {
                let missing = if down {
                    0
                } else {
                    let mut less = hand;
                    less.0[c.id() as usize] -= 1;
                    estimate(&less, &contract, rules).missing
                };
                (
                    (missing, Reverse(rules.card_points(c)), connections(&hand, c), c.id()),
                    c,
                )
            })
            .collect();
        ranked.sort_unstable();
        let mut out: Vec<Card> = ranked
            .into_iter()
            .take(self.budget.discard_candidates)
            .map(|(_, c)| c)
            .collect();
        if out.is_empty() && hand.jokers() > 0 {
            out.push(Card::JOKER);
        }
        out
    }
}

impl Bot for ExpertBot {
    fn choose(&mut self, state: &GameState, seat: usize) -> Action {
        self.advise(state, seat).action
    }
}

/// A decision with one move.
fn only(action: Action) -> Advice {
    Advice {
        action,
        reason: msg!("hint.only_move"),
    }
}

/// `sample` after `seat` plays `action` and greedy bots play the rest of the round:
/// the seat's round score minus the others' mean (lower is better). A move the
/// engine refuses scores worst.
fn margin_after(sample: &GameState, seat: usize, action: &Action, bots: &mut [GreedyBot]) -> f64 {
    let mut g = sample.clone();
    if g.apply(seat, action).is_err() {
        return f64::INFINITY;
    }
    let players = g.players();
    while !g.is_round_over() {
        let Some(s) = g.to_act() else { break };
        let a = bots[s].choose(&g, s);
        if g.apply(s, &a).is_err() {
            // Greedy only plays legal moves; stop rather than loop if it did not.
            break;
        }
    }
    let scores = match g.round_scores() {
        Some(s) => s,
        // Unfinished (cannot happen with the turn cap): count the hands' points.
        None => (0..players)
            .map(|s| {
                g.hand(s)
                    .to_cards()
                    .iter()
                    .map(|&c| g.rules().card_points(c) as i32)
                    .sum()
            })
            .collect(),
    };
    // L-10.3: the lowest total wins, so what counts is how many points the seat
    // gains on the others, not its own score alone.
    let mine = scores[seat] as f64;
    let others: f64 = scores
        .iter()
        .enumerate()
        .filter(|&(s, _)| s != seat)
        .map(|(_, &v)| v as f64)
        .sum();
    mine - others / (players.max(2) - 1) as f64
}

/// The reason of a move that had no rival worth searching.
fn forced_reason(state: &GameState, action: &Action) -> Message {
    match action {
        Action::LayOff { cards, .. } => msg!("hint.lay_off", card = cards.first().copied().unwrap_or(Card::JOKER)),
        Action::SwapJoker { card, .. } => msg!("hint.swap_joker", card = card),
        _ => match state.to_act() {
            Some(seat) if state.legal_actions(Some(seat)).len() > 1 => msg!("hint.rule_of_thumb"),
            _ => msg!("hint.only_move"),
        },
    }
}

/// The reason of a searched move: what it is, what it beat and by how many points
/// per round on average over `samples` simulated deals.
fn explain(state: &GameState, seat: usize, best: &Action, other: &Action, samples: usize, gain: &str) -> Message {
    let top = state.discard_top().map_or_else(String::new, |c| c.to_string());
    match best {
        Action::TakeDiscard => msg!("hint.take_discard", card = top, samples = samples, gain = gain),
        Action::DrawStock => msg!("hint.draw_stock", card = top, samples = samples, gain = gain),
        Action::Buy => msg!("hint.buy", card = top, samples = samples, gain = gain),
        Action::Pass if matches!(state.phase(), Phase::Buying(_)) => {
            msg!("hint.pass_buy", card = top, samples = samples, gain = gain)
        }
        Action::Pass => msg!("hint.pass_call", samples = samples, gain = gain),
        Action::CallRummy => msg!("hint.call", call = "rummy", samples = samples, gain = gain),
        Action::CallLiverpool { .. } => msg!("hint.call", call = "Liverpool", samples = samples, gain = gain),
        Action::GoDown { .. } => msg!("hint.go_down", samples = samples, gain = gain),
        Action::Discard { card } => match other {
            Action::GoDown { .. } if !state.is_down(seat) => {
                msg!("hint.wait", card = card, samples = samples, gain = gain)
            }
            Action::Discard { card: next } => {
                msg!(
                    "hint.discard",
                    card = card,
                    other = next,
                    samples = samples,
                    gain = gain
                )
            }
            _ => msg!("hint.discard_only", card = card, samples = samples, gain = gain),
        },
        Action::LayOff { cards, .. } => msg!("hint.lay_off", card = cards.first().copied().unwrap_or(Card::JOKER)),
        Action::SwapJoker { card, .. } => msg!("hint.swap_joker", card = card),
        _ => msg!("hint.only_move"),
    }
}
