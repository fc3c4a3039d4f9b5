//! `InfoSet`: what one seat may know about a game, and `sample`, which deals the
//! cards it cannot see into a full `GameState` consistent with all it saw.
//!
//! The info set is built from the seat's view only: its own hand, the discard pile,
//! the table, every hand's size, the stock's size, buys, scores, and the public
//! history of actions. Every action is public except the cards drawn from the stock
//! and dealt, so the history tells which cards other seats took from the discard
//! pile (L-5.1), bought (L-6) or called back (W-7.1): those stay known to be in
//! their hands until they lay them down or discard them. Everything else that is
//! hidden (the other hands, the stock's order, the game's RNG) is left out of the
//! info set, so a decision made from it cannot depend on it: no peeking by
//! construction.

use super::action::{Action, History};
use super::phase::Phase;
use super::state::GameState;
use crate::card::{Card, CardCounts, CARD_KINDS};
use crate::deal::new_deck;
use crate::rng::Rng;

/// What `seat` knows of a game (see the module documentation).
#[derive(Clone, Debug)]
pub struct InfoSet {
    seat: usize,
    /// The game with every hidden card removed: other hands and the stock are empty,
    /// the RNG is a fixed one and the history is cleared.
    public: GameState,
    hand_sizes: Vec<usize>,
    stock_len: usize,
    /// Per seat, cards known to be in that hand (empty for `seat` itself: its hand
    /// is in `public`).
    known: Vec<CardCounts>,
    /// The cards `seat` cannot see: the other hands and the stock together.
    unseen: CardCounts,
    history_len: usize,
}

impl InfoSet {
    /// The seat this info set belongs to.
    pub fn seat(&self) -> usize {
        self.seat
    }

    /// The game as the seat sees it: other hands and the stock are empty (their sizes
    /// are [`InfoSet::hand_sizes`] and [`InfoSet::stock_len`]).
    pub fn public(&self) -> &GameState {
        &self.public
    }

    pub fn hand_sizes(&self) -> &[usize] {
        &self.hand_sizes
    }

    pub fn stock_len(&self) -> usize {
        self.stock_len
    }

    /// Cards known (from the public history) to be in `seat`'s hand.
    pub fn known(&self, seat: usize) -> &CardCounts {
        &self.known[seat]
    }

    /// Every card the seat cannot see (other hands and stock).
    pub fn unseen(&self) -> &CardCounts {
        &self.unseen
    }

    /// How many actions the game has recorded (public).
    pub fn history_len(&self) -> usize {
        self.history_len
    }

    /// A full game state consistent with this info set: the known cards in their
    /// holders' hands, the other unseen cards shuffled uniformly into the remaining
    /// places of the other hands and the stock, and a fresh game RNG (it decides
    /// future reshuffles, which nobody can know).
    pub fn sample(&self, rng: &mut Rng) -> GameState {
        let mut g = self.public.clone();
        let mut pool = self.unseen;
        let mut fixed: Vec<CardCounts> = vec![CardCounts::default(); self.hand_sizes.len()];
        for (s, known) in self.known.iter().enumerate() {
            if s == self.seat {
                continue;
            }
            for id in 0..CARD_KINDS {
                let n = known.0[id].min(pool.0[id]);
                let room = self.hand_sizes[s] - fixed[s].total();
                let n = n.min(room.min(u8::MAX as usize) as u8);
                fixed[s].0[id] += n;
                pool.0[id] -= n;
            }
        }
        let mut rest = pool.to_cards();
        rng.shuffle(&mut rest);
        for (s, hand) in fixed.into_iter().enumerate() {
            if s == self.seat {
                continue;
            }
            let mut hand = hand;
            let need = self.hand_sizes[s].saturating_sub(hand.total());
            for card in rest.drain(rest.len().saturating_sub(need)..) {
                hand.0[card.id() as usize] += 1;
            }
            g.seats[s].hand = hand;
        }
        // What is left is the stock (top last), in the shuffled order.
        g.stock = rest;
        g.rng = Rng::from_seed(rng.next_u64());
        g
    }
}

impl GameState {
    /// What `seat` knows of this game (see [`InfoSet`]). Panics on a bad seat (call
    /// `check_seat` first with untrusted input).
    pub fn info_set(&self, seat: usize) -> InfoSet {
        let players = self.players();
        let hand_sizes = self.hand_sizes();
        let stock_len = self.stock.len();
        let mut unseen = CardCounts::from_cards(&new_deck(&self.rules, self.players));
        let mut visible = self.seats[seat].hand;
        visible.add(&CardCounts::from_cards(&self.discard));
        for t in &self.table {
            visible.add(&CardCounts::from_cards(t.meld.cards()));
        }
        if !matches!(self.phase, Phase::Cut) && !unseen.try_remove(&visible) {
            // Cannot happen for a state the engine built; keep the sample well formed.
            for (u, v) in unseen.0.iter_mut().zip(visible.0.iter()) {
                *u = u.saturating_sub(*v);
            }
        }
        if matches!(self.phase, Phase::Cut) {
            // Before the deal every card is in the stock (hands were gathered).
            unseen = CardCounts::from_cards(&new_deck(&self.rules, self.players));
        }
        let mut known = known_from_history(self, players);
        known[seat] = CardCounts::default();
        for (s, k) in known.iter_mut().enumerate() {
            // Only what is still unseen can be in another hand.
            for (kc, uc) in k.0.iter_mut().zip(unseen.0.iter()) {
                *kc = (*kc).min(*uc);
            }
            if k.total() > hand_sizes[s] {
                *k = CardCounts::default();
            }
        }
        let mut public = self.clone();
        for (s, st) in public.seats.iter_mut().enumerate() {
            if s != seat {
                st.hand = CardCounts::default();
            }
        }
        public.stock.clear();
        public.rng = Rng::from_seed(0);
        public.history = History::default();
        InfoSet {
            seat,
            public,
            hand_sizes,
            stock_len,
            known,
            unseen,
            history_len: self.history.len(),
        }
    }
}

/// Cards each seat is known to hold, from the public actions of the current round:
/// the discard pile is followed card by card (the up-card, which the history does
/// not record, and cards of a reshuffled pile are unknown), so a take, a buy or a
/// rummy call names the card taken; laying a card down or discarding it forgets it.
fn known_from_history(state: &GameState, players: usize) -> Vec<CardCounts> {
    let actions = state.history.decode();
    let start = actions.iter().rposition(|(_, a)| matches!(a, Action::Cut { .. }));
    let mut known = vec![CardCounts::default(); players];
    let mut pile: Vec<Option<Card>> = Vec::new();
    // The stock's size, to see when the pile is reshuffled into a new stock (L-9.1).
    let mut stock: Option<usize> = None;
    if start.is_some() {
        let deal = state.rules.deal_size(state.round).map(usize::from).unwrap_or(0);
        let deck = new_deck(&state.rules, state.players).len();
        stock = deck.checked_sub(players * deal + 1);
        pile.push(None); // the up-card (L-2.6)
    }
    let from = start.map_or(0, |i| i + 1);
    // One stock draw: when the stock is empty the pile but its top becomes the stock.
    let draw = |stock: &mut Option<usize>, pile: &mut Vec<Option<Card>>| {
        if let Some(n) = stock {
            if *n == 0 && pile.len() >= 2 {
                let top = pile.pop().expect("len >= 2");
                *n = pile.len();
                pile.clear();
                pile.push(top);
            }
            *n = n.saturating_sub(1);
        }
    };
    let mut pending_draw = false;
    let forget = |known: &mut [CardCounts], seat: usize, card: Card| {
        if let Some(k) = known.get_mut(seat) {
            let slot = &mut k.0[card.id() as usize];
            *slot = slot.saturating_sub(1);
        }
    };
    for (seat, action) in &actions[from..] {
        let seat = *seat;
        if pending_draw && !matches!(action, Action::Buy | Action::Pass) {
            draw(&mut stock, &mut pile);
            pending_draw = false;
        }
        match action {
            Action::TakeDiscard | Action::Buy | Action::CallRummy => {
                if let Some(Some(card)) = pile.pop() {
                    if seat < players {
                        known[seat].0[card.id() as usize] += 1;
                    }
                }
                if !matches!(action, Action::TakeDiscard) {
                    draw(&mut stock, &mut pile); // the penalty card
                }
            }
            Action::CallLiverpool { .. } => {
                pile.pop(); // laid off at once (W-7.2)
            }
            Action::DrawStock => pending_draw = true,
            Action::Discard { card } => {
                pile.push(Some(*card));
                forget(&mut known, seat, *card);
            }
            Action::GoDown { melds } => {
                for card in melds.iter().flatten() {
                    forget(&mut known, seat, *card);
                }
            }
            Action::LayOff { cards, .. } => {
                for card in cards {
                    forget(&mut known, seat, *card);
                }
            }
            Action::SwapJoker { card, .. } => forget(&mut known, seat, *card),
            _ => {}
        }
    }
    known
}
