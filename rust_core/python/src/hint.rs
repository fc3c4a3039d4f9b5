//! `GameState.hint`: the expert bot's suggested move with a short reason, as a
//! `Hint` object. The reason is a message id (`hint.*`) with its values, translated
//! by `liverpool.errors.Message` exactly like an engine error.

use crate::action::PyAction;
use crate::args::{deciding_seat, seed_arg, u64_arg};
use crate::errors::invalid_argument;
use liverpool_engine::bots::{ExpertBot, ExpertBudget};
use liverpool_engine::error::Arg;
use liverpool_engine::game::GameState;
use liverpool_engine::msg;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The expert's suggestion for one seat: `action`, and why (`reason` in the current
/// language; `reason_id` and `args` never depend on it).
#[pyclass(name = "Hint", module = "liverpool._core", frozen)]
pub struct PyHint {
    action: PyAction,
    reason_id: &'static str,
    args: Vec<(&'static str, String)>,
    english: String,
}

#[pymethods]
impl PyHint {
    #[getter]
    fn action(&self) -> PyAction {
        self.action.clone()
    }

    /// The message id of the reason (`"hint.discard"`, …).
    #[getter]
    fn reason_id(&self) -> &'static str {
        self.reason_id
    }

    /// The reason's placeholder values, as text.
    #[getter]
    fn args<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (name, value) in &self.args {
            d.set_item(name, value)?;
        }
        Ok(d)
    }

    /// The reason in the current language (`liverpool.set_language`); the English
    /// sentence when the catalogue cannot render it.
    #[getter]
    fn reason(&self, py: Python<'_>) -> PyResult<String> {
        let message = py
            .import("liverpool.errors")?
            .getattr("Message")?
            .call1((self.reason_id, self.args(py)?))?;
        let text = message.call_method0("render")?;
        Ok(text
            .extract::<Option<String>>()?
            .unwrap_or_else(|| self.english.clone()))
    }

    fn __repr__(&self) -> String {
        format!("Hint({:?}, reason_id='{}')", self.action.action, self.reason_id)
    }
}

/// The hint for `seat` (default: the seat to act) with `budget` determinizations
/// (default: the expert's) and the expert's `seed`.
pub fn hint(
    py: Python<'_>,
    state: &GameState,
    seat: Option<&Bound<'_, PyAny>>,
    budget: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyHint> {
    let seat = deciding_seat(state, seat)?;
    let expert_budget = budget_arg(budget)?;
    let seed = seed.map(seed_arg).transpose()?.unwrap_or(0);
    let expert = ExpertBot::with_budget(seed, expert_budget);
    let advice = py.detach(|| expert.advise(state, seat));
    let reason = advice.reason;
    Ok(PyHint {
        action: advice.action.into(),
        reason_id: reason.key,
        english: reason.english(),
        args: reason
            .args
            .iter()
            .map(|(name, value)| {
                let text = match value {
                    Arg::Text(t) => t.clone(),
                    Arg::Message(m) => m.english(),
                };
                (*name, text)
            })
            .collect(),
    })
}

/// The most determinizations a caller may ask for per decision.
const MAX_BUDGET: u32 = 4096;

/// The expert's budget from a `budget=` argument: `None` is the default; otherwise
/// an integer in 1..=[`MAX_BUDGET`] samples of the hidden cards per decision.
pub fn budget_arg(budget: Option<&Bound<'_, PyAny>>) -> PyResult<ExpertBudget> {
    let mut expert_budget = ExpertBudget::default();
    if let Some(b) = budget.filter(|b| !b.is_none()) {
        let refuse = || invalid_argument(msg!("arg.budget", max = MAX_BUDGET, budget = b.to_string()));
        let n = u64_arg(b, "budget").map_err(|_| refuse())?;
        expert_budget.determinizations = u32::try_from(n)
            .ok()
            .filter(|n| (1..=MAX_BUDGET).contains(n))
            .ok_or_else(refuse)?;
    }
    Ok(expert_budget)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyHint>()?;
    Ok(())
}
