//! Python arguments shared by every binding module: integers, seeds, player counts,
//! rounds, thread counts, action ids. Each turns a bad value into a typed error with a stable
//! code (never Python's bare `TypeError`/`OverflowError`); the ranges themselves are
//! the engine's (`RuleSet`, `deal::check_players`).

use crate::errors::{invalid_argument, py_result, to_py};
use liverpool_engine::deal;
use liverpool_engine::game::GameState;
use liverpool_engine::{msg, Error, ErrorCode, RuleSet};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt};

/// An integer argument as `i64`: `Err(true)` for an int beyond 64 bits, `Err(false)`
/// for anything that is not an int.
pub fn int_arg(obj: &Bound<'_, PyAny>) -> Result<i64, bool> {
    obj.extract::<i64>().map_err(|_| obj.is_instance_of::<PyInt>())
}

/// A non-negative integer in `0..2**64` (seeds, counts), or `invalid_argument` naming `what`.
pub fn u64_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<u64> {
    obj.is_instance_of::<PyInt>()
        .then(|| obj.extract::<u64>().ok())
        .flatten()
        .ok_or_else(|| invalid_argument(msg!("arg.u64", what = what, value = obj)))
}

/// A seed: any integer in `0..2**64`.
pub fn seed_arg(seed: &Bound<'_, PyAny>) -> PyResult<u64> {
    u64_arg(seed, "seed")
}

/// The player count (the rule set's default for `None`), checked against the rules (L-1.1).
pub fn players_arg(players: Option<&Bound<'_, PyAny>>, rules: &RuleSet) -> PyResult<u8> {
    let Some(players) = players else {
        return Ok(rules.default_players);
    };
    let count = int_arg(players)
        .ok()
        .and_then(|p| u8::try_from(p).ok())
        .ok_or_else(|| {
            invalid_argument(msg!(
                "arg.players",
                players = players,
                rules = &rules.name,
                min = rules.min_players,
                max = rules.max_players
            ))
        })?;
    py_result(deal::check_players(rules, count))?;
    Ok(count)
}

/// A round number of `rules`: any integer outside its rounds is `invalid_round` (L-3).
pub fn round_arg(round: &Bound<'_, PyAny>, rules: &RuleSet) -> PyResult<u8> {
    match int_arg(round) {
        Ok(r) if (1..=rules.rounds() as i64).contains(&r) => Ok(r as u8),
        Err(false) => Err(invalid_argument(msg!("arg.round", round = round))),
        _ => Err(to_py(Error::refused(
            ErrorCode::InvalidRound,
            "L-3",
            msg!("round.no_such_round", round = round, rounds = rules.rounds()),
        ))),
    }
}

/// A thread count, or `None` for all cores.
pub fn threads_arg(threads: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
    threads
        .map(|t| match int_arg(t) {
            Ok(n) if n >= 1 => Ok(usize::try_from(n).unwrap_or(usize::MAX)),
            _ => Err(invalid_argument(msg!("arg.threads", threads = t))),
        })
        .transpose()
}

/// The seat a bot or a hint decides for: `seat` (default: the seat to act), which
/// must be `state.to_act()`; `invalid_argument` when the game is over or another
/// seat is to act (the engine waits for one seat only).
pub fn deciding_seat(state: &GameState, seat: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    let Some(to_act) = state.to_act() else {
        return Err(invalid_argument(msg!("arg.game_over")));
    };
    let seat = match seat {
        None => to_act,
        Some(s) => u64_arg(s, "seat")? as usize,
    };
    if seat != to_act {
        return Err(invalid_argument(msg!("arg.not_to_act", seat = seat, to_act = to_act)));
    }
    Ok(seat)
}

/// A count, seed or index: a Python or numpy integer in `0..2**64`; a bool, a float
/// or anything else is `invalid_argument` naming `what` (never a bare `TypeError`).
pub fn index_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<u64> {
    let refuse = || invalid_argument(msg!("arg.u64", what = what, value = obj));
    // `True` is an int to Python and numpy's bool has `__index__`: neither is a count.
    let type_name = obj.get_type().name().map(|n| n.to_string()).unwrap_or_default();
    if obj.is_instance_of::<PyBool>() || type_name == "bool" || type_name == "bool_" {
        return Err(refuse());
    }
    if obj.is_instance_of::<PyInt>() {
        return obj.extract::<u64>().map_err(|_| refuse());
    }
    // numpy integers (and any exact integer type) through `operator.index`.
    let index = obj
        .py()
        .import("operator")?
        .getattr("index")?
        .call1((obj,))
        .map_err(|_| refuse())?;
    index.extract::<u64>().map_err(|_| refuse())
}

/// An action id argument: any non-negative Python or numpy integer (one beyond the
/// space is the engine's `invalid_action_id`); a bool, a float, a string or anything
/// else is `invalid_argument`.
pub fn action_id_arg(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    index_arg(obj, "action id")
        .ok()
        .and_then(|id| usize::try_from(id).ok())
        .ok_or_else(|| invalid_argument(msg!("arg.action_id", value = obj)))
}

/// A sequence of action ids (each as [`action_id_arg`]).
pub fn action_ids_arg(obj: &Bound<'_, PyAny>) -> PyResult<Vec<usize>> {
    let items = obj
        .try_iter()
        .map_err(|_| invalid_argument(msg!("arg.action_id", value = obj)))?;
    let mut ids = Vec::new();
    for item in items {
        ids.push(action_id_arg(&item?)?);
        if ids.len() > 1 << 16 {
            return Err(invalid_argument(msg!("arg.action_id", value = obj)));
        }
    }
    Ok(ids)
}

/// A non-negative integer argument (seat, meld number, seed); `None` for anything
/// else, so that callers raise a typed error with a stable code instead of
/// Python's `TypeError` / `OverflowError`.
pub fn uint_arg(obj: &Bound<'_, PyAny>) -> Option<u64> {
    if !obj.is_instance_of::<PyInt>() {
        return None;
    }
    obj.extract::<u64>().ok()
}
