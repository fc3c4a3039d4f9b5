//! The action space as Python values: its size, its blocks (`name -> slice`) and the
//! name of every id, for a rule set and player count. Shared by `GameState` (game.rs)
//! and `VecEnv` (env.rs); the ids themselves are the engine's (docs/action-space.md).

use crate::args::players_arg;
use crate::cards::PyRuleSet;
use liverpool_engine::game::ActionSpace;
use liverpool_engine::rules::RuleSet;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PySlice};

/// `name -> slice` of the blocks of `space`, in id order.
pub fn layout_dict<'py>(py: Python<'py>, space: &ActionSpace) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (name, range) in space.blocks() {
        d.set_item(name, PySlice::new(py, range.start as isize, range.end as isize, 1))?;
    }
    Ok(d)
}

/// The names of every id of a space, in id order (the same in every state).
pub fn names_of(space: &ActionSpace) -> Vec<String> {
    (0..space.size)
        .map(|id| space.id_name(id).unwrap_or_default())
        .collect()
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

/// A short name of every action id of a rule set and player count, in id order:
/// what each id means, the same in every state (`discard 7♦`, `go_down_card JK`, …).
#[pyfunction]
#[pyo3(signature = (rules = None, players = None))]
fn action_names(
    #[pyo3(from_py_with = crate::cards::rules_param)] rules: Option<PyRef<'_, PyRuleSet>>,
    players: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<String>> {
    let rules = rules.map(|r| r.rules.clone()).unwrap_or_else(RuleSet::liverpool);
    let players = players_arg(players, &rules)?;
    Ok(names_of(&ActionSpace::new(&rules, players as usize)))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(action_space_size, m)?)?;
    m.add_function(wrap_pyfunction!(action_layout, m)?)?;
    m.add_function(wrap_pyfunction!(action_names, m)?)?;
    Ok(())
}
