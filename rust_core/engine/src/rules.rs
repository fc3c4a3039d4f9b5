//! Rule sets: everything RULES.md varies between profiles, as data.
//!
//! The engine has one code path; `RuleSet::liverpool()` (profile L, the default),
//! `RuleSet::contract()` (profile C), `RuleSet::liverpool_classic()` (profile W) and
//! the C-8 variations (`shanghai`, `california`, `no-buy`, `double-progressive`) are
//! values of the same type. A rule set can also be read from a file written by a
//! user (TOML or JSON, `base = "contract"` plus changes: see [`file`]) and is
//! checked by [`RuleSet::validate`] before any engine uses it; every refusal names
//! the key and says why.

mod contract;
pub mod file;
mod options;

pub use contract::{Contract, MeldKind, MeldSpec, MAX_CONTRACT_MELDS};
pub use options::{RuleOption, RULE_OPTIONS};

use crate::card::{Card, JOKER_ID};
use crate::error::{Error, ErrorCode, Message, Result};
use crate::msg;
use serde::{Deserialize, Serialize};

/// A rule set refused: `path` is the key (`contracts[2].melds[0].min`), `reason` says why.
pub(crate) fn invalid(path: impl std::fmt::Display, reason: Message) -> Error {
    Error::with(
        ErrorCode::InvalidRules,
        None,
        msg!("rules.invalid_option", key = path, reason = reason),
    )
}

/// [`invalid`], citing the rule that makes the value impossible.
pub(crate) fn invalid_by(path: impl std::fmt::Display, rule: &'static str, reason: Message) -> Error {
    Error::refused(
        ErrorCode::InvalidRules,
        rule,
        msg!("rules.invalid_option", key = path, reason = reason),
    )
}

/// Deck composition for a range of player counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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

/// Everything a profile decides. Field docs cite the rule they model; the same
/// sentences, for users, are in [`RULE_OPTIONS`] and `docs/rule-options.md`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleSet {
    pub name: String,
    /// The RULES.md profile (L, C or W) whose rule ids the engine cites in its
    /// refusals: a rule set file with `base` inherits its base's. See [`RuleSet::cite`].
    #[serde(default)]
    pub profile: Profile,
    /// L-1.1, C-1.
    pub min_players: u8,
    pub max_players: u8,
    pub default_players: u8,
    /// L-1.2, C-1, W-1: deck composition by player count (tiers sorted by max_players).
    pub deck_tiers: Vec<DeckTier>,
    /// L-2.5, C-3, W-3: cards dealt to each player, per round.
    pub deal_sizes: Vec<u8>,
    /// L-3, C-8: the contract of each round (same length as `deal_sizes`).
    pub contracts: Vec<Contract>,
    /// C-8 California: the rank whose every card is wild, exactly as a joker
    /// (written as a rank name, `"Q"`); `None` = only jokers are wild.
    #[serde(default, with = "wild_rank_serde")]
    pub wild_rank: Option<u8>,
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
    /// Written as a table by rank name (`joker`, `A`, `2` … `10`, `J`, `Q`, `K`).
    #[serde(with = "points_serde")]
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
    #[serde(default)]
    pub call_order: Vec<u8>,
    // ----- end of profile W options -------------------------------------------
}

/// A RULES.md profile: which rule ids a refusal cites (L-…, C-… or W-…).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Profile {
    /// Profile L (seeds 000/001), the default.
    #[default]
    L,
    /// Profile C (seed 002) and its C-8 variations.
    C,
    /// Profile W (seed 004).
    W,
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
    Contract::new(0, 3).whole_hand(),
];

impl RuleSet {
    /// Profile L (seeds 000/001): the default.
    pub fn liverpool() -> RuleSet {
        RuleSet {
            name: "liverpool".into(),
            profile: Profile::L,
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
            wild_rank: None,
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
            profile: Profile::C,
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
            profile: Profile::W,
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

    /// C-8 Shanghai: profile C with an 8th round whose contract is three sets and one
    /// run of 4. **Decision**: round 8 deals 12 cards and, like round 7, a player goes
    /// out by laying the whole hand (longer melds allowed, C-4), with no discard.
    pub fn shanghai() -> RuleSet {
        let mut rules = RuleSet::contract();
        rules.name = "shanghai".into();
        rules.deal_sizes.push(12);
        rules.contracts.push(Contract::new(3, 1).whole_hand());
        rules
    }

    /// C-8 California: profile C with the queens wild instead of jokers. **Decision**:
    /// the deck has no jokers (104 cards, 156 for 7–8 players); every queen behaves
    /// exactly as a joker does in C and scores 25 left in hand.
    pub fn california() -> RuleSet {
        let mut rules = RuleSet::contract();
        rules.name = "california".into();
        for tier in &mut rules.deck_tiers {
            tier.jokers = 0;
        }
        rules.wild_rank = Some(12);
        rules.points[12] = rules.points[0];
        rules
    }

    /// C-8 Liverpool (UK) / strict no-buy: profile C without buying.
    pub fn no_buy() -> RuleSet {
        RuleSet {
            name: "no-buy".into(),
            buying: BuyingRule::Off,
            buy_limit_per_round: None,
            ..RuleSet::contract()
        }
    }

    /// C-8 double progressive: profile C with 7 cards dealt in round 1.
    pub fn double_progressive() -> RuleSet {
        let mut rules = RuleSet::contract();
        rules.name = "double-progressive".into();
        rules.deal_sizes[0] = 7;
        rules
    }

    /// A preset by name (see [`RuleSet::preset_names`]; also `L`, `C`, `W`; `_` for `-`,
    /// any case).
    pub fn preset(name: &str) -> Result<RuleSet> {
        match name.to_ascii_lowercase().replace('_', "-").as_str() {
            "liverpool" | "l" => Ok(RuleSet::liverpool()),
            "contract" | "c" => Ok(RuleSet::contract()),
            "liverpool-classic" | "w" => Ok(RuleSet::liverpool_classic()),
            "shanghai" => Ok(RuleSet::shanghai()),
            "california" => Ok(RuleSet::california()),
            "no-buy" => Ok(RuleSet::no_buy()),
            "double-progressive" => Ok(RuleSet::double_progressive()),
            _ => Err(Error::with(
                ErrorCode::InvalidRules,
                None,
                msg!(
                    "rules.unknown_preset",
                    name = name,
                    presets = RuleSet::preset_names().join(", ")
                ),
            )),
        }
    }

    /// Every preset's name: the three profiles, then the C-8 variations.
    pub fn preset_names() -> &'static [&'static str] {
        &[
            "liverpool",
            "contract",
            "liverpool-classic",
            "shanghai",
            "california",
            "no-buy",
            "double-progressive",
        ]
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a RuleSet always serializes")
    }

    /// The rule id a refusal cites in this rule set's profile: `l` in profile L, `c`
    /// in C, `w` in W (issue 17: a refusal cites the rule that decides it *in the
    /// game's profile*, e.g. the buy limit C-5 in C, W-6 in W).
    #[inline]
    pub fn cite(&self, l: &'static str, c: &'static str, w: &'static str) -> &'static str {
        match self.profile {
            Profile::L => l,
            Profile::C => c,
            Profile::W => w,
        }
    }

    /// The rule a whole-hand go-down is refused under: L-8.1 (profiles L and W),
    /// C-6 in profile C's round 7, C-8 in a later round (Shanghai's round 8).
    pub fn whole_hand_rule(&self, round: u8) -> &'static str {
        match self.profile {
            Profile::C if round > 7 => "C-8",
            _ => self.cite("L-8.1", "C-6", "L-8.1"),
        }
    }

    /// The rule that sets the deck (L-1.2; C-1, or C-8 for California's wild queens
    /// and no jokers; W-1).
    pub fn deck_rule(&self) -> &'static str {
        if self.wild_rank.is_some() && self.profile == Profile::C {
            "C-8"
        } else {
            self.cite("L-1.2", "C-1", "W-1")
        }
    }

    /// A contract as a sentence in this rule set: a meld with its own minimum says
    /// "exactly" where the rule set caps that kind at the minimum (L-4.1, L-4.2) and
    /// "at least" otherwise (C-4, L-8.2).
    pub fn contract_message(&self, contract: &Contract) -> Message {
        if contract.whole_hand {
            contract.describe_message()
        } else {
            contract.describe_message_capped(self.set_size_max, self.run_size_max)
        }
    }

    /// [`RuleSet::contract_message`] in English.
    pub fn describe_contract(&self, contract: &Contract) -> String {
        self.contract_message(contract).english()
    }

    /// Is this card wild: a joker, or a card of the wild rank (C-8 California)?
    #[inline]
    pub fn is_wild(&self, card: Card) -> bool {
        card.is_joker() || self.wild_rank == Some(card.rank())
    }

    /// The (minimum, maximum) cards of a contract's meld at go-down: its own minimum
    /// or the rule set's opening size (`whole_hand_run_min` for a whole-hand run);
    /// the maximum is the rule set's cap for the kind, never below that minimum, and
    /// none in a whole-hand round (L-8.2) or without a cap (C-4).
    pub fn meld_range(&self, spec: &MeldSpec, whole_hand: bool) -> (u8, Option<u8>) {
        let (default_min, cap) = match (spec.kind, whole_hand) {
            (MeldKind::Set, false) => (self.set_size_min, self.set_size_max),
            (MeldKind::Run, false) => (self.run_size_min, self.run_size_max),
            (MeldKind::Set, true) => (self.set_size_min, None),
            (MeldKind::Run, true) => (self.whole_hand_run_min, None),
        };
        let min = spec.min.unwrap_or(default_min);
        (min, cap.map(|c| c.max(min)))
    }

    /// Fewest cards a go-down of this contract lays.
    pub fn min_cards(&self, contract: &Contract) -> usize {
        contract
            .melds()
            .iter()
            .map(|m| self.meld_range(m, contract.whole_hand).0 as usize)
            .sum()
    }

    /// Refuse inconsistent rule sets: the error names the key (`deal_sizes[3]`,
    /// `contracts[2].melds[0].min`) and says why.
    pub fn validate(&self) -> Result<()> {
        let bad = |path: &str, reason: Message| Err(invalid(path, reason));
        if self.name.trim().is_empty() {
            return bad("name", msg!("rules.name_empty"));
        }
        if self.contracts.is_empty() {
            return bad("contracts", msg!("rules.no_rounds"));
        }
        if self.contracts.len() > MAX_ROUNDS {
            return bad(
                "contracts",
                msg!("rules.too_many_rounds", rounds = self.contracts.len(), max = MAX_ROUNDS),
            );
        }
        if self.deal_sizes.len() != self.contracts.len() {
            return bad(
                "deal_sizes",
                msg!(
                    "rules.deal_sizes_mismatch",
                    deal_sizes = self.deal_sizes.len(),
                    contracts = self.contracts.len()
                ),
            );
        }
        if self.min_players < 2 {
            return bad("min_players", msg!("rules.min_players_low", value = self.min_players));
        }
        if self.max_players > 16 {
            return bad("max_players", msg!("rules.max_players_high", value = self.max_players));
        }
        if self.min_players > self.max_players {
            return bad(
                "min_players",
                msg!("rules.min_above_max", value = self.min_players, max = self.max_players),
            );
        }
        if !(self.min_players..=self.max_players).contains(&self.default_players) {
            return bad(
                "default_players",
                msg!(
                    "rules.default_players",
                    value = self.default_players,
                    min = self.min_players,
                    max = self.max_players
                ),
            );
        }
        if self.deck_tiers.is_empty() {
            return Err(invalid_by("deck_tiers", "L-1.2", msg!("rules.no_deck_tiers")));
        }
        for (i, t) in self.deck_tiers.iter().enumerate() {
            if i > 0 && self.deck_tiers[i - 1].max_players >= t.max_players {
                return bad(
                    &format!("deck_tiers[{i}].max_players"),
                    msg!(
                        "rules.deck_tiers_order",
                        value = t.max_players,
                        previous = self.deck_tiers[i - 1].max_players
                    ),
                );
            }
            if t.decks == 0 || t.decks > 4 {
                return bad(
                    &format!("deck_tiers[{i}].decks"),
                    msg!("rules.deck_count", value = t.decks),
                );
            }
            if t.jokers > 16 {
                return bad(
                    &format!("deck_tiers[{i}].jokers"),
                    msg!("rules.joker_count", value = t.jokers),
                );
            }
        }
        let last = self.deck_tiers.last().expect("not empty");
        if last.max_players < self.max_players {
            return bad(
                &format!("deck_tiers[{}].max_players", self.deck_tiers.len() - 1),
                msg!(
                    "rules.deck_tiers_cover",
                    last = last.max_players,
                    max = self.max_players
                ),
            );
        }
        for (key, value) in [
            ("set_size_min", self.set_size_min),
            ("run_size_min", self.run_size_min),
            ("whole_hand_run_min", self.whole_hand_run_min),
        ] {
            if value < 3 {
                return bad(key, msg!("rules.meld_min_size", value = value));
            }
        }
        for (key, value) in [
            ("run_size_min", self.run_size_min),
            ("whole_hand_run_min", self.whole_hand_run_min),
        ] {
            if value > 14 {
                return Err(invalid_by(key, "L-4.3", msg!("rules.run_too_long", value = value)));
            }
        }
        // L-8.2: a whole-hand go-down's runs are judged as runs first (at least
        // `run_size_min` cards, L-4.2), so a lower whole-hand minimum would let the
        // search offer go-downs the referee refuses.
        if self.whole_hand_run_min < self.run_size_min {
            return Err(invalid_by(
                "whole_hand_run_min",
                "L-8.2",
                msg!(
                    "rules.whole_hand_run_below_run",
                    value = self.whole_hand_run_min,
                    min = self.run_size_min
                ),
            ));
        }
        if let Some(m) = self.set_size_max.filter(|&m| m < self.set_size_min) {
            return bad(
                "set_size_max",
                msg!(
                    "rules.max_below_min",
                    value = m,
                    min_key = "set_size_min",
                    min = self.set_size_min
                ),
            );
        }
        if let Some(m) = self.run_size_max.filter(|&m| m < self.run_size_min) {
            return bad(
                "run_size_max",
                msg!(
                    "rules.max_below_min",
                    value = m,
                    min_key = "run_size_min",
                    min = self.run_size_min
                ),
            );
        }
        for (key, value, size_key, size) in [
            (
                "min_naturals_set",
                self.min_naturals_set,
                "set_size_min",
                self.set_size_min,
            ),
            (
                "min_naturals_run",
                self.min_naturals_run,
                "run_size_min",
                self.run_size_min,
            ),
        ] {
            if value == 0 || value > size {
                return Err(invalid_by(
                    key,
                    "L-4.5",
                    msg!("rules.naturals_range", value = value, size_key = size_key, size = size),
                ));
            }
        }
        if let Some(w) = self.run_naturals_window {
            if w < self.min_naturals_run || w > 14 {
                return bad(
                    "run_naturals_window",
                    msg!("rules.naturals_window", value = w, min = self.min_naturals_run),
                );
            }
        }
        if let Some(r) = self.wild_rank {
            if !(1..=13).contains(&r) {
                return bad("wild_rank", msg!("rules.wild_rank_not_rank", value = r));
            }
            let name = Card::rank_str(r);
            if self.points[r as usize] != self.points[0] {
                return Err(invalid_by(
                    format!("points.{name}"),
                    "C-8",
                    msg!(
                        "rules.wild_points",
                        value = self.points[r as usize],
                        rank = name,
                        joker = self.points[0]
                    ),
                ));
            }
            if self.joker_swap != JokerSwapRule::Off {
                return bad("joker_swap", msg!("rules.wild_joker_swap", rank = name));
            }
        }
        if self.buy_limit_per_round == Some(0) && self.buying != BuyingRule::Off {
            return bad("buy_limit_per_round", msg!("rules.buy_limit_zero"));
        }
        for (i, (&deal, c)) in self.deal_sizes.iter().zip(&self.contracts).enumerate() {
            self.validate_round(i, deal, c)?;
        }
        if let Some((lo, hi)) = self.cut_range {
            if lo == 0 || lo > hi {
                return Err(invalid_by(
                    "cut_range",
                    "L-2.4",
                    msg!("rules.cut_range", low = lo, high = hi),
                ));
            }
            // L-2.2: a cut leaves at least one card, in every deck the rule set deals
            // (never clamped: a range beyond the deck is a mistake in the file).
            let smallest = self.smallest_deck();
            if usize::from(hi) >= smallest {
                return Err(invalid_by(
                    "cut_range",
                    "L-2.2",
                    msg!(
                        "rules.cut_range_beyond_deck",
                        low = lo,
                        high = hi,
                        deck = smallest,
                        last = smallest - 1
                    ),
                ));
            }
        }
        if self.max_turns_per_round == 0 {
            return Err(invalid_by("max_turns_per_round", "L-9.3", msg!("rules.max_turns")));
        }
        if self.max_turns_per_round > MAX_TURNS_PER_ROUND {
            return Err(invalid_by(
                "max_turns_per_round",
                "L-9.3",
                msg!(
                    "rules.max_turns_range",
                    value = self.max_turns_per_round,
                    max = MAX_TURNS_PER_ROUND
                ),
            ));
        }
        if self.cut_bonus.unsigned_abs() > MAX_CUT_BONUS as u32 {
            return Err(invalid_by(
                "cut_bonus",
                "L-2.3",
                msg!("rules.cut_bonus_range", value = self.cut_bonus, max = MAX_CUT_BONUS),
            ));
        }
        // Profile W options: the W-6 "Yo" calling order names each seat once.
        for (i, &s) in self.call_order.iter().enumerate() {
            if s >= self.max_players || self.call_order[..i].contains(&s) {
                return Err(invalid_by(
                    format!("call_order[{i}]"),
                    "W-6",
                    msg!("rules.call_order", value = s, max = self.max_players),
                ));
            }
        }
        Ok(())
    }

    /// The checks of round `i` (0-based): its melds, and whether its deal fits both
    /// the deck and the contract.
    fn validate_round(&self, i: usize, deal: u8, c: &Contract) -> Result<()> {
        let round = i + 1;
        let bad = |path: String, reason: Message| Err(invalid(path, reason));
        if c.count() == 0 || c.count() > MAX_CONTRACT_MELDS {
            return bad(
                format!("contracts[{i}]"),
                msg!("rules.contract_melds", round = round, max = MAX_CONTRACT_MELDS),
            );
        }
        // The smallest deck the rule set can use: the first tier's.
        let (decks, jokers) = (self.deck_tiers[0].decks as usize, self.deck_tiers[0].jokers as usize);
        let wilds = jokers + if self.wild_rank.is_some() { 4 * decks } else { 0 };
        for (j, spec) in c.melds().iter().enumerate() {
            let Some(own) = spec.min else { continue };
            let path = format!("contracts[{i}].melds[{j}].min");
            let (floor, floor_key) = match (spec.kind, c.whole_hand) {
                (MeldKind::Set, _) => (self.set_size_min, "set_size_min"),
                (MeldKind::Run, false) => (self.run_size_min, "run_size_min"),
                (MeldKind::Run, true) => (self.whole_hand_run_min, "whole_hand_run_min"),
            };
            if own < floor {
                let reason = if spec.kind == MeldKind::Set {
                    msg!(
                        "rules.set_below_floor",
                        value = own,
                        floor_key = floor_key,
                        floor = floor
                    )
                } else {
                    msg!(
                        "rules.run_below_floor",
                        value = own,
                        floor_key = floor_key,
                        floor = floor
                    )
                };
                return bad(path, reason);
            }
            if spec.kind == MeldKind::Run && own > 14 {
                return Err(invalid_by(path, "L-4.3", msg!("rules.run_too_long", value = own)));
            }
            // Naturals of one rank (not counting wild ones) plus every wild card.
            let rank_cards = 4 * decks + wilds;
            if spec.kind == MeldKind::Set && own as usize > rank_cards {
                return bad(path, msg!("rules.set_beyond_deck", value = own, cards = rank_cards));
            }
        }
        if deal == 0 {
            return bad(format!("deal_sizes[{i}]"), msg!("rules.deal_zero", round = round));
        }
        // After drawing, a player holds deal + 1 cards; outside whole-hand rounds one
        // of them must stay for the discard (L-5.5).
        let needed = self.min_cards(c);
        let holds = deal as usize + 1;
        if c.whole_hand && needed > holds {
            return Err(invalid_by(
                format!("deal_sizes[{i}]"),
                "L-8.1",
                msg!(
                    "rules.deal_below_whole_hand",
                    round = round,
                    deal = deal,
                    holds = holds,
                    contract = self.contract_message(c),
                    needed = needed
                ),
            ));
        }
        if !c.whole_hand && needed + 1 > holds {
            return Err(invalid_by(
                format!("deal_sizes[{i}]"),
                "L-5.5",
                msg!(
                    "rules.deal_below_contract",
                    round = round,
                    deal = deal,
                    holds = holds,
                    contract = self.contract_message(c),
                    needed = needed
                ),
            ));
        }
        if c.whole_hand && c.sets() == 0 && holds > 14 * c.runs() as usize {
            return Err(invalid_by(
                format!("deal_sizes[{i}]"),
                "L-8.1",
                msg!("rules.deal_beyond_runs", round = round, holds = holds, runs = c.runs()),
            ));
        }
        // Every player count must be dealable, with the up-card and a card left to draw.
        let mut lower = self.min_players;
        for (t, tier) in self.deck_tiers.iter().enumerate() {
            if lower > self.max_players {
                break;
            }
            let players = tier.max_players.min(self.max_players);
            if players < lower {
                continue;
            }
            let deck = tier.decks as usize * 52 + tier.jokers as usize;
            let need = players as usize * deal as usize + 2;
            if need > deck {
                return Err(invalid_by(
                    format!("deal_sizes[{i}]"),
                    "L-1.2",
                    msg!(
                        "rules.deck_too_small",
                        round = round,
                        players = players,
                        deal = deal,
                        need = need,
                        tier = t,
                        decks = tier.decks,
                        jokers = tier.jokers,
                        deck = deck
                    ),
                ));
            }
            lower = tier.max_players.saturating_add(1);
        }
        Ok(())
    }

    /// The fewest cards any player count of the rule set is dealt from (L-1.2).
    pub fn smallest_deck(&self) -> usize {
        (self.min_players..=self.max_players)
            .map(|p| self.deck_size(p))
            .min()
            .unwrap_or_else(|| self.deck_size(self.min_players))
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

    /// The most copies of a card and the most jokers any player count's deck holds
    /// (L-1.2). Tiers need not grow with the player count, so this is the maximum over
    /// all of them, not the last tier's deck.
    pub fn largest_deck(&self) -> (u8, u8) {
        self.deck_tiers
            .iter()
            .fold((0, 0), |(d, j), t| (d.max(t.decks), j.max(t.jokers)))
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

    /// Points a card scores left in hand (L-10.1). A wild card scores as a joker
    /// (validation keeps `points[wild_rank]` equal to the joker's).
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
        self.check_copies_wide(&counts.map(u32::from), players, what)
    }

    /// [`RuleSet::check_copies`] for counts of any size (the message gives the real
    /// count, never one clamped to a byte).
    pub fn check_copies_wide(&self, counts: &[u32; 53], players: u8, what: impl Into<Message>) -> Result<()> {
        self.check_copies_in(counts, self.deck_for(players), what.into())
    }

    /// [`RuleSet::check_copies_wide`] against [`RuleSet::largest_deck`]: for cards
    /// judged without a game (melds, batch hands), whatever the player count.
    pub fn check_copies_in_largest_deck(&self, counts: &[u32; 53], what: impl Into<Message>) -> Result<()> {
        self.check_copies_in(counts, self.largest_deck(), what.into())
    }

    fn check_copies_in(&self, counts: &[u32; 53], (decks, jokers): (u8, u8), what: Message) -> Result<()> {
        let (d, j) = (u32::from(decks), u32::from(jokers));
        if counts[JOKER_ID as usize] > j {
            let code = if j == 0 {
                ErrorCode::NoJokersInProfile
            } else {
                ErrorCode::TooManyCopies
            };
            return Err(Error::refused(
                code,
                self.deck_rule(),
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
                    self.deck_rule(),
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

/// Most rounds a rule set may have.
pub const MAX_ROUNDS: usize = 30;

/// Largest L-9.3 safeguard a rule set may set: no round of a real game comes near it,
/// and it bounds how long one random game can run.
pub const MAX_TURNS_PER_ROUND: u32 = 10_000;

/// Largest cut bonus or penalty (L-2.3, in absolute value) a rule set may set.
pub const MAX_CUT_BONUS: i32 = 10_000;

/// Rank names as rule set files write them: index 0 is the joker.
pub const RANK_KEYS: [&str; 14] = [
    "joker", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
];

/// The rank (1..=13) of a rank name (`"Q"`, `"q"`, `"10"`, `"T"`), or `None`.
pub fn rank_of_name(name: &str) -> Option<u8> {
    let upper = name.trim().to_ascii_uppercase();
    let upper = if upper == "T" { "10".to_string() } else { upper };
    RANK_KEYS[1..].iter().position(|&k| k == upper).map(|i| i as u8 + 1)
}

/// `points` as a table by rank name; an array of 14 (joker first) is read too.
mod points_serde {
    use super::RANK_KEYS;
    use serde::de::{Error, MapAccess, SeqAccess, Visitor};
    use serde::ser::SerializeMap;
    use serde::{Deserializer, Serializer};
    use std::fmt;

    pub fn serialize<S: Serializer>(points: &[u16; 14], s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(14))?;
        for (key, value) in RANK_KEYS.iter().zip(points) {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }

    struct PointsVisitor;

    impl<'de> Visitor<'de> for PointsVisitor {
        type Value = [u16; 14];
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a table of points by rank (joker, A, 2 … 10, J, Q, K)")
        }
        fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<[u16; 14], M::Error> {
            let mut points: [Option<u16>; 14] = [None; 14];
            while let Some(key) = map.next_key::<String>()? {
                let index = if key.eq_ignore_ascii_case("joker") {
                    0
                } else {
                    super::rank_of_name(&key).ok_or_else(|| {
                        M::Error::custom(format!("unknown rank '{key}': the keys are joker, A, 2 … 10, J, Q, K"))
                    })? as usize
                };
                if points[index].replace(map.next_value()?).is_some() {
                    return Err(M::Error::custom(format!("rank '{key}' is given twice")));
                }
            }
            let mut out = [0u16; 14];
            for (i, p) in points.iter().enumerate() {
                out[i] = p.ok_or_else(|| M::Error::custom(format!("missing the points of '{}'", RANK_KEYS[i])))?;
            }
            Ok(out)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<[u16; 14], A::Error> {
            let mut out = [0u16; 14];
            for (i, slot) in out.iter_mut().enumerate() {
                *slot = seq
                    .next_element()?
                    .ok_or_else(|| A::Error::invalid_length(i, &"14 numbers, the joker first"))?;
            }
            if seq.next_element::<u16>()?.is_some() {
                return Err(A::Error::invalid_length(15, &"14 numbers, the joker first"));
            }
            Ok(out)
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[u16; 14], D::Error> {
        d.deserialize_any(PointsVisitor)
    }
}

/// `wild_rank` as a rank name (`"Q"`) or null; a number 1..=13 is read too.
mod wild_rank_serde {
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(rank: &Option<u8>, s: S) -> Result<S::Ok, S::Error> {
        match rank {
            Some(r) if (1..=13).contains(r) => s.serialize_str(super::RANK_KEYS[*r as usize]),
            Some(r) => s.serialize_u8(*r),
            None => s.serialize_none(),
        }
    }

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Written {
        Name(String),
        Number(u8),
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u8>, D::Error> {
        match Option::<Written>::deserialize(d)? {
            None => Ok(None),
            Some(Written::Number(n)) => Ok(Some(n)),
            Some(Written::Name(name)) => super::rank_of_name(&name)
                .map(Some)
                .ok_or_else(|| D::Error::custom(format!("'{name}' is not a rank: A, 2 … 10, J, Q, K"))),
        }
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

    #[test]
    fn c8_presets() {
        let c = RuleSet::contract();
        let shanghai = RuleSet::shanghai();
        assert_eq!(shanghai.rounds(), 8);
        assert_eq!(shanghai.deal_size(8).unwrap(), 12);
        let eighth = shanghai.contract_for(8).unwrap();
        assert_eq!((eighth.sets(), eighth.runs(), eighth.whole_hand), (3, 1, true));
        let california = RuleSet::california();
        assert_eq!(california.deck_size(4), 104);
        assert_eq!(california.deck_size(8), 156);
        assert!(california.is_wild(Card::parse("Q♠").unwrap()));
        assert!(!california.is_wild(Card::parse("K♠").unwrap()));
        assert_eq!(california.card_points(Card::parse("Q♦").unwrap()), 25);
        assert_eq!(RuleSet::no_buy().buying, BuyingRule::Off);
        assert_eq!(RuleSet::double_progressive().deal_sizes[0], 7);
        assert_eq!(RuleSet::double_progressive().deal_sizes[1..], c.deal_sizes[1..]);
        assert_eq!(
            RuleSet::preset("Double_Progressive").unwrap().name,
            "double-progressive"
        );
        assert!(RuleSet::preset("canasta").unwrap_err().message.contains("shanghai"));
    }

    #[test]
    fn meld_ranges() {
        let l = RuleSet::liverpool();
        assert_eq!(l.meld_range(&MeldSpec::run(), false), (4, Some(4)));
        assert_eq!(l.meld_range(&MeldSpec::with_min(MeldKind::Run, 7), false), (7, Some(7)));
        assert_eq!(l.meld_range(&MeldSpec::run(), true), (4, None));
        let c = RuleSet::contract();
        assert_eq!(c.meld_range(&MeldSpec::with_min(MeldKind::Set, 5), false), (5, None));
        assert_eq!(l.min_cards(&Contract::new(1, 2)), 11);
    }
}
