//! The single place where engine errors become Python exceptions.
//!
//! The exception classes live in `liverpool/errors.py` (a small documented
//! hierarchy); this module looks the class up by the error's code, builds it with
//! `(english, code, rule, key, params)` and raises it. The exception renders its
//! message from `key` and `params` in the learner's language (`liverpool.i18n`).

use liverpool_engine::messages::TEMPLATES;
use liverpool_engine::{Arg, Error, ErrorCode, Message};
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
    let mut msg = err.to_message();
    if msg.english() != err.message {
        // Someone reworded `message` by hand after the engine built it: that text wins.
        msg = Message::untranslated(err.message.clone());
    }
    let params = params_dict(module, &msg.args)?;
    let exc = class.call1((text, err.code.as_str(), err.rule, msg.key, params))?;
    Ok(PyErr::from_value(exc))
}

/// `{name: value}` of a message's placeholders: text as `str`, a nested message as
/// a `liverpool.errors.Message`.
fn params_dict<'py>(module: &Bound<'py, PyModule>, args: &[(&'static str, Arg)]) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(module.py());
    for (name, value) in args {
        match value {
            Arg::Text(t) => d.set_item(name, t)?,
            Arg::Message(m) => {
                let nested = module
                    .getattr("Message")?
                    .call1((m.key, params_dict(module, &m.args)?))?;
                d.set_item(name, nested)?
            }
        }
    }
    Ok(d)
}

/// Result helper: `engine_call().map_err(to_py)?` reads as `py_result(engine_call())?`.
pub fn py_result<T>(r: Result<T, Error>) -> PyResult<T> {
    r.map_err(to_py)
}

/// An `invalid_argument` error raised from binding-level conversions, with a
/// message id (`msg!("arg.…", …)`) so it is translated like the engine's.
pub fn invalid_argument(message: Message) -> PyErr {
    to_py(Error::with(ErrorCode::InvalidArgument, None, message))
}

/// `busy` (`ConcurrentUseError`): the object is in use by another thread.
pub fn busy(message: Message) -> PyErr {
    to_py(Error::with(ErrorCode::Busy, None, message))
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

/// `{message id: English template}` for every sentence the engine can say; the
/// translation catalogues (`i18n/catalogues/<lang>/engine.json`) have exactly these ids.
#[pyfunction]
fn message_templates(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    for (key, template) in TEMPLATES {
        d.set_item(key, template)?;
    }
    Ok(d)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(error_codes, m)?)?;
    m.add_function(wrap_pyfunction!(message_templates, m)?)?;
    Ok(())
}
