//! `Action`: one decision of one seat, as a frozen, hashable Python value built with
//! constructors or from a step dict, a thin wrapper over `liverpool_engine::game::Action`.

use crate::args::uint_arg;
use crate::cards::{cards_to_py, extract_card, extract_cards, PyCard};
use crate::errors::{invalid_argument, py_result};
use crate::json::{json_to_py, py_to_json};
use liverpool_engine::card::Card;
use liverpool_engine::game::Action;
use liverpool_engine::meld::End;
use liverpool_engine::msg;
use liverpool_engine::ErrorCode;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

/// A table meld number.
fn meld_arg(meld: &Bound<'_, PyAny>, what: &str) -> PyResult<usize> {
    uint_arg(meld)
        .and_then(|m| usize::try_from(m).ok())
        .ok_or_else(|| invalid_argument(msg!("arg.meld_number", what = what, meld = meld)))
}

fn end_name(end: Option<End>) -> Option<&'static str> {
    end.map(|e| match e {
        End::Low => "low",
        End::High => "high",
    })
}

/// One decision of one seat: the steps of CONFORMANCE.md. Frozen and hashable.
/// Build with the constructors (`Action.discard("8♦")`, `Action.go_down([...])`, …)
/// or from the step dict: `Action.from_dict({"do": "discard", "card": "8♦"})`.
#[pyclass(name = "Action", module = "liverpool._core", frozen, eq, hash, ord)]
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PyAction {
    pub action: Action,
}

impl From<Action> for PyAction {
    fn from(action: Action) -> Self {
        PyAction { action }
    }
}

/// Accept an `Action` or a step dict (`{"do": ..., ...}`).
pub fn extract_action(obj: &Bound<'_, PyAny>) -> PyResult<Action> {
    if let Ok(a) = obj.cast::<PyAction>() {
        return Ok(a.get().action.clone());
    }
    if obj.is_instance_of::<PyDict>() {
        return action_from_dict(obj);
    }
    Err(invalid_argument(msg!(
        "arg.not_an_action",
        kind = obj.get_type().name()?
    )))
}

fn action_from_dict(obj: &Bound<'_, PyAny>) -> PyResult<Action> {
    let text = py_to_json(obj, ErrorCode::InvalidArgument, msg!("what.the_action_dict"))?;
    py_result(Action::from_json(&text))
}

fn quoted(cards: &[Card]) -> String {
    let inner: Vec<String> = cards.iter().map(|c| format!("'{c}'")).collect();
    format!("[{}]", inner.join(", "))
}

fn end_suffix(end: Option<End>) -> String {
    end_name(end).map_or(String::new(), |e| format!(", end='{e}'"))
}

#[pymethods]
impl PyAction {
    /// L-2.2: the cutter lifts `size` cards (1..deck-1) and the deal follows;
    /// `None` lets the engine draw the size from the game's RNG (L-2.4).
    #[staticmethod]
    #[pyo3(signature = (size = None))]
    fn cut(size: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let size = match size {
            None => None,
            // Any int that fits is kept as is: the engine refuses it with `bad_cut`.
            Some(s) => Some(
                s.extract::<i64>()
                    .map_err(|_| invalid_argument(msg!("arg.cut_size", size = s)))?,
            ),
        };
        Ok(Action::Cut { size }.into())
    }
    /// L-5.1: the active player takes the top discard.
    #[staticmethod]
    fn take_discard() -> Self {
        Action::TakeDiscard.into()
    }
    /// L-5.1: the active player declines the top discard; the buying window opens
    /// (L-6) and, once it closes, the active player draws with `draw_stock`.
    #[staticmethod]
    fn decline_discard() -> Self {
        Action::DeclineDiscard.into()
    }
    /// L-6.2: the seat asked in the buying window (L-6.3) buys the top discard plus a
    /// penalty card.
    #[staticmethod]
    fn buy() -> Self {
        Action::Buy.into()
    }
    /// The seat asked declines to buy, or (W-7) declines the call it is offered
    /// (named `pass_`: `pass` is a keyword).
    #[staticmethod]
    fn pass_() -> Self {
        Action::Pass.into()
    }
    /// L-5.1 / L-6.5: the active player draws from the stock. While a discard is on
    /// offer this declines it: the buying window runs first and the stock card comes
    /// when it closes.
    #[staticmethod]
    fn draw_stock() -> Self {
        Action::DrawStock.into()
    }
    /// L-4.6 / L-8.1: lay the contract; `melds` is a list of card lists (runs low to high).
    #[staticmethod]
    fn go_down(melds: &Bound<'_, PyAny>) -> PyResult<Self> {
        if melds.is_instance_of::<PyString>() {
            return Err(invalid_argument(msg!("arg.go_down_string")));
        }
        let mut groups = Vec::new();
        for g in crate::cards::iter_arg(melds, "melds")? {
            groups.push(extract_cards(&g?)?);
        }
        Ok(Action::GoDown { melds: groups }.into())
    }
    /// L-5.3: add `cards` to table meld number `meld`; `end` ("low"/"high") places a joker on a run.
    #[staticmethod]
    #[pyo3(signature = (meld, cards, end = None))]
    fn lay_off(
        meld: &Bound<'_, PyAny>,
        cards: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = crate::cards::end_param)] end: Option<End>,
    ) -> PyResult<Self> {
        Ok(Action::LayOff {
            meld: meld_arg(meld, "meld")?,
            cards: extract_cards(cards)?,
            end,
        }
        .into())
    }
    /// L-7.2: put natural `card` in place of the joker of run `meld`, and lay the joker off on `to_meld`.
    #[staticmethod]
    #[pyo3(signature = (meld, card, to_meld, end = None))]
    fn swap_joker(
        meld: &Bound<'_, PyAny>,
        card: &Bound<'_, PyAny>,
        to_meld: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = crate::cards::end_param)] end: Option<End>,
    ) -> PyResult<Self> {
        Ok(Action::SwapJoker {
            meld: meld_arg(meld, "meld")?,
            card: extract_card(card)?,
            to_meld: meld_arg(to_meld, "to_meld")?,
            end,
        }
        .into())
    }
    /// L-5.5 / L-5.6: discard `card` and end the turn (going out with the last card).
    #[staticmethod]
    fn discard(card: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(Action::Discard {
            card: extract_card(card)?,
        }
        .into())
    }
    /// After a round ends, the next dealer shuffles and the next round waits for its cut.
    #[staticmethod]
    fn next_round() -> Self {
        Action::NextRound.into()
    }
    /// W-7.2: a seat that is down takes the discard on offer and lays it off on table
    /// meld `meld` at once (`end` places a joker on a run); it then discards.
    #[staticmethod]
    #[pyo3(signature = (meld, end = None))]
    fn call_liverpool(
        meld: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = crate::cards::end_param)] end: Option<End>,
    ) -> PyResult<Self> {
        Ok(Action::CallLiverpool {
            meld: meld_arg(meld, "meld")?,
            end,
        }
        .into())
    }
    /// W-7.1: the discarder, who is down, threw a card that fits a table meld: it takes
    /// the card back plus a penalty card.
    #[staticmethod]
    fn call_rummy() -> Self {
        Action::CallRummy.into()
    }
    /// An action from its CONFORMANCE.md step dict; extra keys (`seat`, `expect`,
    /// `check`) are ignored. Cards may be strings or `Card`s.
    #[staticmethod]
    fn from_dict(step: &Bound<'_, PyAny>) -> PyResult<Self> {
        if !step.is_instance_of::<PyDict>() {
            return Err(invalid_argument(msg!(
                "arg.action_dict",
                kind = step.get_type().name()?
            )));
        }
        Ok(action_from_dict(step)?.into())
    }
    /// The step dict: `{"do": "discard", "card": "8♦"}`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.action.to_json())
    }
    /// The CONFORMANCE.md name: `"discard"`, `"pass"`, …
    #[getter]
    fn name(&self) -> &'static str {
        self.action.name()
    }
    /// The cut size (`cut`), else `None`.
    #[getter]
    fn size(&self) -> Option<i64> {
        match self.action {
            Action::Cut { size } => size,
            _ => None,
        }
    }
    /// The card groups of a `go_down`, else `None`.
    #[getter]
    fn melds<'py>(&self, py: Python<'py>) -> PyResult<Option<Vec<Bound<'py, PyList>>>> {
        match &self.action {
            Action::GoDown { melds } => Ok(Some(melds.iter().map(|g| cards_to_py(py, g)).collect::<PyResult<_>>()?)),
            _ => Ok(None),
        }
    }
    /// The table meld a `lay_off`, `swap_joker` or `call_liverpool` acts on, else `None`.
    #[getter]
    fn meld(&self) -> Option<usize> {
        match self.action {
            Action::LayOff { meld, .. } | Action::SwapJoker { meld, .. } | Action::CallLiverpool { meld, .. } => {
                Some(meld)
            }
            _ => None,
        }
    }
    /// The cards of a `lay_off`, else `None`.
    #[getter]
    fn cards<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyList>>> {
        match &self.action {
            Action::LayOff { cards, .. } => Ok(Some(cards_to_py(py, cards)?)),
            _ => Ok(None),
        }
    }
    /// The card of a `discard` or `swap_joker`, else `None`.
    #[getter]
    fn card(&self) -> Option<PyCard> {
        match self.action {
            Action::Discard { card } | Action::SwapJoker { card, .. } => Some(card.into()),
            _ => None,
        }
    }
    /// Where a `swap_joker` puts the freed joker, else `None`.
    #[getter]
    fn to_meld(&self) -> Option<usize> {
        match self.action {
            Action::SwapJoker { to_meld, .. } => Some(to_meld),
            _ => None,
        }
    }
    /// `"low"` / `"high"` for a joker placed on a run, else `None`.
    #[getter]
    fn end(&self) -> Option<&'static str> {
        match self.action {
            Action::LayOff { end, .. } | Action::SwapJoker { end, .. } | Action::CallLiverpool { end, .. } => {
                end_name(end)
            }
            _ => None,
        }
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyAny>,))> {
        let from_dict = py.get_type::<PyAction>().getattr("from_dict")?;
        Ok((from_dict, (self.to_dict(py)?,)))
    }
    /// A constructor call that builds this action again, e.g. `Action.discard('8♦')`.
    fn __repr__(&self) -> String {
        match &self.action {
            Action::Cut { size: None } => "Action.cut()".into(),
            Action::Cut { size: Some(k) } => format!("Action.cut({k})"),
            Action::Pass => "Action.pass_()".into(),
            Action::GoDown { melds } => {
                let groups: Vec<String> = melds.iter().map(|g| quoted(g)).collect();
                format!("Action.go_down([{}])", groups.join(", "))
            }
            Action::LayOff { meld, cards, end } => {
                format!("Action.lay_off({meld}, {}{})", quoted(cards), end_suffix(*end))
            }
            Action::SwapJoker {
                meld,
                card,
                to_meld,
                end,
            } => {
                format!("Action.swap_joker({meld}, '{card}', {to_meld}{})", end_suffix(*end))
            }
            Action::Discard { card } => format!("Action.discard('{card}')"),
            Action::CallLiverpool { meld, end } => format!("Action.call_liverpool({meld}{})", end_suffix(*end)),
            other => format!("Action.{}()", other.name()),
        }
    }
}
