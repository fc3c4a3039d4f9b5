//! Actions (the steps of CONFORMANCE.md), the compact history of applied actions,
//! and the events `apply` returns.

use super::phase::CallKind;
use super::serde_cards;
use crate::card::Card;
use crate::error::{Error, ErrorCode, Result};
use crate::meld::End;
use crate::msg;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// One decision of one seat. The JSON form is the CONFORMANCE.md step without its
/// `seat`, `expect` and `check` keys: `{"do": "lay_off", "meld": 0, "cards": ["4♣"]}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case")]
pub enum Action {
    /// L-2.2: the cutter lifts `size` cards, then the deal happens. `None`: the engine
    /// draws the size from its RNG (L-2.4, uniform over 1..=stock-1).
    Cut {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        size: Option<i64>,
    },
    /// L-5.1: the active player takes the top discard.
    TakeDiscard,
    /// L-5.1: the active player declines the top discard; the buying window opens (L-6).
    DeclineDiscard,
    /// L-6.2: the seat asked in the buying window (L-6.3) buys the top discard plus a
    /// penalty card.
    Buy,
    /// The seat asked in the buying window declines to buy the current top discard
    /// (or, W-7, declines the call it is offered).
    Pass,
    /// L-5.1 / L-6.5: the active player draws from the stock. While a discard is on
    /// offer this declines it (L-5.1 Decision): the buying window runs first and the
    /// stock card is the active player's when it closes.
    DrawStock,
    /// L-4.6 / L-8.1: lay the contract (round 7: the whole hand as three runs).
    GoDown {
        #[serde(with = "serde_cards::groups")]
        melds: Vec<Vec<Card>>,
    },
    /// L-5.3: add `cards` to table meld `meld`. `end` only matters for a joker on a run.
    LayOff {
        meld: usize,
        #[serde(with = "serde_cards::list")]
        cards: Vec<Card>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        end: Option<End>,
    },
    /// L-7.2: put `card` in place of the joker of run `meld` and lay the joker off on `to_meld`.
    SwapJoker {
        meld: usize,
        #[serde(with = "serde_cards::one")]
        card: Card,
        to_meld: usize,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        end: Option<End>,
    },
    /// L-5.5 / L-5.6: discard one card and end the turn (going out with the last card).
    Discard {
        #[serde(with = "serde_cards::one")]
        card: Card,
    },
    /// After a round ends, the next round's dealer gathers and shuffles the deck
    /// (seeded); the new round waits for its cut. Not a CONFORMANCE.md step.
    NextRound,
    /// W-7.2: a seat that is down takes the discard on offer and lays it off on table
    /// meld `meld` at once (`end` only matters for a joker on a run); it then discards.
    CallLiverpool {
        meld: usize,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        end: Option<End>,
    },
    /// W-7.1: the discarder, who is down, threw a card that fits a table meld: it takes
    /// the card back plus a penalty card.
    CallRummy,
}

impl Action {
    /// The CONFORMANCE.md name of the action (`"take_discard"`, …).
    pub fn name(&self) -> &'static str {
        match self {
            Action::Cut { .. } => "cut",
            Action::TakeDiscard => "take_discard",
            Action::DeclineDiscard => "decline_discard",
            Action::Buy => "buy",
            Action::Pass => "pass",
            Action::DrawStock => "draw_stock",
            Action::GoDown { .. } => "go_down",
            Action::LayOff { .. } => "lay_off",
            Action::SwapJoker { .. } => "swap_joker",
            Action::Discard { .. } => "discard",
            Action::NextRound => "next_round",
            Action::CallLiverpool { .. } => "call_liverpool",
            Action::CallRummy => "call_rummy",
        }
    }

    fn variant_index(&self) -> u8 {
        match self {
            Action::Cut { .. } => 0,
            Action::TakeDiscard => 1,
            Action::DeclineDiscard => 2,
            Action::Buy => 3,
            Action::Pass => 4,
            Action::DrawStock => 5,
            Action::GoDown { .. } => 6,
            Action::LayOff { .. } => 7,
            Action::SwapJoker { .. } => 8,
            Action::Discard { .. } => 9,
            Action::NextRound => 10,
            Action::CallLiverpool { .. } => 11,
            Action::CallRummy => 12,
        }
    }

    /// The order `legal_actions` uses: by kind (in the order of the enum), then by
    /// card ids, meld numbers and end.
    fn sort_key(&self) -> (u8, Vec<i64>) {
        let mut key = Vec::new();
        let ids = |cards: &[Card], key: &mut Vec<i64>| key.extend(cards.iter().map(|c| c.id() as i64));
        match self {
            Action::Cut { size } => key.push(size.unwrap_or(-1)),
            Action::GoDown { melds } => {
                for g in melds {
                    ids(g, &mut key);
                    key.push(-1);
                }
            }
            Action::LayOff { meld, cards, end } => {
                ids(cards, &mut key);
                key.extend([-1, *meld as i64, end_code(*end) as i64]);
            }
            Action::SwapJoker {
                meld,
                card,
                to_meld,
                end,
            } => key.extend([card.id() as i64, *meld as i64, *to_meld as i64, end_code(*end) as i64]),
            Action::Discard { card } => key.push(card.id() as i64),
            Action::CallLiverpool { meld, end } => key.extend([*meld as i64, end_code(*end) as i64]),
            _ => {}
        }
        (self.variant_index(), key)
    }

    /// Parse one action from its JSON form (the step shape; unknown keys are ignored).
    pub fn from_json(text: &str) -> Result<Action> {
        serde_json::from_str(text)
            .map_err(|e| Error::with(ErrorCode::InvalidArgument, None, msg!("action.bad_json", error = e)))
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("an action always serializes")
    }
}

impl PartialOrd for Action {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Action {
    fn cmp(&self, other: &Self) -> Ordering {
        self.sort_key().cmp(&other.sort_key())
    }
}

/// An end as one byte (0 none, 1 low, 2 high): the binary action format and the action ids.
pub(super) fn end_code(end: Option<End>) -> u8 {
    match end {
        None => 0,
        Some(End::Low) => 1,
        Some(End::High) => 2,
    }
}

pub(super) fn end_from_code(code: u8) -> Option<End> {
    match code {
        1 => Some(End::Low),
        2 => Some(End::High),
        _ => None,
    }
}

/// The applied actions of a game as one flat byte string: `[seat, kind, payload…]`
/// per action. Cloning it is one `memcpy`, which keeps `GameState::clone` cheap
/// however long the game has run. Only accepted actions are recorded, so every
/// number fits its field (meld numbers and cut sizes are below 2^16, card ids and
/// group sizes below 2^8).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct History {
    bytes: Vec<u8>,
    count: u32,
}

impl History {
    pub fn len(&self) -> usize {
        self.count as usize
    }

    /// Whether every number of `action` fits the encoding (true for accepted actions).
    pub fn encodable(action: &Action) -> bool {
        let small = |n: usize| n < u8::MAX as usize;
        let index = |n: usize| n < u16::MAX as usize;
        match action {
            Action::Cut { size } => size.is_none_or(|s| (1..u16::MAX as i64).contains(&s)),
            Action::GoDown { melds } => small(melds.len()) && melds.iter().all(|g| small(g.len())),
            Action::LayOff { meld, cards, .. } => index(*meld) && small(cards.len()),
            Action::SwapJoker { meld, to_meld, .. } => index(*meld) && index(*to_meld),
            Action::CallLiverpool { meld, .. } => index(*meld),
            _ => true,
        }
    }

    /// Room for a typical game's actions (about 1,300 of two or three bytes), so a
    /// game's history grows without copying.
    pub fn with_game_capacity() -> History {
        History {
            bytes: Vec::with_capacity(4096),
            count: 0,
        }
    }

    pub fn push(&mut self, seat: u8, action: &Action) {
        // Each action's fixed fields go in as one array of its exact length: one
        // capacity check and one small copy, not one `Vec::push` per byte.
        let b = &mut self.bytes;
        let kind = action.variant_index();
        let u16_le = |v: usize| (v as u16).to_le_bytes();
        match action {
            Action::Cut { size } => {
                let [lo, hi] = u16_le(size.map_or(u16::MAX as usize, |s| s as usize));
                b.extend_from_slice(&[seat, kind, lo, hi]);
            }
            Action::GoDown { melds } => {
                b.extend_from_slice(&[seat, kind, melds.len() as u8]);
                for g in melds {
                    b.push(g.len() as u8);
                    b.extend(g.iter().map(|c| c.id()));
                }
            }
            Action::LayOff { meld, cards, end } => {
                let [lo, hi] = u16_le(*meld);
                b.extend_from_slice(&[seat, kind, lo, hi, end_code(*end), cards.len() as u8]);
                b.extend(cards.iter().map(|c| c.id()));
            }
            Action::SwapJoker {
                meld,
                card,
                to_meld,
                end,
            } => {
                let [lo, hi] = u16_le(*meld);
                let [to_lo, to_hi] = u16_le(*to_meld);
                b.extend_from_slice(&[seat, kind, lo, hi, card.id(), to_lo, to_hi, end_code(*end)]);
            }
            Action::Discard { card } => b.extend_from_slice(&[seat, kind, card.id()]),
            Action::CallLiverpool { meld, end } => {
                let [lo, hi] = u16_le(*meld);
                b.extend_from_slice(&[seat, kind, lo, hi, end_code(*end)]);
            }
            _ => b.extend_from_slice(&[seat, kind]),
        }
        self.count += 1;
    }

    /// Decode every recorded `(seat, action)`.
    pub fn decode(&self) -> Vec<(usize, Action)> {
        let mut out = Vec::with_capacity(self.len());
        let mut r = Reader {
            bytes: &self.bytes,
            at: 0,
        };
        while out.len() < self.len() {
            let seat = r.byte() as usize;
            let action = match r.byte() {
                0 => {
                    let s = r.u16();
                    Action::Cut {
                        size: (s != u16::MAX as usize).then_some(s as i64),
                    }
                }
                1 => Action::TakeDiscard,
                2 => Action::DeclineDiscard,
                3 => Action::Buy,
                4 => Action::Pass,
                5 => Action::DrawStock,
                6 => {
                    let n = r.byte();
                    let melds = (0..n)
                        .map(|_| {
                            let len = r.byte() as usize;
                            r.cards(len)
                        })
                        .collect();
                    Action::GoDown { melds }
                }
                7 => {
                    let meld = r.u16();
                    let end = end_from_code(r.byte());
                    let len = r.byte() as usize;
                    Action::LayOff {
                        meld,
                        cards: r.cards(len),
                        end,
                    }
                }
                8 => {
                    let meld = r.u16();
                    let card = r.card();
                    let to_meld = r.u16();
                    let end = end_from_code(r.byte());
                    Action::SwapJoker {
                        meld,
                        card,
                        to_meld,
                        end,
                    }
                }
                9 => Action::Discard { card: r.card() },
                10 => Action::NextRound,
                11 => {
                    let meld = r.u16();
                    Action::CallLiverpool {
                        meld,
                        end: end_from_code(r.byte()),
                    }
                }
                _ => Action::CallRummy,
            };
            out.push((seat, action));
        }
        out
    }
}

/// Reads back what `History::push` wrote; every read is in range by construction.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> u8 {
        let v = self.bytes[self.at];
        self.at += 1;
        v
    }
    fn u16(&mut self) -> usize {
        u16::from_le_bytes([self.byte(), self.byte()]) as usize
    }
    fn card(&mut self) -> Card {
        Card::from_id(self.byte()).expect("recorded ids are cards")
    }
    fn cards(&mut self, n: usize) -> Vec<Card> {
        (0..n).map(|_| self.card()).collect()
    }
}

/// Why a round ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoundEndReason {
    /// L-5.6: a player discarded their last card.
    WentOut,
    /// L-8.1: a player laid their whole hand in round 7.
    WholeHand,
    /// L-9.2: the active player had to draw and no stock could be formed.
    StockExhausted,
    /// L-9.3: the engine's turn cap (`RuleSet::max_turns_per_round`) was reached.
    TurnLimit,
}

/// The result of a round, in the event that ended it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundEnd {
    pub round: u8,
    /// The seat that went out; `None` for a round with no winner (L-9.2, L-9.3).
    pub winner: Option<usize>,
    pub reason: RoundEndReason,
    /// L-10.1 / L-10.2: this round's score per seat, the cut bonus included.
    pub scores: Vec<i32>,
    /// Totals after this round.
    pub totals: Vec<i32>,
    /// True when this was the last round (L-10.3).
    pub game_over: bool,
    /// At game over: the seat(s) with the lowest total (several for a draw).
    pub winners: Vec<usize>,
    /// L-10.2: the cut bonus part of each seat's score (empty when nobody earned it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cut_bonus: Vec<i32>,
    /// W-9: the failed go-down penalties in each seat's score (empty when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub penalties: Vec<i32>,
}

/// What an action did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum EventKind {
    /// L-2.2 … L-2.6: the cut and the deal.
    Dealt {
        cutter: usize,
        size: usize,
        /// L-2.3: the cut was exact and earns the bonus.
        cut_bonus: bool,
        #[serde(with = "serde_cards::one")]
        up_card: Card,
    },
    TookDiscard {
        #[serde(with = "serde_cards::one")]
        card: Card,
    },
    /// `window_open`: some seat may buy the declined card (L-6.3). `draw_after`: the
    /// decline was a `draw_stock` (L-5.1 Decision); the stock card follows when the
    /// window closes (in the event of the action that closes it, under `then`).
    DeclinedDiscard {
        #[serde(with = "serde_cards::opt")]
        card: Option<Card>,
        window_open: bool,
        #[serde(default, skip_serializing_if = "is_false")]
        draw_after: bool,
    },
    /// L-6.2: the bought card and the penalty card from the stock.
    Bought {
        #[serde(with = "serde_cards::one")]
        card: Card,
        #[serde(with = "serde_cards::one")]
        penalty: Card,
    },
    /// A seat declined to buy (or, with `call`, declined the W-7 call it was offered).
    Passed {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        call: Option<CallKind>,
    },
    /// `card` is `None` when no stock could be formed (L-9.2): the round ended.
    DrewStock {
        #[serde(with = "serde_cards::opt")]
        card: Option<Card>,
    },
    /// W-7.1: seat `discarder` took its discard `card` back plus `penalty`.
    CalledRummy {
        discarder: usize,
        #[serde(with = "serde_cards::one")]
        card: Card,
        #[serde(with = "serde_cards::one")]
        penalty: Card,
    },
    /// W-7.2: the caller took `card` and laid it off on table meld `meld`; it discards next.
    CalledLiverpool {
        #[serde(with = "serde_cards::one")]
        card: Card,
        meld: usize,
    },
    /// Table numbers of the new melds.
    WentDown { melds: Vec<usize> },
    LaidOff {
        meld: usize,
        #[serde(with = "serde_cards::list")]
        cards: Vec<Card>,
    },
    SwappedJoker {
        meld: usize,
        #[serde(with = "serde_cards::one")]
        card: Card,
        to_meld: usize,
    },
    /// `calls`: the discard fits a table meld and this W-7 call is offered first.
    Discarded {
        #[serde(with = "serde_cards::one")]
        card: Card,
        went_out: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        calls: Option<CallKind>,
    },
    /// A new round: its number and dealer; the deck is shuffled and waits for the cut.
    RoundStarted { round: u8, dealer: usize },
}

/// What `GameState::apply` did: who acted, what moved, any stock recycling, the end
/// of the round if the action ended it, and what it set off (`then`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub seat: usize,
    #[serde(flatten)]
    pub kind: EventKind,
    /// L-9.1: the number of cards shuffled from the discard pile into a new stock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recycled: Option<usize>,
    /// The end of the round, if this action ended it — also when the stock draw it
    /// set off (`then`) found no stock (L-9.2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round_end: Option<RoundEnd>,
    /// W-8: the action emptied the player's hand: it is floating and its turn ended.
    #[serde(default, skip_serializing_if = "is_false")]
    pub floating: bool,
    /// What the action set off: the active player's stock draw when the buying window
    /// this action closed had one pending (L-5.1 Decision).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub then: Option<Box<Event>>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Event {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("an event always serializes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn card() -> impl Strategy<Value = Card> {
        (0u8..53).prop_map(|id| Card::from_id(id).unwrap())
    }

    fn end() -> impl Strategy<Value = Option<End>> {
        prop_oneof![Just(None), Just(Some(End::Low)), Just(Some(End::High))]
    }

    /// Any action whose numbers fit the history's fields (`History::encodable`).
    fn action() -> impl Strategy<Value = Action> {
        let meld = 0usize..u16::MAX as usize;
        prop_oneof![
            prop_oneof![Just(None), (1i64..u16::MAX as i64).prop_map(Some)].prop_map(|size| Action::Cut { size }),
            Just(Action::TakeDiscard),
            Just(Action::DeclineDiscard),
            Just(Action::Buy),
            Just(Action::Pass),
            Just(Action::DrawStock),
            proptest::collection::vec(proptest::collection::vec(card(), 0..16), 0..7)
                .prop_map(|melds| Action::GoDown { melds }),
            (meld.clone(), proptest::collection::vec(card(), 0..20), end())
                .prop_map(|(meld, cards, end)| Action::LayOff { meld, cards, end }),
            (meld.clone(), card(), meld.clone(), end()).prop_map(|(meld, card, to_meld, end)| Action::SwapJoker {
                meld,
                card,
                to_meld,
                end
            }),
            card().prop_map(|card| Action::Discard { card }),
            Just(Action::NextRound),
            (meld, end()).prop_map(|(meld, end)| Action::CallLiverpool { meld, end }),
            Just(Action::CallRummy),
        ]
    }

    proptest! {
        /// The compact history gives back every recorded `(seat, action)` in order.
        #[test]
        fn history_decodes_what_was_pushed(steps in proptest::collection::vec((0usize..16, action()), 0..40)) {
            let mut history = History::default();
            for (seat, action) in &steps {
                prop_assert!(History::encodable(action));
                history.push(*seat as u8, action);
            }
            prop_assert_eq!(history.len(), steps.len());
            prop_assert_eq!(history.decode(), steps);
        }
    }
}
