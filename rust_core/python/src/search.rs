//! Binding of the engine's `search` functionality (filled in by its owner).

use pyo3::prelude::*;

pub fn register(_m: &Bound<'_, PyModule>) -> PyResult<()> {
    Ok(())
}
