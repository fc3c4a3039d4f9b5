//! The invariants of a state built from outside (a position, a snapshot): checked
//! once when it is built, so that no later action can index out of range.

use super::phase::{call_name, CallKind, Phase};
use super::state::{GameState, MAX_SEATS};
use crate::card::{Card, CARD_KINDS};
use crate::error::{Error, ErrorCode, Message, Result};
use crate::msg;
use crate::rules::BuyingRule;

impl GameState {
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
