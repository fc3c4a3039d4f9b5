//! Binding of the engine's bots and batch simulation (filled in by its owner).

use pyo3::prelude::*;

pub fn register(_m: &Bound<'_, PyModule>) -> PyResult<()> {
    Ok(())
}
