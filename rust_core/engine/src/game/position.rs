//! Positions: the JSON of CONFORMANCE.md "Position" — load, validate, save — and
//! the conversion to and from `GameState`. See docs/positions.md.
//!
//! Besides the fields CONFORMANCE.md lists, a position may carry a few extension
//! fields so that *every* state can be written and read back exactly: `declined`,
//! `buying`, `calling`, `caller`, `penalties`, `turn`, `round_scores`, `winner` and
//! `rng`. Readers that do not know them ignore them.

use super::action::History;
use super::phase::{BuyWindow, CallKind, CallWindow, Phase};
use super::serde_cards;
use super::state::{GameState, SeatState, TableMeld, MAX_SEATS};
use crate::card::{Card, CardCounts, CARD_KINDS};
use crate::error::{Error, ErrorCode, Message, Result};
use crate::limits::{read_capped, ReadError, MAX_INPUT_BYTES};
use crate::meld::{Meld, MeldKind};
use crate::msg;
use crate::rng::Rng;
use crate::rules::RuleSet;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Arc;

/// A table meld in a position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PositionMeld {
    pub owner: usize,
    /// A set in any order; a run low to high (a joker's place fixes its card).
    #[serde(with = "serde_cards::list")]
    pub cards: Vec<Card>,
    /// Only needed when the cards read both ways (e.g. `7♠ JK JK`); default: set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<MeldKind>,
}

/// The open buying window of a position in phase `buying` (extension).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PositionWindow {
    /// L-6.4: the buyer of the previous card, skipped for the current one.
    #[serde(default)]
    pub last_buyer: Option<usize>,
    /// Seats that have passed on the current top card.
    #[serde(default)]
    pub passed: Vec<usize>,
    /// L-5.1 (Decision): the active player drew from the stock while the discard was
    /// on offer; the stock card is theirs when the window closes.
    #[serde(default, skip_serializing_if = "is_false")]
    pub draw_after: bool,
}

/// The open W-7 call offer of a position in phase `calling` (extension).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PositionCalls {
    /// `rummy` (W-7.1) or `liverpool` (W-7.2).
    pub kind: CallKind,
    /// The seat whose discard (the top of the pile) is on offer.
    pub discarder: usize,
    /// Seats that have passed on this offer.
    #[serde(default)]
    pub passed: Vec<usize>,
}

/// The exact RNG state (extension): `state` is the 128-bit PCG state in hex.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PositionRng {
    pub state: String,
    #[serde(default)]
    pub spare: Option<u32>,
}

fn default_profile() -> String {
    "liverpool".into()
}
fn default_round() -> u8 {
    1
}
fn default_phase() -> String {
    "draw".into()
}
fn is_false(b: &bool) -> bool {
    !*b
}
fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A frozen moment of a round (CONFORMANCE.md "Position"). Stock top first,
/// discard pile bottom first. Missing optional fields take their starting values.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    #[serde(default = "default_profile")]
    pub profile: String,
    /// Default: the number of hands (or the profile's default player count).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<usize>,
    #[serde(default = "default_round")]
    pub round: u8,
    /// Default: the last seat (so seat 0 plays first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dealer: Option<usize>,
    /// Default: the dealer's left neighbour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active: Option<usize>,
    /// `cut`, `draw`, `play`; extensions `buying`, `round_over`, `game_over`.
    #[serde(default = "default_phase")]
    pub phase: String,
    #[serde(default, with = "serde_cards::hands")]
    pub hands: Vec<Vec<Card>>,
    #[serde(default, with = "serde_cards::list")]
    pub stock: Vec<Card>,
    #[serde(default, with = "serde_cards::list")]
    pub discard: Vec<Card>,
    #[serde(default)]
    pub table: Vec<PositionMeld>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub down: Option<Vec<bool>>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub down_this_turn: bool,
    /// Scores before this round (in `round_over` / `game_over`: after it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub totals: Option<Vec<i32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buys: Option<Vec<u8>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cut_bonus: Option<usize>,
    #[serde(default, with = "serde_cards::opt", skip_serializing_if = "Option::is_none")]
    pub taken_discard: Option<Card>,
    /// Seeds the RNG for shuffles the steps cause (ignored when `rng` is given).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Extension: in phase `draw`, the active player declined the top discard and
    /// the buying window has closed (only `draw_stock` remains).
    #[serde(default, skip_serializing_if = "is_false")]
    pub declined: bool,
    /// Extension: the open buying window in phase `buying`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buying: Option<PositionWindow>,
    /// Extension (W-7): the call offer in phase `calling`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calling: Option<PositionCalls>,
    /// Extension (W-7.2): in phase `call_discard`, the Liverpool caller who discards next.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caller: Option<usize>,
    /// Extension (W-9): points charged this round for failed go-down attempts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub penalties: Option<Vec<i32>>,
    /// Extension: turns completed this round (L-9.3 safeguard).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub turn: u32,
    /// Extension: in `round_over` / `game_over`, the round's scores.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round_scores: Option<Vec<i32>>,
    /// Extension: in `round_over` / `game_over`, the seat that went out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<usize>,
    /// Extension: the exact RNG state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rng: Option<PositionRng>,
}

/// `bad_position` for an input of `bytes` bytes, beyond the limit `max`.
pub(crate) fn too_large(bytes: u64, max: usize) -> Error {
    Error::with(
        ErrorCode::BadPosition,
        None,
        msg!("input.too_large", bytes = bytes, max = max),
    )
}

/// Refuse a text longer than `max` bytes before parsing it.
pub(crate) fn check_size(bytes: usize, max: usize) -> Result<()> {
    if bytes > max {
        return Err(too_large(bytes as u64, max));
    }
    Ok(())
}

fn bad<T>(msg: Message) -> Result<T> {
    Err(Error::with(ErrorCode::BadPosition, None, msg))
}

/// An error in the position's field `field` (e.g. its rules), as `bad_position`.
fn field_error(field: &'static str) -> impl Fn(Error) -> Error {
    move |e| {
        let reason = e.to_message();
        Error::with(
            ErrorCode::BadPosition,
            e.rule,
            msg!("position.field_error", field = field, reason = reason),
        )
    }
}

impl Position {
    /// Parse a position from JSON; unknown fields are ignored.
    pub fn from_json(text: &str) -> Result<Position> {
        check_size(text.len(), MAX_INPUT_BYTES)?;
        serde_json::from_str(text)
            .map_err(|e| Error::with(ErrorCode::BadPosition, None, msg!("position.bad_json", error = e)))
    }

    pub fn from_value(value: serde_json::Value) -> Result<Position> {
        serde_json::from_value(value)
            .map_err(|e| Error::with(ErrorCode::BadPosition, None, msg!("position.bad_json", error = e)))
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a position always serializes")
    }

    pub fn load(path: &Path) -> Result<Position> {
        let text = read_capped(path, MAX_INPUT_BYTES).map_err(|e| match e {
            ReadError::Io(e) => Error::with(
                ErrorCode::BadPosition,
                None,
                msg!("file.cannot_read", path = path.display(), error = e),
            ),
            ReadError::TooLarge { bytes, max } => too_large(bytes, max),
        })?;
        Position::from_json(&text)
    }

    pub fn save(&self, path: &Path) -> Result<()> {
        std::fs::write(path, self.to_json()).map_err(|e| {
            Error::with(
                ErrorCode::InvalidArgument,
                None,
                msg!("file.cannot_write", path = path.display(), error = e),
            )
        })
    }

    /// The profile's preset rule set (`bad_position` for an unknown profile).
    pub fn rules(&self) -> Result<RuleSet> {
        RuleSet::preset(&self.profile).map_err(field_error("profile"))
    }

    /// Refuse an inconsistent position with a sentence saying what is wrong.
    pub fn validate(&self) -> Result<()> {
        GameState::from_position(self).map(|_| ())
    }
}

fn seat_list<T: Clone>(what: &str, list: &Option<Vec<T>>, n: usize, default: T) -> Result<Vec<T>> {
    match list {
        None => Ok(vec![default; n]),
        Some(v) if v.len() == n => Ok(v.clone()),
        Some(v) => bad(msg!(
            "position.seat_list_length",
            field = what,
            count = v.len(),
            players = n
        )),
    }
}

/// Seats as bits (bit `s` = seat `s`), each checked to be a seat (`bad_seat` says
/// what is wrong otherwise).
fn seat_bits(seats: &[usize], n: usize, bad_seat: impl Fn(usize) -> Message) -> Result<u16> {
    let mut bits = 0u16;
    for &s in seats {
        if s >= n {
            return bad(bad_seat(s));
        }
        bits |= 1 << s;
    }
    Ok(bits)
}

fn bit_seats(bits: u16, n: usize) -> Vec<usize> {
    (0..n).filter(|&s| bits >> s & 1 == 1).collect()
}

fn parse_rng(r: &PositionRng) -> Result<Rng> {
    let digits = r.state.trim_start_matches("0x");
    let state = u128::from_str_radix(digits, 16)
        .map_err(|_| Error::with(ErrorCode::BadPosition, None, msg!("position.bad_rng", state = &r.state)))?;
    Ok(Rng::from_state(state, r.spare))
}

fn table_meld(i: usize, m: &PositionMeld, rules: &RuleSet) -> Result<Meld> {
    // W-4: a table meld may have grown past the go-down's natural-card minimums.
    let meld = Meld::on_table(m.kind, &m.cards, rules);
    meld.map_err(|e| {
        let reason = e.to_message();
        Error::with(
            ErrorCode::BadPosition,
            e.rule,
            msg!("position.table_meld_error", index = i, reason = reason),
        )
    })
}

impl GameState {
    /// Build the state a position describes, with the rules of its `profile`.
    pub fn from_position(pos: &Position) -> Result<GameState> {
        GameState::from_position_with_rules(pos, Arc::new(pos.rules()?))
    }

    /// Build the state a position describes, with explicit rules (its `profile` is ignored).
    pub fn from_position_with_rules(pos: &Position, rules: Arc<RuleSet>) -> Result<GameState> {
        rules.validate().map_err(field_error("rules"))?;
        let n = pos.players.unwrap_or(if pos.hands.is_empty() {
            rules.default_players as usize
        } else {
            pos.hands.len()
        });
        if !(2..=MAX_SEATS).contains(&n) {
            return bad(msg!("position.players", players = n, max = MAX_SEATS));
        }
        let phase_name = pos.phase.as_str();
        let hands = if pos.hands.is_empty() && phase_name == "cut" {
            vec![vec![]; n]
        } else {
            pos.hands.clone()
        };
        if hands.len() != n {
            return bad(msg!("position.hand_count", hands = hands.len(), players = n));
        }
        let dealer = pos.dealer.unwrap_or(n - 1);
        if dealer >= n {
            return bad(msg!("position.bad_dealer", dealer = dealer, players = n));
        }
        let active = pos.active.unwrap_or((dealer + 1) % n);
        if active >= n {
            return bad(msg!("position.bad_active", active = active, players = n));
        }
        let mut down = seat_list("down", &pos.down, n, false)?;
        let totals = seat_list("totals", &pos.totals, n, 0)?;
        let buys = seat_list("buys", &pos.buys, n, 0)?;
        let round_scores = seat_list("round_scores", &pos.round_scores, n, 0)?;
        let penalties = seat_list("penalties", &pos.penalties, n, 0)?;
        if pos.down_this_turn {
            down[active] = true;
        }
        let phase = match phase_name {
            "cut" => Phase::Cut,
            "draw" => Phase::Draw { declined: pos.declined },
            "play" => Phase::Play,
            "round_over" => Phase::RoundOver,
            "game_over" => Phase::GameOver,
            "buying" => {
                let w = pos.buying.clone().unwrap_or_default();
                if w.last_buyer.is_some_and(|s| s >= n) {
                    return bad(msg!("position.last_buyer"));
                }
                Phase::Buying(BuyWindow {
                    last_buyer: w.last_buyer.map(|s| s as u8),
                    passed: seat_bits(&w.passed, n, |seat| msg!("position.passed_seat", seat = seat))?,
                    draw_after: w.draw_after,
                })
            }
            "calling" => {
                let Some(c) = &pos.calling else {
                    return bad(msg!("position.calling_missing"));
                };
                if c.discarder >= n {
                    return bad(msg!("position.calling_discarder"));
                }
                Phase::Calling(CallWindow {
                    kind: c.kind,
                    discarder: c.discarder as u8,
                    passed: seat_bits(&c.passed, n, |seat| msg!("position.calling_passed_seat", seat = seat))?,
                })
            }
            "call_discard" => match pos.caller {
                Some(c) if c < n => Phase::CallDiscard { caller: c as u8 },
                _ => return bad(msg!("position.caller_missing")),
            },
            other => return bad(msg!("position.unknown_phase", phase = other)),
        };
        if pos.declined && !matches!(phase, Phase::Draw { .. }) {
            return bad(msg!("position.declined"));
        }
        if pos.buying.is_some() && !matches!(phase, Phase::Buying(_)) {
            return bad(msg!("position.buying"));
        }
        if pos.calling.is_some() && !matches!(phase, Phase::Calling(_)) {
            return bad(msg!("position.calling"));
        }
        if pos.caller.is_some() && !matches!(phase, Phase::CallDiscard { .. }) {
            return bad(msg!("position.caller"));
        }
        let mut seats = Vec::with_capacity(n);
        for (s, hand) in hands.iter().enumerate() {
            let mut wide = [0u32; CARD_KINDS];
            hand.iter().for_each(|c| wide[c.id() as usize] += 1);
            if wide.iter().any(|&k| k > 255) {
                return bad(msg!("position.hand_copies", hand = s));
            }
            let mut counts = CardCounts::default();
            for (c, w) in counts.0.iter_mut().zip(wide) {
                *c = w as u8;
            }
            seats.push(SeatState {
                hand: counts,
                down: down[s],
                buys: buys[s],
                total: totals[s],
                round_score: round_scores[s],
                penalty: penalties[s],
            });
        }
        let mut table = Vec::with_capacity(pos.table.len());
        for (i, m) in pos.table.iter().enumerate() {
            table.push(TableMeld {
                owner: m.owner,
                meld: table_meld(i, m, &rules)?,
            });
        }
        // W-8 with L-5.5: play never leaves the active player holding nothing but a lone
        // copy of the card they took this turn (they could not discard it: no legal
        // move) — except a floating player who took a card it can lay off.
        if let (Phase::Play, Some(taken), true) = (phase, pos.taken_discard, rules.no_discard_of_taken_card) {
            let hand = &seats[active].hand;
            let fits = table.iter().any(|m| m.meld.lay_off(&[taken], None, &rules).is_ok());
            if hand.total() == 1 && hand.get(taken) == 1 && !(rules.floating && fits) {
                return bad(msg!("position.only_taken_card", seat = active, card = taken));
            }
        }
        if pos.cut_bonus.is_some_and(|s| s >= n) || pos.winner.is_some_and(|s| s >= n) {
            return bad(msg!("position.cut_bonus_winner_seats"));
        }
        let rng = match &pos.rng {
            Some(r) => parse_rng(r)?,
            None => Rng::from_seed(pos.seed.unwrap_or(0)),
        };
        let mut stock = pos.stock.clone();
        stock.reverse(); // positions list the stock top first; the state keeps its top last
        let state = GameState {
            players: n as u8,
            round: pos.round,
            dealer: dealer as u8,
            active: active as u8,
            phase,
            seats,
            stock,
            discard: pos.discard.clone(),
            table,
            down_this_turn: pos.down_this_turn,
            taken_discard: pos.taken_discard,
            cut_bonus: pos.cut_bonus.map(|s| s as u8),
            turn: pos.turn,
            went_out: pos.winner.map(|s| s as u8),
            rng,
            history: History::default(),
            selection: None,
            rules,
        };
        state.validate()?;
        state.check_reachable()?;
        Ok(state)
    }

    /// The position of this state. `GameState::from_position` of it gives back an
    /// equal state (the history aside).
    pub fn to_position(&self) -> Position {
        let n = self.players();
        let mut down = self.down_flags();
        if self.down_this_turn {
            // CONFORMANCE.md: `down` means "on an earlier turn"; this turn is `down_this_turn`.
            down[self.active()] = false;
        }
        let over = self.is_round_over();
        let (state, spare) = self.rng.state();
        let mut stock = self.stock.clone();
        stock.reverse();
        Position {
            profile: self.rules.name.clone(),
            players: Some(n),
            round: self.round,
            dealer: Some(self.dealer()),
            active: Some(self.active()),
            phase: self.phase.name().to_string(),
            hands: (0..n).map(|s| self.hand_cards(s)).collect(),
            stock,
            discard: self.discard.clone(),
            table: self
                .table
                .iter()
                .map(|m| {
                    let cards = m.meld.cards().to_vec();
                    let ambiguous = Meld::interpretations(&cards, &self.rules)
                        .map_or(true, |r| r.len() > 1 || r[0].kind() != m.meld.kind());
                    PositionMeld {
                        owner: m.owner,
                        cards,
                        kind: ambiguous.then_some(m.meld.kind()),
                    }
                })
                .collect(),
            down: Some(down),
            down_this_turn: self.down_this_turn,
            totals: Some(self.totals()),
            buys: self.buys().iter().any(|&b| b > 0).then(|| self.buys()),
            cut_bonus: self.cut_bonus(),
            taken_discard: self.taken_discard,
            seed: None,
            declined: self.phase == Phase::Draw { declined: true },
            buying: self.buy_window().map(|w| PositionWindow {
                last_buyer: w.last_buyer.map(usize::from),
                passed: bit_seats(w.passed, n),
                draw_after: w.draw_after,
            }),
            calling: match self.phase {
                Phase::Calling(w) => Some(PositionCalls {
                    kind: w.kind,
                    discarder: w.discarder as usize,
                    passed: bit_seats(w.passed, n),
                }),
                _ => None,
            },
            caller: match self.phase {
                Phase::CallDiscard { caller } => Some(caller as usize),
                _ => None,
            },
            penalties: self
                .seats
                .iter()
                .any(|s| s.penalty != 0)
                .then(|| self.seats.iter().map(|s| s.penalty).collect()),
            turn: self.turn,
            round_scores: over.then(|| self.seats.iter().map(|s| s.round_score).collect()),
            winner: self.went_out(),
            rng: Some(PositionRng {
                state: format!("{state:032x}"),
                spare,
            }),
        }
    }
}
