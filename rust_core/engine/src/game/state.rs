//! `GameState`: the whole state of a game of profile L (rules read from a `RuleSet`),
//! its phases, and `check` / `apply` for every action. `apply` validates everything
//! first (into a `Plan`) and only then mutates, with code that cannot fail, so a
//! refused action leaves the state exactly as it was.

use super::action::{Action, Event, EventKind, History, RoundEnd, RoundEndReason};
use super::encoding::Selection;
use crate::card::{Card, CardCounts, CARD_KINDS};
use crate::deal::{bad_cut, deal_round, draw_cut, shuffled_deck_with, Dealt};
use crate::error::{Error, ErrorCode, Message, Result};
use crate::meld::{go_down_shapes, End, GoDownShapes, Meld, OneCardLayOff};
use crate::msg;
use crate::rng::Rng;
use crate::rules::{BuyPriority, BuyingRule, Contract, JokerSwapRule, RuleSet, TieBreak};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The most seats a game may have (`RuleSet::validate` allows up to 16).
pub const MAX_SEATS: usize = 16;

/// A short list of seats in asking order, without allocation (`to_act` builds one
/// on every query).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SeatOrder {
    seats: [u8; MAX_SEATS],
    len: u8,
}

impl SeatOrder {
    fn push(&mut self, seat: u8) {
        self.seats[self.len as usize] = seat;
        self.len += 1;
    }
    fn contains(&self, seat: u8) -> bool {
        self.seats[..self.len as usize].contains(&seat)
    }
    pub(crate) fn iter(&self) -> impl Iterator<Item = u8> + '_ {
        self.seats[..self.len as usize].iter().copied()
    }
}

/// The state of the buying window (L-6) while it is open.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuyWindow {
    /// L-6.4: the buyer of the previous card of this chain; skipped for the current card.
    pub last_buyer: Option<u8>,
    /// Seats that have passed on the current top card, as bits (bit `s` = seat `s`).
    pub passed: u16,
    /// L-5.1 (Decision): the active player drew from the stock while the discard was on
    /// offer. The window runs first; the stock card is theirs when it closes.
    #[serde(default)]
    pub draw_after: bool,
}

/// W-7: the call offered on a discard that fits a table meld.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CallKind {
    /// W-7.1: the discarder was down; the caller makes them take the card back plus a penalty card.
    Rummy,
    /// W-7.2: a seat that is down takes the card, lays it off at once and discards.
    Liverpool,
}

/// The call's name in a sentence: "rummy" or "Liverpool", names that stay as they are
/// in every language (W-7).
fn call_name(kind: CallKind) -> &'static str {
    match kind {
        CallKind::Rummy => "rummy",
        CallKind::Liverpool => "Liverpool",
    }
}

impl CallKind {
    /// `"rummy"` or `"liverpool"`.
    pub fn name(self) -> &'static str {
        match self {
            CallKind::Rummy => "rummy",
            CallKind::Liverpool => "liverpool",
        }
    }
}

/// W-7: the calls offered on the top discard, asked like the buying window (nearest
/// clockwise to the player about to draw first). The rummy offer comes first; when
/// everyone has passed it, the Liverpool offer follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallWindow {
    pub kind: CallKind,
    /// The seat whose discard is on offer.
    pub discarder: u8,
    /// Seats that have passed on this offer, as bits.
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
    /// W-7: the last discard fits a table meld; the seats are asked whether they call
    /// (the active player is already the next player, who has not drawn).
    Calling(CallWindow),
    /// W-7.2: a Liverpool caller took the discard and laid it off; it now discards,
    /// then the active player (the one after the original discarder) draws.
    CallDiscard { caller: u8 },
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
            Phase::Calling(_) => "calling",
            Phase::CallDiscard { .. } => "call_discard",
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

/// A validated action, ready to be carried out without further failure. It may
/// borrow the action's cards (a go-down's melds are built only when it is carried out).
enum Plan<'a> {
    /// The deal, and the RNG after drawing the cut size (when the cutter named none).
    Cut(Box<Dealt>, Rng),
    TakeDiscard,
    /// Decline the top discard; `draw_after`: it was a `draw_stock` (L-5.1 Decision).
    Decline {
        draw_after: bool,
    },
    Buy,
    Pass,
    /// A draw from the stock with no discard on offer (or after the window closed).
    DrawStock,
    PassCall,
    CallRummy,
    CallLiverpool {
        meld: usize,
        grown: Meld,
    },
    /// `floats`: the go-down, lay-off or swap empties the hand (W-8).
    GoDown {
        groups: &'a [Vec<Card>],
        shapes: GoDownShapes,
        ends_round: bool,
        floats: bool,
    },
    LayOff {
        meld: usize,
        cards: &'a [Card],
        grown: Grown,
        floats: bool,
    },
    /// `melds`: the source meld with `card` in the joker's place, and the target
    /// meld with the joker (boxed: swaps are rare, and a small plan moves cheaply).
    Swap {
        meld: usize,
        card: Card,
        to_meld: usize,
        melds: Box<(Meld, Meld)>,
        floats: bool,
    },
    Discard(Card),
    NextRound,
}

/// A table meld after a lay-off: one card's place and the new shape (the meld grows
/// in place when the lay-off is carried out), or the grown meld built in full.
enum Grown {
    One(OneCardLayOff),
    Built(Meld),
}

/// What carrying out an action returns: the whole [`Event`] (`apply`), or only the
/// round end it caused (`apply_for_round_end`: the simulator reads nothing else, so
/// no event is built, copied or dropped, and no card list allocated).
pub(crate) trait Outcome: Sized {
    /// Does the outcome show the event's card lists (a go-down's melds, the cards
    /// laid off)?
    const FULL: bool;
    /// `then`: what the action set off (a closing window's stock draw). The round
    /// end comes boxed: it is large and rare, so `execute` passes one word around.
    fn new(
        seat: usize,
        kind: EventKind,
        recycled: Option<usize>,
        round_end: Option<Box<RoundEnd>>,
        floating: bool,
        then: Option<Self>,
    ) -> Self;
    fn has_round_end(&self) -> bool;
    /// The round end, moved out (the outcome of a stock draw that `then` holds: the
    /// action that set it off reports it).
    fn take_round_end(&mut self) -> Option<Box<RoundEnd>>;
}

impl Outcome for Event {
    const FULL: bool = true;
    #[inline(always)]
    fn new(
        seat: usize,
        kind: EventKind,
        recycled: Option<usize>,
        round_end: Option<Box<RoundEnd>>,
        floating: bool,
        then: Option<Event>,
    ) -> Event {
        let mut event = Event {
            seat,
            kind,
            recycled,
            round_end: None,
            floating,
            then: then.map(Box::new),
        };
        // A `RoundEnd` is large: it is moved only when there is one, not copied as a
        // `None` on every action.
        if let Some(end) = round_end {
            event.round_end = Some(*end);
        }
        event
    }
    fn has_round_end(&self) -> bool {
        self.round_end.is_some()
    }
    fn take_round_end(&mut self) -> Option<Box<RoundEnd>> {
        self.round_end.take().map(Box::new)
    }
}

/// The round end an action caused, if any, and nothing else (boxed, as `execute`
/// keeps it).
pub(crate) struct RoundEndOnly(pub Option<Box<RoundEnd>>);

impl Outcome for RoundEndOnly {
    const FULL: bool = false;
    #[inline(always)]
    fn new(
        _seat: usize,
        _kind: EventKind,
        _recycled: Option<usize>,
        round_end: Option<Box<RoundEnd>>,
        _floating: bool,
        _then: Option<RoundEndOnly>,
    ) -> RoundEndOnly {
        // `execute` has already moved a round end set off by `then` into `round_end`.
        RoundEndOnly(round_end)
    }
    fn has_round_end(&self) -> bool {
        self.0.is_some()
    }
    fn take_round_end(&mut self) -> Option<Box<RoundEnd>> {
        self.0.take()
    }
}

/// A new table meld's cards, with room for a few lay-offs (L-5.3) so that they grow
/// it without moving it.
fn with_room_to_grow(cards: &[Card]) -> Vec<Card> {
    let mut room = Vec::with_capacity(cards.len() + 4);
    room.extend_from_slice(cards);
    room
}

/// A refusal (cold: the checks' usual path is the one that passes).
#[cold]
fn refuse<T>(code: ErrorCode, rule: &'static str, msg: Message) -> Result<T> {
    Err(Error::refused(code, rule, msg))
}

/// Counts of a card list without overflow; `None` if some card appears more than 255 times.
fn counts_of(cards: impl IntoIterator<Item = Card>) -> Option<CardCounts> {
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

    // ----- the buying window -------------------------------------------------

    /// Seats in the order they are asked about the current top discard, never the
    /// active player: L-6.3 / W-6, clockwise from the active player's left; under the
    /// W-6 "Yo" variation (`BuyPriority::FirstCaller`) the rule set's `call_order`
    /// first, then the others clockwise.
    fn priority_order(&self) -> SeatOrder {
        let mut order = SeatOrder::default();
        if self.rules.buy_priority == BuyPriority::FirstCaller {
            for &s in &self.rules.call_order {
                if s < self.players && s != self.active {
                    order.push(s);
                }
            }
        }
        for k in 1..self.players {
            let s = (self.active + k) % self.players;
            if !order.contains(s) {
                order.push(s);
            }
        }
        order
    }

    /// L-6.6 / L-9.1: a penalty card can be drawn after the buyer takes the top
    /// discard: from the stock, or from a new stock formed from the rest of the pile
    /// (all but the new top card).
    fn penalty_available(&self) -> bool {
        !self.stock.is_empty() || self.discard.len() >= 3
    }

    /// Whether `seat` is still to answer in window `w`: not the active player, not the
    /// previous buyer (L-6.4), not a seat that passed, and able to buy the top discard
    /// (C-5 limit, L-6.6 penalty card). A seat that could not buy is not asked. Cheap:
    /// `to_act` calls it on every query, so no error message is built here.
    #[inline]
    fn in_window(&self, seat: u8, w: &BuyWindow) -> bool {
        self.seat_may_answer(seat, w) && !self.discard.is_empty() && self.penalty_available()
    }

    /// [`Self::in_window`] without the checks that do not depend on the seat (a card
    /// to buy, a penalty card to draw).
    #[inline]
    fn seat_may_answer(&self, seat: u8, w: &BuyWindow) -> bool {
        seat != self.active
            && w.last_buyer != Some(seat)
            && w.passed >> seat & 1 == 0
            && self
                .rules
                .buy_limit_per_round
                .is_none_or(|limit| self.seats[seat as usize].buys < limit)
    }

    /// Why `seat` may not buy the current top discard in window `w` (None: it may, if
    /// it is its turn to answer, L-6.3).
    fn buy_refusal(&self, seat: u8, w: &BuyWindow) -> Option<Error> {
        let no = |rule: &'static str, msg: Message| Some(Error::refused(ErrorCode::BuyNotAllowed, rule, msg));
        let cite = |l, c, w| self.rules.cite(l, c, w);
        let refusal = if seat == self.active {
            no(
                cite("L-6.2", "C-5", "W-6"),
                msg!("buy.active_player_takes_or_draws", seat = seat),
            )
        } else if w.last_buyer == Some(seat) {
            no("L-6.4", msg!("buy.bought_previous", seat = seat))
        } else if w.passed >> seat & 1 == 1 {
            no(cite("L-6.3", "L-6.3", "W-6"), msg!("buy.already_passed", seat = seat))
        } else if self
            .rules
            .buy_limit_per_round
            .is_some_and(|limit| self.seats[seat as usize].buys >= limit)
        {
            let limit = self.rules.buy_limit_per_round.unwrap_or(0);
            no("C-5", msg!("buy.limit_reached", seat = seat, limit = limit))
        } else if self.discard.is_empty() {
            no(cite("L-6.4", "C-5", "W-6"), msg!("discard.pile_empty"))
        } else if !self.penalty_available() {
            no("L-6.6", msg!("buy.no_penalty_card"))
        } else {
            None
        };
        debug_assert_eq!(
            refusal.is_none(),
            self.in_window(seat, w),
            "in_window and buy_refusal disagree"
        );
        refusal
    }

    /// The next seat asked in the window (L-6.3, skipping the previous buyer, L-6.4,
    /// and seats that cannot buy); `None` when nobody is left (the window closes).
    #[inline]
    pub(crate) fn next_asked(&self, w: &BuyWindow) -> Option<usize> {
        if self.discard.is_empty() || !self.penalty_available() {
            return None;
        }
        let may_answer = self.answering_seats(w);
        // `to_act` asks this on every query (three times per pass): the usual
        // clockwise order is the lowest answering seat after the active player's,
        // else the lowest one before it.
        let found = match self.rules.buy_priority {
            BuyPriority::Nearest => {
                let after_active = may_answer & !(((2u32 << self.active) - 1) as u16);
                let pick = if after_active != 0 { after_active } else { may_answer };
                (pick != 0).then(|| pick.trailing_zeros() as usize)
            }
            BuyPriority::FirstCaller => self.first_caller_asked(may_answer),
        };
        debug_assert_eq!(found, self.next_asked_one_by_one(w), "L-6.3: the asking order");
        found
    }

    /// W-6 "Yo": the first seat of [`Self::priority_order`] among `may_answer` (bits).
    /// Out of line, so that the usual clockwise case stays small enough to inline.
    #[inline(never)]
    fn first_caller_asked(&self, may_answer: u16) -> Option<usize> {
        self.priority_order()
            .iter()
            .find(|&s| may_answer >> s & 1 == 1)
            .map(usize::from)
    }

    /// [`Self::seat_may_answer`] for every seat at once, as bits (bit `s` = seat `s`).
    #[inline]
    fn answering_seats(&self, w: &BuyWindow) -> u16 {
        let seat_bit = |s: u8| 1u16.checked_shl(u32::from(s)).unwrap_or(0);
        let mut bits = (((1u32 << self.players) - 1) as u16) & !w.passed & !seat_bit(self.active);
        if let Some(buyer) = w.last_buyer {
            bits &= !seat_bit(buyer);
        }
        if let Some(limit) = self.rules.buy_limit_per_round {
            for (s, seat) in self.seats.iter().enumerate() {
                if seat.buys >= limit {
                    bits &= !seat_bit(s as u8);
                }
            }
        }
        bits
    }

    /// [`Self::next_asked`] seat by seat, without the bit arithmetic: the reference
    /// the fast version is checked against in debug builds.
    fn next_asked_one_by_one(&self, w: &BuyWindow) -> Option<usize> {
        if self.discard.is_empty() || !self.penalty_available() {
            return None;
        }
        let found = match self.rules.buy_priority {
            BuyPriority::Nearest => (self.active + 1..self.players)
                .chain(0..self.active)
                .find(|&s| self.seat_may_answer(s, w)),
            BuyPriority::FirstCaller => self.priority_order().iter().find(|&s| self.seat_may_answer(s, w)),
        };
        found.map(usize::from)
    }

    /// Could any seat buy the top discard if the active player declined it now?
    pub(crate) fn someone_could_buy(&self) -> bool {
        self.rules.buying != BuyingRule::Off && self.next_asked(&BuyWindow::default()).is_some()
    }

    /// L-6.3: refuse `seat`'s answer in window `w` when another seat answers first.
    /// Under W-6 "Yo" any seat still in the window may answer: the first caller wins.
    fn require_asked(&self, seat: u8, w: &BuyWindow, buying: bool) -> Result<()> {
        if self.rules.buy_priority == BuyPriority::FirstCaller {
            return Ok(());
        }
        match self.next_asked(w) {
            Some(first) if first != seat as usize => refuse(
                ErrorCode::NotYourTurn,
                // C-5's Decision: priority as L-6.3; W-6 states its own.
                self.rules.cite("L-6.3", "L-6.3", "W-6"),
                if buying {
                    msg!("buy.asked_first", first = first, seat = seat)
                } else {
                    msg!("pass.asked_first", first = first, seat = seat)
                },
            ),
            _ => Ok(()),
        }
    }

    // ----- the calls of profile W (W-7) ---------------------------------------

    /// Seats in the order a call on the top discard is offered: nearest clockwise to
    /// the player about to draw (the active player) first, never the discarder.
    fn call_order(&self, discarder: u8) -> SeatOrder {
        let mut order = SeatOrder::default();
        for k in 0..self.players {
            let s = (self.active + k) % self.players;
            if s != discarder {
                order.push(s);
            }
        }
        order
    }

    /// Whether `seat` is still to answer the call offer `w`: any seat but the
    /// discarder for "rummy" (W-7.1), a seat that is down and holds a card to discard
    /// afterwards for "Liverpool" (W-7.2); not a seat that passed.
    #[inline]
    fn in_call(&self, seat: u8, w: &CallWindow) -> bool {
        seat != w.discarder
            && w.passed >> seat & 1 == 0
            && match w.kind {
                CallKind::Rummy => true,
                CallKind::Liverpool => self.seats[seat as usize].down && self.seats[seat as usize].hand.total() > 0,
            }
    }

    /// The next seat asked about the call offer `w`; `None` when everyone has answered.
    pub(crate) fn next_call_asked(&self, w: &CallWindow) -> Option<usize> {
        self.call_order(w.discarder)
            .iter()
            .find(|&s| self.in_call(s, w))
            .map(usize::from)
    }

    /// Does `card` fit some meld on the table (W-7: the discard "could be laid off")?
    fn fits_table(&self, card: Card) -> bool {
        self.table
            .iter()
            .any(|m| m.meld.can_lay_off(&[card], None, &self.rules))
    }

    /// W-7: the call offer that follows `discarder`'s discard (which did not take
    /// them out), if any: "rummy" first when the discarder is down and a penalty card
    /// can be drawn, else "Liverpool" when some other seat is down; only when the
    /// discard fits a table meld.
    fn call_offer(&self, discarder: u8) -> Option<CallWindow> {
        if !self.rules.rummy_call && !self.rules.liverpool_call {
            return None;
        }
        let top = self.discard_top()?;
        if !self.fits_table(top) {
            return None;
        }
        let rummy = CallWindow {
            kind: CallKind::Rummy,
            discarder,
            passed: 0,
        };
        if self.rules.rummy_call
            && self.seats[discarder as usize].down
            && self.penalty_available()
            && self.next_call_asked(&rummy).is_some()
        {
            return Some(rummy);
        }
        self.liverpool_offer(discarder)
    }

    /// W-7.2: the Liverpool offer on `discarder`'s discard, if some seat may call it.
    fn liverpool_offer(&self, discarder: u8) -> Option<CallWindow> {
        let w = CallWindow {
            kind: CallKind::Liverpool,
            discarder,
            passed: 0,
        };
        (self.rules.liverpool_call && self.next_call_asked(&w).is_some()).then_some(w)
    }

    // ----- check and apply ---------------------------------------------------

    /// Would `seat` be allowed to do `action` now? The error carries the stable
    /// CONFORMANCE.md code and the rule id that forbids it. Never charges the W-9
    /// penalty of a failed go-down.
    pub fn check(&self, seat: usize, action: &Action) -> Result<()> {
        self.plan(seat, action).map(|_| ())
    }

    /// Is the action legal now? (`check` without the explanation.)
    pub fn can(&self, seat: usize, action: &Action) -> bool {
        self.plan(seat, action).is_ok()
    }

    /// Apply `action` by `seat`. Validated completely before anything changes: on
    /// error the state is exactly as before — with one rule-made exception: under
    /// W-9 (`RuleSet::failed_go_down_penalty`) a refused go-down attempt of the
    /// active player adds the penalty to that player's round score (and is kept in
    /// the history, so that `replay` charges it again); the error's message says so.
    pub fn apply(&mut self, seat: usize, action: &Action) -> Result<Event> {
        self.apply_keeping::<Event>(seat, action, true)
    }

    /// [`Self::apply`] for a caller that reads only the round end (`sim::play_game`):
    /// the same state change and the same errors, but the event's `then` is left out,
    /// so the stock draw a closing window sets off is not boxed. `record_history`:
    /// false when no one will read this state's history (a simulated game whose bots
    /// never look at it): the action is then not appended, so `history()` stays as
    /// it was, while everything else changes exactly as under `apply`.
    pub(crate) fn apply_for_round_end(
        &mut self,
        seat: usize,
        action: &Action,
        record_history: bool,
    ) -> Result<Option<Box<RoundEnd>>> {
        self.apply_keeping::<RoundEndOnly>(seat, action, record_history)
            .map(|outcome| outcome.0)
    }

    #[inline(always)]
    fn apply_keeping<O: Outcome>(&mut self, seat: usize, action: &Action, record: bool) -> Result<O> {
        let plan = match self.usual_plan(seat, action) {
            Some(plan) => Ok(plan),
            None => self.plan(seat, action),
        };
        match plan {
            Ok(plan) => {
                if record {
                    self.history.push(seat as u8, action);
                }
                if self.selection.is_some() {
                    self.selection = None; // a move made: any half-chosen one is dropped
                }
                Ok(self.execute::<O>(seat as u8, plan))
            }
            Err(e) => Err(self.charge_failed_go_down(seat, action, e, record)),
        }
    }

    /// W-9: whether a refusal of `action` by `seat` is a failed go-down attempt that
    /// costs the penalty: the active player, in play, not yet down, holding every
    /// card named, whose melds are not a legal go-down.
    pub fn is_failed_go_down(&self, seat: usize, action: &Action, error: &Error) -> bool {
        matches!(action, Action::GoDown { .. })
            && self.rules.failed_go_down_penalty > 0
            && seat == self.active()
            && self.phase == Phase::Play
            && !self.seats[seat].down
            && matches!(
                error.code,
                ErrorCode::InvalidMeld
                    | ErrorCode::ContractNotMet
                    | ErrorCode::MeldSize
                    | ErrorCode::AdjacentRuns
                    | ErrorCode::WholeHandRequired
                    | ErrorCode::MustKeepDiscard
            )
    }

    fn charge_failed_go_down(&mut self, seat: usize, action: &Action, e: Error, record: bool) -> Error {
        if seat >= self.players() || !self.is_failed_go_down(seat, action, &e) {
            return e;
        }
        let points = self.rules.failed_go_down_penalty;
        self.seats[seat].penalty = self.seats[seat].penalty.saturating_add(i32::from(points));
        if record {
            self.history.push(seat as u8, action);
        }
        let reason = e.to_message();
        e.reworded(msg!(
            "go_down.failed_penalty",
            reason = reason,
            points = points,
            seat = seat
        ))
    }

    /// The plan of the most frequent actions when they are plainly allowed: the pass
    /// of the seat asked in a buying window (L-6.3), the active player's discard of a
    /// card it holds (L-5.5; not W-8's taken card) and its draw from the stock
    /// (L-5.1). `None`: ask [`Self::plan`], which decides everything (and the same
    /// for these).
    #[inline(always)]
    fn usual_plan(&self, seat: usize, action: &Action) -> Option<Plan<'static>> {
        let plan = match (action, self.phase) {
            (Action::Pass, Phase::Buying(w)) if self.next_asked(&w) == Some(seat) => Plan::Pass,
            (Action::Discard { card }, Phase::Play)
                if seat == self.active as usize
                    && self.seats[seat].hand.get(*card) > 0
                    && !(self.rules.no_discard_of_taken_card && self.taken_discard == Some(*card)) =>
            {
                Plan::Discard(*card)
            }
            // L-5.1 (Decision): a draw while the discard is on offer declines it first
            // when someone may buy it.
            (Action::DrawStock, Phase::Draw { declined }) if seat == self.active as usize => {
                if !declined && self.someone_could_buy() {
                    Plan::Decline { draw_after: true }
                } else {
                    Plan::DrawStock
                }
            }
            _ => return None,
        };
        debug_assert!(
            match (&plan, self.plan(seat, action)) {
                (Plan::Pass, Ok(Plan::Pass)) | (Plan::DrawStock, Ok(Plan::DrawStock)) => true,
                (Plan::Discard(a), Ok(Plan::Discard(b))) => *a == b,
                (Plan::Decline { draw_after: a }, Ok(Plan::Decline { draw_after: b })) => *a == b,
                _ => false,
            },
            "usual_plan and plan disagree on {action:?}"
        );
        Some(plan)
    }

    fn plan<'a>(&self, seat: usize, action: &'a Action) -> Result<Plan<'a>> {
        self.check_seat(seat)?;
        let seat = seat as u8;
        if matches!(self.phase, Phase::RoundOver | Phase::GameOver) {
            self.require_round_going_on(action)?;
        }
        match action {
            Action::Cut { size } => self.plan_cut(seat, *size),
            Action::TakeDiscard => self.plan_take(seat),
            Action::DeclineDiscard => {
                self.require_active(seat)?;
                match self.phase {
                    Phase::Draw { declined: false } => Ok(Plan::Decline { draw_after: false }),
                    Phase::Draw { declined: true } | Phase::Buying(_) => {
                        refuse(ErrorCode::WrongPhase, "L-5.1", msg!("discard.already_declined"))
                    }
                    _ => Err(self.wrong_phase(msg!("doing.decline_discard"), "L-5.1")),
                }
            }
            Action::Buy => self.plan_buy(seat),
            Action::Pass => self.plan_pass(seat),
            Action::DrawStock => self.plan_draw(seat),
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
                    return refuse(
                        ErrorCode::WrongPhase,
                        self.rules.cite("L-2.1", "C-2", "L-2.1"),
                        msg!("round.not_over"),
                    );
                }
                let next_dealer = (self.dealer + 1) % self.players;
                if seat != next_dealer {
                    return refuse(
                        ErrorCode::NotYourTurn,
                        self.rules.cite("L-2.1", "C-2", "L-2.1"),
                        msg!("round.next_dealer_starts", seat = next_dealer),
                    );
                }
                Ok(Plan::NextRound)
            }
            Action::CallRummy => self.plan_call_rummy(seat),
            Action::CallLiverpool { meld, end } => self.plan_call_liverpool(seat, *meld, *end),
        }
    }

    /// Does the rule set have either call of W-7?
    fn has_calls(&self) -> bool {
        self.rules.rummy_call || self.rules.liverpool_call
    }

    fn plan_take(&self, seat: u8) -> Result<Plan<'static>> {
        self.require_active(seat)?;
        match self.phase {
            Phase::Draw { declined: false } => {}
            Phase::Draw { declined: true } | Phase::Buying(_) => {
                return refuse(ErrorCode::WrongPhase, "L-5.1", msg!("discard.declined"))
            }
            _ => return Err(self.wrong_phase(msg!("doing.take_discard"), "L-5.1")),
        }
        let Some(top) = self.discard_top() else {
            return refuse(ErrorCode::WrongPhase, "L-5.1", msg!("discard.pile_empty"));
        };
        // W-8: a floating player (no cards) could neither discard the taken card this
        // turn nor, unless it fits a table meld, lay it off: it would have no move.
        let hand = &self.seats[seat as usize].hand;
        if self.rules.no_discard_of_taken_card && hand.total() == 0 && !self.fits_table(top) {
            return refuse(
                ErrorCode::DiscardTakenCard,
                "W-8",
                msg!("take.floating_no_move", seat = seat, card = top),
            );
        }
        Ok(Plan::TakeDiscard)
    }

    fn plan_draw(&self, seat: u8) -> Result<Plan<'static>> {
        match self.phase {
            Phase::Buying(w) => {
                let asked = self.next_asked(&w).unwrap_or(self.active as usize);
                refuse(
                    ErrorCode::NotYourTurn,
                    "L-5.1",
                    if w.draw_after {
                        msg!("draw.window_open_pending", asked = asked, active = self.active)
                    } else {
                        msg!("draw.window_open", asked = asked, active = self.active)
                    },
                )
            }
            _ => {
                self.require_active(seat)?;
                match self.phase {
                    // L-5.1 (Decision): a draw while a discard is on offer declines it;
                    // the buying window runs first when someone may buy.
                    Phase::Draw { declined: false } if self.someone_could_buy() => {
                        Ok(Plan::Decline { draw_after: true })
                    }
                    Phase::Draw { .. } => Ok(Plan::DrawStock),
                    _ => Err(self.wrong_phase(msg!("doing.draw_stock"), "L-5.1")),
                }
            }
        }
    }

    fn plan_pass(&self, seat: u8) -> Result<Plan<'static>> {
        match self.phase {
            Phase::Buying(w) => {
                // The seat asked now may pass (L-6.3); only another seat needs the
                // checks that explain a refusal.
                if self.next_asked(&w) == Some(seat as usize) {
                    debug_assert!(self.buy_refusal(seat, &w).is_none() && self.require_asked(seat, &w, false).is_ok());
                    return Ok(Plan::Pass);
                }
                if let Some(e) = self.buy_refusal(seat, &w) {
                    // The rule that keeps this seat out of the window decides (the
                    // previous buyer: L-6.4; the limit: C-5; …).
                    return refuse(
                        ErrorCode::NotYourTurn,
                        e.rule.unwrap_or("L-6.3"),
                        msg!("pass.not_asked", seat = seat, reason = e.to_message()),
                    );
                }
                self.require_asked(seat, &w, false)?;
                Ok(Plan::Pass)
            }
            Phase::Calling(w) => {
                if !self.in_call(seat, &w) {
                    return refuse(
                        ErrorCode::NotYourTurn,
                        "W-7",
                        msg!("call.not_asked", seat = seat, call = call_name(w.kind)),
                    );
                }
                self.require_call_turn(seat, &w)?;
                Ok(Plan::PassCall)
            }
            _ => refuse(
                ErrorCode::WrongPhase,
                self.rules.cite("L-6", "C-5", "W-6"),
                msg!("pass.no_window"),
            ),
        }
    }

    /// W-7 (Decision): the calls are offered nearest clockwise first; only the seat
    /// asked answers.
    fn require_call_turn(&self, seat: u8, w: &CallWindow) -> Result<()> {
        match self.next_call_asked(w) {
            Some(first) if first != seat as usize => refuse(
                ErrorCode::NotYourTurn,
                "W-7",
                msg!("call.asked_first", first = first, seat = seat, call = call_name(w.kind)),
            ),
            _ => Ok(()),
        }
    }

    /// Why no call can be made now, outside a call offer (W-7).
    fn no_call_now(&self, which: CallKind) -> Error {
        let why = match (self.phase, self.discard_top()) {
            (Phase::Cut, _) => msg!("phase.not_dealt"),
            (Phase::Draw { declined: false }, None) => msg!("call.why_no_discard"),
            (Phase::Draw { declined: false }, Some(top)) if !self.fits_table(top) => {
                msg!("call.why_no_fit", card = top)
            }
            // Nobody was asked when the offer could not be made: say why, never that
            // everyone passed (W-7 details).
            (Phase::Draw { declined: false }, Some(_)) if self.turn == 0 => msg!("call.why_up_card"),
            (Phase::Draw { declined: false }, Some(_))
                if which == CallKind::Rummy && !self.seats[self.previous_seat() as usize].down =>
            {
                msg!("call.discarder_not_down", seat = self.previous_seat())
            }
            (Phase::Draw { declined: false }, Some(_)) if which == CallKind::Rummy && !self.penalty_available() => {
                msg!("call.why_no_penalty_card")
            }
            (Phase::Draw { declined: false }, Some(top)) => msg!("call.why_everyone_passed", card = top),
            _ => msg!("call.why_chance_passed"),
        };
        Error::refused(
            ErrorCode::CallNotAllowed,
            "W-7",
            msg!("call.none_now", call = call_name(which), why = why),
        )
    }

    /// The seat before the active player: the discarder of the top discard, except
    /// after a Liverpool call (W-7.2), whose caller discarded it.
    fn previous_seat(&self) -> u8 {
        (self.active + self.players - 1) % self.players
    }

    fn plan_call_rummy(&self, seat: u8) -> Result<Plan<'static>> {
        if !self.rules.rummy_call {
            return refuse(ErrorCode::NotAllowed, "W-7.1", msg!("call.rummy_not_in_rules"));
        }
        let Phase::Calling(w) = self.phase else {
            return Err(self.no_call_now(CallKind::Rummy));
        };
        let no = |msg: Message| refuse(ErrorCode::CallNotAllowed, "W-7.1", msg);
        if w.kind == CallKind::Liverpool {
            return no(if self.seats[w.discarder as usize].down {
                msg!("call.rummy_passed_before_liverpool")
            } else {
                msg!("call.discarder_not_down", seat = w.discarder)
            });
        }
        if seat == w.discarder {
            return no(msg!("call.own_discard_rummy", seat = seat));
        }
        if w.passed >> seat & 1 == 1 {
            return no(msg!("call.already_passed", seat = seat, call = call_name(w.kind)));
        }
        self.require_call_turn(seat, &w)?;
        Ok(Plan::CallRummy)
    }

    fn plan_call_liverpool(&self, seat: u8, meld: usize, end: Option<End>) -> Result<Plan<'static>> {
        if !self.rules.liverpool_call {
            return refuse(ErrorCode::NotAllowed, "W-7.2", msg!("liverpool_call.not_in_rules"));
        }
        let Phase::Calling(w) = self.phase else {
            return Err(self.no_call_now(CallKind::Liverpool));
        };
        let no = |msg: Message| refuse(ErrorCode::CallNotAllowed, "W-7.2", msg);
        if seat == w.discarder {
            return no(msg!("call.own_discard_liverpool", seat = seat));
        }
        let caller = &self.seats[seat as usize];
        if !caller.down {
            return no(msg!("call.caller_not_down", seat = seat));
        }
        if caller.hand.total() == 0 {
            return no(msg!("call.caller_floating", seat = seat));
        }
        if w.kind == CallKind::Liverpool && w.passed >> seat & 1 == 1 {
            return no(msg!("call.already_passed", seat = seat, call = call_name(w.kind)));
        }
        if w.kind == CallKind::Rummy {
            // The rummy offer comes first; this seat's Liverpool turn comes after it.
            let first = self.next_call_asked(&w).unwrap_or(self.active as usize);
            return refuse(ErrorCode::NotYourTurn, "W-7", msg!("call.rummy_first", first = first));
        }
        self.require_call_turn(seat, &w)?;
        let card = self.discard_top().expect("a call offer has a discard");
        let Some(target) = self.table.get(meld) else {
            return refuse(
                ErrorCode::InvalidLayOff,
                "W-7.2",
                msg!("lay_off.no_such_meld", meld = meld, count = self.table.len()),
            );
        };
        let grown = target.meld.lay_off(&[card], end, &self.rules)?;
        Ok(Plan::CallLiverpool { meld, grown })
    }

    /// After a round (L-5.6) or the game (L-10.3) only `next_round` is left. Out of
    /// line, as are the other refusals below, so that `plan`'s usual path stays
    /// short.
    #[cold]
    #[inline(never)]
    fn require_round_going_on(&self, action: &Action) -> Result<()> {
        match (self.phase, action) {
            (Phase::GameOver, Action::NextRound) => refuse(
                ErrorCode::GameOver,
                self.rules.cite("L-10.3", "C-7", "W-10"),
                msg!("game.over_no_next_round"),
            ),
            (Phase::RoundOver | Phase::GameOver, Action::CallRummy | Action::CallLiverpool { .. })
                if self.has_calls() && self.went_out.is_some() =>
            {
                refuse(ErrorCode::CallNotAllowed, "W-7", msg!("call.after_going_out"))
            }
            (Phase::GameOver, _) => refuse(
                ErrorCode::RoundOver,
                self.rules.cite("L-10.3", "C-7", "W-10"),
                msg!("game.over"),
            ),
            (Phase::RoundOver, a) if *a != Action::NextRound => {
                refuse(ErrorCode::RoundOver, "L-5.6", msg!("round.over_only_next_round"))
            }
            _ => Ok(()),
        }
    }

    #[inline]
    fn require_active(&self, seat: u8) -> Result<()> {
        if seat != self.active {
            return Err(self.not_your_turn(seat));
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn not_your_turn(&self, seat: u8) -> Error {
        Error::refused(
            ErrorCode::NotYourTurn,
            "L-1.3",
            msg!("turn.not_your_turn", active = self.active, seat = seat),
        )
    }

    #[cold]
    #[inline(never)]
    fn wrong_phase(&self, what: Message, rule: &'static str) -> Error {
        let now = match self.phase {
            Phase::Cut => msg!("phase.not_dealt"),
            Phase::Draw { declined: false } => msg!("phase.not_drawn"),
            Phase::Draw { declined: true } => msg!("phase.declined_not_drawn"),
            Phase::Buying(_) => msg!("phase.buying_open"),
            Phase::Calling(w) => msg!("phase.calling", call = call_name(w.kind)),
            Phase::CallDiscard { caller } => msg!("phase.call_discard", seat = caller),
            Phase::Play => msg!("phase.already_drawn"),
            Phase::RoundOver | Phase::GameOver => msg!("phase.round_over"),
        };
        Error::refused(ErrorCode::WrongPhase, rule, msg!("phase.wrong", what = what, now = now))
    }

    /// `what` names the refused play; it is built only for a refusal.
    fn require_play(&self, seat: u8, what: impl FnOnce() -> Message, rule: &'static str) -> Result<()> {
        self.require_active(seat)?;
        if self.phase != Phase::Play {
            return Err(self.wrong_phase(what(), rule));
        }
        Ok(())
    }

    /// L-5.5 / L-7.3: after giving up `used`, does the hand still hold a card it may
    /// discard? Under W-8's `no_discard_of_taken_card` a lone copy of the card taken
    /// from the discard pile does not count, so no player is ever left without a
    /// legal move.
    /// `left`: the cards left in hand after giving up `used`.
    fn keeps_a_discard(&self, seat: u8, used: &CardCounts, left: usize) -> bool {
        let hand = &self.seats[seat as usize].hand;
        match (left, self.taken_discard) {
            (0, _) => false,
            (1, Some(taken)) if self.rules.no_discard_of_taken_card => hand.get(taken) - used.get(taken) != 1,
            _ => true,
        }
    }

    /// Whether a play that gives up `used` is allowed by L-5.5 / W-8, and whether it
    /// leaves the player floating: `Some(false)` when a card the player may discard
    /// is left, `Some(true)` when the hand is empty and the rules allow floating
    /// (W-8), `None` when the play must be refused (`must_keep_discard`).
    pub(super) fn after_play(&self, seat: u8, used: &CardCounts) -> Option<bool> {
        let left = self.seats[seat as usize].hand.total() - used.total();
        self.after_play_of(seat, used, left)
    }

    /// [`Self::after_play`] with the cards `left` in hand already counted.
    fn after_play_of(&self, seat: u8, used: &CardCounts, left: usize) -> Option<bool> {
        if left == 0 && self.rules.floating && !self.contract().whole_hand {
            Some(true)
        } else if self.keeps_a_discard(seat, used, left) {
            Some(false)
        } else {
            None
        }
    }

    /// [`Self::after_play`] as a refusal.
    fn require_after_play(&self, seat: u8, used: &CardCounts, rule: &'static str) -> Result<bool> {
        let left = self.seats[seat as usize].hand.total() - used.total();
        self.after_play_of(seat, used, left).ok_or_else(|| {
            let msg = if left > 0 {
                msg!("discard.must_keep_lay_taken_first")
            } else {
                msg!("discard.must_keep")
            };
            Error::refused(ErrorCode::MustKeepDiscard, rule, msg)
        })
    }

    /// The cards of `cards` as counts, if the seat holds them all (counting copies).
    fn require_cards(&self, seat: u8, cards: impl IntoIterator<Item = Card> + Clone) -> Result<CardCounts> {
        let hand = &self.seats[seat as usize].hand;
        // One pass when the seat holds every card (each count stays within the hand's,
        // so it fits a byte); only a refusal takes the slower path below, which names
        // the first card named too often.
        let mut named = CardCounts::default();
        let held = cards.clone().into_iter().all(|c| {
            let n = &mut named.0[c.id() as usize];
            let fits = *n < hand.get(c);
            *n += u8::from(fits);
            fits
        });
        if held {
            return Ok(named);
        }
        self.cards_not_held(seat, cards)
    }

    /// [`Self::require_cards`]'s refusal: the first card named more often than held.
    #[cold]
    #[inline(never)]
    fn cards_not_held(&self, seat: u8, cards: impl IntoIterator<Item = Card> + Clone) -> Result<CardCounts> {
        let hand = &self.seats[seat as usize].hand;
        let named = |c: Card| cards.clone().into_iter().filter(|&x| x == c).count();
        if let Some(c) = cards.clone().into_iter().find(|&c| named(c) > hand.get(c) as usize) {
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

    /// [`Self::require_cards`] for one card, without counting.
    fn require_card(&self, seat: u8, card: Card) -> Result<()> {
        if self.seats[seat as usize].hand.get(card) == 0 {
            self.require_cards(seat, [card])?;
        }
        Ok(())
    }

    fn plan_cut(&self, seat: u8, size: Option<i64>) -> Result<Plan<'static>> {
        if self.phase != Phase::Cut {
            return refuse(
                ErrorCode::WrongPhase,
                self.rules.cite("L-2.2", "C-2", "L-2.2"),
                msg!("cut.already_dealt", round = self.round),
            );
        }
        let cutter = self.cutter();
        if seat as usize != cutter {
            return refuse(
                ErrorCode::NotYourTurn,
                self.rules.cite("L-2.2", "C-2", "L-2.2"),
                msg!("cut.not_the_cutter", cutter = cutter, seat = seat),
            );
        }
        let mut rng = self.rng.clone();
        let size = match size {
            None => draw_cut(&mut rng, self.stock.len(), self.rules.cut_range),
            Some(k) if k >= 1 && (k as u64) < self.stock.len() as u64 => k as usize,
            Some(k) => {
                let e = bad_cut(k, self.stock.len());
                return Err(Error {
                    rule: Some(self.rules.cite("L-2.2", "C-2", "L-2.2")),
                    ..e
                });
            }
        };
        let deck: Vec<Card> = self.stock.iter().rev().copied().collect(); // top first
        let dealt = deal_round(&deck, &self.rules, self.players, self.round, self.dealer, size)?;
        Ok(Plan::Cut(Box::new(dealt), rng))
    }

    fn plan_buy(&self, seat: u8) -> Result<Plan<'static>> {
        let cite = |l, c, w| self.rules.cite(l, c, w);
        if self.rules.buying == BuyingRule::Off {
            return refuse(
                ErrorCode::BuyNotAllowed,
                cite("L-6", "C-8", "W-6"),
                msg!("buy.off_in_rules"),
            );
        }
        if seat == self.active {
            return refuse(
                ErrorCode::BuyNotAllowed,
                cite("L-6.2", "C-5", "W-6"),
                msg!("buy.active_player", seat = seat),
            );
        }
        let w = match self.phase {
            Phase::Buying(w) => w,
            Phase::Draw { declined: true } if !self.discard.is_empty() && !self.penalty_available() => {
                return refuse(ErrorCode::BuyNotAllowed, "L-6.6", msg!("buy.no_penalty_card"))
            }
            Phase::Draw { declined: true } => {
                return refuse(
                    ErrorCode::BuyNotAllowed,
                    cite("L-6.4", "C-5", "W-6"),
                    msg!("buy.window_closed"),
                )
            }
            Phase::Calling(w) => {
                return refuse(
                    ErrorCode::WrongPhase,
                    "W-7",
                    msg!("buy.calls_first", call = call_name(w.kind)),
                )
            }
            _ => {
                return refuse(
                    ErrorCode::WrongPhase,
                    cite("L-6.1", "C-5", "W-6"),
                    msg!("buy.before_decline"),
                )
            }
        };
        // As for a pass: the seat asked now may buy.
        if self.next_asked(&w) == Some(seat as usize) {
            debug_assert!(self.buy_refusal(seat, &w).is_none() && self.require_asked(seat, &w, true).is_ok());
            return Ok(Plan::Buy);
        }
        if let Some(e) = self.buy_refusal(seat, &w) {
            return Err(e);
        }
        self.require_asked(seat, &w, true)?;
        Ok(Plan::Buy)
    }

    fn plan_go_down<'a>(&self, seat: u8, groups: &'a [Vec<Card>]) -> Result<Plan<'a>> {
        self.require_play(seat, || msg!("doing.go_down"), "L-5.2")?;
        if self.seats[seat as usize].down {
            return refuse(
                ErrorCode::AlreadyDown,
                "L-4.6",
                msg!("go_down.already_down", seat = seat),
            );
        }
        if groups.iter().all(|g| g.is_empty()) {
            return refuse(
                ErrorCode::ContractNotMet,
                "L-4.6",
                msg!(
                    "go_down.no_cards",
                    contract = self.rules.contract_message(&self.contract())
                ),
            );
        }
        let used = self.require_cards(seat, groups.iter().flatten().copied())?;
        let contract = self.contract();
        let shapes = go_down_shapes(groups, &contract, &self.rules).map_err(|e| {
            if contract.whole_hand && e.code == ErrorCode::ContractNotMet {
                let reason = e.to_message();
                Error::refused(
                    ErrorCode::WholeHandRequired,
                    self.rules.whole_hand_rule(self.round),
                    reason,
                )
            } else {
                e
            }
        })?;
        let hand = &self.seats[seat as usize].hand;
        let left = hand.total() - used.total();
        if contract.whole_hand && left > 0 {
            return refuse(
                ErrorCode::WholeHandRequired,
                self.rules.whole_hand_rule(self.round),
                if left == 1 {
                    msg!("go_down.whole_hand_one_left")
                } else {
                    msg!("go_down.whole_hand", left = left)
                },
            );
        }
        let floats = if contract.whole_hand {
            false
        } else {
            self.require_after_play(seat, &used, self.rules.cite("L-5.5", "C-6", "L-5.5"))?
        };
        Ok(Plan::GoDown {
            groups,
            shapes,
            ends_round: contract.whole_hand,
            floats,
        })
    }

    /// Shared checks of lay-offs and swaps: phase, round 7, down, and timing (L-5.3, L-7.2, L-8.3).
    fn require_after_go_down(&self, seat: u8, swap: bool, rule: &'static str) -> Result<()> {
        let what = || {
            if swap {
                msg!("doing.joker_swap")
            } else {
                msg!("doing.lay_off")
            }
        };
        self.require_play(seat, what, rule)?;
        if self.contract().whole_hand {
            let round = self.round;
            let msg = if swap {
                msg!("round.no_joker_swap", round = round)
            } else {
                msg!("round.no_lay_off", round = round)
            };
            return refuse(ErrorCode::WrongPhase, self.rules.cite("L-8.3", "C-6", "L-8.3"), msg);
        }
        if !self.seats[seat as usize].down {
            return refuse(ErrorCode::NotDown, rule, msg!("seat.not_down", seat = seat));
        }
        Ok(())
    }

    fn plan_lay_off<'a>(&self, seat: u8, meld: usize, cards: &'a [Card], end: Option<End>) -> Result<Plan<'a>> {
        let timing = self.rules.cite("L-5.3", "C-6", "W-5");
        self.require_after_go_down(seat, false, timing)?;
        if self.down_this_turn && !self.rules.lay_off_on_go_down_turn {
            return refuse(ErrorCode::SameTurnAsGoDown, timing, msg!("lay_off.same_turn"));
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
        let used = self.require_cards(seat, cards.iter().copied())?;
        // One card (the usual lay-off) is judged without building the grown meld.
        let one = match cards {
            [card] => target.meld.judge_lay_off_one(*card, end, &self.rules),
            _ => None,
        };
        let grown = match one {
            Some(one) => {
                debug_assert_eq!(
                    target.meld.lay_off(cards, end, &self.rules).ok(),
                    Some(target.meld.grown_by(&one))
                );
                Grown::One(one)
            }
            None => Grown::Built(target.meld.lay_off(cards, end, &self.rules)?),
        };
        let floats = self.require_after_play(seat, &used, self.rules.cite("L-5.5", "C-6", "L-5.5"))?;
        Ok(Plan::LayOff {
            meld,
            cards,
            grown,
            floats,
        })
    }

    fn plan_swap(&self, seat: u8, meld: usize, card: Card, to_meld: usize, end: Option<End>) -> Result<Plan<'static>> {
        let swap_rule = self.rules.cite("L-7.2", "C-4", "W-4");
        self.require_after_go_down(seat, true, swap_rule)?;
        match self.rules.joker_swap {
            JokerSwapRule::Off => {
                return refuse(
                    ErrorCode::NotAllowed,
                    self.rules.cite("L-7", "C-4", "W-4"),
                    msg!("swap.off_in_rules"),
                )
            }
            JokerSwapRule::AfterGoDownTurn if self.down_this_turn => {
                return refuse(ErrorCode::SameTurnAsGoDown, "L-7.2", msg!("swap.same_turn"))
            }
            JokerSwapRule::OnGoDownTurn if !self.down_this_turn => {
                return refuse(ErrorCode::NotAllowed, "W-4", msg!("swap.only_go_down_turn"))
            }
            _ => {}
        }
        let used = self.require_cards(seat, [card])?;
        let Some(source) = self.table.get(meld) else {
            return refuse(
                ErrorCode::SwapMismatch,
                swap_rule,
                msg!("swap.no_such_meld", meld = meld),
            );
        };
        if !self.rules.swap_own_jokers && source.owner == seat as usize {
            return refuse(
                ErrorCode::OwnJoker,
                "W-4",
                msg!("swap.own_joker", meld = meld, seat = seat),
            );
        }
        let swapped = source.meld.swap_joker(card).map_err(|e| {
            // W-4 decides both refusals in profile W (only a run's joker, for the exact card).
            Error {
                rule: e.rule.map(|r| self.rules.cite(r, r, "W-4")),
                ..e
            }
        })?;
        if to_meld == meld {
            return refuse(ErrorCode::JokerUnplaced, swap_rule, msg!("swap.same_meld"));
        }
        let Some(target) = self.table.get(to_meld) else {
            return refuse(
                ErrorCode::JokerUnplaced,
                swap_rule,
                msg!("swap.no_target_meld", meld = to_meld),
            );
        };
        let grown = target.meld.lay_off(&[Card::JOKER], end, &self.rules).map_err(|e| {
            Error::refused(
                ErrorCode::JokerUnplaced,
                swap_rule,
                msg!("swap.joker_unplaced", meld = to_meld, reason = e.to_message()),
            )
        })?;
        let floats = self.require_after_play(seat, &used, "L-7.3")?;
        Ok(Plan::Swap {
            meld,
            card,
            to_meld,
            melds: Box::new((swapped, grown)),
            floats,
        })
    }

    fn plan_discard(&self, seat: u8, card: Card) -> Result<Plan<'static>> {
        if let Phase::CallDiscard { caller } = self.phase {
            // W-7.2: the Liverpool caller discards one card.
            if seat != caller {
                return refuse(
                    ErrorCode::NotYourTurn,
                    "W-7.2",
                    msg!("call.discards_now", seat = caller),
                );
            }
            self.require_card(seat, card)?;
            return Ok(Plan::Discard(card));
        }
        self.require_play(seat, || msg!("doing.discard"), "L-5.5")?;
        self.require_card(seat, card)?;
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

    // Inlined into `apply`, its only caller, so the event is built where `apply`
    // returns it instead of being copied there (it holds a whole `RoundEnd`).
    /// `O`: the whole event (`apply`), or only the round end (the simulator's
    /// `apply_for_round_end`, which builds no event and no card lists).
    #[inline(always)]
    fn execute<O: Outcome>(&mut self, seat: u8, plan: Plan<'_>) -> O {
        let mut recycled = None;
        let mut round_end = None;
        let mut floating = false;
        let mut then: Option<O> = None;
        let s = seat as usize;
        let kind = match plan {
            Plan::Cut(dealt, rng) => {
                self.rng = rng;
                self.deal(*dealt)
            }
            Plan::TakeDiscard => {
                let card = self.discard.pop().expect("checked: pile not empty");
                self.seats[s].hand.0[card.id() as usize] += 1;
                // W-8: remembered only where it may not be discarded (a loaded position
                // refuses it elsewhere, so positions round-trip).
                self.taken_discard = self.rules.no_discard_of_taken_card.then_some(card);
                self.phase = Phase::Play;
                EventKind::TookDiscard { card }
            }
            Plan::Decline { draw_after } => {
                let card = self.discard_top();
                self.window_changed(
                    BuyWindow {
                        last_buyer: None,
                        passed: 0,
                        draw_after,
                    },
                    &mut then,
                );
                EventKind::DeclinedDiscard {
                    card,
                    window_open: matches!(self.phase, Phase::Buying(_)),
                    draw_after,
                }
            }
            Plan::Buy => {
                let Phase::Buying(w) = self.phase else {
                    unreachable!("checked: a buy happens in an open window")
                };
                let card = self.discard.pop().expect("checked: pile not empty");
                self.seats[s].hand.0[card.id() as usize] += 1;
                let (penalty, r) = self.draw_from_stock();
                recycled = r;
                let penalty = penalty.expect("checked: a penalty card is available");
                self.seats[s].hand.0[penalty.id() as usize] += 1;
                self.seats[s].buys = self.seats[s].buys.saturating_add(1);
                if self.rules.buying == BuyingRule::Single {
                    // C-5 / W-6: one buy closes the window.
                    then = self.close_window(w.draw_after);
                } else {
                    self.window_changed(
                        BuyWindow {
                            last_buyer: Some(seat),
                            passed: 0,
                            draw_after: w.draw_after,
                        },
                        &mut then,
                    );
                }
                EventKind::Bought { card, penalty }
            }
            Plan::Pass => {
                let Phase::Buying(mut w) = self.phase else {
                    unreachable!("checked: a pass happens in an open window")
                };
                w.passed |= 1 << seat;
                self.window_changed(w, &mut then);
                EventKind::Passed { call: None }
            }
            Plan::DrawStock => {
                let drawn: Event = self.draw_for_active();
                recycled = drawn.recycled;
                if let Some(end) = drawn.round_end {
                    round_end = Some(Box::new(end));
                }
                drawn.kind
            }
            Plan::PassCall => {
                let Phase::Calling(mut w) = self.phase else {
                    unreachable!("checked: a call pass happens in a call offer")
                };
                w.passed |= 1 << seat;
                self.phase = if self.next_call_asked(&w).is_some() {
                    Phase::Calling(w)
                } else {
                    // W-7 (Decision): rummy is offered before Liverpool.
                    let next = match w.kind {
                        CallKind::Rummy => self.liverpool_offer(w.discarder),
                        CallKind::Liverpool => None,
                    };
                    next.map_or(Phase::Draw { declined: false }, Phase::Calling)
                };
                EventKind::Passed { call: Some(w.kind) }
            }
            Plan::CallRummy => {
                let Phase::Calling(w) = self.phase else {
                    unreachable!("checked: a call happens in a call offer")
                };
                // W-7.1: the offender takes the discard back plus a penalty card; play
                // goes on with the next player.
                let offender = w.discarder as usize;
                let card = self.discard.pop().expect("a call offer has a discard");
                self.seats[offender].hand.0[card.id() as usize] += 1;
                let (penalty, r) = self.draw_from_stock();
                recycled = r;
                let penalty = penalty.expect("checked: the offer needs a penalty card");
                self.seats[offender].hand.0[penalty.id() as usize] += 1;
                self.phase = Phase::Draw { declined: false };
                EventKind::CalledRummy {
                    discarder: offender,
                    card,
                    penalty,
                }
            }
            Plan::CallLiverpool { meld, grown } => {
                // W-7.2: the caller takes the card and lays it off at once, then discards.
                let card = self.discard.pop().expect("a call offer has a discard");
                self.table[meld].meld = grown;
                self.phase = Phase::CallDiscard { caller: seat };
                EventKind::CalledLiverpool { card, meld }
            }
            Plan::GoDown {
                groups,
                shapes,
                ends_round,
                floats,
            } => {
                let first = self.table.len();
                let count = groups.len();
                // Checked: the hand holds every card (the plan carries no counts, to
                // stay small).
                groups
                    .iter()
                    .flatten()
                    .for_each(|c| self.seats[s].hand.0[c.id() as usize] -= 1);
                self.table
                    .extend(groups.iter().zip(shapes.shapes()).map(|(cards, shape)| TableMeld {
                        owner: s,
                        meld: shape.with_cards(with_room_to_grow(cards)),
                    }));
                self.seats[s].down = true;
                self.down_this_turn = true;
                if ends_round {
                    round_end = Some(Box::new(self.end_round(Some(seat), RoundEndReason::WholeHand)));
                } else if floats {
                    floating = true;
                    round_end = self.end_turn();
                }
                EventKind::WentDown {
                    // The simulator's path reads no event: no list built.
                    melds: if O::FULL {
                        (first..first + count).collect()
                    } else {
                        Vec::new()
                    },
                }
            }
            Plan::LayOff {
                meld,
                cards,
                grown,
                floats,
            } => {
                cards.iter().for_each(|c| self.seats[s].hand.0[c.id() as usize] -= 1);
                match grown {
                    Grown::One(one) => self.table[meld].meld.grow(&one),
                    Grown::Built(grown) => self.table[meld].meld = grown,
                }
                if floats {
                    floating = true;
                    round_end = self.end_turn();
                }
                // The cards in id order, as `CardCounts::to_cards` lists them,
                // without walking every card kind (none for the simulator's path).
                let laid = if O::FULL {
                    let mut laid = cards.to_vec();
                    laid.sort_unstable();
                    debug_assert_eq!(laid, CardCounts::from_cards(cards).to_cards());
                    laid
                } else {
                    Vec::new()
                };
                EventKind::LaidOff { meld, cards: laid }
            }
            Plan::Swap {
                meld,
                card,
                to_meld,
                melds,
                floats,
            } => {
                let (swapped, grown) = *melds;
                self.seats[s].hand.0[card.id() as usize] -= 1;
                self.table[meld].meld = swapped;
                self.table[to_meld].meld = grown;
                if floats {
                    floating = true;
                    round_end = self.end_turn();
                }
                EventKind::SwappedJoker { meld, card, to_meld }
            }
            Plan::Discard(card) => {
                self.seats[s].hand.0[card.id() as usize] -= 1;
                self.discard.push(card);
                // No count left (cheaper than summing them).
                let went_out = self.seats[s].hand.0.iter().all(|&n| n == 0);
                let liverpool_discard = matches!(self.phase, Phase::CallDiscard { .. });
                if went_out {
                    if !liverpool_discard {
                        self.turn += 1;
                    }
                    round_end = Some(Box::new(self.end_round(Some(seat), RoundEndReason::WentOut)));
                } else if liverpool_discard {
                    // W-7.2: rotation resumes with the player after the original discarder.
                    self.phase = Phase::Draw { declined: false };
                } else {
                    round_end = self.end_turn();
                }
                // W-7: a discard that fits a table meld is offered to the calls (checked
                // here first: most rule sets have none, and the offer is out of line).
                let calls = if round_end.is_none() && self.has_calls() {
                    self.call_offer(seat).inspect(|w| self.phase = Phase::Calling(*w))
                } else {
                    None
                };
                EventKind::Discarded {
                    card,
                    went_out,
                    calls: calls.map(|w| w.kind),
                }
            }
            Plan::NextRound => {
                self.start_round(self.round + 1, (self.dealer + 1) % self.players);
                EventKind::RoundStarted {
                    round: self.round,
                    dealer: self.dealer(),
                }
            }
        };
        // The outer event reports any round end the action caused, also one caused
        // by the stock draw that followed it (L-9.2).
        if round_end.is_none() {
            if let Some(t) = then.as_mut().filter(|t| t.has_round_end()) {
                round_end = t.take_round_end();
            }
        }
        O::new(s, kind, recycled, round_end, floating, then)
    }

    /// The turn of the active player ends (a discard, or W-8 floating): the next seat
    /// is to draw, or the round ends at the turn cap (L-9.3). Boxed, as `execute`
    /// keeps a round end.
    fn end_turn(&mut self) -> Option<Box<RoundEnd>> {
        self.turn += 1;
        if self.turn >= self.rules.max_turns_per_round {
            return Some(Box::new(self.end_round(None, RoundEndReason::TurnLimit)));
        }
        self.active = (self.active + 1) % self.players;
        self.phase = Phase::Draw { declined: false };
        self.down_this_turn = false;
        self.taken_discard = None;
        None
    }

    /// The window changed: it stays open while someone is left to ask, else it
    /// closes (see [`Self::close_window`]) and `then` gets the stock draw it set off,
    /// if any. Inlined: after most passes the window stays open, and that case is a
    /// few instructions (no event is moved).
    #[inline(always)]
    fn window_changed<O: Outcome>(&mut self, w: BuyWindow, then: &mut Option<O>) {
        if self.rules.buying != BuyingRule::Off && self.next_asked(&w).is_some() {
            self.phase = Phase::Buying(w);
        } else {
            *then = self.close_window(w.draw_after);
        }
    }

    /// The buying window closes: the active player is to draw from the stock, or,
    /// when it already asked to (L-5.1 Decision), gets the stock card now: the
    /// returned event.
    #[inline(never)]
    fn close_window<O: Outcome>(&mut self, draw_after: bool) -> Option<O> {
        self.phase = Phase::Draw { declined: true };
        draw_after.then(|| self.draw_for_active())
    }

    /// L-5.1 / L-6.5: the active player draws the top card of the stock (recycling
    /// the pile if needed, L-9.1); with no stock to form, the round ends (L-9.2).
    fn draw_for_active<O: Outcome>(&mut self) -> O {
        let s = self.active as usize;
        let (card, recycled) = self.draw_from_stock();
        let round_end = match card {
            Some(c) => {
                self.seats[s].hand.0[c.id() as usize] += 1;
                self.phase = Phase::Play;
                None
            }
            None => Some(Box::new(self.end_round(None, RoundEndReason::StockExhausted))),
        };
        O::new(s, EventKind::DrewStock { card }, recycled, round_end, false, None)
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

    /// L-10: score the round (cards left in hand, the cut bonus, W-9 penalties), add
    /// to the totals, and move to `RoundOver`, or `GameOver` after the last round.
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
            seat.round_score = left.saturating_add(bonus).saturating_add(seat.penalty);
            seat.total = seat.total.saturating_add(seat.round_score);
        }
        self.went_out = winner;
        // The turn ended with the round: its turn-scoped flags no longer apply (and
        // positions only allow them in phase play).
        self.down_this_turn = false;
        self.taken_discard = None;
        let game_over = self.round >= self.rules.rounds();
        self.phase = if game_over { Phase::GameOver } else { Phase::RoundOver };
        let n = self.players();
        let bonus = self.cut_bonus.map_or(Vec::new(), |c| {
            (0..n)
                .map(|s| if s == c as usize { self.rules.cut_bonus } else { 0 })
                .collect()
        });
        let penalties = self.penalties();
        RoundEnd {
            round: self.round,
            winner: winner.map(usize::from),
            reason,
            scores: self.seats.iter().map(|s| s.round_score).collect(),
            totals: self.totals(),
            game_over,
            winners: self.winners(),
            cut_bonus: if bonus.iter().any(|&b| b != 0) {
                bonus
            } else {
                Vec::new()
            },
            penalties: if penalties.iter().any(|&p| p != 0) {
                penalties
            } else {
                Vec::new()
            },
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
            Phase::Calling(w) => {
                if w.discarder as usize >= n || (w.passed >> n) != 0 {
                    return bad(msg!("position.calling_seats"));
                }
                let allowed = match w.kind {
                    CallKind::Rummy => self.rules.rummy_call && self.seats[w.discarder as usize].down,
                    CallKind::Liverpool => self.rules.liverpool_call,
                };
                if !allowed {
                    return bad(msg!("position.calling_not_allowed", call = call_name(w.kind)));
                }
                if !self.discard_top().is_some_and(|c| self.fits_table(c)) {
                    return bad(msg!("position.calling_no_fit"));
                }
                if self.next_call_asked(&w).is_none() {
                    return bad(msg!("position.calling_nobody"));
                }
            }
            Phase::CallDiscard { caller }
                if caller as usize >= n
                    || !self.seats[caller as usize].down
                    || self.seats[caller as usize].hand.total() == 0 =>
            {
                return bad(msg!("position.call_discard"));
            }
            Phase::Play if self.seats[self.active as usize].hand.total() == 0 => {
                return bad(msg!("position.play_empty_hand"));
            }
            _ => {}
        }
        Ok(())
    }
}
