//! JSON across the boundary: engine JSON text to Python objects and back, with
//! Python's own `json` module, so that field names and order are exactly the
//! engine's (CONFORMANCE.md shapes).

use crate::cards::PyCard;
use crate::errors::to_py;
use liverpool_engine::msg;
use liverpool_engine::{Error, ErrorCode};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyDict;

static JSON_MODULE: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
static JSON_DEFAULT: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

fn json_module(py: Python<'_>) -> PyResult<&Bound<'_, PyModule>> {
    Ok(JSON_MODULE
        .get_or_try_init(py, || Ok::<_, PyErr>(py.import("json")?.unbind()))?
        .bind(py))
}

/// `json.dumps` fallback: a `Card` is written as its notation (`"7♦"`).
#[pyfunction]
fn card_as_json(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    match obj.cast::<PyCard>() {
        Ok(c) => Ok(c.get().card.to_string()),
        Err(_) => Err(PyTypeError::new_err(format!(
            "{} is not JSON data",
            obj.get_type().name()?
        ))),
    }
}

/// Engine JSON text → Python objects (dicts keep the engine's field order).
pub fn json_to_py<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    json_module(py)?.getattr("loads")?.call1((text,))
}

/// Python data (dicts, lists, tuples, strings, numbers, `Card`s) → JSON text for
/// the engine. Data that is not JSON becomes an error with `code`.
pub fn py_to_json(obj: &Bound<'_, PyAny>, code: ErrorCode, what: liverpool_engine::Message) -> PyResult<String> {
    let py = obj.py();
    let default = JSON_DEFAULT.get_or_try_init(py, || {
        Ok::<_, PyErr>(wrap_pyfunction!(card_as_json, py)?.into_any().unbind())
    })?;
    let kwargs = PyDict::new(py);
    kwargs.set_item("ensure_ascii", false)?;
    kwargs.set_item("default", default.bind(py))?;
    match json_module(py)?.getattr("dumps")?.call((obj,), Some(&kwargs)) {
        // A str that is not valid Unicode (a lone surrogate) is not JSON data either.
        Ok(text) => text.extract::<String>().map_err(|e: PyErr| {
            to_py(Error::with(
                code,
                None,
                msg!("arg.not_json", what = what.clone(), error = e.value(py)),
            ))
        }),
        Err(e) => Err(to_py(Error::with(
            code,
            None,
            msg!("arg.not_json", what = what, error = e.value(py)),
        ))),
    }
}
