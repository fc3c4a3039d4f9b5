//! `GameState`: the whole state of a game of profile L (rules read from a `RuleSet`),
//! its phases, and `check` / `apply` for every action. `apply` validates everything
//! first (into a `Plan`) and only then mutates, with code that cannot fail, so a
//! refused action leaves the state exactly as it was.

use super::action::{Action, Event, EventKind, History, RoundEnd, RoundEndReason};
use crate::card::{Card, CardCounts, CARD_KINDS};
use crate::deal::{bad_cut, deal_round, draw_cut, shuffled_deck_with, Dealt};
use crate::error::{Error, ErrorCode, Message, Result};
use crate::meld::{check_go_down, Meld};
use crate::msg;
use crate::rng::Rng;
use crate::rules::{BuyingRule, Contract, JokerSwapRule, RuleSet, TieBreak};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The most seats a game may have (`RuleSet::validate` allows up to 16).
pub const MAX_SEATS: usize = 16;

/// The state of the buying window (L-6) while it is open.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuyWindow {
    /// L-6.4: the buyer of the previous card of this chain; skipped for the current card.
    pub last_buyer: Option<u8>,
    /// Seats that have passed on the current top card, as bits (bit `s` = seat `s`).
    pub passed: u16,
}

/// Where the round is. Exactly one seat decides in every phase but `GameOver`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "name", rename_all = "snake_case")]
pub enum Phase {
    /// L-2.2: the dealer's right neighbour is to cut the shuffled deck (the stock).
    Cut,
    /// L-5.1: the active player has not drawn yet. `declined`: they declined the top
    /// discard and the buying window has closed, so only `draw_stock` is left.
    Draw { declined: bool },
    /// L-6: the active player declined the top discard; other seats may buy it.
    Buying(BuyWindow),
    /// The active player has drawn: go down, lay off, swap, discard.
    Play,
    /// The round has ended; the next round's dealer starts it (`next_round`).
    RoundOver,
    /// The last round has ended (L-10.3).
    GameOver,
}

impl Phase {
    /// The CONFORMANCE.md name: `cut`, `draw`, `buying`, `play`, `round_over`, `game_over`.
    pub fn name(&self) -> &'static str {
        match self {
            Phase::Cut => "cut",
            Phase::Draw { .. } => "draw",
            Phase::Buying(_) => "buying",
            Phase::Play => "play",
            Phase::RoundOver => "round_over",
            Phase::GameOver => "game_over",
        }
    }
}

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
}

impl SeatState {
    pub fn new(total: i32) -> SeatState {
        SeatState {
            hand: CardCounts::default(),
            down: false,
            buys: 0,
            total,
            round_score: 0,
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
    }
}

/// A validated action, ready to be carried out without further failure.
enum Plan {
    /// The deal, and the RNG after drawing the cut size (when the cutter named none).
    Cut(Box<Dealt>, Rng),
    TakeDiscard,
    Decline,
    /// Seats taken to have passed before the buyer.
    Buy(Vec<usize>),
    Pass,
    DrawStock,
    GoDown {
        melds: Vec<Meld>,
        used: CardCounts,
        ends_round: bool,
    },
    LayOff {
        meld: usize,
        grown: Meld,
        used: CardCounts,
    },
    Swap {
        meld: usize,
        swapped: Meld,
        card: Card,
        to_meld: usize,
        grown: Meld,
    },
    Discard(Card),
    NextRound,
}

fn refuse<T>(code: ErrorCode, rule: &'static str, msg: Message) -> Result<T> {
    Err(Error::refused(code, rule, msg))
}

/// Counts of a card list without overflow; `None` if some card appears more than 255 times.
fn counts_of(cards: &[Card]) -> Option<CardCounts> {
    let mut wide = [0u32; CARD_KINDS];
    for c in cards {
        wide[c.id() as usize] += 1;
    }
    let mut out = CardCounts::default();
    for (o, w) in out.0.iter_mut().zip(wide) {
        *o = u8::try_from(w).ok()?;
    }
    Some(out)
}

impl GameState {
    /// A new game: the first dealer is drawn by lot (L-2.1) and the deck shuffled,
    /// both from `Rng::from_seed(seed)`; the game waits for round 1's cut.
    pub fn new(rules: Arc<RuleSet>, players: usize, seed: u64) -> Result<GameState> {
        rules.validate()?;
        if players < rules.min_players as usize || players > rules.max_players as usize {
            return Err(Error::refused(
                ErrorCode::InvalidArgument,
                "L-1.1",
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
            history: History::default(),
            rules,
        })
    }

    /// Profile L with its default four players.
    pub fn new_liverpool(seed: u64) -> GameState {
        GameState::new(Arc::new(RuleSet::liverpool()), 4, seed).expect("profile L is valid")
    }

    /// Replay a game: `new(rules, players, seed)` and then every `(seat, action)`.
    /// The error of a refused action names its index.
    pub fn replay(rules: Arc<RuleSet>, players: usize, seed: u64, actions: &[(usize, Action)]) -> Result<GameState> {
        let mut g = GameState::new(rules, players, seed)?;
        for (i, (seat, action)) in actions.iter().enumerate() {
            g.apply(*seat, action).map_err(|e| {
                let reason = e.to_message();
                e.reworded(msg!(
                    "replay.refused",
                    index = i,
                    action = action.name(),
                    seat = seat,
                    reason = reason
                ))
            })?;
        }
        Ok(g)
    }

    // ----- reading the state -------------------------------------------------

    /// `invalid_argument` unless `seat` is a seat of this game. Accessors taking a
    /// seat index panic on a bad seat; call this first with untrusted input.
    pub fn check_seat(&self, seat: usize) -> Result<()> {
        if seat >= self.players() {
            return Err(Error::with(
                ErrorCode::InvalidArgument,
                None,
                msg!("seat.no_such_seat", seat = seat, players = self.players),
            ));
        }
        Ok(())
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

    /// L-10.3: at game over, the seat(s) with the lowest total (several for a draw;
    /// C-7 breaks ties by the last round's score). Empty before the game is over.
    pub fn winners(&self) -> Vec<usize> {
        if !self.is_game_over() {
            return Vec::new();
        }
        let best = self.seats.iter().map(|s| s.total).min().unwrap_or(0);
        let mut tied: Vec<usize> = (0..self.players()).filter(|&s| self.seats[s].total == best).collect();
        if self.rules.tie_break == TieBreak::LowerLastRound && tied.len() > 1 {
            let last = tied.iter().map(|&s| self.seats[s].round_score).min().unwrap_or(0);
            tied.retain(|&s| self.seats[s].round_score == last);
        }
        tied
    }

    /// The single seat whose decision the engine waits for: the cutter, the active
    /// player, the next seat asked in the buying window (L-6.3, skipping the previous
    /// buyer, L-6.4), or after a round the next round's dealer. `None` at game over.
    pub fn to_act(&self) -> Option<usize> {
        match self.phase {
            Phase::Cut => Some(self.cutter()),
            Phase::Draw { .. } | Phase::Play => Some(self.active()),
            Phase::Buying(w) => Some(self.next_asked(&w).unwrap_or(self.active as usize)),
            Phase::RoundOver => Some(((self.dealer + 1) % self.players) as usize),
            Phase::GameOver => None,
        }
    }

    // ----- the buying window -------------------------------------------------

    /// Seats in priority order for the current top discard (L-6.3): clockwise from
    /// the active player's left.
    fn priority_order(&self) -> impl Iterator<Item = u8> + '_ {
        (1..self.players).map(move |k| (self.active + k) % self.players)
    }

    /// L-6.6 / L-9.1: a penalty card can be drawn after the buyer takes the top
    /// discard: from the stock, or from a new stock formed from the rest of the pile
    /// (all but the new top card).
    fn penalty_available(&self) -> bool {
        !self.stock.is_empty() || self.discard.len() >= 3
    }

    /// Whether `seat` is asked about the current top discard in window `w`: not the
    /// active player, not the previous buyer (L-6.4), not a seat that passed. Cheap:
    /// `to_act` calls it on every query, so no error message is built here.
    #[inline]
    fn is_asked(&self, seat: u8, w: &BuyWindow) -> bool {
        seat != self.active && w.last_buyer != Some(seat) && w.passed >> seat & 1 == 0
    }

    /// Why `seat` is not asked about the current top discard in window `w` (None: it
    /// is), as an error for a refused action.
    fn not_asked(&self, seat: u8, w: &BuyWindow) -> Option<Error> {
        if self.is_asked(seat, w) {
            return None;
        }
        let no = |rule: &'static str, msg: Message| Some(Error::refused(ErrorCode::BuyNotAllowed, rule, msg));
        if seat == self.active {
            return no("L-6.2", msg!("buy.active_player_takes_or_draws", seat = seat));
        }
        if w.last_buyer == Some(seat) {
            return no("L-6.4", msg!("buy.bought_previous", seat = seat));
        }
        if w.passed >> seat & 1 == 1 {
            return no("L-6.3", msg!("buy.already_passed", seat = seat));
        }
        None
    }

    /// Whether `seat` may buy the current top discard in window `w`: the cheap form of
    /// [`Self::buy_refusal`] for hot paths (no message is built).
    fn may_buy(&self, seat: u8, w: &BuyWindow) -> bool {
        let may = self.is_asked(seat, w)
            && self
                .rules
                .buy_limit_per_round
                .is_none_or(|limit| self.seats[seat as usize].buys < limit)
            && !self.discard.is_empty()
            && self.penalty_available();
        debug_assert_eq!(
            may,
            self.buy_refusal(seat, w).is_none(),
            "may_buy and buy_refusal disagree"
        );
        may
    }

    /// Why `seat` may not buy the current top discard in window `w` (None: it may).
    /// A seat can be asked and still unable to buy (buy limit, no penalty card).
    fn buy_refusal(&self, seat: u8, w: &BuyWindow) -> Option<Error> {
        if let Some(e) = self.not_asked(seat, w) {
            return Some(e);
        }
        let no = |rule: &'static str, msg: Message| Some(Error::refused(ErrorCode::BuyNotAllowed, rule, msg));
        if let Some(limit) = self.rules.buy_limit_per_round {
            if self.seats[seat as usize].buys >= limit {
                return no("C-5", msg!("buy.limit_reached", seat = seat, limit = limit));
            }
        }
        if self.discard.is_empty() {
            return no("L-6.4", msg!("discard.pile_empty"));
        }
        if !self.penalty_available() {
            return no("L-6.6", msg!("buy.no_penalty_card"));
        }
        None
    }

    /// The next seat asked in the window (L-6.3, skipping the previous buyer, L-6.4);
    /// `None` when everyone has passed or the pile is empty (the chain ends).
    pub(crate) fn next_asked(&self, w: &BuyWindow) -> Option<usize> {
        if self.discard.is_empty() {
            return None;
        }
        self.priority_order().find(|&s| self.is_asked(s, w)).map(usize::from)
    }

    /// Could any seat buy the top discard if the active player declined it now?
    pub(crate) fn someone_could_buy(&self) -> bool {
        let w = BuyWindow {
            last_buyer: None,
            passed: 0,
        };
        self.rules.buying != BuyingRule::Off && self.priority_order().any(|s| self.may_buy(s, &w))
    }

    /// The phase after the window changed: still buying if someone may buy, else
    /// the active player must draw from the stock.
    fn window_phase(&self, w: BuyWindow) -> Phase {
        if self.rules.buying != BuyingRule::Off && self.next_asked(&w).is_some() {
            Phase::Buying(w)
        } else {
            Phase::Draw { declined: true }
        }
    }

    // ----- check and apply ---------------------------------------------------

    /// Would `seat` be allowed to do `action` now? The error carries the stable
    /// CONFORMANCE.md code and the rule id that forbids it.
    pub fn check(&self, seat: usize, action: &Action) -> Result<()> {
        self.plan(seat, action).map(|_| ())
    }

    /// Is the action legal now? (`check` without the explanation.)
    pub fn can(&self, seat: usize, action: &Action) -> bool {
        self.plan(seat, action).is_ok()
    }

    /// Apply `action` by `seat`. Validated completely before anything changes: on
    /// error the state is exactly as before.
    pub fn apply(&mut self, seat: usize, action: &Action) -> Result<Event> {
        let plan = self.plan(seat, action)?;
        self.history.push(seat as u8, action);
        Ok(self.execute(seat as u8, plan))
    }

    fn plan(&self, seat: usize, action: &Action) -> Result<Plan> {
        self.check_seat(seat)?;
        let seat = seat as u8;
        match (self.phase, action) {
            (Phase::GameOver, Action::NextRound) => {
                return refuse(ErrorCode::GameOver, "L-10.3", msg!("game.over_no_next_round"))
            }
            (Phase::GameOver, _) => return refuse(ErrorCode::RoundOver, "L-10.3", msg!("game.over")),
            (Phase::RoundOver, a) if *a != Action::NextRound => {
                return refuse(ErrorCode::RoundOver, "L-5.6", msg!("round.over_only_next_round"))
            }
            _ => {}
        }
        match action {
            Action::Cut { size } => self.plan_cut(seat, *size),
            Action::TakeDiscard => {
                self.require_active(seat)?;
                match self.phase {
                    Phase::Draw { declined: false } if !self.discard.is_empty() => Ok(Plan::TakeDiscard),
                    Phase::Draw { declined: false } => {
                        refuse(ErrorCode::WrongPhase, "L-5.1", msg!("discard.pile_empty"))
                    }
                    Phase::Draw { declined: true } | Phase::Buying(_) => {
                        refuse(ErrorCode::WrongPhase, "L-5.1", msg!("discard.declined"))
                    }
                    _ => Err(self.wrong_phase(msg!("doing.take_discard"), "L-5.1")),
                }
            }
            Action::DeclineDiscard => {
                self.require_active(seat)?;
                match self.phase {
                    Phase::Draw { declined: false } => Ok(Plan::Decline),
                    _ => Err(self.wrong_phase(msg!("doing.decline_discard"), "L-5.1")),
                }
            }
            Action::Buy => self.plan_buy(seat),
            Action::Pass => match self.phase {
                Phase::Buying(w) => match self.not_asked(seat, &w) {
                    None => Ok(Plan::Pass),
                    Some(e) => refuse(
                        ErrorCode::NotYourTurn,
                        "L-6.3",
                        msg!("pass.not_asked", seat = seat, reason = e.to_message()),
                    ),
                },
                _ => refuse(ErrorCode::WrongPhase, "L-6", msg!("pass.no_window")),
            },
            Action::DrawStock => {
                self.require_active(seat)?;
                match self.phase {
                    Phase::Draw { .. } | Phase::Buying(_) => Ok(Plan::DrawStock),
                    _ => Err(self.wrong_phase(msg!("doing.draw_stock"), "L-5.1")),
                }
            }
            Action::GoDown { melds } => self.plan_go_down(seat, melds),
            Action::LayOff { meld, cards, end } => self.plan_lay_off(seat, *meld, cards, *end),
            Action::SwapJoker {
                meld,
                card,
                to_meld,
                end,
            } => self.plan_swap(seat, *meld, *card, *to_meld, *end),
            Action::Discard { card } => self.plan_discard(seat, *card),
            Action::NextRound => {
                if self.phase != Phase::RoundOver {
                    return refuse(ErrorCode::WrongPhase, "L-2.1", msg!("round.not_over"));
                }
                let next_dealer = (self.dealer + 1) % self.players;
                if seat != next_dealer {
                    return refuse(
                        ErrorCode::NotYourTurn,
                        "L-2.1",
                        msg!("round.next_dealer_starts", seat = next_dealer),
                    );
                }
                Ok(Plan::NextRound)
            }
            Action::CallLiverpool => refuse(
                ErrorCode::NotAllowed,
                "W-7",
                if self.rules.liverpool_call {
                    msg!("liverpool_call.not_implemented")
                } else {
                    msg!("liverpool_call.not_in_rules")
                },
            ),
        }
    }

    fn require_active(&self, seat: u8) -> Result<()> {
        if seat != self.active {
            return refuse(
                ErrorCode::NotYourTurn,
                "L-1.3",
                msg!("turn.not_your_turn", active = self.active, seat = seat),
            );
        }
        Ok(())
    }

    fn wrong_phase(&self, what: Message, rule: &'static str) -> Error {
        let now = match self.phase {
            Phase::Cut => msg!("phase.not_dealt"),
            Phase::Draw { .. } => msg!("phase.not_drawn"),
            Phase::Buying(_) => msg!("phase.buying_open"),
            Phase::Play => msg!("phase.already_drawn"),
            Phase::RoundOver | Phase::GameOver => msg!("phase.round_over"),
        };
        Error::refused(ErrorCode::WrongPhase, rule, msg!("phase.wrong", what = what, now = now))
    }

    fn require_play(&self, seat: u8, what: Message, rule: &'static str) -> Result<()> {
        self.require_active(seat)?;
        if self.phase != Phase::Play {
            return Err(self.wrong_phase(what, rule));
        }
        Ok(())
    }

    /// The cards of `cards` as counts, if the seat holds them all (counting copies).
    /// L-5.5 / L-7.3: after giving up `used`, does the hand still hold a card it may
    /// discard? Under W-8 (`no_discard_of_taken_card`) a lone copy of the card taken
    /// from the discard pile does not count, so no player is ever left without a legal
    /// move (W-8 "floating" itself is not modelled).
    pub(super) fn keeps_a_discard(&self, seat: u8, used: &CardCounts) -> bool {
        let hand = &self.seats[seat as usize].hand;
        match (hand.total() - used.total(), self.taken_discard) {
            (0, _) => false,
            (1, Some(taken)) if self.rules.no_discard_of_taken_card => hand.get(taken) - used.get(taken) != 1,
            _ => true,
        }
    }

    fn require_cards(&self, seat: u8, cards: &[Card]) -> Result<CardCounts> {
        let hand = &self.seats[seat as usize].hand;
        let named = |c: Card| cards.iter().filter(|&&x| x == c).count();
        if let Some(&c) = cards.iter().find(|&&c| named(c) > hand.get(c) as usize) {
            let held = hand.get(c);
            let msg = if held == 0 {
                msg!("hand.card_not_held", seat = seat, card = c)
            } else {
                msg!(
                    "hand.card_not_held_times",
                    seat = seat,
                    card = c,
                    times = named(c),
                    held = held
                )
            };
            return Err(Error::with(ErrorCode::CardNotInHand, None, msg));
        }
        Ok(counts_of(cards).expect("each card is held, so counts fit"))
    }

    fn plan_cut(&self, seat: u8, size: Option<i64>) -> Result<Plan> {
        if self.phase != Phase::Cut {
            return Err(self.wrong_phase(msg!("doing.cut"), "L-2.2"));
        }
        let cutter = self.cutter();
        if seat as usize != cutter {
            return refuse(
                ErrorCode::NotYourTurn,
                "L-2.2",
                msg!("cut.not_the_cutter", cutter = cutter, seat = seat),
            );
        }
        let mut rng = self.rng.clone();
        let size = match size {
            None => draw_cut(&mut rng, self.stock.len(), self.rules.cut_range),
            Some(k) if k >= 1 && (k as u64) < self.stock.len() as u64 => k as usize,
            Some(k) => return Err(bad_cut(k, self.stock.len())),
        };
        let deck: Vec<Card> = self.stock.iter().rev().copied().collect(); // top first
        let dealt = deal_round(&deck, &self.rules, self.players, self.round, self.dealer, size)?;
        Ok(Plan::Cut(Box::new(dealt), rng))
    }

    fn plan_buy(&self, seat: u8) -> Result<Plan> {
        if self.rules.buying == BuyingRule::Off {
            return refuse(ErrorCode::BuyNotAllowed, "C-8", msg!("buy.off_in_rules"));
        }
        if seat == self.active {
            return refuse(
                ErrorCode::BuyNotAllowed,
                "L-6.2",
                msg!("buy.active_player", seat = seat),
            );
        }
        let w = match self.phase {
            Phase::Buying(w) => w,
            Phase::Draw { declined: true } => {
                return refuse(ErrorCode::BuyNotAllowed, "L-6.4", msg!("buy.window_closed"))
            }
            _ => return refuse(ErrorCode::WrongPhase, "L-6.1", msg!("buy.before_decline")),
        };
        if let Some(e) = self.buy_refusal(seat, &w) {
            return Err(e);
        }
        // CONFORMANCE `buy`: every seat with priority over the buyer has passed.
        let passed = self
            .priority_order()
            .take_while(|&s| s != seat)
            .filter(|&s| self.is_asked(s, &w))
            .map(usize::from)
            .collect();
        Ok(Plan::Buy(passed))
    }

    fn plan_go_down(&self, seat: u8, groups: &[Vec<Card>]) -> Result<Plan> {
        self.require_play(seat, msg!("doing.go_down"), "L-5.2")?;
        if self.seats[seat as usize].down {
            return refuse(
                ErrorCode::AlreadyDown,
                "L-4.6",
                msg!("go_down.already_down", seat = seat),
            );
        }
        let all: Vec<Card> = groups.iter().flatten().copied().collect();
        if all.is_empty() {
            return refuse(
                ErrorCode::ContractNotMet,
                "L-4.6",
                msg!("go_down.no_cards", contract = self.contract().describe_message()),
            );
        }
        let used = self.require_cards(seat, &all)?;
        let contract = self.contract();
        let melds = check_go_down(groups, &contract, &self.rules).map_err(|e| {
            if contract.whole_hand && e.code == ErrorCode::ContractNotMet {
                let reason = e.to_message();
                Error::refused(ErrorCode::WholeHandRequired, "L-8.1", reason)
            } else {
                e
            }
        })?;
        let hand = &self.seats[seat as usize].hand;
        let left = hand.total() - used.total();
        if contract.whole_hand && left > 0 {
            return refuse(
                ErrorCode::WholeHandRequired,
                "L-8.1",
                if left == 1 {
                    msg!("go_down.whole_hand_one_left")
                } else {
                    msg!("go_down.whole_hand", left = left)
                },
            );
        }
        if !contract.whole_hand && !self.keeps_a_discard(seat, &used) {
            return refuse(ErrorCode::MustKeepDiscard, "L-5.5", msg!("discard.must_keep"));
        }
        Ok(Plan::GoDown {
            melds,
            used,
            ends_round: contract.whole_hand,
        })
    }

    /// Shared checks of lay-offs and swaps: phase, round 7, down, and timing (L-5.3, L-7.2, L-8.3).
    fn require_after_go_down(&self, seat: u8, swap: bool, rule: &'static str) -> Result<()> {
        let what = if swap {
            msg!("doing.joker_swap")
        } else {
            msg!("doing.lay_off")
        };
        self.require_play(seat, what, rule)?;
        if self.contract().whole_hand {
            let round = self.round;
            let msg = if swap {
                msg!("round.no_joker_swap", round = round)
            } else {
                msg!("round.no_lay_off", round = round)
            };
            return refuse(ErrorCode::WrongPhase, "L-8.3", msg);
        }
        if !self.seats[seat as usize].down {
            return refuse(ErrorCode::NotDown, rule, msg!("seat.not_down", seat = seat));
        }
        Ok(())
    }

    fn plan_lay_off(&self, seat: u8, meld: usize, cards: &[Card], end: Option<crate::meld::End>) -> Result<Plan> {
        self.require_after_go_down(seat, false, "L-5.3")?;
        if self.down_this_turn && !self.rules.lay_off_on_go_down_turn {
            return refuse(ErrorCode::SameTurnAsGoDown, "L-5.3", msg!("lay_off.same_turn"));
        }
        let Some(target) = self.table.get(meld) else {
            return refuse(
                ErrorCode::InvalidLayOff,
                "L-5.3",
                msg!("lay_off.no_such_meld", meld = meld, count = self.table.len()),
            );
        };
        if cards.is_empty() {
            return refuse(ErrorCode::InvalidArgument, "L-5.3", msg!("lay_off.no_cards"));
        }
        let used = self.require_cards(seat, cards)?;
        let grown = target.meld.lay_off(cards, end, &self.rules)?;
        if !self.keeps_a_discard(seat, &used) {
            return refuse(ErrorCode::MustKeepDiscard, "L-5.5", msg!("discard.must_keep"));
        }
        Ok(Plan::LayOff { meld, grown, used })
    }

    fn plan_swap(
        &self,
        seat: u8,
        meld: usize,
        card: Card,
        to_meld: usize,
        end: Option<crate::meld::End>,
    ) -> Result<Plan> {
        self.require_after_go_down(seat, true, "L-7.2")?;
        match self.rules.joker_swap {
            JokerSwapRule::Off => return refuse(ErrorCode::NotAllowed, "C-4", msg!("swap.off_in_rules")),
            JokerSwapRule::AfterGoDownTurn if self.down_this_turn => {
                return refuse(ErrorCode::SameTurnAsGoDown, "L-7.2", msg!("swap.same_turn"))
            }
            JokerSwapRule::OnGoDownTurn if !self.down_this_turn => {
                return refuse(ErrorCode::NotAllowed, "W-4", msg!("swap.only_go_down_turn"))
            }
            _ => {}
        }
        let used = self.require_cards(seat, &[card])?;
        let Some(source) = self.table.get(meld) else {
            return refuse(ErrorCode::SwapMismatch, "L-7.2", msg!("swap.no_such_meld", meld = meld));
        };
        let swapped = source.meld.swap_joker(card)?;
        if to_meld == meld {
            return refuse(ErrorCode::JokerUnplaced, "L-7.2", msg!("swap.same_meld"));
        }
        let Some(target) = self.table.get(to_meld) else {
            return refuse(
                ErrorCode::JokerUnplaced,
                "L-7.2",
                msg!("swap.no_target_meld", meld = to_meld),
            );
        };
        let grown = target.meld.lay_off(&[Card::JOKER], end, &self.rules).map_err(|e| {
            Error::refused(
                ErrorCode::JokerUnplaced,
                "L-7.2",
                msg!("swap.joker_unplaced", meld = to_meld, reason = e.to_message()),
            )
        })?;
        if !self.keeps_a_discard(seat, &used) {
            return refuse(ErrorCode::MustKeepDiscard, "L-7.3", msg!("discard.must_keep"));
        }
        Ok(Plan::Swap {
            meld,
            swapped,
            card,
            to_meld,
            grown,
        })
    }

    fn plan_discard(&self, seat: u8, card: Card) -> Result<Plan> {
        self.require_play(seat, msg!("doing.discard"), "L-5.5")?;
        self.require_cards(seat, &[card])?;
        if self.rules.no_discard_of_taken_card
            && self.taken_discard == Some(card)
            && self.seats[seat as usize].hand.get(card) == 1
        {
            return refuse(
                ErrorCode::DiscardTakenCard,
                "W-8",
                msg!("discard.taken_this_turn", card = card),
            );
        }
        Ok(Plan::Discard(card))
    }

    // ----- carrying a plan out (never fails) ---------------------------------

    fn execute(&mut self, seat: u8, plan: Plan) -> Event {
        let mut recycled = None;
        let mut round_end = None;
        let s = seat as usize;
        let kind = match plan {
            Plan::Cut(dealt, rng) => {
                self.rng = rng;
                self.deal(*dealt)
            }
            Plan::TakeDiscard => {
                let card = self.discard.pop().expect("checked: pile not empty");
                self.seats[s].hand.0[card.id() as usize] += 1;
                self.taken_discard = Some(card);
                self.phase = Phase::Play;
                EventKind::TookDiscard { card }
            }
            Plan::Decline => {
                let w = BuyWindow {
                    last_buyer: None,
                    passed: 0,
                };
                self.phase = self.window_phase(w);
                EventKind::DeclinedDiscard {
                    card: self.discard_top(),
                    window_open: matches!(self.phase, Phase::Buying(_)),
                }
            }
            Plan::Buy(passed) => {
                let card = self.discard.pop().expect("checked: pile not empty");
                self.seats[s].hand.0[card.id() as usize] += 1;
                let (penalty, r) = self.draw_from_stock();
                recycled = r;
                let penalty = penalty.expect("checked: a penalty card is available");
                self.seats[s].hand.0[penalty.id() as usize] += 1;
                self.seats[s].buys = self.seats[s].buys.saturating_add(1);
                self.phase = if self.rules.buying == BuyingRule::Single {
                    Phase::Draw { declined: true }
                } else {
                    self.window_phase(BuyWindow {
                        last_buyer: Some(seat),
                        passed: 0,
                    })
                };
                EventKind::Bought { card, penalty, passed }
            }
            Plan::Pass => {
                if let Phase::Buying(mut w) = self.phase {
                    w.passed |= 1 << seat;
                    self.phase = self.window_phase(w);
                }
                EventKind::Passed
            }
            Plan::DrawStock => {
                // Seats whose chance to buy this draw closes: those still to be asked in
                // an open window, or everyone when drawing straight from `draw` (a
                // decline nobody bought, in CONFORMANCE shorthand).
                let window = match self.phase {
                    Phase::Buying(w) => Some(w),
                    Phase::Draw { declined: false } if self.rules.buying != BuyingRule::Off => Some(BuyWindow {
                        last_buyer: None,
                        passed: 0,
                    }),
                    _ => None,
                };
                let passed = match window {
                    Some(w) if !self.discard.is_empty() => self
                        .priority_order()
                        .filter(|&p| self.is_asked(p, &w))
                        .map(usize::from)
                        .collect(),
                    _ => Vec::new(),
                };
                let (card, r) = self.draw_from_stock();
                recycled = r;
                match card {
                    Some(c) => {
                        self.seats[s].hand.0[c.id() as usize] += 1;
                        self.phase = Phase::Play;
                    }
                    None => round_end = Some(self.end_round(None, RoundEndReason::StockExhausted)),
                }
                EventKind::DrewStock { card, passed }
            }
            Plan::GoDown {
                melds,
                used,
                ends_round,
            } => {
                let first = self.table.len();
                let count = melds.len();
                self.seats[s].hand.try_remove(&used);
                self.table
                    .extend(melds.into_iter().map(|meld| TableMeld { owner: s, meld }));
                self.seats[s].down = true;
                self.down_this_turn = true;
                if ends_round {
                    round_end = Some(self.end_round(Some(seat), RoundEndReason::WholeHand));
                }
                EventKind::WentDown {
                    melds: (first..first + count).collect(),
                }
            }
            Plan::LayOff { meld, grown, used } => {
                self.seats[s].hand.try_remove(&used);
                self.table[meld].meld = grown;
                EventKind::LaidOff {
                    meld,
                    cards: used.to_cards(),
                }
            }
            Plan::Swap {
                meld,
                swapped,
                card,
                to_meld,
                grown,
            } => {
                self.seats[s].hand.0[card.id() as usize] -= 1;
                self.table[meld].meld = swapped;
                self.table[to_meld].meld = grown;
                EventKind::SwappedJoker { meld, card, to_meld }
            }
            Plan::Discard(card) => {
                self.seats[s].hand.0[card.id() as usize] -= 1;
                self.discard.push(card);
                let went_out = self.seats[s].hand.total() == 0;
                self.turn = self.turn.saturating_add(1);
                if went_out {
                    round_end = Some(self.end_round(Some(seat), RoundEndReason::WentOut));
                } else if self.turn >= self.rules.max_turns_per_round {
                    round_end = Some(self.end_round(None, RoundEndReason::TurnLimit));
                } else {
                    self.active = (self.active + 1) % self.players;
                    self.phase = Phase::Draw { declined: false };
                    self.down_this_turn = false;
                    self.taken_discard = None;
                }
                EventKind::Discarded { card, went_out }
            }
            Plan::NextRound => {
                self.start_round(self.round + 1, (self.dealer + 1) % self.players);
                EventKind::RoundStarted {
                    round: self.round,
                    dealer: self.dealer(),
                }
            }
        };
        Event {
            seat: s,
            kind,
            recycled,
            round_end,
        }
    }

    /// Draw the top card of the stock; if the stock is empty, first shuffle the
    /// discard pile except its top card into a new stock (L-9.1). `None` when no
    /// stock can be formed. Also returns how many cards were recycled.
    fn draw_from_stock(&mut self) -> (Option<Card>, Option<usize>) {
        let mut recycled = None;
        if self.stock.is_empty() && self.discard.len() >= 2 {
            let top = self.discard.pop().expect("len >= 2");
            std::mem::swap(&mut self.stock, &mut self.discard);
            self.rng.shuffle(&mut self.stock);
            self.discard.push(top);
            recycled = Some(self.stock.len());
        }
        (self.stock.pop(), recycled)
    }

    /// L-2.2 … L-2.7: carry out the cut and the deal computed by `deal::deal_round`.
    fn deal(&mut self, dealt: Dealt) -> EventKind {
        self.cut_bonus = dealt.cut_bonus.then_some(dealt.cutter);
        for (seat, hand) in self.seats.iter_mut().zip(&dealt.hands) {
            hand.iter().for_each(|c| seat.hand.0[c.id() as usize] += 1);
        }
        self.stock = dealt.stock.iter().rev().copied().collect(); // top last
        self.discard.push(dealt.up_card);
        self.active = (self.dealer + 1) % self.players;
        self.phase = Phase::Draw { declined: false };
        EventKind::Dealt {
            cutter: dealt.cutter as usize,
            size: dealt.cut,
            cut_bonus: dealt.cut_bonus,
            up_card: dealt.up_card,
        }
    }

    /// Start round `round` with `dealer`: a fresh deck shuffled by the game's RNG,
    /// waiting for the cut.
    fn start_round(&mut self, round: u8, dealer: u8) {
        self.round = round;
        self.dealer = dealer;
        self.active = (dealer + 1) % self.players;
        for seat in &mut self.seats {
            *seat = SeatState::new(seat.total);
        }
        self.stock = shuffled_deck_with(&mut self.rng, &self.rules, self.players);
        self.discard.clear();
        self.table.clear();
        self.down_this_turn = false;
        self.taken_discard = None;
        self.cut_bonus = None;
        self.turn = 0;
        self.went_out = None;
        self.phase = Phase::Cut;
    }

    /// L-10: score the round (cards left in hand, the cut bonus), add to the totals,
    /// and move to `RoundOver`, or `GameOver` after the last round.
    pub(crate) fn end_round(&mut self, winner: Option<u8>, reason: RoundEndReason) -> RoundEnd {
        let points = self.rules.points_by_id();
        for (i, seat) in self.seats.iter_mut().enumerate() {
            let left: i32 = seat
                .hand
                .0
                .iter()
                .zip(points.iter())
                .map(|(&n, &p)| n as i32 * p as i32)
                .sum();
            let bonus = if self.cut_bonus == Some(i as u8) {
                self.rules.cut_bonus
            } else {
                0
            };
            // Saturating: loaded totals are bounded (MAX_SCORE), but never wrap.
            seat.round_score = left.saturating_add(bonus);
            seat.total = seat.total.saturating_add(seat.round_score);
        }
        self.went_out = winner;
        // The turn ended with the round: its turn-scoped flags no longer apply (and
        // positions only allow them in phase play).
        self.down_this_turn = false;
        self.taken_discard = None;
        let game_over = self.round >= self.rules.rounds();
        self.phase = if game_over { Phase::GameOver } else { Phase::RoundOver };
        RoundEnd {
            round: self.round,
            winner: winner.map(usize::from),
            reason,
            scores: self.seats.iter().map(|s| s.round_score).collect(),
            totals: self.totals(),
            game_over,
            winners: self.winners(),
        }
    }

    /// Check the invariants a state built from outside (a position, a snapshot)
    /// must satisfy, so that no later action can index out of range.
    pub(crate) fn validate(&self) -> Result<()> {
        let bad = |msg: Message| Err(Error::with(ErrorCode::BadPosition, None, msg));
        let n = self.players as usize;
        if n < self.rules.min_players as usize || n > self.rules.max_players as usize || n > MAX_SEATS {
            return bad(msg!(
                "game.players_out_of_range",
                players = n,
                rules = &self.rules.name,
                min = self.rules.min_players,
                max = self.rules.max_players
            ));
        }
        if self.seats.len() != n {
            return bad(msg!("position.hand_count", hands = self.seats.len(), players = n));
        }
        if self.rules.check_round(self.round).is_err() {
            return bad(msg!(
                "round.no_such_round",
                round = self.round,
                rounds = self.rules.rounds()
            ));
        }
        if self.dealer as usize >= n || self.active as usize >= n {
            return bad(msg!(
                "position.dealer_active",
                dealer = self.dealer,
                active = self.active,
                players = n
            ));
        }
        if self.cut_bonus.is_some_and(|s| s as usize >= n) || self.went_out.is_some_and(|s| s as usize >= n) {
            return bad(msg!("position.cut_bonus_winner", players = n));
        }
        // Copies (L-1.2): everything the state holds together.
        let mut all = [0u32; CARD_KINDS];
        let mut add = |c: Card| all[c.id() as usize] += 1;
        self.stock.iter().for_each(|&c| add(c));
        self.discard.iter().for_each(|&c| add(c));
        for m in &self.table {
            m.meld.cards().iter().for_each(|&c| add(c));
        }
        for seat in &self.seats {
            for (id, &k) in seat.hand.0.iter().enumerate() {
                all[id] += k as u32;
            }
        }
        self.rules
            .check_copies_wide(&all, self.players, msg!("what.the_position"))
            .map_err(|e| Error::with(ErrorCode::BadPosition, e.rule, e.to_message()))?;
        for (i, m) in self.table.iter().enumerate() {
            if m.owner >= n {
                return bad(msg!(
                    "position.meld_owner_missing",
                    index = i,
                    meld = &m.meld,
                    seat = m.owner
                ));
            }
            if !self.seats[m.owner].down {
                return bad(msg!(
                    "position.meld_owner_not_down",
                    index = i,
                    meld = &m.meld,
                    seat = m.owner
                ));
            }
        }
        for (s, seat) in self.seats.iter().enumerate() {
            if seat.down && !self.table.iter().any(|m| m.owner == s) {
                return bad(msg!("position.down_without_meld", seat = s));
            }
        }
        if self.down_this_turn && (!self.seats[self.active as usize].down || self.phase != Phase::Play) {
            return bad(msg!("position.down_this_turn"));
        }
        if self.taken_discard.is_some() && self.phase != Phase::Play {
            return bad(msg!("position.taken_discard"));
        }
        match self.phase {
            Phase::Cut => {
                if self.seats.iter().any(|s| s.hand.total() > 0) || !self.discard.is_empty() || !self.table.is_empty() {
                    return bad(msg!("position.cut_not_empty"));
                }
                let needed = n * self.rules.deal_sizes[self.round as usize - 1] as usize + 1;
                if self.stock.len() < needed.max(2) {
                    return bad(msg!(
                        "position.cut_stock_short",
                        stock = self.stock.len(),
                        needed = needed
                    ));
                }
            }
            Phase::Buying(w) => {
                if self.rules.buying == BuyingRule::Off {
                    return bad(msg!("position.buying_off"));
                }
                if w.last_buyer.is_some_and(|s| s as usize >= n) || (w.passed >> n) != 0 {
                    return bad(msg!("position.window_seats"));
                }
                if self.next_asked(&w).is_none() {
                    return bad(msg!("position.window_nobody"));
                }
            }
            _ => {}
        }
        Ok(())
    }
}
