//! Fuzz target: card and hand parsing (docs/guarantees.md). Any text is a card or a
//! `malformed_card` refusal, never a panic; every card reads back from its own texts.

mod fuzz_common;

use fuzz_common::config;
use liverpool_engine::card::{parse_cards, Card};
use liverpool_engine::ErrorCode;
use proptest::prelude::*;

fn check_text(text: &str) {
    match Card::parse(text) {
        Ok(c) => {
            assert_eq!(Card::parse(&c.to_string()).unwrap(), c);
            assert_eq!(Card::parse(&c.ascii()).unwrap(), c);
            assert_eq!(Card::from_id(c.id()).unwrap(), c);
        }
        Err(e) => assert_eq!(e.code, ErrorCode::MalformedCard, "{text:?}: {e}"),
    }
}

proptest! {
    #![proptest_config(config(3000))]

    #[test]
    fn any_text_is_a_card_or_refused(text in any::<String>()) {
        check_text(&text);
    }

    #[test]
    fn card_like_text_is_a_card_or_refused(
        rank in prop::sample::select(vec!["", "A", "a", "1", "2", "9", "10", "T", "t", "J", "Q", "K", "JK", "jk", "11", "0", "-1", "٣"]),
        suit in prop::sample::select(vec!["", "S", "s", "H", "D", "C", "♠", "♥", "♦", "♣", "♤", "X", "SS", "\u{fe0f}"]),
        pad in prop::sample::select(vec!["", " ", "\t", "\u{0}", "\u{200b}"]),
    ) {
        check_text(&format!("{pad}{rank}{suit}{pad}"));
    }

    #[test]
    fn hands_parse_or_are_refused_as_a_whole(texts in prop::collection::vec(any::<String>(), 0..8)) {
        match parse_cards(&texts) {
            Ok(cards) => prop_assert_eq!(cards.len(), texts.len()),
            Err(e) => prop_assert_eq!(e.code, ErrorCode::MalformedCard),
        }
    }

    #[test]
    fn ids_are_cards_below_53(id in any::<u8>()) {
        prop_assert_eq!(Card::from_id(id).is_ok(), id < 53);
    }
}
