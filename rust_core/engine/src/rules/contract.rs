//! Contracts (L-3, C-8): what a round asks for before a player may go down, as a
//! list of melds, each a kind with its own minimum length.
//!
//! A contract is written in a rule set either as counts of default-length melds
//! (`{ sets = 2 }`, `{ runs = 3, whole_hand = true }`) or meld by meld
//! (`{ melds = [{ kind = "run", min = 7 }] }`, C-8 "custom contracts"); both may be
//! combined. A meld without `min` takes the rule set's opening size for its kind
//! (`set_size_min`, `run_size_min`, or `whole_hand_run_min` in a whole-hand round).

use crate::error::Message;
use crate::msg;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The two kinds of meld (L-4.1, L-4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MeldKind {
    Set,
    Run,
}

impl MeldKind {
    pub fn as_str(self) -> &'static str {
        match self {
            MeldKind::Set => "set",
            MeldKind::Run => "run",
        }
    }
}

/// Most melds one contract may ask for.
pub const MAX_CONTRACT_MELDS: usize = 6;

/// One meld a contract asks for: its kind and, if it differs from the rule set's
/// opening size, its own minimum number of cards (C-8: "one run of 7").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeldSpec {
    pub kind: MeldKind,
    /// Minimum cards; `None` = the rule set's opening size for this kind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<u8>,
}

impl MeldSpec {
    pub const fn set() -> MeldSpec {
        MeldSpec {
            kind: MeldKind::Set,
            min: None,
        }
    }
    pub const fn run() -> MeldSpec {
        MeldSpec {
            kind: MeldKind::Run,
            min: None,
        }
    }
    /// A meld of this kind with its own minimum length.
    pub const fn with_min(kind: MeldKind, min: u8) -> MeldSpec {
        MeldSpec { kind, min: Some(min) }
    }
}

/// What a round asks for before a player may go down (L-3, C-8): up to
/// [`MAX_CONTRACT_MELDS`] melds, and whether the go-down is the whole hand (L-8).
/// A small `Copy` value: the melds live in a fixed array.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Contract {
    specs: [MeldSpec; MAX_CONTRACT_MELDS],
    len: u8,
    /// Round 7 (L-8), Shanghai's round 8 (C-8): the whole hand as exactly these melds, no discard.
    pub whole_hand: bool,
}

impl Contract {
    /// `sets` sets then `runs` runs, all of the rule set's opening sizes.
    /// Counts beyond [`MAX_CONTRACT_MELDS`] in total are cut (the rule set validation
    /// refuses such contracts before this is called on user input).
    pub const fn new(sets: u8, runs: u8) -> Contract {
        let mut specs = [MeldSpec::set(); MAX_CONTRACT_MELDS];
        let mut len = 0;
        while len < MAX_CONTRACT_MELDS && len < sets as usize {
            len += 1;
        }
        let mut r = 0;
        while len < MAX_CONTRACT_MELDS && r < runs as usize {
            specs[len] = MeldSpec::run();
            len += 1;
            r += 1;
        }
        Contract {
            specs,
            len: len as u8,
            whole_hand: false,
        }
    }

    /// The same contract, laid as the whole hand (L-8).
    pub const fn whole_hand(self) -> Contract {
        Contract {
            whole_hand: true,
            ..self
        }
    }

    /// A contract from its melds, in the order given; `None` if there are more than
    /// [`MAX_CONTRACT_MELDS`].
    pub fn from_melds(melds: &[MeldSpec], whole_hand: bool) -> Option<Contract> {
        if melds.len() > MAX_CONTRACT_MELDS {
            return None;
        }
        let mut specs = [MeldSpec::set(); MAX_CONTRACT_MELDS];
        specs[..melds.len()].copy_from_slice(melds);
        Some(Contract {
            specs,
            len: melds.len() as u8,
            whole_hand,
        })
    }

    /// The melds asked for, in the order the rule set lists them.
    pub fn melds(&self) -> &[MeldSpec] {
        &self.specs[..self.len as usize]
    }
    /// How many melds.
    pub fn count(&self) -> usize {
        self.len as usize
    }
    /// How many sets.
    pub fn sets(&self) -> u8 {
        self.melds().iter().filter(|m| m.kind == MeldKind::Set).count() as u8
    }
    /// How many runs.
    pub fn runs(&self) -> u8 {
        self.melds().iter().filter(|m| m.kind == MeldKind::Run).count() as u8
    }
    /// Does any meld have its own minimum length?
    pub fn has_own_lengths(&self) -> bool {
        self.melds().iter().any(|m| m.min.is_some())
    }
    /// The same contract with only the melds of `kind` (a bot's quick check of half a contract).
    pub fn only(&self, kind: MeldKind) -> Contract {
        let kept: Vec<MeldSpec> = self.melds().iter().copied().filter(|m| m.kind == kind).collect();
        Contract::from_melds(&kept, self.whole_hand).expect("a sub-list is not longer")
    }

    /// "2 sets", "1 set + 1 run", "3 runs (whole hand, no discard)", "1 run of at least 7".
    pub fn describe(&self) -> String {
        self.describe_message().english()
    }

    /// [`Contract::describe`] as a translatable message: the melds grouped by kind and
    /// length (sets first, default lengths first), joined by " + ".
    pub fn describe_message(&self) -> Message {
        self.describe_message_capped(None, None)
    }

    /// [`Contract::describe_message`] where sets are capped at `set_cap` cards and
    /// runs at `run_cap` at go-down: a meld whose own minimum reaches its kind's cap
    /// is "exactly" that long (profile L: "1 run of exactly 7"), not "at least".
    pub fn describe_message_capped(&self, set_cap: Option<u8>, run_cap: Option<u8>) -> Message {
        let exact = |spec: &MeldSpec| {
            let cap = match spec.kind {
                MeldKind::Set => set_cap,
                MeldKind::Run => run_cap,
            };
            matches!((spec.min, cap), (Some(min), Some(cap)) if cap <= min)
        };
        let mut groups: Vec<(MeldSpec, u8)> = Vec::new();
        let mut sorted: Vec<MeldSpec> = self.melds().to_vec();
        sorted.sort_by_key(|m| (m.kind, m.min));
        for m in sorted {
            match groups.last_mut() {
                Some((g, n)) if *g == m => *n += 1,
                _ => groups.push((m, 1)),
            }
        }
        let part = |spec: &MeldSpec, n: u8| match (spec.kind, n, spec.min) {
            (MeldKind::Set, 1, Some(min)) if exact(spec) => msg!("contract.one_set_exactly", min = min),
            (MeldKind::Set, n, Some(min)) if exact(spec) => msg!("contract.sets_exactly", n = n, min = min),
            (MeldKind::Run, 1, Some(min)) if exact(spec) => msg!("contract.one_run_exactly", min = min),
            (MeldKind::Run, n, Some(min)) if exact(spec) => msg!("contract.runs_exactly", n = n, min = min),
            (MeldKind::Set, 1, None) => msg!("contract.one_set"),
            (MeldKind::Set, n, None) => msg!("contract.sets", n = n),
            (MeldKind::Run, 1, None) => msg!("contract.one_run"),
            (MeldKind::Run, n, None) => msg!("contract.runs", n = n),
            (MeldKind::Set, 1, Some(min)) => msg!("contract.one_set_of", min = min),
            (MeldKind::Set, n, Some(min)) => msg!("contract.sets_of", n = n, min = min),
            (MeldKind::Run, 1, Some(min)) => msg!("contract.one_run_of", min = min),
            (MeldKind::Run, n, Some(min)) => msg!("contract.runs_of", n = n, min = min),
        };
        let mut parts = groups.iter().map(|(spec, n)| part(spec, *n));
        let melds = match parts.next() {
            None => msg!("contract.no_melds"),
            Some(first) => parts.fold(first, |acc, p| msg!("contract.plus", first = acc, second = p)),
        };
        if self.whole_hand {
            msg!("contract.whole_hand", melds = melds)
        } else {
            melds
        }
    }
}

/// The written form of a contract (see the module docs).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ContractRepr {
    #[serde(default, skip_serializing_if = "is_zero")]
    sets: u8,
    #[serde(default, skip_serializing_if = "is_zero")]
    runs: u8,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    melds: Vec<MeldSpec>,
    #[serde(default, skip_serializing_if = "is_false")]
    whole_hand: bool,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}
fn is_false(b: &bool) -> bool {
    !*b
}

impl Serialize for Contract {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // Counts when every meld has the default length and the sets come first;
        // meld by meld otherwise.
        let counts_form = Contract::new(self.sets(), self.runs());
        let repr = if !self.has_own_lengths() && counts_form.melds() == self.melds() {
            ContractRepr {
                sets: self.sets(),
                runs: self.runs(),
                melds: vec![],
                whole_hand: self.whole_hand,
            }
        } else {
            ContractRepr {
                sets: 0,
                runs: 0,
                melds: self.melds().to_vec(),
                whole_hand: self.whole_hand,
            }
        };
        repr.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Contract {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Contract, D::Error> {
        let repr = ContractRepr::deserialize(d)?;
        let total = repr.sets as usize + repr.runs as usize + repr.melds.len();
        if total == 0 {
            return Err(serde::de::Error::custom(
                "a contract needs at least one meld (sets, runs or melds)",
            ));
        }
        if total > MAX_CONTRACT_MELDS {
            return Err(serde::de::Error::custom(format!(
                "a contract asks for {total} melds: at most {MAX_CONTRACT_MELDS}"
            )));
        }
        let mut melds = Contract::new(repr.sets, repr.runs).melds().to_vec();
        melds.extend(repr.melds);
        Ok(Contract::from_melds(&melds, repr.whole_hand).expect("counted above"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_melds_forms() {
        let c = Contract::new(1, 2);
        assert_eq!((c.sets(), c.runs(), c.count()), (1, 2, 3));
        assert_eq!(serde_json::to_string(&c).unwrap(), r#"{"sets":1,"runs":2}"#);
        let seven = Contract::from_melds(&[MeldSpec::with_min(MeldKind::Run, 7)], false).unwrap();
        assert_eq!(
            serde_json::to_string(&seven).unwrap(),
            r#"{"melds":[{"kind":"run","min":7}]}"#
        );
        assert_eq!(seven.describe(), "1 run of at least 7");
        let mixed: Contract = serde_json::from_str(r#"{"sets":1,"melds":[{"kind":"run","min":7}]}"#).unwrap();
        assert_eq!(mixed.describe(), "1 set + 1 run of at least 7");
        assert_eq!(
            serde_json::from_str::<Contract>(&serde_json::to_string(&mixed).unwrap()).unwrap(),
            mixed
        );
        assert!(serde_json::from_str::<Contract>("{}").is_err());
        assert!(serde_json::from_str::<Contract>(r#"{"sets":7}"#).is_err());
        assert_eq!(
            Contract::new(0, 3).whole_hand().describe(),
            "3 runs (whole hand, no discard)"
        );
        assert_eq!(Contract::new(3, 1).only(MeldKind::Run), Contract::new(0, 1));
    }
}
