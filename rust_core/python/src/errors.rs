//! The single place where engine errors become Python exceptions.
//!
//! The exception classes live in `liverpool/errors.py` (a small documented
//! hierarchy); this module looks the class up by the error's code, builds it with
//! `(message, code, rule)` and raises it.

use liverpool_engine::{Error, ErrorCode};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyDict;

static ERRORS_MODULE: PyOnceLock<Py<PyModule>> = PyOnceLock::new();

/// Convert an engine error into the matching `liverpool.errors` exception.
pub fn to_py(err: Error) -> PyErr {
    Python::attach(|py| match build(py, &err) {
        Ok(e) => e,
        // The errors module failed to import: still raise something typed and clear.
        Err(_) => PyValueError::new_err(format!("{err}")),
    })
}

fn build(py: Python<'_>, err: &Error) -> PyResult<PyErr> {
    let module = ERRORS_MODULE.get_or_try_init(py, || -> PyResult<Py<PyModule>> {
        Ok(py.import("liverpool.errors")?.unbind())
    })?;
    let module = module.bind(py);
    let class = module.getattr("exception_class_for")?.call1((err.code.as_str(),))?;
    let text = match err.rule {
        Some(rule) => format!("{} ({rule})", err.message),
        None => err.message.clone(),
    };
    let exc = class.call1((text, err.code.as_str(), err.rule))?;
    Ok(PyErr::from_value(exc))
}

/// Result helper: `engine_call().map_err(to_py)?` reads as `py_result(engine_call())?`.
pub fn py_result<T>(r: Result<T, Error>) -> PyResult<T> {
    r.map_err(to_py)
}

/// An `invalid_argument` error raised from binding-level conversions.
pub fn invalid_argument(message: impl Into<String>) -> PyErr {
    to_py(Error::new(ErrorCode::InvalidArgument, None, message))
}

/// `{code: description}` for every stable code, so Python can document and test them.
#[pyfunction]
fn error_codes(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    for code in ErrorCode::ALL {
        d.set_item(code.as_str(), code.describe())?;
    }
    Ok(d)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(error_codes, m)?)?;
    Ok(())
}
