//! `liverpool._core`: the PyO3 binding of `liverpool-engine`.
//!
//! Every function here converts Python values to engine values, calls the engine,
//! and converts back. No rule is decided in this crate. Engine errors become
//! Python exceptions in exactly one place, [`errors::to_py`].

use pyo3::prelude::*;

mod action;
mod action_space;
mod args;
mod cards;
mod deal;
mod env;
mod errors;
mod game;
mod hint;
mod json;
mod search;
mod sim;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    errors::register(m)?;
    cards::register(m)?;
    search::register(m)?;
    deal::register(m)?;
    game::register(m)?;
    hint::register(m)?;
    sim::register(m)?;
    action_space::register(m)?;
    env::register(m)?;
    Ok(())
}
