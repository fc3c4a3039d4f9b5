//! Reinforcement-learning entry points: the fixed action space of a game
//! (`GameState.legal_action_mask`, `action_id`, `action_from_id`, `apply_id`, called
//! from `game.rs`) and `liverpool.action_space_size`. Conversions only: ids, masks
//! and legality are the engine's (`liverpool_engine::game::ActionSpace`).

use crate::args::{int_arg, players_arg};
use crate::cards::PyRuleSet;
use crate::errors::{invalid_argument, py_result};
use liverpool_engine::game::{ActionSpace, GameState};
use liverpool_engine::msg;
use liverpool_engine::rules::RuleSet;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PySlice};

/// An action id argument: any non-negative Python or numpy integer (one beyond the
/// space is the engine's `invalid_action_id`); anything else is `invalid_argument`.
pub fn action_id_arg(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    int_arg(obj)
        .ok()
        .and_then(|id| usize::try_from(id).ok())
        .ok_or_else(|| invalid_argument(msg!("arg.action_id", value = obj)))
}

/// `name -> slice` of the blocks of `space`, in id order.
pub fn layout_dict<'py>(py: Python<'py>, space: &ActionSpace) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (name, range) in space.blocks() {
        d.set_item(name, PySlice::new(py, range.start as isize, range.end as isize, 1))?;
    }
    Ok(d)
}

/// The decoded action of `id` in `state` (for the seat the engine waits for).
pub fn decode(state: &GameState, id: &Bound<'_, PyAny>) -> PyResult<liverpool_engine::game::Action> {
    let id = action_id_arg(id)?;
    py_result(state.action_from_id(id))
}

/// The number of action ids of a rule set (profile L by default) and player count
/// (the rule set's default, 4 for every preset): the width of every mask.
#[pyfunction]
#[pyo3(signature = (rules = None, players = None))]
fn action_space_size(
    #[pyo3(from_py_with = crate::cards::rules_param)] rules: Option<PyRef<'_, PyRuleSet>>,
    players: Option<&Bound<'_, PyAny>>,
) -> PyResult<usize> {
    let rules = rules.map(|r| r.rules.clone()).unwrap_or_else(RuleSet::liverpool);
    let players = players_arg(players, &rules)?;
    Ok(ActionSpace::new(&rules, players as usize).size)
}

/// The blocks of the action space of a rule set and player count, as `name -> slice`.
#[pyfunction]
#[pyo3(signature = (rules = None, players = None))]
fn action_layout<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = crate::cards::rules_param)] rules: Option<PyRef<'_, PyRuleSet>>,
    players: Option<&Bound<'_, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let rules = rules.map(|r| r.rules.clone()).unwrap_or_else(RuleSet::liverpool);
    let players = players_arg(players, &rules)?;
    layout_dict(py, &ActionSpace::new(&rules, players as usize))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(action_space_size, m)?)?;
    m.add_function(wrap_pyfunction!(action_layout, m)?)?;
    Ok(())
}
