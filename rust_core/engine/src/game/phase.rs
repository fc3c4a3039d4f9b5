//! Where a round is (`Phase`) and the state of its two windows: the buying window
//! (L-6, `BuyWindow`) and the calls of profile W (W-7, `CallKind`, `CallWindow`).
//! Plain data; the rules that open, ask and close the windows are in `windows.rs`.

use serde::{Deserialize, Serialize};

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
pub(super) fn call_name(kind: CallKind) -> &'static str {
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
