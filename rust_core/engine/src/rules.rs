//! Rule sets: everything RULES.md varies between profiles, as data.
//!
//! The engine has one code path; `RuleSet::liverpool()` (profile L, the default),
//! `RuleSet::contract()` (profile C) and `RuleSet::liverpool_classic()` (profile W)
//! are values of the same type. A rule set can also be read from JSON and is
//! checked by [`RuleSet::validate`] before any engine uses it.

use crate::card::{Card, JOKER_ID};
use crate::error::{Error, ErrorCode, Message, Result};
use crate::msg;
use serde::{Deserialize, Serialize};

/// What a round asks for before a player may go down (L-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Contract {
    pub sets: u8,
    pub runs: u8,
    /// Round 7 (L-8): the whole hand as exactly these melds, no discard.
    #[serde(default)]
    pub whole_hand: bool,
}

impl Contract {
    pub const fn new(sets: u8, runs: u8) -> Contract {
        Contract {
            sets,
            runs,
            whole_hand: false,
        }
    }
    pub fn melds(&self) -> usize {
        (self.sets + self.runs) as usize
    }
    /// "2 sets", "1 set + 1 run", "3 runs (whole hand)".
    pub fn describe(&self) -> String {
        self.describe_message().english()
    }

    /// [`Contract::describe`] as a translatable message.
    pub fn describe_message(&self) -> Message {
        let sets = match self.sets {
            1 => msg!("contract.one_set"),
            n => msg!("contract.sets", n = n),
        };
        let runs = match self.runs {
            1 => msg!("contract.one_run"),
            n => msg!("contract.runs", n = n),
        };
        let melds = match (self.sets, self.runs) {
            (0, 0) => msg!("contract.no_melds"),
            (_, 0) => sets,
            (0, _) => runs,
            _ => msg!("contract.sets_and_runs", sets = sets, runs = runs),
        };
        if self.whole_hand {
            msg!("contract.whole_hand", melds = melds)
        } else {
            melds
        }
    }
}

/// Deck composition for a range of player counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeckTier {
    /// This tier applies up to and including this many players.
    pub max_players: u8,
    /// Number of 52-card decks.
    pub decks: u8,
    /// Number of jokers added.
    pub jokers: u8,
}

/// How buying the discard out of turn works (L-6, C-5, W-6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BuyingRule {
    /// No buying (Liverpool UK, strict no-buy).
    Off,
    /// L-6: after a buy the newly exposed discard may be bought too; nobody buys twice in succession.
    Chain,
    /// C-5 / W-6: at most one buy per declined discard.
    Single,
}

/// When a run's joker may be swapped for the natural it stands for (L-7, W-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JokerSwapRule {
    Off,
    /// L-7.2: on turns after the go-down turn.
    AfterGoDownTurn,
    /// W-4: only during the turn on which the swapping player goes down.
    OnGoDownTurn,
}

/// How equal lowest totals are resolved (L-10.3, C-7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TieBreak {
    /// Equal lowest totals share the win.
    Share,
    /// C-7: the lower final-round score wins; if still tied, share.
    LowerLastRound,
}

/// Everything a profile decides. Field docs cite the rule they model.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleSet {
    pub name: String,
    /// L-1.1, C-1.
    pub min_players: u8,
    pub max_players: u8,
    pub default_players: u8,
    /// L-1.2, C-1, W-1: deck composition by player count (tiers sorted by max_players).
    pub deck_tiers: Vec<DeckTier>,
    /// L-2.5, C-3, W-3: cards dealt to each player, per round.
    pub deal_sizes: Vec<u8>,
    /// L-3: the contract of each round (same length as `deal_sizes`).
    pub contracts: Vec<Contract>,
    /// L-4.1 / C-4: opening set size (minimum and, if any, maximum).
    pub set_size_min: u8,
    pub set_size_max: Option<u8>,
    /// L-4.2 / C-4: opening run size (minimum and, if any, maximum).
    pub run_size_min: u8,
    pub run_size_max: Option<u8>,
    /// L-8.2: minimum run length in a whole-hand (round 7) go-down.
    pub whole_hand_run_min: u8,
    /// L-4.5 / W-4: minimum natural cards in a set.
    pub min_naturals_set: u8,
    /// L-4.5 / W-4: minimum natural cards in a run ...
    pub min_naturals_run: u8,
    /// ... counted among the run's first this-many cards (W-4: 3 naturals in the first 4); `None` = anywhere.
    pub run_naturals_window: Option<u8>,
    /// L-4.4: same-suit runs of one contract must overlap or leave a gap.
    pub same_suit_runs_need_gap: bool,
    /// L-10.1 / C-7 / W-10: points by rank, index 1 (ace) ..= 13 (king); index 0 is the joker.
    pub points: [u16; 14],
    /// L-6 / C-5 / W-6.
    pub buying: BuyingRule,
    /// C-5: at most this many buys per player per round.
    pub buy_limit_per_round: Option<u8>,
    /// L-7 / W-4.
    pub joker_swap: JokerSwapRule,
    /// L-5.3 (false) / W-5 (true): lay-offs allowed on the go-down turn itself.
    pub lay_off_on_go_down_turn: bool,
    /// L-2.4: the range a cut is drawn from when the cutter does not choose one
    /// (uniformly, clamped to the deck); `None` = 1..=deck size - 1 (the Decision's default).
    #[serde(default)]
    pub cut_range: Option<(u16, u16)>,
    /// L-2.3 / W-3: score change for an exact cut (negative is a bonus); 0 = no cut bonus (C-2).
    pub cut_bonus: i32,
    /// L-10.3 / C-7.
    pub tie_break: TieBreak,
    /// W-7: the "Liverpool" call on a discard that fits a meld.
    pub liverpool_call: bool,
    /// W-8: the card taken from the discard pile may not be discarded in the same turn.
    pub no_discard_of_taken_card: bool,
    /// W-9: points charged for a refused go-down attempt (0 = off).
    pub failed_go_down_penalty: u16,
    /// L-9.3: engine safeguard — a round ends with no winner after this many turns.
    pub max_turns_per_round: u32,
    // ----- profile W options (issue 7: W-4, W-6, W-7.1, W-8) -----------------
    /// W-7.1: the "Rummy" call on a discard by a player who is down that fits a table meld.
    #[serde(default)]
    pub rummy_call: bool,
    /// W-8: a play may empty the hand; the player is then floating (L-5.5 off).
    #[serde(default)]
    pub floating: bool,
    /// W-4 (false): a player may swap only another player's joker (`own_joker`).
    #[serde(default = "default_true")]
    pub swap_own_jokers: bool,
    /// W-6: who wins a buy when several seats want it (the "Yo" variation).
    #[serde(default)]
    pub buy_priority: BuyPriority,
    /// W-6 "Yo": the order in which seats are asked when nobody calls first (fastest
    /// first; seats left out follow clockwise). Empty: clockwise from the active player's left.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub call_order: Vec<u8>,
    // ----- end of profile W options -------------------------------------------
}

fn default_true() -> bool {
    true
}

/// W-6: how the buying window picks among seats that want the discard.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BuyPriority {
    /// L-6.3 / W-6: the seat nearest clockwise to the active player is asked first;
    /// only the seat being asked may buy or pass (`not_your_turn` for anyone else).
    #[default]
    Nearest,
    /// W-6 "Yo": the first seat to call wins. The engine accepts a buy or a pass from
    /// any seat still in the window, in the order the caller applies them; `to_act`
    /// names the first seat of `call_order` still to answer.
    FirstCaller,
}

impl Default for RuleSet {
    fn default() -> Self {
        RuleSet::liverpool()
    }
}

const LADDER: [Contract; 7] = [
    Contract::new(2, 0),
    Contract::new(1, 1),
    Contract::new(0, 2),
    Contract::new(3, 0),
    Contract::new(2, 1),
    Contract::new(1, 2),
    Contract {
        sets: 0,
        runs: 3,
        whole_hand: true,
    },
];

impl RuleSet {
    /// Profile L (seeds 000/001): the default.
    pub fn liverpool() -> RuleSet {
        RuleSet {
            name: "liverpool".into(),
            min_players: 2,
            max_players: 8,
            default_players: 4,
            deck_tiers: vec![DeckTier {
                max_players: 8,
                decks: 2,
                jokers: 3,
            }],
            deal_sizes: vec![10, 10, 10, 12, 12, 12, 12],
            contracts: LADDER.to_vec(),
            set_size_min: 3,
            set_size_max: Some(3),
            run_size_min: 4,
            run_size_max: Some(4),
            whole_hand_run_min: 4,
            min_naturals_set: 1,
            min_naturals_run: 1,
            run_naturals_window: None,
            same_suit_runs_need_gap: true,
            // joker, A, 2..10, J, Q, K
            points: [15, 15, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10],
            buying: BuyingRule::Chain,
            buy_limit_per_round: None,
            joker_swap: JokerSwapRule::AfterGoDownTurn,
            lay_off_on_go_down_turn: false,
            cut_range: None,
            cut_bonus: -50,
            tie_break: TieBreak::Share,
            liverpool_call: false,
            no_discard_of_taken_card: false,
            failed_go_down_penalty: 0,
            max_turns_per_round: 2000,
            // profile W options (off in L)
            rummy_call: false,
            floating: false,
            swap_own_jokers: true,
            buy_priority: BuyPriority::Nearest,
            call_order: Vec::new(),
        }
    }

    /// Profile C (seed 002): Progressive / Contract Rummy.
    pub fn contract() -> RuleSet {
        RuleSet {
            name: "contract".into(),
            min_players: 3,
            max_players: 8,
            default_players: 4,
            deck_tiers: vec![
                DeckTier {
                    max_players: 6,
                    decks: 2,
                    jokers: 4,
                },
                DeckTier {
                    max_players: 8,
                    decks: 3,
                    jokers: 6,
                },
            ],
            deal_sizes: vec![10, 10, 10, 10, 12, 12, 12],
            set_size_max: None,
            run_size_max: None,
            same_suit_runs_need_gap: false,
            points: [25, 15, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10],
            buying: BuyingRule::Single,
            buy_limit_per_round: Some(3),
            joker_swap: JokerSwapRule::Off,
            cut_bonus: 0,
            tie_break: TieBreak::LowerLastRound,
            ..RuleSet::liverpool()
        }
    }

    /// Profile W (seed 004): Liverpool as commonly described.
    pub fn liverpool_classic() -> RuleSet {
        RuleSet {
            name: "liverpool-classic".into(),
            min_players: 3,
            max_players: 8,
            default_players: 4,
            deck_tiers: vec![
                DeckTier {
                    max_players: 4,
                    decks: 2,
                    jokers: 4,
                },
                DeckTier {
                    max_players: 8,
                    decks: 3,
                    jokers: 6,
                },
            ],
            deal_sizes: vec![10, 10, 10, 10, 12, 12, 12],
            set_size_max: None,
            run_size_max: None,
            min_naturals_set: 2,
            min_naturals_run: 3,
            run_naturals_window: Some(4),
            same_suit_runs_need_gap: false,
            points: [15, 15, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10],
            buying: BuyingRule::Single,
            joker_swap: JokerSwapRule::OnGoDownTurn,
            lay_off_on_go_down_turn: true,
            liverpool_call: true,
            no_discard_of_taken_card: true,
            // profile W options: W-7.1, W-8, W-4, W-9
            rummy_call: true,
            floating: true,
            swap_own_jokers: false,
            failed_go_down_penalty: 50,
            ..RuleSet::liverpool()
        }
    }

    /// A preset by name: `liverpool`, `contract`, `liverpool-classic` (also `L`, `C`, `W`).
    pub fn preset(name: &str) -> Result<RuleSet> {
        match name.to_ascii_lowercase().replace('_', "-").as_str() {
            "liverpool" | "l" => Ok(RuleSet::liverpool()),
            "contract" | "c" => Ok(RuleSet::contract()),
            "liverpool-classic" | "w" => Ok(RuleSet::liverpool_classic()),
            other => Err(Error::with(
                ErrorCode::InvalidRules,
                None,
                msg!("rules.unknown_preset", name = other),
            )),
        }
    }

    pub fn preset_names() -> &'static [&'static str] {
        &["liverpool", "contract", "liverpool-classic"]
    }

    pub fn from_json(text: &str) -> Result<RuleSet> {
        let rules: RuleSet = serde_json::from_str(text)
            .map_err(|e| Error::with(ErrorCode::InvalidRules, None, msg!("rules.bad_json", error = e)))?;
        rules.validate()?;
        Ok(rules)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a RuleSet always serializes")
    }

    /// Refuse inconsistent rule sets with a sentence saying what is wrong.
    pub fn validate(&self) -> Result<()> {
        let bad = |msg: Message| Err(Error::with(ErrorCode::InvalidRules, None, msg));
        if self.contracts.is_empty() {
            return bad(msg!("rules.no_rounds"));
        }
        if self.deal_sizes.len() != self.contracts.len() {
            return bad(msg!(
                "rules.deal_sizes_mismatch",
                deal_sizes = self.deal_sizes.len(),
                contracts = self.contracts.len()
            ));
        }
        if self.min_players < 2 || self.min_players > self.max_players || self.max_players > 16 {
            return bad(msg!(
                "rules.player_range",
                min = self.min_players,
                max = self.max_players
            ));
        }
        if !(self.min_players..=self.max_players).contains(&self.default_players) {
            return bad(msg!("rules.default_players"));
        }
        if self.deck_tiers.is_empty()
            || self.deck_tiers.windows(2).any(|w| w[0].max_players >= w[1].max_players)
            || self.deck_tiers.last().unwrap().max_players < self.max_players
        {
            return bad(msg!("rules.deck_tiers_order"));
        }
        for t in &self.deck_tiers {
            if t.decks == 0 || t.decks > 4 || t.jokers > 16 {
                return bad(msg!("rules.deck_tier_size", decks = t.decks, jokers = t.jokers));
            }
        }
        if self.set_size_min < 3 || self.run_size_min < 3 || self.whole_hand_run_min < 3 {
            return bad(msg!("rules.meld_min_size"));
        }
        if self.set_size_max.is_some_and(|m| m < self.set_size_min)
            || self.run_size_max.is_some_and(|m| m < self.run_size_min)
        {
            return bad(msg!("rules.max_below_min"));
        }
        if self.run_size_min > 14 || self.whole_hand_run_min > 14 {
            return bad(msg!("rules.run_too_long"));
        }
        if self.min_naturals_set > self.set_size_min || self.min_naturals_run > self.run_size_min {
            return bad(msg!("rules.naturals_exceed_size"));
        }
        if let Some(w) = self.run_naturals_window {
            if w < self.min_naturals_run {
                return bad(msg!("rules.naturals_window"));
            }
        }
        for (i, c) in self.contracts.iter().enumerate() {
            if c.melds() == 0 || c.melds() > 6 {
                return bad(msg!("rules.contract_melds", round = i + 1));
            }
        }
        for (i, (&deal, c)) in self.deal_sizes.iter().zip(&self.contracts).enumerate() {
            let needed = c.sets as usize * self.set_size_min as usize + c.runs as usize * self.run_size_min as usize;
            if deal == 0 || (deal as usize) < needed.saturating_sub(1) {
                return bad(msg!(
                    "rules.deal_too_small",
                    round = i + 1,
                    deal = deal,
                    needed = needed
                ));
            }
            let (decks, jokers) = self.deck_for(self.max_players);
            let deck = decks as usize * 52 + jokers as usize;
            if self.max_players as usize * deal as usize + 2 > deck {
                return bad(msg!(
                    "rules.deck_too_small",
                    round = i + 1,
                    deal = deal,
                    players = self.max_players
                ));
            }
        }
        if let Some((lo, hi)) = self.cut_range {
            if lo == 0 || lo > hi {
                return bad(msg!("rules.cut_range", low = lo, high = hi));
            }
        }
        if self.max_turns_per_round == 0 {
            return bad(msg!("rules.max_turns"));
        }
        // Profile W options (W-6 "Yo").
        for (i, &s) in self.call_order.iter().enumerate() {
            if s >= self.max_players || self.call_order[..i].contains(&s) {
                return bad(msg!(
                    "rules.call_order",
                    order = format!("{:?}", self.call_order),
                    max = self.max_players
                ));
            }
        }
        Ok(())
    }

    /// (decks, jokers) for this many players.
    pub fn deck_for(&self, players: u8) -> (u8, u8) {
        let t = self
            .deck_tiers
            .iter()
            .find(|t| players <= t.max_players)
            .unwrap_or_else(|| self.deck_tiers.last().expect("validated"));
        (t.decks, t.jokers)
    }

    /// Total cards in the deck for this many players (L-1.2: 107).
    pub fn deck_size(&self, players: u8) -> usize {
        let (d, j) = self.deck_for(players);
        d as usize * 52 + j as usize
    }

    /// How many copies of `card` the deck holds for this many players.
    pub fn copies(&self, card: Card, players: u8) -> u8 {
        let (d, j) = self.deck_for(players);
        if card.is_joker() {
            j
        } else {
            d
        }
    }

    pub fn rounds(&self) -> u8 {
        self.contracts.len() as u8
    }

    /// The contract of a 1-based round, or `invalid_round`.
    pub fn contract_for(&self, round: u8) -> Result<Contract> {
        self.check_round(round)?;
        Ok(self.contracts[round as usize - 1])
    }

    pub fn deal_size(&self, round: u8) -> Result<u8> {
        self.check_round(round)?;
        Ok(self.deal_sizes[round as usize - 1])
    }

    pub fn check_round(&self, round: u8) -> Result<()> {
        if round == 0 || round > self.rounds() {
            return Err(Error::refused(
                ErrorCode::InvalidRound,
                "L-3",
                msg!("round.no_such_round", round = round, rounds = self.rounds()),
            ));
        }
        Ok(())
    }

    /// L-2.3: the exact cut that earns the bonus (players × hand size + 1).
    pub fn exact_cut(&self, round: u8, players: u8) -> Result<usize> {
        Ok(players as usize * self.deal_size(round)? as usize + 1)
    }

    /// Points a card scores left in hand (L-10.1).
    #[inline]
    pub fn card_points(&self, card: Card) -> u16 {
        self.points[card.rank() as usize]
    }

    pub fn points_of(&self, cards: &[Card]) -> u32 {
        cards.iter().map(|&c| self.card_points(c) as u32).sum()
    }

    /// Points per card id, 53 entries (joker last): the table hot loops index.
    pub fn points_by_id(&self) -> [u16; 53] {
        let mut t = [0u16; 53];
        for id in 0..52u8 {
            t[id as usize] = self.points[(id % 13 + 1) as usize];
        }
        t[JOKER_ID as usize] = self.points[0];
        t
    }

    /// Check a multiset of cards against the deck: no more copies than it holds.
    pub fn check_copies(&self, counts: &[u8; 53], players: u8, what: impl Into<Message>) -> Result<()> {
        let what = what.into();
        let (d, j) = self.deck_for(players);
        if counts[JOKER_ID as usize] > j {
            let code = if j == 0 {
                ErrorCode::NoJokersInProfile
            } else {
                ErrorCode::TooManyCopies
            };
            return Err(Error::refused(
                code,
                "L-1.2",
                msg!(
                    "deck.too_many_jokers",
                    what = what,
                    count = counts[52],
                    rules = &self.name,
                    jokers = j
                ),
            ));
        }
        for id in 0..52u8 {
            if counts[id as usize] > d {
                let card = Card::from_id(id).expect("id < 52");
                return Err(Error::refused(
                    ErrorCode::TooManyCopies,
                    "L-1.2",
                    msg!(
                        "deck.too_many_copies",
                        what = what,
                        count = counts[id as usize],
                        card = card,
                        copies = d
                    ),
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_valid() {
        for name in RuleSet::preset_names() {
            RuleSet::preset(name).unwrap().validate().unwrap();
        }
    }

    #[test]
    fn profile_l_deck_is_107_cards() {
        let l = RuleSet::liverpool();
        assert_eq!(l.deck_size(4), 107);
        assert_eq!(l.exact_cut(1, 4).unwrap(), 41);
        assert_eq!(l.exact_cut(4, 4).unwrap(), 49);
    }

    #[test]
    fn json_round_trip_and_refusal() {
        let l = RuleSet::liverpool();
        assert_eq!(RuleSet::from_json(&l.to_json()).unwrap(), l);
        let mut bad = RuleSet::liverpool();
        bad.deal_sizes.pop();
        assert_eq!(bad.validate().unwrap_err().code, ErrorCode::InvalidRules);
        assert_eq!(RuleSet::from_json("{}").unwrap_err().code, ErrorCode::InvalidRules);
    }
}
