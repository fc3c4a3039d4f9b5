//! The move being chosen id by id (game/encoding.rs): held by the game between the
//! ids of one move, so a plain value that the state can own.

use crate::card::Card;

/// The move being chosen id by id: a joker swap whose natural is chosen, or a
/// go-down whose melds are being chosen. Held by the game between the ids of one
/// move; any move the engine applies clears it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Selection {
    /// `card` takes a joker's place in table meld `meld`; where the joker goes is next.
    Swap { meld: usize, card: Card },
    /// The melds chosen so far (`closed`), the cards of the meld being chosen
    /// (`open`), and the legal go-downs (canonical form, see `encoding.rs`)
    /// that start with them.
    GoDown {
        closed: Vec<Vec<Card>>,
        open: Vec<Card>,
        candidates: Vec<Vec<Vec<Card>>>,
    },
}
