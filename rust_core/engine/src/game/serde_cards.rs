//! Cards in JSON as the strings of CONFORMANCE.md ("7♦", "10♣", "JK"), both ways.
//! `Card` itself carries no serde impls; these `with` modules add them where a
//! game type stores cards.

use crate::card::Card;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A card that (de)serializes as its text form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CardText(pub Card);

impl Serialize for CardText {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for CardText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Card::parse(&text)
            .map(CardText)
            .map_err(|e| D::Error::custom(e.message))
    }
}

pub(crate) mod one {
    use super::*;
    pub fn serialize<S: Serializer>(card: &Card, s: S) -> Result<S::Ok, S::Error> {
        CardText(*card).serialize(s)
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        Ok(CardText::deserialize(d)?.0)
    }
}

pub(crate) mod opt {
    use super::*;
    pub fn serialize<S: Serializer>(card: &Option<Card>, s: S) -> Result<S::Ok, S::Error> {
        card.map(CardText).serialize(s)
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Card>, D::Error> {
        Ok(Option::<CardText>::deserialize(d)?.map(|c| c.0))
    }
}

pub(crate) mod list {
    use super::*;
    pub fn serialize<S: Serializer>(cards: &[Card], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(cards.iter().map(|&c| CardText(c)))
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Card>, D::Error> {
        Ok(Vec::<CardText>::deserialize(d)?.into_iter().map(|c| c.0).collect())
    }
}

pub(crate) mod groups {
    use super::*;
    pub fn serialize<S: Serializer>(groups: &[Vec<Card>], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(
            groups
                .iter()
                .map(|g| g.iter().map(|&c| CardText(c)).collect::<Vec<_>>()),
        )
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Vec<Card>>, D::Error> {
        let raw = Vec::<Vec<CardText>>::deserialize(d)?;
        Ok(raw.into_iter().map(|g| g.into_iter().map(|c| c.0).collect()).collect())
    }
}

/// Lists of hands: `[["7♠","7♥"], ...]`.
pub(crate) mod hands {
    pub use super::groups::{deserialize, serialize};
}
