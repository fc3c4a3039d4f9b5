//! What one seat may know: `view`, `information_state_string` and
//! `observation_tensor` (layout documented on `observation_layout` and in
//! docs/state-machine.md). Other hands appear as sizes only; the stock as its size.

use super::phase::{CallKind, Phase};
use super::serde_cards;
use super::state::GameState;
use crate::card::{format_cards, Card, CARD_KINDS};
use crate::error::Result;
use crate::meld::MeldKind;
use serde::{Deserialize, Serialize};

/// A table meld as a player sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeldView {
    pub owner: usize,
    pub kind: MeldKind,
    #[serde(with = "serde_cards::list")]
    pub cards: Vec<Card>,
}

/// The part of the state seat `seat` may see.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    pub seat: usize,
    pub players: usize,
    pub round: u8,
    /// `Contract::describe()` of this round.
    pub contract: String,
    pub dealer: usize,
    pub active: usize,
    pub to_act: Option<usize>,
    /// `cut`, `draw`, `buying`, `play`, `round_over`, `game_over`.
    pub phase: String,
    /// The active player declined the top discard this turn.
    pub declined: bool,
    /// This seat's own hand, in id order.
    #[serde(with = "serde_cards::list")]
    pub hand: Vec<Card>,
    pub hand_sizes: Vec<usize>,
    pub stock_size: usize,
    /// The discard pile, bottom first (every card in it was shown face up).
    #[serde(with = "serde_cards::list")]
    pub discard: Vec<Card>,
    pub table: Vec<MeldView>,
    pub down: Vec<bool>,
    pub down_this_turn: bool,
    pub buys: Vec<u8>,
    pub totals: Vec<i32>,
    pub round_scores: Option<Vec<i32>>,
    pub cut_bonus: Option<usize>,
    /// L-6.4: the buyer of the previous card while a buying window is open.
    pub last_buyer: Option<usize>,
    /// L-5.1: the active player drew from the stock; its card comes when the window closes.
    #[serde(default)]
    pub draw_pending: bool,
    /// W-7: the call offered on the top discard now (`rummy` or `liverpool`).
    #[serde(default)]
    pub call: Option<CallKind>,
    /// W-9: points charged this round for failed go-down attempts.
    #[serde(default)]
    pub penalties: Vec<i32>,
}

impl PlayerView {
    /// The view as JSON (the shape of `GameState.view` in Python).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a view always serializes")
    }
}

/// Offsets of the blocks of `observation_tensor`, for `players` seats and `rounds` rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ObservationLayout {
    pub hand: usize,
    pub discard_top: usize,
    pub discard_pile: usize,
    pub table: usize,
    pub hand_sizes: usize,
    pub down: usize,
    pub active: usize,
    pub to_act: usize,
    pub phase: usize,
    pub flags: usize,
    pub round: usize,
    pub stock_size: usize,
    /// Cards chosen so far for the move being chosen id by id (a go-down's cards, a
    /// swap's natural), then those of the go-down's meld being chosen, then two flags:
    /// a go-down / a swap is being chosen (all zero for other seats).
    pub selected: usize,
    pub selected_meld: usize,
    pub selecting: usize,
    pub size: usize,
}

/// The order of the phase one-hot block.
pub const PHASE_NAMES: [&str; 8] = [
    "cut",
    "draw",
    "buying",
    "play",
    "round_over",
    "game_over",
    "calling",
    "call_discard",
];

/// Block offsets of the observation tensor (all seat blocks are relative to the
/// observer: index 0 is the observer, 1 its left neighbour, …).
pub fn observation_layout(players: usize, rounds: usize) -> ObservationLayout {
    let k = CARD_KINDS;
    let hand = 0;
    let discard_top = hand + k;
    let discard_pile = discard_top + k;
    let table = discard_pile + k;
    let hand_sizes = table + k;
    let down = hand_sizes + players;
    let active = down + players;
    let to_act = active + players;
    let phase = to_act + players;
    let flags = phase + PHASE_NAMES.len();
    let round = flags + 2;
    let stock_size = round + rounds;
    let selected = stock_size + 1;
    let selected_meld = selected + k;
    let selecting = selected_meld + k;
    ObservationLayout {
        hand,
        discard_top,
        discard_pile,
        table,
        hand_sizes,
        down,
        active,
        to_act,
        phase,
        flags,
        round,
        stock_size,
        selected,
        selected_meld,
        selecting,
        size: selecting + 2,
    }
}

impl GameState {
    /// What `seat` may see (other hands as sizes, the stock as its size).
    pub fn view(&self, seat: usize) -> Result<PlayerView> {
        self.check_seat(seat)?;
        Ok(PlayerView {
            seat,
            players: self.players(),
            round: self.round,
            contract: self.rules.describe_contract(&self.contract()),
            dealer: self.dealer(),
            active: self.active(),
            to_act: self.to_act(),
            phase: self.phase.name().to_string(),
            declined: matches!(self.phase, Phase::Draw { declined: true } | Phase::Buying(_)),
            hand: self.hand_cards(seat),
            hand_sizes: self.hand_sizes(),
            stock_size: self.stock.len(),
            discard: self.discard.clone(),
            table: self
                .table
                .iter()
                .map(|m| MeldView {
                    owner: m.owner,
                    kind: m.meld.kind(),
                    cards: m.meld.cards().to_vec(),
                })
                .collect(),
            down: self.down_flags(),
            down_this_turn: self.down_this_turn,
            buys: self.buys(),
            totals: self.totals(),
            round_scores: self.round_scores(),
            cut_bonus: self.cut_bonus(),
            last_buyer: self.buy_window().and_then(|w| w.last_buyer).map(usize::from),
            draw_pending: self.buy_window().is_some_and(|w| w.draw_after),
            call: match self.phase {
                Phase::Calling(w) => Some(w.kind),
                _ => None,
            },
            penalties: self.penalties(),
        })
    }

    /// A text that identifies `seat`'s information state: two states give the same
    /// string exactly when `seat` cannot tell them apart from what it saw.
    pub fn information_state_string(&self, seat: usize) -> Result<String> {
        let v = self.view(seat)?;
        let mut s = String::new();
        let list = |xs: &[i32]| xs.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" ");
        s += &format!(
            "seat {} of {}; round {} ({}); dealer {}\n",
            v.seat, v.players, v.round, v.contract, v.dealer
        );
        s += &format!(
            "phase {}{}; active {}; to act {}\n",
            v.phase,
            if v.declined { " (discard declined)" } else { "" },
            v.active,
            v.to_act.map_or("-".to_string(), |t| t.to_string())
        );
        if let Some(b) = v.last_buyer {
            s += &format!("previous buyer {b}\n");
        }
        if v.draw_pending {
            s += "stock card pending\n";
        }
        if let Some(call) = v.call {
            s += &format!("{} call offered\n", call.name());
        }
        s += &format!("hand: {}\n", format_cards(&v.hand));
        s += &format!(
            "hand sizes: {}\n",
            v.hand_sizes.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" ")
        );
        s += &format!("stock: {}\n", v.stock_size);
        s += &format!("discard (top last): {}\n", format_cards(&v.discard));
        for (i, m) in v.table.iter().enumerate() {
            s += &format!("meld {i} (seat {}): {}\n", m.owner, format_cards(&m.cards));
        }
        let down: Vec<&str> = v.down.iter().map(|&d| if d { "1" } else { "0" }).collect();
        s += &format!(
            "down: {}{}\n",
            down.join(" "),
            if v.down_this_turn { " (this turn)" } else { "" }
        );
        s += &format!(
            "buys: {}\n",
            v.buys.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" ")
        );
        s += &format!("totals: {}\n", list(&v.totals));
        if let Some(r) = &v.round_scores {
            s += &format!("round scores: {}\n", list(r));
        }
        if let Some(c) = v.cut_bonus {
            s += &format!("cut bonus: seat {c}\n");
        }
        if v.penalties.iter().any(|&p| p != 0) {
            s += &format!("penalties: {}\n", list(&v.penalties));
        }
        Ok(s)
    }

    /// A fixed-size numeric observation for `seat`; see [`observation_layout`].
    /// Card blocks are counts per card id (0..=52, joker last); seat blocks are
    /// observer-relative; `stock_size` is the raw count.
    pub fn observation_tensor(&self, seat: usize) -> Result<Vec<f32>> {
        self.check_seat(seat)?;
        let lay = observation_layout(self.players(), self.rules.rounds() as usize);
        let mut t = vec![0f32; lay.size];
        self.write_observation(seat, &lay, &mut t);
        Ok(t)
    }

    /// `observation_tensor(seat)` written into `out` (`lay.size` floats) without
    /// allocating: the one writer of the tensor, also used by `VecEnv` for every row.
    /// `seat` must exist (callers check it).
    pub(crate) fn write_observation(&self, seat: usize, lay: &ObservationLayout, out: &mut [f32]) {
        out.fill(0.0);
        let n = self.players();
        for (id, &k) in self.seats[seat].hand.0.iter().enumerate() {
            out[lay.hand + id] = k as f32;
        }
        if let Some(top) = self.discard_top() {
            out[lay.discard_top + top.id() as usize] = 1.0;
        }
        for c in &self.discard {
            out[lay.discard_pile + c.id() as usize] += 1.0;
        }
        for m in &self.table {
            for c in m.meld.cards() {
                out[lay.table + c.id() as usize] += 1.0;
            }
        }
        let rel = |s: usize| (s + n - seat) % n;
        for s in 0..n {
            out[lay.hand_sizes + rel(s)] = self.seats[s].hand.total() as f32;
            out[lay.down + rel(s)] = self.seats[s].down as u8 as f32;
        }
        out[lay.active + rel(self.active())] = 1.0;
        if let Some(a) = self.to_act() {
            out[lay.to_act + rel(a)] = 1.0;
        }
        let phase = PHASE_NAMES
            .iter()
            .position(|&p| p == self.phase.name())
            .expect("known phase");
        out[lay.phase + phase] = 1.0;
        out[lay.flags] = matches!(self.phase, Phase::Draw { declined: true } | Phase::Buying(_)) as u8 as f32;
        out[lay.flags + 1] = self.down_this_turn as u8 as f32;
        out[lay.round + self.round as usize - 1] = 1.0;
        out[lay.stock_size] = self.stock.len() as f32;
        if self.to_act() == Some(seat) {
            if let Some((go_down, all, open)) = self.selection_cards() {
                for c in all {
                    out[lay.selected + c.id() as usize] += 1.0;
                }
                for c in open {
                    out[lay.selected_meld + c.id() as usize] += 1.0;
                }
                out[lay.selecting + usize::from(!go_down)] = 1.0;
            }
        }
    }
}
