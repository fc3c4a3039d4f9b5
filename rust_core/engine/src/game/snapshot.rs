//! Full serialization of a `GameState` (serde JSON) that round-trips exactly: the
//! rule set, the position with its extension fields (RNG state included), and the
//! history of applied actions.

use super::action::{Action, History};
use super::position::Position;
use super::state::GameState;
use crate::error::{Error, ErrorCode, Result};
use crate::msg;
use crate::rules::RuleSet;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::sync::Arc;

/// One applied action in the snapshot: the CONFORMANCE.md step shape.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    pub seat: usize,
    #[serde(flatten)]
    pub action: Action,
}

#[derive(Serialize, Deserialize)]
struct Snapshot {
    /// Format version of this JSON.
    format: u32,
    #[serde(deserialize_with = "rules_of_snapshot")]
    rules: RuleSet,
    position: Position,
    history: Vec<Step>,
}

const FORMAT: u32 = 1;

/// The snapshot's rule set. Snapshots written before `profile` existed lack it: it is
/// then the profile of the preset the rule set is named after (else L), as for a
/// complete rule set file, so their refusals keep citing their profile's rule ids.
fn rules_of_snapshot<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<RuleSet, D::Error> {
    let mut value = serde_json::Value::deserialize(d)?;
    if let Some(map) = value.as_object_mut().filter(|m| !m.contains_key("profile")) {
        let profile = map
            .get("name")
            .and_then(serde_json::Value::as_str)
            .and_then(|name| RuleSet::preset(name).ok())
            .map(|preset| preset.profile)
            .unwrap_or_default();
        map.insert("profile".into(), serde_json::json!(profile));
    }
    RuleSet::deserialize(value).map_err(serde::de::Error::custom)
}

impl GameState {
    /// The whole state as JSON (see [`GameState::from_json`]).
    pub fn to_json(&self) -> String {
        serde_json::to_string(&self.snapshot()).expect("a game state always serializes")
    }

    /// Read a state written by [`GameState::to_json`]; `bad_position` if it is not one
    /// or is inconsistent.
    pub fn from_json(text: &str) -> Result<GameState> {
        super::position::check_size(text.len(), crate::limits::MAX_SNAPSHOT_BYTES)?;
        let snap: Snapshot = serde_json::from_str(text)
            .map_err(|e| Error::with(ErrorCode::BadPosition, None, msg!("snapshot.bad_json", error = e)))?;
        GameState::from_snapshot(snap)
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            format: FORMAT,
            rules: (*self.rules).clone(),
            position: self.to_position(),
            history: self
                .history()
                .into_iter()
                .map(|(seat, action)| Step { seat, action })
                .collect(),
        }
    }

    fn from_snapshot(snap: Snapshot) -> Result<GameState> {
        if snap.format != FORMAT {
            return Err(Error::with(
                ErrorCode::BadPosition,
                None,
                msg!("snapshot.format", format = snap.format, supported = FORMAT),
            ));
        }
        let mut state = GameState::from_position_with_rules(&snap.position, Arc::new(snap.rules))?;
        let mut history = History::default();
        for (i, step) in snap.history.iter().enumerate() {
            if step.seat >= state.players() || !History::encodable(&step.action) {
                return Err(Error::with(
                    ErrorCode::BadPosition,
                    None,
                    msg!("snapshot.history_step", index = i),
                ));
            }
            history.push(step.seat as u8, &step.action);
        }
        state.history = history;
        Ok(state)
    }
}

impl Serialize for GameState {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.snapshot().serialize(s)
    }
}

impl<'de> Deserialize<'de> for GameState {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let snap = Snapshot::deserialize(d)?;
        GameState::from_snapshot(snap).map_err(|e| serde::de::Error::custom(e.message))
    }
}
