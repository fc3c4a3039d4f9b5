//! Cards: a compact one-byte representation, parsing and printing (CONFORMANCE.md "Cards").
//!
//! A card is a `u8` id: naturals are `suit * 13 + (rank - 1)` (0..=51) with
//! rank 1 = ace … 13 = king and suits in the order ♠ ♥ ♦ ♣; the joker is 52.
//! Two decks simply mean a card id may appear twice in a multiset.

use crate::error::{Error, ErrorCode};
use crate::msg;
use std::fmt;

/// Number of distinct card ids (52 naturals + the joker).
pub const CARD_KINDS: usize = 53;
/// The joker's id.
pub const JOKER_ID: u8 = 52;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Suit {
    Spades = 0,
    Hearts = 1,
    Diamonds = 2,
    Clubs = 3,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    pub fn from_index(i: u8) -> Suit {
        Suit::ALL[(i & 3) as usize]
    }
    pub fn symbol(self) -> char {
        ['♠', '♥', '♦', '♣'][self as usize]
    }
    pub fn letter(self) -> char {
        ['S', 'H', 'D', 'C'][self as usize]
    }
}

/// A playing card or a joker, in one byte.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    pub const JOKER: Card = Card(JOKER_ID);

    /// A natural card; `rank` is 1 (ace) … 13 (king).
    pub fn new(rank: u8, suit: Suit) -> Card {
        debug_assert!((1..=13).contains(&rank));
        Card(suit as u8 * 13 + (rank - 1))
    }

    /// The card with this id, or an error for an id outside 0..=52.
    #[inline]
    pub fn from_id(id: u8) -> Result<Card, Error> {
        if (id as usize) < CARD_KINDS {
            Ok(Card(id))
        } else {
            Err(Card::id_out_of_range(id))
        }
    }

    // Kept out of line: `from_id` sits in the loops of the bots and the legal moves,
    // where the id is always in range.
    #[cold]
    fn id_out_of_range(id: u8) -> Error {
        Error::with(ErrorCode::MalformedCard, None, msg!("card.id_out_of_range", id = id))
    }

    #[inline]
    pub fn id(self) -> u8 {
        self.0
    }
    #[inline]
    pub fn is_joker(self) -> bool {
        self.0 == JOKER_ID
    }
    /// Rank 1 (ace) … 13 (king); 0 for the joker.
    #[inline]
    pub fn rank(self) -> u8 {
        // Looked up: asked in every check of a meld, a lay-off or a discard.
        RANK_OF_ID[self.0 as usize]
    }
    /// The suit of a natural card; `None` for the joker.
    #[inline]
    pub fn suit(self) -> Option<Suit> {
        if self.is_joker() {
            None
        } else {
            Some(Suit::from_index(self.0 / 13))
        }
    }
    #[inline]
    pub fn suit_index(self) -> u8 {
        self.0 / 13
    }

    /// Parse the notation of CONFORMANCE.md: ranks `A 2..10 J Q K` (`T` for 10),
    /// suits `♠♥♦♣` or `SHDC` in any case, `JK` for the joker.
    pub fn parse(text: &str) -> Result<Card, Error> {
        let malformed = || Error::with(ErrorCode::MalformedCard, None, msg!("card.malformed", text = text));
        let t = text.trim();
        if t.eq_ignore_ascii_case("JK") {
            return Ok(Card::JOKER);
        }
        let mut chars: Vec<char> = t.chars().collect();
        let suit_char = chars.pop().ok_or_else(malformed)?;
        let suit = match suit_char {
            '♠' | 'S' | 's' => Suit::Spades,
            '♥' | 'H' | 'h' => Suit::Hearts,
            '♦' | 'D' | 'd' => Suit::Diamonds,
            '♣' | 'C' | 'c' => Suit::Clubs,
            _ => return Err(malformed()),
        };
        let rank_text: String = chars.into_iter().collect();
        let rank = match rank_text.to_ascii_uppercase().as_str() {
            "A" => 1,
            "J" => 11,
            "Q" => 12,
            "K" => 13,
            "T" | "10" => 10,
            r if r.len() == 1 && matches!(r.as_bytes()[0], b'2'..=b'9') => r.as_bytes()[0] - b'0',
            _ => return Err(malformed()),
        };
        Ok(Card::new(rank, suit))
    }

    /// Rank as printed: `A`, `2`…`10`, `J`, `Q`, `K`.
    pub fn rank_str(rank: u8) -> &'static str {
        ["?", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"][rank as usize]
    }

    /// ASCII form (`7D`, `10C`, `JK`), handy in terminals without the suit glyphs.
    pub fn ascii(self) -> String {
        match self.suit() {
            None => "JK".to_string(),
            Some(s) => format!("{}{}", Card::rank_str(self.rank()), s.letter()),
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.suit() {
            None => f.write_str("JK"),
            Some(s) => write!(f, "{}{}", Card::rank_str(self.rank()), s.symbol()),
        }
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Parse a list of card strings.
pub fn parse_cards<S: AsRef<str>>(texts: &[S]) -> Result<Vec<Card>, Error> {
    texts.iter().map(|t| Card::parse(t.as_ref())).collect()
}

/// Print cards separated by spaces.
pub fn format_cards(cards: &[Card]) -> String {
    cards.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ")
}

/// The rank of each card id (1..=13), 0 for the joker (and for ids that are no card).
static RANK_OF_ID: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut id = 0;
    while id < JOKER_ID as usize {
        table[id] = (id % 13 + 1) as u8;
        id += 1;
    }
    table
};

/// A multiset of cards as counts per card id: the representation every search uses.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct CardCounts(pub [u8; CARD_KINDS]);

impl Default for CardCounts {
    fn default() -> Self {
        CardCounts([0; CARD_KINDS])
    }
}

impl CardCounts {
    pub fn from_cards(cards: &[Card]) -> CardCounts {
        let mut c = CardCounts::default();
        for card in cards {
            c.0[card.id() as usize] += 1;
        }
        c
    }
    #[inline]
    pub fn get(&self, card: Card) -> u8 {
        self.0[card.id() as usize]
    }
    #[inline]
    pub fn jokers(&self) -> u8 {
        self.0[JOKER_ID as usize]
    }
    /// How many cards, copies counted. Eight counts at a time: the engine and the
    /// bots ask this of every hand many times a turn, and a byte-by-byte sum costs
    /// two instructions a card kind.
    #[inline]
    pub fn total(&self) -> usize {
        const LOW_BYTES: u64 = 0x00FF_00FF_00FF_00FF;
        let (words, rest) = self.0.split_at(48);
        // Four 16-bit lanes, each the sum of at most 14 counts (14 * 255 < 2^16).
        let pairs = |v: u64| (v & LOW_BYTES) + ((v >> 8) & LOW_BYTES);
        let mut lanes = 0u64;
        for word in words.chunks_exact(8) {
            let mut bytes = [0u8; 8];
            bytes.copy_from_slice(word);
            lanes += pairs(u64::from_le_bytes(bytes));
        }
        // The last five counts as a sixth word, zero-padded.
        let mut last = [0u8; 8];
        last[..5].copy_from_slice(rest);
        lanes += pairs(u64::from_le_bytes(last));
        // The four lanes summed into the top one by one multiplication (the sum,
        // at most 53 * 255, fits its 16 bits).
        (lanes.wrapping_mul(0x0001_0001_0001_0001) >> 48) as usize
    }
    /// The cards in id order (jokers last), each repeated by its count.
    pub fn to_cards(&self) -> Vec<Card> {
        let mut out = Vec::with_capacity(self.total());
        for (id, &n) in self.0.iter().enumerate() {
            for _ in 0..n {
                out.push(Card(id as u8));
            }
        }
        out
    }
    /// Remove `other` if it is a sub-multiset; on failure nothing changes.
    pub fn try_remove(&mut self, other: &CardCounts) -> bool {
        if self.0.iter().zip(other.0.iter()).any(|(a, b)| a < b) {
            return false;
        }
        for (a, b) in self.0.iter_mut().zip(other.0.iter()) {
            *a -= b;
        }
        true
    }
    pub fn add(&mut self, other: &CardCounts) {
        for (a, b) in self.0.iter_mut().zip(other.0.iter()) {
            *a += b;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn looked_up_ranks_match_the_card_ids() {
        // Ids run A..K within each suit; the joker has no rank.
        for id in 0..JOKER_ID {
            let card = Card::from_id(id).unwrap();
            assert_eq!(card.rank(), id % 13 + 1, "{card}");
            assert_eq!(Card::new(card.rank(), card.suit().unwrap()), card);
        }
        assert_eq!(Card::JOKER.rank(), 0);
    }

    proptest::proptest! {
        /// The word-wise total equals the plain sum of the counts, large counts included.
        #[test]
        fn total_is_the_sum_of_the_counts(counts in proptest::array::uniform::<_, CARD_KINDS>(proptest::prop_oneof![0u8..=4, proptest::num::u8::ANY])) {
            let plain: usize = counts.iter().map(|&n| n as usize).sum();
            proptest::prop_assert_eq!(CardCounts(counts).total(), plain);
        }
    }

    #[test]
    fn parses_every_notation_of_conformance_md() {
        assert_eq!(Card::parse("7♦").unwrap(), Card::new(7, Suit::Diamonds));
        assert_eq!(Card::parse("10♣").unwrap(), Card::new(10, Suit::Clubs));
        assert_eq!(Card::parse("TS").unwrap(), Card::new(10, Suit::Spades));
        assert_eq!(Card::parse("ah").unwrap(), Card::new(1, Suit::Hearts));
        assert_eq!(Card::parse("JK").unwrap(), Card::JOKER);
        assert_eq!(Card::parse("jk").unwrap(), Card::JOKER);
    }

    #[test]
    fn round_trips_all_ids() {
        for id in 0..53u8 {
            let c = Card::from_id(id).unwrap();
            assert_eq!(Card::parse(&c.to_string()).unwrap(), c);
            assert_eq!(Card::parse(&c.ascii()).unwrap(), c);
        }
    }

    #[test]
    fn refuses_malformed() {
        for bad in ["", "1♠", "11H", "7X", "♠", "JKK", "Z7", "0S"] {
            let e = Card::parse(bad).unwrap_err();
            assert_eq!(e.code, ErrorCode::MalformedCard, "{bad}");
        }
        assert!(Card::from_id(53).is_err());
    }
}
