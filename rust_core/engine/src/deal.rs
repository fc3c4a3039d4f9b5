//! Shuffling and dealing (RULES.md L-1.2, L-2).
//!
//! - [`new_deck`]: the unshuffled deck in canonical order.
//! - [`shuffled_deck`] / [`shuffled_deck_stream`]: one seeded Fisher–Yates shuffle.
//! - [`shuffled_decks_batch`]: many decks at once, in parallel, into one row-major
//!   buffer. Deck `i` always uses stream `i` of the seed, so the bytes do not depend
//!   on the number of threads.
//! - [`deal_round`]: the start of a round as a pure function of a shuffled deck,
//!   the dealer and the cut (L-2.2 to L-2.6); [`draw_cut`] draws a cut when the
//!   cutter does not choose one (L-2.4).
//!
//! All randomness comes from [`crate::rng::Rng`], so a seed means the same decks on
//! every platform and release.

use crate::card::{Card, CARD_KINDS, JOKER_ID};
use crate::error::{Error, ErrorCode, Message, Result};
use crate::msg;
use crate::rng::Rng;
use crate::rules::RuleSet;
use rayon::prelude::*;
use std::fmt::Display;

/// The largest buffer [`shuffled_decks_batch`] will allocate: 4 GiB (2^32 bytes),
/// about 40 million 107-card decks. Larger requests fail with `batch_too_large`.
pub const MAX_BATCH_BYTES: u64 = 1 << 32;

/// Rows shuffled per parallel task: large enough to amortise scheduling, small
/// enough (about 100 KiB of 107-card rows) to balance the load across cores.
const ROWS_PER_TASK: usize = 1024;

/// The unshuffled deck for `players` (L-1.2, C-1, W-1): each 52-card deck in id
/// order (♠ A..K, ♥, ♦, ♣), deck after deck, then the jokers.
pub fn new_deck(rules: &RuleSet, players: u8) -> Vec<Card> {
    let (decks, jokers) = rules.deck_for(players);
    let mut deck = Vec::with_capacity(rules.deck_size(players));
    for _ in 0..decks {
        deck.extend((0..JOKER_ID).map(|id| Card::from_id(id).expect("natural ids are 0..52")));
    }
    deck.extend(std::iter::repeat_n(Card::JOKER, jokers as usize));
    deck
}

/// The deck shuffled with `Rng::from_seed(seed)` (Fisher–Yates, last card down).
///
/// Equal to [`shuffled_deck_stream`]`(seed, 0, ..)` and to row 0 of
/// [`shuffled_decks_batch`] with the same seed.
pub fn shuffled_deck(seed: u64, rules: &RuleSet, players: u8) -> Vec<Card> {
    shuffled_deck_with(&mut Rng::from_seed(seed), rules, players)
}

/// The deck shuffled with stream `stream` of `seed`: row `stream` of a batch.
pub fn shuffled_deck_stream(seed: u64, stream: u64, rules: &RuleSet, players: u8) -> Vec<Card> {
    shuffled_deck_with(&mut Rng::for_stream(seed, stream), rules, players)
}

/// The deck shuffled with a caller's generator (a game shuffles from its own RNG).
pub fn shuffled_deck_with(rng: &mut Rng, rules: &RuleSet, players: u8) -> Vec<Card> {
    let mut deck = new_deck(rules, players);
    rng.shuffle(&mut deck);
    deck
}

/// Refuse a player count outside the rule set's range (L-1.1, C-1).
pub fn check_players(rules: &RuleSet, players: u8) -> Result<()> {
    if (rules.min_players..=rules.max_players).contains(&players) {
        Ok(())
    } else {
        Err(Error::refused(
            ErrorCode::InvalidArgument,
            rules.cite("L-1.1", "C-1", "W-1"),
            msg!(
                "players.out_of_range",
                players = players,
                rules = &rules.name,
                min = rules.min_players,
                max = rules.max_players
            ),
        ))
    }
}

/// `n` shuffled decks as one row-major `n × deck_size` buffer of card ids.
///
/// Row `i` is [`shuffled_deck_stream`]`(seed, i, ..)`. Rows are shuffled in
/// parallel on the current rayon pool (choose its size with
/// [`crate::search::with_threads`]), each task writing straight into its slice of
/// the output, so the result is bit-identical for any number of threads.
///
/// Fails with `batch_too_large` above [`MAX_BATCH_BYTES`] or when the buffer
/// cannot be allocated, and `invalid_argument` for a player count the rules do
/// not allow.
pub fn shuffled_decks_batch(n: usize, seed: u64, rules: &RuleSet, players: u8) -> Result<Vec<u8>> {
    check_players(rules, players)?;
    let template: Vec<u8> = new_deck(rules, players).iter().map(|c| c.id()).collect();
    let deck_len = template.len();
    let too_large = |why: Message| {
        Error::with(
            ErrorCode::BatchTooLarge,
            None,
            msg!(
                "batch.too_large",
                n = n,
                deck_len = deck_len,
                why = why,
                limit = MAX_BATCH_BYTES
            ),
        )
    };
    let total = (n as u64)
        .checked_mul(deck_len as u64)
        .filter(|&bytes| bytes <= MAX_BATCH_BYTES)
        .ok_or_else(|| too_large(msg!("batch.exceeds_limit")))?;
    let total = usize::try_from(total).map_err(|_| too_large(msg!("batch.exceeds_address_space")))?;

    // A zeroed buffer, then each row filled: measured as fast as writing into an
    // uninitialised buffer (issue 8, docs/guarantees.md), so no `unsafe` here.
    let mut out: Vec<u8> = Vec::new();
    out.try_reserve_exact(total)
        .map_err(|_| too_large(msg!("batch.not_allocated")))?;
    out.resize(total, 0);
    out.par_chunks_mut(ROWS_PER_TASK * deck_len.max(1))
        .enumerate()
        .for_each(|(task, rows)| {
            let first_row = (task * ROWS_PER_TASK) as u64;
            for (r, row) in rows.chunks_exact_mut(deck_len).enumerate() {
                row.copy_from_slice(&template);
                Rng::for_stream(seed, first_row + r as u64).shuffle(row);
            }
        });
    Ok(out)
}

/// A round after the cut and the deal (L-2.2 to L-2.6).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dealt {
    /// One hand per seat, in the order the cards were dealt to that seat.
    pub hands: Vec<Vec<Card>>,
    /// L-2.6: the card turned up to start the discard pile.
    pub up_card: Card,
    /// L-2.6: the rest of the deck, top first.
    pub stock: Vec<Card>,
    /// L-2.2: the seat that cut (the dealer's right neighbour).
    pub cutter: u8,
    /// The cut size `k`.
    pub cut: usize,
    /// L-2.3: the cut was exact (players × hand size + 1) and the rules give a bonus.
    pub cut_bonus: bool,
}

/// The `bad_cut` error for a cut outside `1..=deck_len - 1` (L-2.2).
pub fn bad_cut(cut: impl Display, deck_len: usize) -> Error {
    Error::refused(
        ErrorCode::BadCut,
        "L-2.2",
        msg!(
            "cut.out_of_range",
            cut = cut,
            max = deck_len.saturating_sub(1),
            deck_len = deck_len
        ),
    )
}

/// Start a round from a shuffled deck (`deck[0]` is the top card).
///
/// - L-2.2: the dealer's right neighbour cuts `cut` cards, `1..=deck.len() - 1`
///   (else `bad_cut`). **Decision** of RULES.md: the cut never changes the order
///   in which cards are dealt, so the deal reads the deck from the top.
/// - L-2.5: one card at a time, clockwise, starting with the dealer's left
///   neighbour, the round's deal size each.
/// - L-2.6: the next card is the up-card, the rest the stock (top first).
/// - L-2.3: `cut_bonus` iff the cut is players × hand size + 1 and the rules
///   have a cut bonus.
///
/// The deck may be any multiset the profile's deck contains (a partial deck is
/// fine if it holds enough cards for the deal and the up-card); more copies of a
/// card than the deck has are refused with `too_many_copies`.
pub fn deal_round(deck: &[Card], rules: &RuleSet, players: u8, round: u8, dealer: u8, cut: usize) -> Result<Dealt> {
    let hand_size = rules.deal_size(round)? as usize;
    check_players(rules, players)?;
    if dealer >= players {
        return Err(Error::refused(
            ErrorCode::InvalidArgument,
            "L-1.3",
            msg!("deal.no_such_dealer", dealer = dealer, last = players - 1),
        ));
    }
    let mut counts = [0u8; CARD_KINDS];
    for card in deck {
        let slot = &mut counts[card.id() as usize];
        *slot = slot.saturating_add(1);
    }
    rules.check_copies(&counts, players, msg!("what.the_deck"))?;
    let dealt_cards = players as usize * hand_size;
    if deck.len() <= dealt_cards {
        return Err(Error::refused(
            ErrorCode::InvalidArgument,
            rules.cite("L-2.5", "C-3", "W-3"),
            msg!(
                "deal.deck_too_small",
                deck_len = deck.len(),
                hand_size = hand_size,
                players = players
            ),
        ));
    }
    if !(1..deck.len()).contains(&cut) {
        return Err(bad_cut(cut, deck.len()));
    }

    let first = (dealer as usize + 1) % players as usize;
    let mut hands: Vec<Vec<Card>> = (0..players).map(|_| Vec::with_capacity(hand_size)).collect();
    for (i, &card) in deck[..dealt_cards].iter().enumerate() {
        hands[(first + i) % players as usize].push(card);
    }
    Ok(Dealt {
        hands,
        up_card: deck[dealt_cards],
        stock: deck[dealt_cards + 1..].to_vec(),
        cutter: ((dealer as usize + players as usize - 1) % players as usize) as u8,
        cut,
        cut_bonus: rules.cut_bonus != 0 && cut == dealt_cards + 1,
    })
}

/// A cut drawn uniformly from `1..=deck_len - 1` (L-2.4 **Decision**), or from
/// `range` (a rule set's `cut_range`) for when the cutter does not choose one. A rule
/// set's range always fits its decks (validation refuses one that does not); the
/// clamp only guards a position whose stock holds fewer cards than a whole deck. Returns 1 for a deck of fewer than 3 cards (the only cut a 2-card
/// deck allows; a smaller deck cannot be dealt anyway).
pub fn draw_cut(rng: &mut Rng, deck_len: usize, range: Option<(u16, u16)>) -> usize {
    if deck_len < 3 {
        return 1;
    }
    let (low, high) = match range {
        None => (1, deck_len - 1),
        Some((lo, hi)) => {
            let high = (hi as usize).clamp(1, deck_len - 1);
            ((lo as usize).clamp(1, high), high)
        }
    };
    let choices = u32::try_from(high - low + 1).unwrap_or(u32::MAX);
    low + rng.below(choices) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::parse_cards;
    use crate::search::with_threads;

    fn profile_l() -> RuleSet {
        RuleSet::liverpool()
    }

    fn ids(cards: &[Card]) -> Vec<u8> {
        cards.iter().map(|c| c.id()).collect()
    }

    fn counts_of(ids: &[u8]) -> [usize; CARD_KINDS] {
        let mut counts = [0; CARD_KINDS];
        for &id in ids {
            counts[id as usize] += 1;
        }
        counts
    }

    /// L-1.2: 107 cards, two copies of every natural, three jokers.
    fn assert_profile_l_multiset(ids: &[u8]) {
        assert_eq!(ids.len(), 107);
        let counts = counts_of(ids);
        assert!(counts[..52].iter().all(|&n| n == 2), "{counts:?}");
        assert_eq!(counts[JOKER_ID as usize], 3);
    }

    #[test]
    fn profile_l_deck_is_two_decks_and_three_jokers() {
        let deck = new_deck(&profile_l(), 4);
        assert_profile_l_multiset(&ids(&deck));
        // Canonical order: A♠ first, K♣ at 51, the second deck from 52, jokers last.
        assert_eq!(deck[0], Card::parse("A♠").unwrap());
        assert_eq!(deck[51], Card::parse("K♣").unwrap());
        assert_eq!(deck[52], Card::parse("A♠").unwrap());
        assert!(deck[104..].iter().all(|c| c.is_joker()));
    }

    #[test]
    fn other_profiles_follow_their_deck_tiers() {
        // C-1: 108 cards up to 6 players, 162 for 7-8. W-1: 2 jokers per pack.
        assert_eq!(new_deck(&RuleSet::contract(), 6).len(), 108);
        assert_eq!(new_deck(&RuleSet::contract(), 7).len(), 162);
        assert_eq!(new_deck(&RuleSet::liverpool_classic(), 4).len(), 108);
        assert_eq!(new_deck(&RuleSet::liverpool_classic(), 5).len(), 162);
    }

    #[test]
    fn shuffled_decks_are_reproducible_permutations() {
        let rules = profile_l();
        for seed in [0, 1, 42, u64::MAX] {
            let deck = shuffled_deck(seed, &rules, 4);
            assert_profile_l_multiset(&ids(&deck));
            assert_eq!(deck, shuffled_deck(seed, &rules, 4));
            assert_ne!(deck, new_deck(&rules, 4), "seed {seed} left the deck unshuffled");
        }
        assert_ne!(shuffled_deck(1, &rules, 4), shuffled_deck(2, &rules, 4));
        assert_eq!(shuffled_deck(9, &rules, 4), shuffled_deck_stream(9, 0, &rules, 4));
    }

    #[test]
    fn batch_rows_are_the_single_stream_decks() {
        let rules = profile_l();
        // More rows than one parallel task holds, so task offsets are exercised.
        let n = ROWS_PER_TASK * 2 + 37;
        let batch = shuffled_decks_batch(n, 7, &rules, 4).unwrap();
        assert_eq!(batch.len(), n * 107);
        for i in [0, 1, ROWS_PER_TASK - 1, ROWS_PER_TASK, n - 1] {
            let row = &batch[i * 107..(i + 1) * 107];
            assert_eq!(
                row,
                ids(&shuffled_deck_stream(7, i as u64, &rules, 4)).as_slice(),
                "row {i}"
            );
        }
        for row in batch.chunks_exact(107) {
            assert_profile_l_multiset(row);
        }
        assert!(shuffled_decks_batch(0, 7, &rules, 4).unwrap().is_empty());
    }

    #[test]
    fn batch_is_identical_for_one_and_two_threads() {
        let rules = profile_l();
        let n = ROWS_PER_TASK * 3 + 5;
        let one = with_threads(Some(1), || shuffled_decks_batch(n, 123, &rules, 4))
            .unwrap()
            .unwrap();
        let two = with_threads(Some(2), || shuffled_decks_batch(n, 123, &rules, 4))
            .unwrap()
            .unwrap();
        assert_eq!(one, two);
    }

    #[test]
    fn batch_refuses_oversized_requests_and_bad_player_counts() {
        let rules = profile_l();
        let too_many = (MAX_BATCH_BYTES / 107 + 1) as usize;
        assert_eq!(
            shuffled_decks_batch(too_many, 1, &rules, 4).unwrap_err().code,
            ErrorCode::BatchTooLarge
        );
        assert_eq!(
            shuffled_decks_batch(usize::MAX, 1, &rules, 4).unwrap_err().code,
            ErrorCode::BatchTooLarge
        );
        assert_eq!(
            shuffled_decks_batch(1, 1, &rules, 1).unwrap_err().code,
            ErrorCode::InvalidArgument
        );
    }

    /// Which card comes first should be uniform over the 53 kinds in proportion
    /// to their copies (2/107 per natural, 3/107 for the joker). A fixed seed makes
    /// this deterministic; the bound is loose (the 99.9% point of chi-square with
    /// 52 degrees of freedom is about 90), so it only catches a broken shuffle.
    #[test]
    fn first_card_frequencies_pass_a_chi_square_sanity_check() {
        let rules = profile_l();
        let n = 107_000;
        let batch = shuffled_decks_batch(n, 2024, &rules, 4).unwrap();
        // Chi-square of the card ids found at one position of every deck.
        let chi_square_at = |position: usize| -> (f64, Vec<usize>) {
            let column: Vec<u8> = batch.chunks_exact(107).map(|row| row[position]).collect();
            let counts = counts_of(&column);
            let chi2 = (0..CARD_KINDS)
                .map(|id| {
                    let expected = n as f64 * if id == JOKER_ID as usize { 3.0 } else { 2.0 } / 107.0;
                    (counts[id] as f64 - expected).powi(2) / expected
                })
                .sum();
            (chi2, counts.to_vec())
        };
        let (chi2, counts) = chi_square_at(0);
        assert!(
            chi2 < 90.0,
            "chi-square {chi2:.1} over 52 degrees of freedom: {counts:?}"
        );
        // The same check on the last position: Fisher–Yates' first step.
        let (chi2, counts) = chi_square_at(106);
        assert!(chi2 < 90.0, "chi-square {chi2:.1} at the last position: {counts:?}");
    }

    /// The shared scenario `conformance/L-2-cut-bonus-and-deal.json`: its stock
    /// (the shuffled deck, top first), round 1, dealer 3, cut 41.
    const CONFORMANCE_DECK: &str = "A♣ 7♦ 6♠ 10♥ A♠ 8♣ 3♥ Q♦ 4♣ 2♥ 8♠ A♦ J♦ Q♥ K♦ A♦ JK 9♦ 9♣ 2♠ \
        K♥ 10♣ 8♦ J♠ 10♣ J♥ 4♥ A♠ 3♠ 5♠ J♣ K♥ 9♥ J♣ 8♦ 9♠ K♣ K♣ 10♦ 2♥ JK 7♠ 6♣ J♠ 4♦ 8♥ 4♣ 9♦ \
        5♣ 6♦ Q♠ A♥ 4♠ 10♠ 3♣ 7♣ 10♦ Q♥ 5♣ 9♣ 2♣ J♦ 5♥ A♥ J♥ A♣ 5♦ 6♥ K♦ Q♦ 5♥ 7♥ 6♠ 4♦ Q♣ JK \
        2♦ 9♥ 7♦ 7♣ 3♦ 3♦ 3♥ 8♥ 6♣ 3♠ 6♥ 2♣ 5♦ 9♠ 2♠ 4♠ Q♠ 5♠ 2♦ K♠ 8♠ 10♥ 8♣ K♠ 4♥ 10♠ 7♠ 6♦ \
        Q♣ 7♥ 3♣";

    fn cards(text: &str) -> Vec<Card> {
        parse_cards(&text.split_whitespace().collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn conformance_l2_cut_bonus_and_deal() {
        let deck = cards(CONFORMANCE_DECK);
        assert_eq!(deck.len(), 107);
        let dealt = deal_round(&deck, &profile_l(), 4, 1, 3, 41).unwrap();
        let expected = [
            "A♣ A♠ 4♣ J♦ JK K♥ 10♣ 3♠ 9♥ K♣",
            "7♦ 8♣ 2♥ Q♥ 9♦ 10♣ J♥ 5♠ J♣ K♣",
            "6♠ 3♥ 8♠ K♦ 9♣ 8♦ 4♥ J♣ 8♦ 10♦",
            "10♥ Q♦ A♦ A♦ 2♠ J♠ A♠ K♥ 9♠ 2♥",
        ];
        for (seat, hand) in expected.iter().enumerate() {
            assert_eq!(dealt.hands[seat], cards(hand), "seat {seat}");
        }
        assert_eq!(dealt.up_card, Card::JOKER);
        assert_eq!(dealt.stock.len(), 66);
        assert_eq!(dealt.stock[0], Card::parse("7♠").unwrap());
        assert_eq!(dealt.cutter, 2);
        assert!(dealt.cut_bonus);
    }

    #[test]
    fn cut_bonus_needs_the_exact_cut_and_a_profile_with_a_bonus() {
        let deck = shuffled_deck(5, &profile_l(), 4);
        let rules = profile_l();
        // L-2.3: 41 in rounds 1-3, 49 in rounds 4-7.
        assert!(!deal_round(&deck, &rules, 4, 1, 0, 40).unwrap().cut_bonus);
        assert!(!deal_round(&deck, &rules, 4, 1, 0, 42).unwrap().cut_bonus);
        assert!(!deal_round(&deck, &rules, 4, 4, 0, 41).unwrap().cut_bonus);
        assert!(deal_round(&deck, &rules, 4, 4, 0, 49).unwrap().cut_bonus);
        // C-2: no cut bonus in profile C.
        let contract = RuleSet::contract();
        let deck_c = shuffled_deck(5, &contract, 4);
        assert!(!deal_round(&deck_c, &contract, 4, 1, 0, 41).unwrap().cut_bonus);
    }

    #[test]
    fn the_cut_never_changes_the_deal() {
        // RULES.md L-2.2 Decision.
        let rules = profile_l();
        let deck = shuffled_deck(11, &rules, 4);
        let a = deal_round(&deck, &rules, 4, 2, 1, 1).unwrap();
        let b = deal_round(&deck, &rules, 4, 2, 1, 106).unwrap();
        assert_eq!((a.hands, a.up_card, a.stock), (b.hands, b.up_card, b.stock));
    }

    #[test]
    fn deal_goes_clockwise_from_the_dealers_left_and_cutter_is_on_the_right() {
        let rules = profile_l();
        let deck = new_deck(&rules, 3);
        // Dealer 0 of 3: seat 1 gets cards 0, 3, 6...; seat 2 cuts (L-2.2).
        let dealt = deal_round(&deck, &rules, 3, 4, 0, 10).unwrap();
        assert_eq!(dealt.cutter, 2);
        assert_eq!(
            dealt.hands[1][..3],
            deck[0..7].iter().step_by(3).copied().collect::<Vec<_>>()[..]
        );
        assert_eq!(dealt.hands[2][0], deck[1]);
        assert_eq!(dealt.hands[0][0], deck[2]);
        assert!(dealt.hands.iter().all(|h| h.len() == 12));
        assert_eq!(dealt.up_card, deck[36]);
        assert_eq!(dealt.stock, deck[37..]);
    }

    #[test]
    fn deal_refuses_bad_input_with_stable_codes() {
        let rules = profile_l();
        let deck = shuffled_deck(3, &rules, 4);
        let code = |r: Result<Dealt>| r.unwrap_err().code;
        assert_eq!(code(deal_round(&deck, &rules, 4, 1, 0, 0)), ErrorCode::BadCut);
        assert_eq!(code(deal_round(&deck, &rules, 4, 1, 0, 107)), ErrorCode::BadCut);
        assert_eq!(deal_round(&deck, &rules, 4, 1, 0, 0).unwrap_err().rule, Some("L-2.2"));
        assert_eq!(code(deal_round(&deck, &rules, 4, 0, 0, 41)), ErrorCode::InvalidRound);
        assert_eq!(code(deal_round(&deck, &rules, 4, 8, 0, 41)), ErrorCode::InvalidRound);
        assert_eq!(code(deal_round(&deck, &rules, 4, 1, 4, 41)), ErrorCode::InvalidArgument);
        assert_eq!(code(deal_round(&deck, &rules, 9, 1, 0, 41)), ErrorCode::InvalidArgument);
        assert_eq!(
            code(deal_round(&deck[..40], &rules, 4, 1, 0, 20)),
            ErrorCode::InvalidArgument
        );
        let mut four_jokers = deck.clone();
        four_jokers.push(Card::JOKER);
        assert_eq!(
            code(deal_round(&four_jokers, &rules, 4, 1, 0, 41)),
            ErrorCode::TooManyCopies
        );
        let three_aces = cards("A♠ A♠ A♠")
            .into_iter()
            .chain(deck.iter().copied())
            .collect::<Vec<_>>();
        assert_eq!(
            code(deal_round(&three_aces, &rules, 4, 1, 0, 41)),
            ErrorCode::TooManyCopies
        );
        // 300 copies must not overflow the count.
        let many = vec![Card::JOKER; 300];
        assert_eq!(code(deal_round(&many, &rules, 4, 1, 0, 41)), ErrorCode::TooManyCopies);
        // A partial deck with just enough cards deals, leaving an empty stock.
        let partial = deal_round(&deck[..41], &rules, 4, 1, 0, 40).unwrap();
        assert_eq!((partial.up_card, partial.stock.len()), (deck[40], 0));
    }

    #[test]
    fn drawn_cuts_cover_the_whole_range_and_nothing_else() {
        let mut rng = Rng::from_seed(8);
        let mut seen = [0u32; 107];
        for _ in 0..20_000 {
            seen[draw_cut(&mut rng, 107, None)] += 1;
        }
        assert_eq!(seen[0], 0);
        assert!(seen[1..].iter().all(|&n| n > 0), "{seen:?}");
        assert_eq!(draw_cut(&mut rng, 2, None), 1);
        // A configured range (L-2.4) is honoured and clamped to the deck.
        for _ in 0..200 {
            assert!((40..=42).contains(&draw_cut(&mut rng, 107, Some((40, 42)))));
            assert_eq!(draw_cut(&mut rng, 10, Some((40, 42))), 9);
        }
    }
}
