//! `GameState`: the whole state of a game of profile L (rules read from a `RuleSet`),
//! how a game starts, and the queries that read it. What may change it lives next
//! door: the buying and call windows (`windows.rs`), validating an action into a
//! plan (`plan.rs`), carrying a plan out (`apply.rs`), scoring a round
//! (`scoring.rs`), and the invariants of a state built from outside (`invariants.rs`).

use super::action::{Action, History};
use super::phase::{BuyWindow, Phase};
use super::selection::Selection;
use crate::card::{Card, CardCounts};
use crate::deal::shuffled_deck_with;
use crate::error::{Error, ErrorCode, Result};
use crate::meld::Meld;
use crate::msg;
use crate::rng::Rng;
use crate::rules::{Contract, RuleSet};
use std::sync::Arc;

/// The most seats a game may have (`RuleSet::validate` allows up to 16).
pub const MAX_SEATS: usize = 16;

/// A meld on the table and the seat that laid it (L-4.6).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableMeld {
    pub owner: usize,
    pub meld: Meld,
}

/// Per-seat state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SeatState {
    pub hand: CardCounts,
    /// Has gone down this round (on this turn or an earlier one).
    pub down: bool,
    /// Buys made this round (C-5 limit).
    pub buys: u8,
    /// Total of the rounds finished so far.
    pub total: i32,
    /// This round's score, once the round is over.
    pub round_score: i32,
    /// W-9: points charged this round for refused go-down attempts (added to the round score).
    pub penalty: i32,
}

impl SeatState {
    pub fn new(total: i32) -> SeatState {
        SeatState {
            hand: CardCounts::default(),
            down: false,
            buys: 0,
            total,
            round_score: 0,
            penalty: 0,
        }
    }
}

/// The whole state of a game. Stock and discard pile are stored with their **top
/// card last** (`Vec::pop` draws); positions list the stock top first.
#[derive(Clone, Debug)]
pub struct GameState {
    pub(crate) rules: Arc<RuleSet>,
    pub(crate) players: u8,
    /// 1-based.
    pub(crate) round: u8,
    pub(crate) dealer: u8,
    pub(crate) active: u8,
    pub(crate) phase: Phase,
    pub(crate) seats: Vec<SeatState>,
    pub(crate) stock: Vec<Card>,
    pub(crate) discard: Vec<Card>,
    pub(crate) table: Vec<TableMeld>,
    /// The active player went down during the current turn (L-5.3).
    pub(crate) down_this_turn: bool,
    /// The card the active player took from the discard pile this turn (W-8).
    pub(crate) taken_discard: Option<Card>,
    /// L-2.3: the seat that earned this round's cut bonus.
    pub(crate) cut_bonus: Option<u8>,
    /// Turns completed this round (L-9.3 safeguard).
    pub(crate) turn: u32,
    /// The seat that went out this round, once it has.
    pub(crate) went_out: Option<u8>,
    pub(crate) rng: Rng,
    pub(crate) history: History,
    /// The move being chosen id by id (a joker swap, a go-down; game/encoding.rs),
    /// cleared by every move applied. Not part of a position.
    pub(crate) selection: Option<Box<Selection>>,
}

/// Two states are equal when the game is in the same situation, RNG included; the
/// history of how it got there is not compared (compare `history()` for that).
impl PartialEq for GameState {
    fn eq(&self, o: &Self) -> bool {
        self.rules == o.rules
            && self.players == o.players
            && self.round == o.round
            && self.dealer == o.dealer
            && self.active == o.active
            && self.phase == o.phase
            && self.seats == o.seats
            && self.stock == o.stock
            && self.discard == o.discard
            && self.table == o.table
            && self.down_this_turn == o.down_this_turn
            && self.taken_discard == o.taken_discard
            && self.cut_bonus == o.cut_bonus
            && self.turn == o.turn
            && self.went_out == o.went_out
            && self.rng == o.rng
            && self.selection == o.selection
    }
}

impl GameState {
    /// A new game: the first dealer is drawn by lot (L-2.1) and the deck shuffled,
    /// both from `Rng::from_seed(seed)`; the game waits for round 1's cut.
    pub fn new(rules: Arc<RuleSet>, players: usize, seed: u64) -> Result<GameState> {
        rules.validate()?;
        if players < rules.min_players as usize || players > rules.max_players as usize {
            return Err(Error::refused(
                ErrorCode::InvalidArgument,
                rules.cite("L-1.1", "C-1", "W-1"),
                msg!(
                    "game.players_out_of_range",
                    players = players,
                    rules = &rules.name,
                    min = rules.min_players,
                    max = rules.max_players
                ),
            ));
        }
        let n = players as u8;
        let mut rng = Rng::from_seed(seed);
        let dealer = rng.below(n as u32) as u8;
        let stock = shuffled_deck_with(&mut rng, &rules, n);
        Ok(GameState {
            players: n,
            round: 1,
            dealer,
            active: (dealer + 1) % n,
            phase: Phase::Cut,
            seats: (0..n).map(|_| SeatState::new(0)).collect(),
            stock,
            discard: Vec::new(),
            table: Vec::new(),
            down_this_turn: false,
            taken_discard: None,
            cut_bonus: None,
            turn: 0,
            went_out: None,
            rng,
            history: History::with_game_capacity(),
            selection: None,
            rules,
        })
    }

    /// Profile L with its default four players.
    pub fn new_liverpool(seed: u64) -> GameState {
        GameState::new(Arc::new(RuleSet::liverpool()), 4, seed).expect("profile L is valid")
    }

    /// Replay a game: `new(rules, players, seed)` and then every `(seat, action)`.
    /// The error of a refused action names its index. A failed go-down attempt that
    /// W-9 charged (it is in the history) is charged again and the replay goes on.
    pub fn replay(rules: Arc<RuleSet>, players: usize, seed: u64, actions: &[(usize, Action)]) -> Result<GameState> {
        let mut g = GameState::new(rules, players, seed)?;
        for (i, (seat, action)) in actions.iter().enumerate() {
            let recorded = g.history_len();
            match g.apply(*seat, action) {
                Ok(_) => {}
                Err(_) if g.history_len() > recorded => {} // W-9: a charged attempt
                Err(e) => {
                    let reason = e.to_message();
                    return Err(e.reworded(msg!(
                        "replay.refused",
                        index = i,
                        action = action.name(),
                        seat = seat,
                        reason = reason
                    )));
                }
            }
        }
        Ok(g)
    }

    // ----- reading the state -------------------------------------------------

    /// `invalid_argument` unless `seat` is a seat of this game. Accessors taking a
    /// seat index panic on a bad seat; call this first with untrusted input.
    #[inline]
    pub fn check_seat(&self, seat: usize) -> Result<()> {
        if seat >= self.players() {
            return Err(self.no_such_seat(seat));
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn no_such_seat(&self, seat: usize) -> Error {
        Error::with(
            ErrorCode::InvalidArgument,
            None,
            msg!("seat.no_such_seat", seat = seat, players = self.players),
        )
    }

    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }
    pub fn rules_arc(&self) -> Arc<RuleSet> {
        self.rules.clone()
    }
    pub fn players(&self) -> usize {
        self.players as usize
    }
    /// 1-based round number.
    pub fn round(&self) -> u8 {
        self.round
    }
    pub fn dealer(&self) -> usize {
        self.dealer as usize
    }
    /// The seat whose turn it is (L-2.7, then clockwise).
    pub fn active(&self) -> usize {
        self.active as usize
    }
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// L-2.2: the dealer's right neighbour.
    pub fn cutter(&self) -> usize {
        ((self.dealer + self.players - 1) % self.players) as usize
    }
    /// This round's contract (L-3).
    pub fn contract(&self) -> Contract {
        self.rules.contracts[self.round as usize - 1]
    }
    pub fn hand(&self, seat: usize) -> &CardCounts {
        &self.seats[seat].hand
    }
    /// A seat's hand as cards in id order (jokers last).
    pub fn hand_cards(&self, seat: usize) -> Vec<Card> {
        self.seats[seat].hand.to_cards()
    }
    pub fn hand_sizes(&self) -> Vec<usize> {
        self.seats.iter().map(|s| s.hand.total()).collect()
    }
    /// The stock, **top card last**.
    pub fn stock(&self) -> &[Card] {
        &self.stock
    }
    /// The discard pile, bottom first (top card last).
    pub fn discard_pile(&self) -> &[Card] {
        &self.discard
    }
    pub fn discard_top(&self) -> Option<Card> {
        self.discard.last().copied()
    }
    /// Table melds, numbered in the order they were laid.
    pub fn table(&self) -> &[TableMeld] {
        &self.table
    }
    /// Has this seat gone down this round (this turn or earlier)?
    pub fn is_down(&self, seat: usize) -> bool {
        self.seats[seat].down
    }
    pub fn down_flags(&self) -> Vec<bool> {
        self.seats.iter().map(|s| s.down).collect()
    }
    /// The active player went down during the current turn.
    pub fn down_this_turn(&self) -> bool {
        self.down_this_turn
    }
    pub fn taken_discard(&self) -> Option<Card> {
        self.taken_discard
    }
    pub fn buys(&self) -> Vec<u8> {
        self.seats.iter().map(|s| s.buys).collect()
    }
    /// Totals of the finished rounds (this round's score is included once it is over).
    pub fn totals(&self) -> Vec<i32> {
        self.seats.iter().map(|s| s.total).collect()
    }
    /// This round's scores, once the round is over.
    pub fn round_scores(&self) -> Option<Vec<i32>> {
        self.is_round_over()
            .then(|| self.seats.iter().map(|s| s.round_score).collect())
    }
    /// W-9: the points charged to each seat this round for failed go-down attempts
    /// (part of the round score when the round ends).
    pub fn penalties(&self) -> Vec<i32> {
        self.seats.iter().map(|s| s.penalty).collect()
    }
    /// L-2.3: the seat that earned this round's cut bonus.
    pub fn cut_bonus(&self) -> Option<usize> {
        self.cut_bonus.map(usize::from)
    }
    /// Turns completed this round.
    pub fn turn(&self) -> u32 {
        self.turn
    }
    /// The seat that went out this round (once the round is over); `None` if no one did.
    pub fn went_out(&self) -> Option<usize> {
        self.went_out.map(usize::from)
    }
    pub fn is_round_over(&self) -> bool {
        matches!(self.phase, Phase::RoundOver | Phase::GameOver)
    }
    pub fn is_game_over(&self) -> bool {
        self.phase == Phase::GameOver
    }
    /// The buying window, while it is open.
    pub fn buy_window(&self) -> Option<BuyWindow> {
        match self.phase {
            Phase::Buying(w) => Some(w),
            _ => None,
        }
    }
    /// The RNG's exact state (`Rng::state`).
    pub fn rng_state(&self) -> (u128, Option<u32>) {
        self.rng.state()
    }
    /// Every applied `(seat, action)` since `new` / `from_position`, in order.
    pub fn history(&self) -> Vec<(usize, Action)> {
        self.history.decode()
    }
    pub fn history_len(&self) -> usize {
        self.history.len()
    }

    /// The single seat whose decision the engine waits for: the cutter, the active
    /// player, the next seat asked in the buying window (L-6.3, skipping the previous
    /// buyer, L-6.4) or about a call (W-7), a Liverpool caller who owes its discard
    /// (W-7.2), or after a round the next round's dealer. `None` at game over.
    #[inline(always)]
    pub fn to_act(&self) -> Option<usize> {
        match self.phase {
            Phase::Cut => Some(self.cutter()),
            Phase::Draw { .. } | Phase::Play => Some(self.active()),
            Phase::Buying(w) => Some(self.next_asked(&w).unwrap_or(self.active as usize)),
            Phase::Calling(w) => Some(self.next_call_asked(&w).unwrap_or(self.active as usize)),
            Phase::CallDiscard { caller } => Some(caller as usize),
            Phase::RoundOver => Some(((self.dealer + 1) % self.players) as usize),
            Phase::GameOver => None,
        }
    }
}
