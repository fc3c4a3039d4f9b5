//! Melds (L-4): sets and runs with jokers at explicit positions, lay-offs (L-5.3),
//! joker swaps (L-7) and the go-down check of a contract (L-4.4, L-4.6, L-8).
//!
//! Run positions: A(low)=1, 2..10, J=11, Q=12, K=13, A(high)=14 (L-4.3). A run's
//! cards are stored low to high, so the joker at index `i` stands for position
//! `start + i`.

use crate::card::{format_cards, Card, Suit};
use crate::error::{Error, ErrorCode, Message, Result};
use crate::msg;
use crate::rules::{Contract, MeldSpec, RuleSet, MAX_CONTRACT_MELDS};
use serde::{Deserialize, Serialize};

pub use crate::rules::MeldKind;

/// Which end of a run a card is laid off at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum End {
    Low,
    High,
}

/// A validated meld. Sets keep their cards in the order given; runs low to high.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Meld {
    kind: MeldKind,
    cards: Vec<Card>,
    /// Set: the rank (1..=13). Run: the suit index.
    key: u8,
    /// Run: the position (1..=14) of the first card. Unused for sets.
    start: u8,
    /// The rule set's wild rank (C-8 California), 0 if only jokers are wild.
    wild: u8,
}

/// A meld's verdict without its cards: everything a [`Meld`] holds besides the card
/// list. The go-down check judges groups into shapes and builds a `Meld` (one
/// allocation) only for the reading it keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Shape {
    kind: MeldKind,
    key: u8,
    start: u8,
    wild: u8,
}

impl Shape {
    /// The meld of this shape made of `cards` (the cards it was judged from).
    pub(crate) fn with_cards(self, cards: Vec<Card>) -> Meld {
        Meld {
            kind: self.kind,
            cards,
            key: self.key,
            start: self.start,
            wild: self.wild,
        }
    }
}

/// One card laid off on a meld ([`Meld::judge_lay_off_one`]): the card, whether it
/// goes before the meld's cards (a run's low end) or after them, and the grown
/// meld's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct OneCardLayOff {
    card: Card,
    at_low: bool,
    shape: Shape,
}

/// Which natural-card minimums a group is judged by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Naturals {
    /// A meld as it is laid at go-down: the rule set's minimums (`min_naturals_set`,
    /// `min_naturals_run` within `run_naturals_window`; L-4.5, W-4).
    AtGoDown,
    /// A meld grown on the table (lay-offs, a freed joker placed): W-4's **Decision**
    /// checks the minimums only at go-down, so a grown meld needs only L-4.5's one
    /// natural card, and a joker may go on either end of a run.
    OnTable,
}

/// The rank of a run position (14 is the ace).
#[inline]
pub fn position_rank(pos: u8) -> u8 {
    if pos == 14 {
        1
    } else {
        pos
    }
}

/// Why cards are not a meld, without the sentence: the checks decide with this and
/// only [`MeldFault::error`] builds the error, when a caller reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MeldFault {
    /// L-1.2: more copies than the deck holds (the error comes from `check_meld_copies`).
    Copies,
    SetMinSize(u8),
    SetNoNatural,
    NotOneRank,
    SetFewNaturals(u8),
    RunMinSize(u8),
    RunTooLong,
    RunNoNatural,
    NotOneSuit,
    NotConsecutive,
    /// The minimum, and the rule (L-4.5, or W-4 with a naturals window).
    RunFewNaturals(u8, &'static str),
}

impl MeldFault {
    /// The `invalid_meld` (or copy-limit) error of `cards`.
    fn error(self, cards: &[Card], rules: &RuleSet) -> Error {
        let invalid = |rule: &'static str, msg: Message| Error::refused(ErrorCode::InvalidMeld, rule, msg);
        // The rule that decides each fault in the game's profile: C-4 restates sets,
        // runs and jokers for profile C; W-4 sets the sizes and naturals of profile W,
        // W-2 its aces; what a profile does not restate is L's.
        let cite = |l, c, w| rules.cite(l, c, w);
        let not_a_set =
            |rule, why: Message| invalid(rule, msg!("meld.not_a_set", cards = format_cards(cards), why = why));
        let not_a_run =
            |rule, why: Message| invalid(rule, msg!("meld.not_a_run", cards = format_cards(cards), why = why));
        match self {
            MeldFault::Copies => {
                check_meld_copies(cards, rules, msg!("what.the_meld")).expect_err("the copy limit refused these cards")
            }
            MeldFault::SetMinSize(min) => not_a_set(cite("L-4.1", "C-4", "W-4"), msg!("meld.set_min_size", min = min)),
            MeldFault::SetNoNatural => not_a_set(cite("L-4.5", "C-4", "W-4"), msg!("meld.no_natural")),
            MeldFault::NotOneRank => not_a_set(cite("L-4.1", "C-4", "L-4.1"), msg!("meld.not_one_rank")),
            MeldFault::SetFewNaturals(min) => invalid(
                cite("L-4.5", "C-4", "W-4"),
                msg!("meld.set_few_naturals", cards = format_cards(cards), min = min),
            ),
            MeldFault::RunMinSize(min) => not_a_run(cite("L-4.2", "C-4", "W-4"), msg!("meld.run_min_size", min = min)),
            MeldFault::RunTooLong => not_a_run(cite("L-4.3", "C-4", "W-2"), msg!("meld.run_too_long")),
            MeldFault::RunNoNatural => not_a_run(cite("L-4.5", "C-4", "W-4"), msg!("meld.no_natural")),
            MeldFault::NotOneSuit => not_a_run(cite("L-4.2", "C-4", "L-4.2"), msg!("meld.not_one_suit")),
            MeldFault::NotConsecutive => not_a_run(cite("L-4.3", "C-4", "W-2"), msg!("meld.not_consecutive")),
            MeldFault::RunFewNaturals(min, rule) => invalid(
                cite(rule, "C-4", "W-4"),
                msg!("meld.run_few_naturals", cards = format_cards(cards), min = min),
            ),
        }
    }
}

/// Why cards do not lay off on a meld (the `why` of `lay_off.refused`), without the
/// sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
enum LayOffFault {
    WrongRank(Card),
    WrongSuit(Card),
    NoExtension,
    PositionTaken(i32, Card),
    PositionClash,
    LeavesGap,
    JokerNoRoom,
    /// The grown cards are not a meld.
    NotAMeld(Vec<Card>, MeldFault),
}

impl LayOffFault {
    fn message(&self, target: &Meld, rules: &RuleSet) -> Message {
        match self {
            LayOffFault::WrongRank(c) => msg!("lay_off.wrong_rank", card = c, rank = Card::rank_str(target.key)),
            LayOffFault::WrongSuit(c) => msg!("lay_off.wrong_suit", card = c),
            LayOffFault::NoExtension => msg!("lay_off.no_extension"),
            LayOffFault::PositionTaken(pos, c) => msg!("lay_off.position_taken", position = pos, card = c),
            LayOffFault::PositionClash => msg!("lay_off.position_clash"),
            LayOffFault::LeavesGap => msg!("lay_off.leaves_gap"),
            LayOffFault::JokerNoRoom => msg!("lay_off.joker_no_room"),
            LayOffFault::NotAMeld(grown, fault) => fault.error(grown, rules).to_message(),
        }
    }
}

impl Meld {
    /// This meld without its cards.
    pub(crate) fn shape(&self) -> Shape {
        Shape {
            kind: self.kind,
            key: self.key,
            start: self.start,
            wild: self.wild,
        }
    }
    pub fn kind(&self) -> MeldKind {
        self.kind
    }
    pub fn cards(&self) -> &[Card] {
        &self.cards
    }
    pub fn len(&self) -> usize {
        self.cards.len()
    }
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }
    pub fn is_set(&self) -> bool {
        self.kind == MeldKind::Set
    }
    pub fn is_run(&self) -> bool {
        self.kind == MeldKind::Run
    }
    /// A set's rank; `None` for a run.
    pub fn rank(&self) -> Option<u8> {
        self.is_set().then_some(self.key)
    }
    /// A run's suit; `None` for a set.
    pub fn suit(&self) -> Option<Suit> {
        self.is_run().then(|| Suit::from_index(self.key))
    }
    /// A run's (low, high) positions, 1..=14; `None` for a set.
    pub fn span(&self) -> Option<(u8, u8)> {
        self.is_run()
            .then(|| (self.start, self.start + self.cards.len() as u8 - 1))
    }
    /// Is this card wild in this meld's rule set (a joker, or a card of the wild rank)?
    #[inline]
    pub fn is_wild(&self, card: Card) -> bool {
        card.is_joker() || (self.wild != 0 && card.rank() == self.wild)
    }
    /// Wild cards in the meld: jokers, and cards of the wild rank (C-8 California).
    pub fn jokers(&self) -> usize {
        self.cards.iter().filter(|&&c| self.is_wild(c)).count()
    }
    pub fn naturals(&self) -> usize {
        self.cards.len() - self.jokers()
    }

    /// The natural card the joker (or wild card) at `index` stands for: in a run the
    /// card of its position (L-4.5), in a set `None` (a set's joker stands for the
    /// rank, any suit).
    pub fn joker_stands_for(&self, index: usize) -> Option<Card> {
        if !self.is_run() || !self.is_wild(*self.cards.get(index)?) {
            return None;
        }
        let pos = self.start + index as u8;
        Some(Card::new(position_rank(pos), Suit::from_index(self.key)))
    }

    /// A set from cards in any order (L-4.1, L-4.5). Size limits of a go-down are
    /// checked by [`check_go_down`]; here only the minimum size applies.
    pub fn set(cards: &[Card], rules: &RuleSet) -> Result<Meld> {
        Meld::check_set(cards, rules, true).map_err(|f| f.error(cards, rules))
    }

    /// [`Meld::set`] without the deck's copy limit (the search, which reads wild cards
    /// as jokers and only ever holds cards of a checked hand).
    pub(crate) fn set_unchecked(cards: &[Card], rules: &RuleSet) -> Result<Meld> {
        Meld::check_set(cards, rules, false).map_err(|f| f.error(cards, rules))
    }

    /// The verdict of [`Meld::set`] (`copies`: with the deck's copy limit) without a
    /// sentence: the legal moves and the go-down check test many readings and keep
    /// only the verdict; [`MeldFault::error`] says it when someone reads it.
    fn check_set(cards: &[Card], rules: &RuleSet, copies: bool) -> std::result::Result<Meld, MeldFault> {
        Meld::judge_set(cards, rules, copies, Naturals::AtGoDown).map(|shape| shape.with_cards(cards.to_vec()))
    }

    /// [`Meld::check_set`] without building the meld.
    fn judge_set(
        cards: &[Card],
        rules: &RuleSet,
        copies: bool,
        naturals_rule: Naturals,
    ) -> std::result::Result<Shape, MeldFault> {
        if copies && !meld_copies_fit(cards, rules) {
            return Err(MeldFault::Copies);
        }
        if cards.len() < rules.set_size_min as usize {
            return Err(MeldFault::SetMinSize(rules.set_size_min));
        }
        let mut naturals = cards.iter().filter(|&&c| !rules.is_wild(c));
        let Some(first) = naturals.next() else {
            return Err(MeldFault::SetNoNatural);
        };
        let mut count = 1usize;
        for c in naturals {
            if c.rank() != first.rank() {
                return Err(MeldFault::NotOneRank);
            }
            count += 1;
        }
        if naturals_rule == Naturals::AtGoDown && count < rules.min_naturals_set.max(1) as usize {
            return Err(MeldFault::SetFewNaturals(rules.min_naturals_set));
        }
        Ok(Shape {
            kind: MeldKind::Set,
            key: first.rank(),
            start: 0,
            wild: rules.wild_rank.unwrap_or(0),
        })
    }

    /// A meld the contract search built (`search::name_melds`): its kind, its key (a
    /// set's rank, a run's suit index) and a run's start are known from the search's
    /// candidate, so the cards are not judged again (checked against the judging
    /// constructors in debug builds).
    pub(crate) fn from_search(kind: MeldKind, cards: Vec<Card>, key: u8, start: u8, rules: &RuleSet) -> Meld {
        let shape = Shape {
            kind,
            key,
            start: if kind == MeldKind::Run { start } else { 0 },
            wild: rules.wild_rank.unwrap_or(0),
        };
        let meld = shape.with_cards(cards);
        debug_assert_eq!(
            Some(&meld),
            match kind {
                MeldKind::Set => Meld::set_unchecked(&meld.cards, rules).ok(),
                MeldKind::Run => Meld::run_min_len(&meld.cards, rules, 1).ok(),
            }
            .as_ref(),
            "the search's meld reads as judged"
        );
        meld
    }

    /// A run from cards listed low to high; a joker's place fixes its position (L-4.2, L-4.3).
    pub fn run(cards: &[Card], rules: &RuleSet) -> Result<Meld> {
        Meld::check_run(cards, rules, rules.run_size_min, true).map_err(|f| f.error(cards, rules))
    }

    pub(crate) fn run_min_len(cards: &[Card], rules: &RuleSet, min_len: u8) -> Result<Meld> {
        Meld::check_run(cards, rules, min_len, false).map_err(|f| f.error(cards, rules))
    }

    /// The verdict of [`Meld::run`] (`copies`: with the deck's copy limit), at least
    /// `min_len` cards, without a sentence (see [`Meld::check_set`]).
    fn check_run(cards: &[Card], rules: &RuleSet, min_len: u8, copies: bool) -> std::result::Result<Meld, MeldFault> {
        Meld::judge_run(cards, rules, min_len, copies, Naturals::AtGoDown).map(|shape| shape.with_cards(cards.to_vec()))
    }

    /// [`Meld::check_run`] without building the meld.
    fn judge_run(
        cards: &[Card],
        rules: &RuleSet,
        min_len: u8,
        copies: bool,
        naturals_rule: Naturals,
    ) -> std::result::Result<Shape, MeldFault> {
        if copies && !meld_copies_fit(cards, rules) {
            return Err(MeldFault::Copies);
        }
        if cards.len() < min_len as usize {
            return Err(MeldFault::RunMinSize(min_len));
        }
        if cards.len() > 14 {
            return Err(MeldFault::RunTooLong);
        }
        let wild = |c: &Card| rules.is_wild(*c);
        let Some((first_index, first)) = cards.iter().enumerate().find(|(_, c)| !wild(c)) else {
            return Err(MeldFault::RunNoNatural);
        };
        let suit = first.suit_index();
        if cards.iter().any(|c| !wild(c) && c.suit_index() != suit) {
            return Err(MeldFault::NotOneSuit);
        }
        // The first natural fixes the start; an ace may sit at position 1 or 14.
        let low_start = first.rank() as i32 - first_index as i32;
        let high_start = (first.rank() == 1).then_some(14 - first_index as i32);
        let len = cards.len() as i32;
        let start = std::iter::once(low_start).chain(high_start).find(|&s| {
            s >= 1
                && s + len - 1 <= 14
                && cards
                    .iter()
                    .enumerate()
                    .all(|(i, c)| wild(c) || position_rank((s + i as i32) as u8) == c.rank())
        });
        let Some(start) = start else {
            return Err(MeldFault::NotConsecutive);
        };
        let counted = match rules.run_naturals_window {
            Some(w) => &cards[..cards.len().min(w as usize)],
            None => cards,
        };
        let naturals = counted.iter().filter(|c| !wild(c)).count();
        // On the table a run already holds its first natural (found above): W-4.
        if naturals_rule == Naturals::AtGoDown && naturals < rules.min_naturals_run.max(1) as usize {
            let rule = if rules.run_naturals_window.is_some() {
                "W-4"
            } else {
                "L-4.5"
            };
            return Err(MeldFault::RunFewNaturals(rules.min_naturals_run, rule));
        }
        Ok(Shape {
            kind: MeldKind::Run,
            key: suit,
            start: start as u8,
            wild: rules.wild_rank.unwrap_or(0),
        })
    }

    /// A meld as it may lie on the table of a loaded position: of at least the
    /// go-down size, but (W-4 **Decision**) needing only L-4.5's one natural card,
    /// since jokers laid off later are not held to the go-down's minimums. `kind`
    /// `None` reads it as a set if it is one, else as a run.
    pub fn on_table(kind: Option<MeldKind>, cards: &[Card], rules: &RuleSet) -> Result<Meld> {
        let set = || Meld::judge_set(cards, rules, true, Naturals::OnTable);
        let run = || Meld::judge_run(cards, rules, rules.run_size_min, true, Naturals::OnTable);
        let judged = match kind {
            Some(MeldKind::Set) => set(),
            Some(MeldKind::Run) => run(),
            None => set().or_else(|set_fault| {
                run().map_err(|run_fault| {
                    let mut ranks = cards.iter().filter(|&&c| !rules.is_wild(c)).map(|c| c.rank());
                    let one_rank = ranks.next().is_none_or(|r| ranks.all(|x| x == r));
                    if one_rank {
                        set_fault
                    } else {
                        run_fault
                    }
                })
            }),
        };
        judged
            .map(|shape| shape.with_cards(cards.to_vec()))
            .map_err(|f| f.error(cards, rules))
    }

    /// Every legal reading of a card group: as a set, as a run, or both
    /// (e.g. `5♥ JK JK JK` could be either). The error of the more plausible
    /// reading is returned when there is none.
    pub fn interpretations(cards: &[Card], rules: &RuleSet) -> Result<Vec<Meld>> {
        let set = Meld::check_set(cards, rules, true);
        let run = Meld::check_run(cards, rules, rules.run_size_min, true);
        let mut out = vec![];
        let set_fault = match set {
            Ok(m) => {
                out.push(m);
                None
            }
            Err(f) => Some(f),
        };
        let run_fault = match run {
            Ok(m) => {
                out.push(m);
                None
            }
            Err(f) => Some(f),
        };
        if out.is_empty() {
            // Report the reading that the cards look like: one rank → set, else run.
            let mut ranks = cards.iter().filter(|&&c| !rules.is_wild(c)).map(|c| c.rank());
            let one_rank = match ranks.next() {
                Some(r) => ranks.all(|x| x == r),
                None => true,
            };
            let fault = if one_rank { set_fault } else { run_fault };
            return Err(fault.expect("neither reading is legal").error(cards, rules));
        }
        Ok(out)
    }

    /// Lay `cards` off on this meld (L-5.3) and return the grown meld; `self` is unchanged.
    /// On a run, naturals go where their positions say; jokers first fill any gap the
    /// naturals leave, then extend `end` (default: high if legal, else low).
    pub fn lay_off(&self, cards: &[Card], end: Option<End>, rules: &RuleSet) -> Result<Meld> {
        if cards.is_empty() {
            return Err(Error::refused(
                ErrorCode::InvalidArgument,
                "L-5.3",
                msg!("lay_off.no_cards"),
            ));
        }
        self.try_lay_off(cards, end, rules).map_err(|fault| {
            Error::refused(
                ErrorCode::InvalidLayOff,
                "L-5.3",
                msg!(
                    "lay_off.refused",
                    cards = format_cards(cards),
                    meld = format_cards(&self.cards),
                    why = fault.message(self, rules)
                ),
            )
        })
    }

    /// Would [`Meld::lay_off`] succeed? The same checks, without building the error
    /// (the legal moves and the bots ask this of every card and every table meld).
    /// One card is judged without building the grown meld.
    pub fn can_lay_off(&self, cards: &[Card], end: Option<End>, rules: &RuleSet) -> bool {
        if let [card] = cards {
            let fits = self.judge_lay_off_one(*card, end, rules).is_some();
            debug_assert_eq!(fits, self.try_lay_off_fully(cards, end, rules).is_ok());
            return fits;
        }
        !cards.is_empty() && self.try_lay_off(cards, end, rules).is_ok()
    }

    /// [`Meld::lay_off`] for a non-empty `cards`, with the reason of a refusal as a
    /// [`LayOffFault`] (no sentence built).
    fn try_lay_off(&self, cards: &[Card], end: Option<End>, rules: &RuleSet) -> std::result::Result<Meld, LayOffFault> {
        if let [card] = cards {
            if let Some(grown) = self.lay_off_one(*card, end, rules) {
                debug_assert_eq!(
                    self.try_lay_off_fully(cards, end, rules).ok().as_ref(),
                    Some(&grown),
                    "the one-card lay-off agrees with the full one"
                );
                return Ok(grown);
            }
        }
        self.try_lay_off_fully(cards, end, rules)
    }

    /// One card laid off: the grown meld when the card fits, `None` when it does not
    /// (then [`Self::try_lay_off_fully`] says why).
    fn lay_off_one(&self, card: Card, end: Option<End>, rules: &RuleSet) -> Option<Meld> {
        self.judge_lay_off_one(card, end, rules).map(|one| self.grown_by(&one))
    }

    /// Where one card laid off goes (what the bots try, card by card), judged on a
    /// copy on the stack: `None` when it does not fit. A natural goes next to either
    /// end of a run (an ace low first, as the full check prefers); a wild card
    /// extends `end` (default: high if there is room, else low); a set takes it last.
    pub(crate) fn judge_lay_off_one(&self, card: Card, end: Option<End>, rules: &RuleSet) -> Option<OneCardLayOff> {
        let wild = rules.is_wild(card);
        let at_low = match self.kind {
            MeldKind::Set => {
                if !wild && card.rank() != self.key {
                    return None;
                }
                false
            }
            MeldKind::Run => {
                let (low, high) = self.span()?;
                let (room_low, room_high) = (low > 1, high < 14);
                if wild {
                    match end {
                        Some(End::High) if room_high => false,
                        Some(End::Low) if room_low => true,
                        None if room_high => false,
                        None if room_low => true,
                        _ => return None,
                    }
                } else {
                    if card.suit_index() != self.key {
                        return None;
                    }
                    let rank = card.rank();
                    let fits_low = |pos: u8| pos + 1 == low;
                    let fits_high = |pos: u8| pos == high + 1;
                    if fits_low(rank) {
                        true
                    } else if fits_high(rank) || (rank == 1 && fits_high(14)) {
                        false
                    } else {
                        return None;
                    }
                }
            }
        };
        // The grown cards on the stack when they fit (melds seldom hold more).
        let n = self.cards.len() + 1;
        let mut on_stack = [Card::JOKER; 32];
        let mut on_heap = Vec::new();
        let grown: &mut [Card] = if n <= on_stack.len() {
            &mut on_stack[..n]
        } else {
            on_heap.resize(n, Card::JOKER);
            &mut on_heap
        };
        if at_low {
            grown[0] = card;
            grown[1..].copy_from_slice(&self.cards);
        } else {
            grown[..n - 1].copy_from_slice(&self.cards);
            grown[n - 1] = card;
        }
        let shape = match self.kind {
            MeldKind::Set => Meld::judge_set(grown, rules, true, Naturals::OnTable),
            MeldKind::Run => Meld::judge_run(grown, rules, 1, false, Naturals::OnTable),
        }
        .ok()?;
        Some(OneCardLayOff { card, at_low, shape })
    }

    /// This meld with the card of `one` (judged on it) laid off.
    pub(crate) fn grown_by(&self, one: &OneCardLayOff) -> Meld {
        let mut cards = Vec::with_capacity(self.cards.len() + 1);
        if one.at_low {
            cards.push(one.card);
            cards.extend_from_slice(&self.cards);
        } else {
            cards.extend_from_slice(&self.cards);
            cards.push(one.card);
        }
        one.shape.with_cards(cards)
    }

    /// [`Self::grown_by`] in place: the table's meld grows without a new card list.
    pub(crate) fn grow(&mut self, one: &OneCardLayOff) {
        if one.at_low {
            self.cards.insert(0, one.card);
        } else {
            self.cards.push(one.card);
        }
        let Shape { kind, key, start, wild } = one.shape;
        (self.kind, self.key, self.start, self.wild) = (kind, key, start, wild);
    }

    /// [`Self::try_lay_off`] for any number of cards.
    fn try_lay_off_fully(
        &self,
        cards: &[Card],
        end: Option<End>,
        rules: &RuleSet,
    ) -> std::result::Result<Meld, LayOffFault> {
        match self.kind {
            MeldKind::Set => {
                if let Some(&c) = cards.iter().find(|&&c| !rules.is_wild(c) && c.rank() != self.key) {
                    return Err(LayOffFault::WrongRank(c));
                }
                let mut grown = Vec::with_capacity(self.cards.len() + cards.len());
                grown.extend_from_slice(&self.cards);
                grown.extend_from_slice(cards);
                match Meld::judge_set(&grown, rules, true, Naturals::OnTable) {
                    Ok(shape) => Ok(shape.with_cards(grown)),
                    Err(fault) => Err(LayOffFault::NotAMeld(grown, fault)),
                }
            }
            MeldKind::Run => self.lay_off_run(cards, end, rules),
        }
    }

    fn lay_off_run(&self, cards: &[Card], end: Option<End>, rules: &RuleSet) -> std::result::Result<Meld, LayOffFault> {
        let (low, high) = self.span().expect("a run");
        // Wild cards fill gaps first, then extend the run, in the order given.
        let wilds: Vec<Card> = cards.iter().copied().filter(|&c| rules.is_wild(c)).collect();
        let jokers = wilds.len() as i32;
        let naturals: Vec<Card> = cards.iter().copied().filter(|&c| !rules.is_wild(c)).collect();
        for &c in &naturals {
            if c.suit_index() != self.key {
                return Err(LayOffFault::WrongSuit(c));
            }
        }
        // Each ace may go to position 1 or 14; try every assignment (at most 2 aces matter).
        let aces = naturals.iter().filter(|c| c.rank() == 1).count();
        let mut best: Option<(i32, Vec<Option<Card>>, u8)> = None;
        let mut last_reason = LayOffFault::NoExtension;
        for ace_mask in 0..(1u32 << aces) {
            let mut ace_i = 0;
            let mut positions: Vec<(i32, Card)> = Vec::with_capacity(naturals.len());
            for &c in &naturals {
                let pos = if c.rank() == 1 {
                    let p = if ace_mask >> ace_i & 1 == 1 { 14 } else { 1 };
                    ace_i += 1;
                    p
                } else {
                    c.rank() as i32
                };
                positions.push((pos, c));
            }
            if let Some(&(pos, c)) = positions.iter().find(|(p, _)| (low as i32..=high as i32).contains(p)) {
                last_reason = LayOffFault::PositionTaken(pos, c);
                continue;
            }
            let mut lo = low as i32;
            let mut hi = high as i32;
            for &(p, _) in &positions {
                lo = lo.min(p);
                hi = hi.max(p);
            }
            let span = (hi - lo + 1) as usize;
            let mut slots: Vec<Option<Card>> = vec![None; span];
            let mut clash = false;
            for (i, c) in self.cards.iter().enumerate() {
                slots[(low as i32 - lo) as usize + i] = Some(*c);
            }
            for &(p, c) in &positions {
                let slot = &mut slots[(p - lo) as usize];
                if slot.is_some() {
                    clash = true;
                }
                *slot = Some(c);
            }
            if clash {
                last_reason = LayOffFault::PositionClash;
                continue;
            }
            let gaps = slots.iter().filter(|s| s.is_none()).count() as i32;
            if gaps > jokers {
                last_reason = LayOffFault::LeavesGap;
                continue;
            }
            let extra = jokers - gaps;
            let mut start = lo;
            let mut next_wild = wilds.iter().copied();
            for s in slots.iter_mut().filter(|s| s.is_none()) {
                *s = next_wild.next();
            }
            if extra > 0 {
                let high_ok = hi + extra <= 14;
                let low_ok = lo - extra >= 1;
                let to_high = match end {
                    Some(End::High) => high_ok,
                    Some(End::Low) => false,
                    None => high_ok,
                };
                let rest: Vec<Option<Card>> = next_wild.map(Some).collect();
                if to_high {
                    slots.extend(rest);
                } else if (end.is_none() || end == Some(End::Low)) && low_ok {
                    let mut v = rest;
                    v.extend(slots);
                    slots = v;
                    start = lo - extra;
                } else {
                    last_reason = LayOffFault::JokerNoRoom;
                    continue;
                }
            }
            let cost = gaps; // prefer the reading that needs the fewest jokers as fillers
            if best.as_ref().is_none_or(|(c, _, _)| cost < *c) {
                best = Some((cost, slots, start as u8));
            }
        }
        let (_, slots, start) = best.ok_or(last_reason)?;
        let grown: Vec<Card> = slots.into_iter().map(|s| s.expect("filled")).collect();
        let meld = match Meld::judge_run(&grown, rules, 1, false, Naturals::OnTable) {
            Ok(shape) => shape.with_cards(grown),
            Err(fault) => return Err(LayOffFault::NotAMeld(grown, fault)),
        };
        debug_assert_eq!(meld.start, start);
        Ok(meld)
    }

    /// L-7.2: put `natural` in place of the run joker that stands for it.
    /// Returns the new meld; the freed joker is the caller's to place.
    pub fn swap_joker(&self, natural: Card) -> Result<Meld> {
        if self.is_set() {
            return Err(Error::refused(
                ErrorCode::JokerLocked,
                "L-7.1",
                msg!("swap.set_joker_locked"),
            ));
        }
        let index = (0..self.cards.len()).find(|&i| self.joker_stands_for(i) == Some(natural));
        let Some(index) = index else {
            let why = if self.jokers() == 0 {
                msg!("swap.no_joker")
            } else {
                let stands: Vec<String> = (0..self.cards.len())
                    .filter_map(|i| self.joker_stands_for(i))
                    .map(|c| c.to_string())
                    .collect();
                msg!("swap.stands_for", stands = stands.join(", "), card = natural)
            };
            return Err(Error::refused(
                ErrorCode::SwapMismatch,
                "L-7.2",
                msg!(
                    "swap.mismatch",
                    card = natural,
                    meld = format_cards(&self.cards),
                    why = why
                ),
            ));
        };
        let mut cards = self.cards.clone();
        cards[index] = natural;
        Ok(Meld { cards, ..self.clone() })
    }
}

impl std::fmt::Display for Meld {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&format_cards(&self.cards))
    }
}

/// L-4.4: two same-suit runs of one contract that touch end to end (neither overlapping
/// nor leaving a gap). Returns the first such pair.
pub fn adjacent_same_suit_runs(runs: &[&Meld]) -> Option<(usize, usize)> {
    for i in 0..runs.len() {
        for j in 0..runs.len() {
            if i == j || runs[i].key != runs[j].key {
                continue;
            }
            let (_, hi) = runs[i].span().unwrap();
            let (lo, _) = runs[j].span().unwrap();
            if lo == hi + 1 {
                return Some((i, j));
            }
        }
    }
    None
}

/// [`check_meld_copies`]'s verdict without its error: do `cards` fit the largest
/// deck of the rules (L-1.2)?
fn meld_copies_fit<'a>(cards: impl IntoIterator<Item = &'a Card> + Clone, rules: &RuleSet) -> bool {
    let mut counts = [0u32; 53];
    cards.clone().into_iter().for_each(|c| counts[c.id() as usize] += 1);
    let (decks, jokers) = rules.largest_deck();
    // Only the ids the cards name can be over their limit: look at those, not at
    // all 53 counts (a meld has a few cards).
    cards.into_iter().all(|c| {
        let limit = if c.is_joker() { jokers } else { decks };
        counts[c.id() as usize] <= u32::from(limit)
    })
}

/// L-1.2: cards laid together never hold more copies of a card than the largest deck
/// of the rules (`too_many_copies`, `no_jokers_in_profile`).
fn check_meld_copies<'a>(cards: impl IntoIterator<Item = &'a Card>, rules: &RuleSet, what: Message) -> Result<()> {
    let mut counts = [0u32; 53];
    cards.into_iter().for_each(|c| counts[c.id() as usize] += 1);
    rules.check_copies_in_largest_deck(&counts, what)
}

/// Check a go-down (L-4.6; L-8 when the contract is whole-hand) and return the melds
/// in the order given. Each meld fills one of the contract's melds of its kind, of
/// that meld's length ([`RuleSet::meld_range`]; C-8 custom contracts give each meld
/// its own minimum). Errors, in this order of precedence: `invalid_meld`,
/// `contract_not_met` (wrong number or kinds of melds, or a meld shorter than the
/// contract's meld it fills), `meld_size`, `adjacent_runs`. Whether the player holds
/// the cards (and, for a whole-hand round, whether they are the whole hand) is the
/// caller's check.
pub fn check_go_down(groups: &[Vec<Card>], contract: &Contract, rules: &RuleSet) -> Result<Vec<Meld>> {
    go_down_shapes(groups, contract, rules).map(|shapes| shapes.melds(groups))
}

/// The shapes of a legal go-down, one per group in the order given (at most a
/// contract's [`MAX_CONTRACT_MELDS`]); [`GoDownShapes::melds`] builds the melds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct GoDownShapes {
    shapes: [Shape; MAX_CONTRACT_MELDS],
    len: u8,
}

/// A placeholder in the unused places of fixed arrays of shapes.
const NO_SHAPE: Shape = Shape {
    kind: MeldKind::Set,
    key: 0,
    start: 0,
    wild: 0,
};

impl GoDownShapes {
    fn of(melds: &[Meld]) -> GoDownShapes {
        let mut shapes = [NO_SHAPE; MAX_CONTRACT_MELDS];
        for (slot, meld) in shapes.iter_mut().zip(melds) {
            *slot = meld.shape();
        }
        debug_assert!(melds.len() <= MAX_CONTRACT_MELDS, "a go-down has a contract's melds");
        GoDownShapes {
            shapes,
            len: melds.len().min(MAX_CONTRACT_MELDS) as u8,
        }
    }

    /// One shape per group, in the order given.
    pub(crate) fn shapes(&self) -> &[Shape] {
        &self.shapes[..self.len as usize]
    }

    /// The melds of the go-down, made of `groups` (the groups that were judged).
    pub(crate) fn melds(&self, groups: &[Vec<Card>]) -> Vec<Meld> {
        groups
            .iter()
            .zip(&self.shapes[..self.len as usize])
            .map(|(g, shape)| shape.with_cards(g.clone()))
            .collect()
    }
}

/// [`check_go_down`] without building the melds: the verdict the engine plans a
/// go-down with (the bots ask it of every go-down they consider, through
/// `GameState::can`). A legal go-down is recognised without allocating; anything
/// else, and every error, comes from the full check.
pub(crate) fn go_down_shapes(groups: &[Vec<Card>], contract: &Contract, rules: &RuleSet) -> Result<GoDownShapes> {
    if let Some(shapes) = quick_go_down(groups, contract, rules) {
        debug_assert_eq!(
            check_go_down_fully(groups, contract, rules).ok(),
            Some(shapes.melds(groups)),
            "the quick go-down check agrees with the full one"
        );
        return Ok(shapes);
    }
    check_go_down_fully(groups, contract, rules).map(|melds| GoDownShapes::of(&melds))
}

/// The readings of the full check, tried in the same order, on fixed arrays: the
/// shapes of the first reading that meets the contract, or `None` when there is no
/// such reading or the input is unusual (then the full check decides and explains).
fn quick_go_down(groups: &[Vec<Card>], contract: &Contract, rules: &RuleSet) -> Option<GoDownShapes> {
    let n = groups.len();
    if n != contract.count() || n > MAX_CONTRACT_MELDS || !meld_copies_fit(groups.iter().flatten(), rules) {
        return None;
    }
    // Every group is within the copy limit once the whole go-down is.
    let mut readings = [[NO_SHAPE; 2]; MAX_CONTRACT_MELDS];
    let mut counts = [0usize; MAX_CONTRACT_MELDS];
    // A reading of a kind the contract does not ask for is never part of a legal
    // go-down: it is not judged.
    let (want_sets, want_runs) = (contract.sets() as usize, contract.runs() as usize);
    for (i, g) in groups.iter().enumerate() {
        let set = (want_sets > 0)
            .then(|| Meld::judge_set(g, rules, false, Naturals::AtGoDown).ok())
            .flatten();
        let run = (want_runs > 0)
            .then(|| Meld::judge_run(g, rules, rules.run_size_min, false, Naturals::AtGoDown).ok())
            .flatten();
        for shape in [set, run].into_iter().flatten() {
            readings[i][counts[i]] = shape;
            counts[i] += 1;
        }
        if counts[i] == 0 {
            return None;
        }
    }
    let combos: usize = counts[..n].iter().product();
    let mut pick = [NO_SHAPE; MAX_CONTRACT_MELDS];
    for k in 0..combos {
        let mut rest = k;
        for i in 0..n {
            pick[i] = readings[i][rest % counts[i]];
            rest /= counts[i];
        }
        let sets = pick[..n].iter().filter(|s| s.kind == MeldKind::Set).count();
        if sets != want_sets || n - sets != want_runs {
            continue;
        }
        if !sizes_fit(&pick[..n], groups, contract, rules) {
            continue;
        }
        if rules.same_suit_runs_need_gap && runs_touch(&pick[..n], groups) {
            continue;
        }
        return Some(GoDownShapes {
            shapes: pick,
            len: n as u8,
        });
    }
    None
}

/// [`size_problem`]'s verdict: the longest melds of a kind paired with the
/// contract's longest minimums, every length within its meld's range.
fn sizes_fit(picked: &[Shape], groups: &[Vec<Card>], contract: &Contract, rules: &RuleSet) -> bool {
    for kind in [MeldKind::Set, MeldKind::Run] {
        let mut lens = [0u8; MAX_CONTRACT_MELDS];
        let mut nl = 0;
        for (shape, g) in picked.iter().zip(groups) {
            if shape.kind == kind {
                lens[nl] = g.len() as u8;
                nl += 1;
            }
        }
        let mut ranges = [(0u8, None); MAX_CONTRACT_MELDS];
        let mut nr = 0;
        for spec in contract.melds().iter().filter(|s| s.kind == kind) {
            ranges[nr] = rules.meld_range(spec, contract.whole_hand);
            nr += 1;
        }
        // Longest first on both sides (within a kind, the maximum follows the minimum).
        lens[..nl].sort_unstable_by_key(|&len| std::cmp::Reverse(len));
        ranges[..nr].sort_unstable_by_key(|&(min, _)| std::cmp::Reverse(min));
        let fits = lens[..nl]
            .iter()
            .zip(&ranges[..nr])
            .all(|(&len, &(min, max))| len >= min && max.is_none_or(|max| len <= max));
        if !fits {
            return false;
        }
    }
    true
}

/// [`adjacent_same_suit_runs`]'s verdict (L-4.4) for the runs among `picked`.
fn runs_touch(picked: &[Shape], groups: &[Vec<Card>]) -> bool {
    let span = |i: usize| {
        let start = i32::from(picked[i].start);
        (start, start + groups[i].len() as i32 - 1)
    };
    let is_run = |i: usize| picked[i].kind == MeldKind::Run;
    (0..picked.len()).filter(|&i| is_run(i)).any(|i| {
        (0..picked.len())
            .filter(|&j| j != i && is_run(j) && picked[j].key == picked[i].key)
            .any(|j| span(j).0 == span(i).1 + 1)
    })
}

/// [`check_go_down`] the long way: every reading as a [`Meld`], and the error of
/// each kind of failure.
fn check_go_down_fully(groups: &[Vec<Card>], contract: &Contract, rules: &RuleSet) -> Result<Vec<Meld>> {
    // L-1.2: all the melds together come from one deck (the largest the rules use).
    check_meld_copies(groups.iter().flatten(), rules, msg!("what.the_go_down"))?;
    let want = contract.count();
    let mut readings: Vec<Vec<Meld>> = Vec::with_capacity(groups.len());
    for g in groups {
        let mut r = Meld::interpretations(g, rules)?;
        if contract.whole_hand {
            r.retain(|m| m.is_run() || contract.sets() > 0);
        }
        readings.push(r);
    }
    let rule = if contract.whole_hand {
        rules.cite("L-8.1", "C-6", "L-8.1")
    } else {
        "L-4.6"
    };
    if groups.len() != want {
        return Err(Error::refused(
            ErrorCode::ContractNotMet,
            rule,
            msg!(
                "go_down.meld_count",
                contract = rules.contract_message(contract),
                want = want,
                got = groups.len()
            ),
        ));
    }
    // Choose a reading per group (2^n at most, n <= 6) giving exactly the contract's kinds.
    let mut chosen: Option<Vec<Meld>> = None;
    let mut size_error: Option<Error> = None;
    let mut adjacency_error: Option<Error> = None;
    let combos: usize = readings.iter().map(|r| r.len()).product();
    for mut k in 0..combos {
        let pick: Vec<&Meld> = readings
            .iter()
            .map(|r| {
                let m = &r[k % r.len()];
                k /= r.len();
                m
            })
            .collect();
        let sets = pick.iter().filter(|m| m.is_set()).count();
        if sets != contract.sets() as usize || pick.len() - sets != contract.runs() as usize {
            continue;
        }
        if let Some(e) = size_problem(&pick, contract, rules) {
            size_error.get_or_insert(e);
            continue;
        }
        if rules.same_suit_runs_need_gap {
            let runs: Vec<&Meld> = pick.iter().copied().filter(|m| m.is_run()).collect();
            if let Some((i, j)) = adjacent_same_suit_runs(&runs) {
                adjacency_error.get_or_insert(Error::refused(
                    ErrorCode::AdjacentRuns,
                    "L-4.4",
                    msg!("go_down.adjacent_runs", first = runs[i], second = runs[j]),
                ));
                continue;
            }
        }
        chosen = Some(pick.into_iter().cloned().collect());
        break;
    }
    if let Some(m) = chosen {
        return Ok(m);
    }
    if let Some(e) = size_error.or(adjacency_error) {
        return Err(e);
    }
    Err(Error::refused(
        ErrorCode::ContractNotMet,
        if contract.whole_hand {
            rules.cite("L-8.1", "C-6", "L-8.1")
        } else {
            rules.cite("L-3", "C-3", "L-3")
        },
        msg!("go_down.not_the_contract", contract = rules.contract_message(contract)),
    ))
}

/// Pair each meld with one of the contract's melds of its kind and check the
/// lengths. Longest melds take the longest minimums: every length range is
/// `min..=max(cap, min)`, so both ends grow together and this pairing fits whenever
/// any pairing does.
fn size_problem(melds: &[&Meld], contract: &Contract, rules: &RuleSet) -> Option<Error> {
    for kind in [MeldKind::Set, MeldKind::Run] {
        let mut mine: Vec<&Meld> = melds.iter().copied().filter(|m| m.kind == kind).collect();
        let mut specs: Vec<MeldSpec> = contract.melds().iter().copied().filter(|s| s.kind == kind).collect();
        mine.sort_by_key(|m| std::cmp::Reverse(m.len()));
        specs.sort_by_key(|s| std::cmp::Reverse(rules.meld_range(s, contract.whole_hand).0));
        for (m, spec) in mine.iter().zip(&specs) {
            let len = m.len() as u8;
            let (min, max) = rules.meld_range(spec, contract.whole_hand);
            let rule = match (kind, contract.whole_hand) {
                (_, true) => rules.cite("L-8.2", "C-4", "L-8.2"),
                (MeldKind::Set, false) => rules.cite("L-4.1", "C-4", "W-4"),
                (MeldKind::Run, false) => rules.cite("L-4.2", "C-4", "W-4"),
            };
            if len < min {
                if spec.min.is_some() {
                    // A rule set that caps the kind at go-down (profile L) asks for
                    // exactly `min` cards: say so, never "at least".
                    let exact = max == Some(min);
                    let msg = if exact && kind == MeldKind::Set {
                        msg!(
                            "go_down.set_below_exact",
                            contract = rules.contract_message(contract),
                            meld = m,
                            len = len,
                            min = min
                        )
                    } else if exact {
                        msg!(
                            "go_down.run_below_exact",
                            contract = rules.contract_message(contract),
                            meld = m,
                            len = len,
                            min = min
                        )
                    } else if kind == MeldKind::Set {
                        msg!(
                            "go_down.set_below_contract",
                            contract = rules.contract_message(contract),
                            meld = m,
                            len = len,
                            min = min
                        )
                    } else {
                        msg!(
                            "go_down.run_below_contract",
                            contract = rules.contract_message(contract),
                            meld = m,
                            len = len,
                            min = min
                        )
                    };
                    return Some(Error::refused(ErrorCode::ContractNotMet, "C-8", msg));
                }
                return Some(Error::refused(
                    ErrorCode::InvalidMeld,
                    rule,
                    msg!("go_down.meld_too_short", meld = m, min = min),
                ));
            }
            if let Some(max) = max.filter(|&max| len > max) {
                let msg = match (kind, spec.min.is_some()) {
                    (MeldKind::Set, false) => msg!("go_down.set_size", meld = m, len = len, max = max),
                    (MeldKind::Run, false) => msg!("go_down.run_size", meld = m, len = len, max = max),
                    (MeldKind::Set, true) => msg!("go_down.set_above_contract", meld = m, len = len, max = max),
                    (MeldKind::Run, true) => msg!("go_down.run_above_contract", meld = m, len = len, max = max),
                };
                return Some(Error::refused(ErrorCode::MeldSize, rule, msg));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::parse_cards;
    use proptest::prelude::*;

    fn cards(s: &str) -> Vec<Card> {
        parse_cards(&s.split_whitespace().collect::<Vec<_>>()).unwrap()
    }
    fn l() -> RuleSet {
        RuleSet::liverpool()
    }

    #[test]
    fn sets_and_runs() {
        assert!(Meld::set(&cards("7S 7S 7H"), &l()).is_ok()); // L-4.1 duplicates allowed
        assert!(Meld::set(&cards("7S JK JK"), &l()).is_ok()); // L-4.5 one natural is enough
        assert!(Meld::set(&cards("7S 8S 7H"), &l()).is_err());
        let r = Meld::run(&cards("JK 5H 6H 7H"), &l()).unwrap();
        assert_eq!(r.span(), Some((4, 7)));
        assert_eq!(r.joker_stands_for(0), Some(Card::parse("4H").unwrap()));
        assert_eq!(Meld::run(&cards("AH 2H 3H 4H"), &l()).unwrap().span(), Some((1, 4)));
        assert_eq!(Meld::run(&cards("JH QH KH AH"), &l()).unwrap().span(), Some((11, 14)));
        assert!(Meld::run(&cards("QH KH AH 2H"), &l()).is_err()); // L-4.3 no wrap
        let full = "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH";
        assert_eq!(Meld::run_min_len(&cards(full), &l(), 4).unwrap().span(), Some((1, 14)));
    }

    #[test]
    fn lay_offs() {
        let run = Meld::run(&cards("5H 6H 7H 8H"), &l()).unwrap();
        assert_eq!(run.lay_off(&cards("4H"), None, &l()).unwrap().span(), Some((4, 8)));
        assert_eq!(run.lay_off(&cards("JK"), None, &l()).unwrap().span(), Some((5, 9)));
        assert_eq!(
            run.lay_off(&cards("JK"), Some(End::Low), &l()).unwrap().span(),
            Some((4, 8))
        );
        assert_eq!(run.lay_off(&cards("TH JK"), None, &l()).unwrap().span(), Some((5, 10)));
        assert_eq!(
            run.lay_off(&cards("6H"), None, &l()).unwrap_err().code,
            ErrorCode::InvalidLayOff
        );
        assert_eq!(
            run.lay_off(&cards("TH"), None, &l()).unwrap_err().code,
            ErrorCode::InvalidLayOff
        );
        let high = Meld::run(&cards("TH JH QH KH"), &l()).unwrap();
        assert_eq!(high.lay_off(&cards("AH"), None, &l()).unwrap().span(), Some((10, 14)));
        let low = Meld::run(&cards("2H 3H 4H 5H"), &l()).unwrap();
        assert_eq!(low.lay_off(&cards("AH"), None, &l()).unwrap().span(), Some((1, 5)));
        let set = Meld::set(&cards("4D 4S 4H"), &l()).unwrap();
        assert_eq!(set.lay_off(&cards("4C JK"), None, &l()).unwrap().len(), 5);
        assert!(set.lay_off(&cards("5C"), None, &l()).is_err());
    }

    /// W-4 **Decision**: the natural-card minimums are checked on a meld as laid at
    /// go-down; jokers laid off later go on either end of a run.
    #[test]
    fn w4_naturals_are_checked_at_go_down_not_on_lay_offs() {
        let w = RuleSet::liverpool_classic();
        // At go-down: three naturals in the first four cards (W-4), two in a set.
        let refused = Meld::run(&cards("JK JK 5C 6C 7C 8C"), &w).unwrap_err();
        assert_eq!((refused.code, refused.rule), (ErrorCode::InvalidMeld, Some("W-4")));
        assert_eq!(Meld::set(&cards("7S JK JK"), &w).unwrap_err().rule, Some("W-4"));
        // On the table: a second joker on the low end, as on the high end.
        let run = Meld::run(&cards("5C 6C 7C 8C"), &w).unwrap();
        let one = run.lay_off(&cards("JK"), Some(End::Low), &w).unwrap();
        let two = one.lay_off(&cards("JK"), Some(End::Low), &w).unwrap();
        assert_eq!(two.cards(), cards("JK JK 5C 6C 7C 8C").as_slice());
        assert_eq!(two.span(), Some((3, 8)));
        assert!(one.can_lay_off(&cards("JK"), Some(End::Low), &w));
        assert_eq!(
            run.lay_off(&cards("JK JK"), Some(End::Low), &w).unwrap().cards(),
            cards("JK JK 5C 6C 7C 8C").as_slice()
        );
        let high = run.lay_off(&cards("JK JK"), Some(End::High), &w).unwrap();
        assert_eq!(high.span(), Some((5, 10)));
        // A set takes jokers too; and a grown meld loads from a position as it lies.
        let set = Meld::set(&cards("7S 7H JK"), &w).unwrap();
        assert_eq!(set.lay_off(&cards("JK JK"), None, &w).unwrap().jokers(), 3);
        assert_eq!(Meld::on_table(Some(MeldKind::Run), two.cards(), &w).unwrap(), two);
        assert_eq!(Meld::on_table(None, two.cards(), &w).unwrap(), two);
        // Every meld still keeps a natural card (L-4.5, restated for profile W by W-4).
        assert_eq!(
            Meld::on_table(Some(MeldKind::Run), &cards("JK JK JK JK"), &w)
                .unwrap_err()
                .rule,
            Some("W-4")
        );
    }

    #[test]
    fn can_lay_off_agrees_with_lay_off_and_errors_name_the_cards() {
        // L-5.3: the boolean check and the checked lay-off share one verdict; a refusal
        // still says which cards and which meld, and why (the sentence is built only then).
        let mut rng = crate::rng::Rng::from_seed(17);
        for name in RuleSet::preset_names() {
            let rules = RuleSet::preset(name).unwrap();
            let melds: Vec<Meld> = [
                "5H 6H 7H 8H",
                "JK 9S TS JS",
                "TD JD QD KD",
                "AC 2C 3C 4C",
                "4D 4S 4H",
                "QS QH JK",
            ]
            .iter()
            .filter_map(|m| Meld::interpretations(&cards(m), &rules).ok())
            .flatten()
            .collect();
            assert!(melds.len() >= 4, "{name}");
            for _ in 0..400 {
                let n = rng.below(3) as usize;
                let laid: Vec<Card> = (0..n).map(|_| Card::from_id(rng.below(53) as u8).unwrap()).collect();
                let meld = &melds[rng.below(melds.len() as u32) as usize];
                for end in [None, Some(End::Low), Some(End::High)] {
                    let checked = meld.lay_off(&laid, end, &rules);
                    assert_eq!(
                        meld.can_lay_off(&laid, end, &rules),
                        checked.is_ok(),
                        "{name} {meld} + {laid:?}"
                    );
                    if let (Err(e), false) = (checked, laid.is_empty()) {
                        assert_eq!(e.code, ErrorCode::InvalidLayOff);
                        assert!(e.message.contains(&format_cards(&laid)), "{}", e.message);
                        assert!(e.message.contains(&format_cards(meld.cards())), "{}", e.message);
                    }
                }
            }
        }
    }

    /// A set-like group: naturals of one rank and a few jokers.
    fn set_group() -> impl Strategy<Value = Vec<Card>> {
        (1u8..=13, proptest::collection::vec(0u8..4, 1..5), 0usize..3).prop_map(|(rank, suits, jokers)| {
            let mut g: Vec<Card> = suits.iter().map(|&s| Card::new(rank, Suit::from_index(s))).collect();
            g.extend(std::iter::repeat_n(Card::JOKER, jokers));
            g
        })
    }

    /// A run-like group: consecutive positions of one suit (aces low or high), some
    /// of them jokers.
    fn run_group() -> impl Strategy<Value = Vec<Card>> {
        (0u8..4, 1u8..=12, 3u8..9, proptest::num::u8::ANY)
            .prop_map(|(suit, start, len, jokers)| run_cards(suit, start, len, jokers))
    }

    /// The run of `suit` over positions `start..start + len` (cut at the ace high),
    /// with a joker in some places (`jokers` as bits).
    fn run_cards(suit: u8, start: u8, len: u8, jokers: u8) -> Vec<Card> {
        (start..(start + len).min(15))
            .enumerate()
            .map(|(i, pos)| {
                if jokers >> (i % 8) & 1 == 1 && i % 3 == 1 {
                    Card::JOKER
                } else {
                    Card::new(position_rank(pos), Suit::from_index(suit))
                }
            })
            .collect()
    }

    fn any_card() -> impl Strategy<Value = Card> {
        (0u8..53).prop_map(|id| Card::from_id(id).unwrap())
    }

    fn any_group() -> impl Strategy<Value = Vec<Card>> {
        prop_oneof![3 => set_group(), 3 => run_group(), 1 => proptest::collection::vec(any_card(), 0..6)]
    }

    fn any_end() -> impl Strategy<Value = Option<End>> {
        prop_oneof![Just(None), Just(Some(End::Low)), Just(Some(End::High))]
    }

    /// A rule set of the presets and one of its contracts.
    fn preset_and_contract(preset: usize, round: usize) -> (RuleSet, Contract) {
        let names = RuleSet::preset_names();
        let rules = RuleSet::preset(names[preset % names.len()]).unwrap();
        let contract = rules.contracts[round % rules.contracts.len()];
        (rules, contract)
    }

    proptest! {
        /// L-4.6 / L-8: the allocation-free go-down check accepts exactly the
        /// go-downs the full check accepts, with the same melds (on groups shaped
        /// like the contract, and on any groups).
        #[test]
        fn quick_go_down_agrees_with_the_full_check(
            preset in 0usize..16,
            round in 0usize..8,
            sets in proptest::collection::vec(set_group(), 0..4),
            runs in proptest::collection::vec(run_group(), 0..4),
            order in proptest::num::u8::ANY,
            others in proptest::collection::vec(any_group(), 0..5),
        ) {
            let (rules, contract) = preset_and_contract(preset, round);
            let (mut s, mut r) = (sets.into_iter(), runs.into_iter());
            let mut shaped = Vec::new();
            for (i, spec) in contract.melds().iter().enumerate() {
                // Mostly the contract's kind; now and then the other one.
                let kind_wanted = if order >> (i % 8) & 1 == 1 && i % 2 == 0 { MeldKind::Run } else { spec.kind };
                shaped.extend(if kind_wanted == MeldKind::Set { s.next() } else { r.next() });
            }
            for groups in [shaped, others] {
                let quick = quick_go_down(&groups, &contract, &rules).map(|shapes| shapes.melds(&groups));
                prop_assert_eq!(quick, check_go_down_fully(&groups, &contract, &rules).ok(), "{:?}", groups);
            }
            // L-4.4: two runs of one suit that touch end to end, or leave a gap.
            let two_runs = Contract::new(0, 2);
            let (suit, start, len) = (order % 4, 1 + order % 5, rules.run_size_min + (order >> 4) % 2);
            let touching = vec![
                run_cards(suit, start, len, order),
                run_cards(suit, start + len + (order >> 7), rules.run_size_min, 0),
            ];
            let quick = quick_go_down(&touching, &two_runs, &rules).map(|shapes| shapes.melds(&touching));
            prop_assert_eq!(quick, check_go_down_fully(&touching, &two_runs, &rules).ok(), "{:?}", touching);
        }

        /// L-1.2: the copy check's verdict agrees with the checked copy limit, also
        /// for a card repeated more than 255 times.
        #[test]
        fn copies_fit_agrees_with_the_copy_check(
            preset in 0usize..16,
            cards in proptest::collection::vec(any_card(), 0..24),
            repeated in any_card(),
            times in prop_oneof![0usize..6, 250usize..300],
        ) {
            let (rules, _) = preset_and_contract(preset, 0);
            let mut all = cards;
            all.extend(std::iter::repeat_n(repeated, times));
            prop_assert_eq!(
                meld_copies_fit(&all, &rules),
                check_meld_copies(&all, &rules, msg!("what.the_meld")).is_ok()
            );
        }

        /// L-5.3: one card laid off the quick way gives exactly the meld of the full
        /// lay-off, and fits exactly when the full lay-off accepts it.
        #[test]
        fn one_card_lay_off_agrees_with_the_full_one(
            preset in 0usize..16,
            group in any_group(),
            random_card in any_card(),
            which in 0u8..5,
            end in any_end(),
        ) {
            let (rules, _) = preset_and_contract(preset, 0);
            for meld in Meld::interpretations(&group, &rules).unwrap_or_default() {
                // Mostly a card that could fit: next to either end of a run (an ace
                // at 1 or 14), another card of a set's rank, a joker.
                let natural = |pos: u8| Card::new(position_rank(pos.clamp(1, 14)), Suit::from_index(meld.key.min(3)));
                let card = match (which, meld.span()) {
                    (1, Some((low, _))) => natural(low.saturating_sub(1)),
                    (2, Some((_, high))) => natural(high + 1),
                    (1 | 2, None) => Card::new(meld.key.clamp(1, 13), Suit::from_index(random_card.id() % 4)),
                    (3, _) => Card::JOKER,
                    _ => random_card,
                };
                prop_assert_eq!(
                    meld.lay_off_one(card, end, &rules),
                    meld.try_lay_off_fully(&[card], end, &rules).ok(),
                    "{} + {}",
                    meld,
                    card
                );
            }
        }
    }

    #[test]
    fn swaps() {
        let run = Meld::run(&cards("5H JK 7H 8H"), &l()).unwrap();
        assert_eq!(run.swap_joker(Card::parse("6H").unwrap()).unwrap().jokers(), 0);
        assert_eq!(
            run.swap_joker(Card::parse("KC").unwrap()).unwrap_err().code,
            ErrorCode::SwapMismatch
        );
        let set = Meld::set(&cards("QS QH JK"), &l()).unwrap();
        assert_eq!(
            set.swap_joker(Card::parse("QD").unwrap()).unwrap_err().code,
            ErrorCode::JokerLocked
        );
    }

    #[test]
    fn go_down_checks() {
        let c = l().contracts[2]; // two runs
        let adj = vec![cards("3H 4H 5H 6H"), cards("7H 8H 9H TH")];
        assert_eq!(check_go_down(&adj, &c, &l()).unwrap_err().code, ErrorCode::AdjacentRuns);
        let overlap = vec![cards("3H 4H 5H 6H"), cards("5H 6H 7H 8H")];
        assert!(check_go_down(&overlap, &c, &l()).is_ok());
        let gap = vec![cards("3H 4H 5H 6H"), cards("8H 9H TH JH")];
        assert!(check_go_down(&gap, &c, &l()).is_ok());
        let long = vec![cards("3H 4H 5H 6H 7H"), cards("9S TS JS QS")];
        assert_eq!(check_go_down(&long, &c, &l()).unwrap_err().code, ErrorCode::MeldSize);
        let sets = vec![cards("3H 3S 3D"), cards("9S 9S 9D")];
        assert_eq!(
            check_go_down(&sets, &c, &l()).unwrap_err().code,
            ErrorCode::ContractNotMet
        );
        let one = vec![cards("3H 4H 5H 6H")];
        assert_eq!(
            check_go_down(&one, &c, &l()).unwrap_err().code,
            ErrorCode::ContractNotMet
        );
        let bad = vec![cards("3H 4H 6H 7H"), cards("9S TS JS QS")];
        assert_eq!(check_go_down(&bad, &c, &l()).unwrap_err().code, ErrorCode::InvalidMeld);
    }

    #[test]
    fn per_meld_lengths_c8() {
        use crate::rules::MeldSpec;
        // "One run of 7 and one run of 4": each run fills the meld its length allows.
        let contract = Contract::from_melds(&[MeldSpec::run(), MeldSpec::with_min(MeldKind::Run, 7)], false).unwrap();
        let c = RuleSet::contract();
        let ok = vec![cards("3S 4S 5S 6S"), cards("2H 3H 4H 5H 6H 7H 8H")];
        assert_eq!(check_go_down(&ok, &contract, &c).unwrap().len(), 2);
        let short = vec![cards("3S 4S 5S 6S"), cards("2H 3H 4H 5H 6H")];
        let e = check_go_down(&short, &contract, &c).unwrap_err();
        assert_eq!((e.code, e.rule), (ErrorCode::ContractNotMet, Some("C-8")));
        // Profile L caps opening melds at their size: the run of 7 has exactly 7.
        let long = vec![cards("3S 4S 5S 6S"), cards("2H 3H 4H 5H 6H 7H 8H 9H")];
        assert_eq!(
            check_go_down(&long, &contract, &l()).unwrap_err().code,
            ErrorCode::MeldSize
        );
        assert!(check_go_down(&ok, &contract, &l()).is_ok());
    }

    #[test]
    fn wild_queens_c8_california() {
        let ca = RuleSet::california();
        // A queen stands for any card; every meld still needs a natural non-queen.
        let run = Meld::run(&cards("5H QS 7H 8H"), &ca).unwrap();
        assert_eq!(run.joker_stands_for(1), Some(Card::parse("6H").unwrap()));
        assert_eq!(run.jokers(), 1);
        assert!(Meld::set(&cards("9S QH QD"), &ca).is_ok());
        assert!(Meld::set(&cards("QS QH QD"), &ca).is_err());
        assert!(Meld::set(&cards("QS QH QD"), &l()).is_ok());
        // Laying off a queen on a run: it extends the chosen end, as a joker would.
        let grown = run.lay_off(&cards("QC"), Some(End::Low), &ca).unwrap();
        assert_eq!(grown.span(), Some((4, 8)));
        assert_eq!(grown.cards()[0], Card::parse("QC").unwrap());
        let gap = Meld::run(&cards("5H 6H 7H 8H"), &ca)
            .unwrap()
            .lay_off(&cards("TH QD"), None, &ca)
            .unwrap();
        assert_eq!(format_cards(gap.cards()), "5♥ 6♥ 7♥ 8♥ Q♦ 10♥");
    }
}
