//! The game: `GameState`, `Action`, `Event`, `TableMeld` and the conformance
//! scenario runner, as thin wrappers over `liverpool_engine::game`.
//!
//! Every rule lives in the engine: this module converts arguments (seats, cards,
//! action and position dicts), calls the engine and converts results back. JSON
//! shaped values (action dicts, positions, views, events) cross the boundary as
//! the engine's own JSON text, read and written with Python's `json` module, so
//! their field names and order are exactly the engine's (CONFORMANCE.md shapes).

use crate::action::{extract_action, PyAction};
use crate::args::{players_arg, seed_arg, uint_arg};
use crate::cards::{cards_to_py, display_html, PyCard, PyMeld, PyRuleSet};
use crate::errors::{invalid_argument, py_result, to_py};
use crate::json::{json_to_py, py_to_json};
use liverpool_engine::card::Card;
use liverpool_engine::game::{self, observation_layout, Event, GameState, Phase, Position, ScenarioReport, TableMeld};
use liverpool_engine::msg;
use liverpool_engine::rules::RuleSet;
use liverpool_engine::{Error, ErrorCode};
use numpy::{IntoPyArray, PyArray1};
use pyo3::prelude::*;
use pyo3::sync::MutexExt;
use pyo3::types::{PyDict, PyList, PySlice, PyString, PyTuple};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

// ----- argument conversion -----------------------------------------------------

fn rules_arg(rules: Option<PyRef<'_, PyRuleSet>>) -> Arc<RuleSet> {
    Arc::new(rules.map(|r| r.rules.clone()).unwrap_or_default())
}

// ----- Event -------------------------------------------------------------------

/// What an applied action did (`GameState.apply` returns it): `.kind` names it
/// (`"dealt"`, `"took_discard"`, `"bought"`, `"discarded"`, …) and `.to_dict()`
/// has every detail, including `round_end` when the action ended the round.
#[pyclass(name = "Event", module = "liverpool._core", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PyEvent {
    pub event: Event,
}

#[pymethods]
impl PyEvent {
    /// The seat that acted.
    #[getter]
    fn seat(&self) -> usize {
        self.event.seat
    }
    /// The event's name, the `"event"` field of `to_dict()`.
    #[getter]
    fn kind<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.to_dict(py)?.get_item("event")
    }
    /// The round's result (scores, totals, winner…) if this action ended the round.
    #[getter]
    fn round_end<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        match &self.event.round_end {
            None => Ok(None),
            Some(_) => Ok(Some(self.to_dict(py)?.get_item("round_end")?)),
        }
    }
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.event.to_json())
    }
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let d = self.to_dict(py)?;
        let d = d.cast::<PyDict>()?;
        let mut parts = Vec::new();
        for (k, v) in d.iter() {
            parts.push(format!("{}={}", k.str()?, v.repr()?));
        }
        Ok(format!("Event({})", parts.join(", ")))
    }
}

// ----- TableMeld ---------------------------------------------------------------

/// A meld on the table and the seat that laid it (L-4.6).
#[pyclass(name = "TableMeld", module = "liverpool._core", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PyTableMeld {
    pub table_meld: TableMeld,
}

#[pymethods]
impl PyTableMeld {
    #[getter]
    fn owner(&self) -> usize {
        self.table_meld.owner
    }
    #[getter]
    fn meld(&self) -> PyMeld {
        PyMeld {
            meld: self.table_meld.meld.clone(),
        }
    }
    /// Rich display in notebooks: the HTML comes from `liverpool.teach.display.table_meld_html`.
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        display_html(slf.as_any(), "table_meld_html")
    }
    fn __repr__(&self) -> String {
        let kind = if self.table_meld.meld.is_set() { "set" } else { "run" };
        format!(
            "TableMeld(owner={}, meld=Meld.{kind}('{}'))",
            self.table_meld.owner, self.table_meld.meld
        )
    }
}

// ----- GameState ---------------------------------------------------------------

/// The whole state of a game (RULES.md profile L by default; any `RuleSet`).
///
/// `GameState(seed, players, rules)` starts a game waiting for round 1's cut; the
/// first dealer and every shuffle come from `seed`. Act with `apply(seat, action)`;
/// a refused action raises `IllegalMoveError` (with `.code` and `.rule`) and
/// leaves the state exactly as it was.
///
/// Threads (docs/guarantees.md): the state sits behind a mutex, not PyO3's borrow
/// flag, so any method may be called from any thread at any time. A call that finds
/// the state in use by another thread waits for it with the GIL released (it never
/// fails with "Already borrowed"); each method sees and leaves a whole state.
#[pyclass(name = "GameState", module = "liverpool._core", frozen)]
pub struct PyGameState {
    state: Mutex<GameState>,
    /// The table size never changes for a state object: seat arguments are checked
    /// against it without taking the lock.
    players: usize,
}

impl From<GameState> for PyGameState {
    fn from(state: GameState) -> Self {
        let players = state.players();
        PyGameState {
            state: Mutex::new(state),
            players,
        }
    }
}

impl PyGameState {
    /// The state, locked for this thread. Waiting for another thread's call happens
    /// with the GIL released (`lock_py_attached`), so the holder, which may itself
    /// have released the GIL to compute, can always finish. Nothing run under the
    /// lock calls back into Python code that could reach this object again.
    pub fn lock(&self, py: Python<'_>) -> MutexGuard<'_, GameState> {
        // A poisoned lock means a panic under it, which the FFI boundary turned into
        // an exception; every engine call validates before it changes the state, so
        // the state is still whole.
        self.state.lock_py_attached(py).unwrap_or_else(PoisonError::into_inner)
    }

    /// `f` on the locked state.
    fn read<T>(&self, py: Python<'_>, f: impl FnOnce(&GameState) -> T) -> T {
        f(&self.lock(py))
    }

    /// A copy of the state (for work that must not hold the lock, such as a search).
    pub fn snapshot(&self, py: Python<'_>) -> GameState {
        self.lock(py).clone()
    }

    /// A seat argument: an index below the table size (checked without the lock).
    fn seat(&self, seat: &Bound<'_, PyAny>) -> PyResult<usize> {
        let players = self.players;
        uint_arg(seat)
            .and_then(|s| usize::try_from(s).ok())
            .filter(|&s| s < players)
            .ok_or_else(|| invalid_argument(msg!("arg.seat", seat = seat, players = players)))
    }
}

fn position_from_py(pos: &Bound<'_, PyAny>) -> PyResult<Position> {
    let text = match pos.cast::<PyString>() {
        Ok(s) => s.to_str().map(str::to_owned).map_err(|e| {
            to_py(Error::with(
                ErrorCode::BadPosition,
                None,
                msg!(
                    "arg.not_json",
                    what = msg!("what.the_position"),
                    error = e.value(pos.py())
                ),
            ))
        })?,
        Err(_) => py_to_json(pos, ErrorCode::BadPosition, msg!("what.the_position"))?,
    };
    py_result(Position::from_json(&text))
}

#[pymethods]
impl PyGameState {
    /// A new game: the first dealer by lot (L-2.1) and the shuffled deck, both from
    /// `seed`; `players` defaults to the rule set's default (4 in profile L).
    #[new]
    #[pyo3(signature = (seed = None, players = None, rules = None))]
    fn new(
        seed: Option<&Bound<'_, PyAny>>,
        players: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = crate::cards::rules_param)] rules: Option<PyRef<'_, PyRuleSet>>,
    ) -> PyResult<Self> {
        let seed = seed.map(seed_arg).transpose()?.unwrap_or(0);
        let rules = rules_arg(rules);
        let players = players_arg(players, &rules)? as usize;
        Ok(py_result(GameState::new(rules, players, seed))?.into())
    }

    /// The game `GameState(seed, players, rules)` reaches after `actions`, a list of
    /// `(seat, action)` pairs (actions may be `Action`s or step dicts). A refused
    /// action raises its error, naming its index.
    #[staticmethod]
    #[pyo3(signature = (seed, actions, players = None, rules = None))]
    fn replay(
        seed: &Bound<'_, PyAny>,
        actions: &Bound<'_, PyAny>,
        players: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = crate::cards::rules_param)] rules: Option<PyRef<'_, PyRuleSet>>,
    ) -> PyResult<Self> {
        let seed = seed_arg(seed)?;
        let rules = rules_arg(rules);
        let players = players_arg(players, &rules)? as usize;
        let mut steps = Vec::new();
        for (i, item) in crate::cards::iter_arg(actions, "actions")?.enumerate() {
            let item = item?;
            let pair = item
                .cast::<PyTuple>()
                .ok()
                .filter(|t| t.len() == 2)
                .ok_or_else(|| invalid_argument(msg!("arg.replay_pair", index = i, item = &item)))?;
            let seat_obj = pair.get_item(0)?;
            let seat = uint_arg(&seat_obj)
                .and_then(|s| usize::try_from(s).ok())
                .ok_or_else(|| invalid_argument(msg!("arg.replay_seat", index = i, seat = &seat_obj)))?;
            steps.push((seat, extract_action(&pair.get_item(1)?)?));
        }
        Ok(py_result(GameState::replay(rules, players, seed, &steps))?.into())
    }

    /// The state a CONFORMANCE.md position describes (JSON text or a dict).
    /// `rules`: explicit rules instead of the position's `profile`. A malformed or
    /// inconsistent position raises `PositionError` (`bad_position`).
    #[staticmethod]
    #[pyo3(signature = (position, rules = None))]
    fn from_position(
        position: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = crate::cards::rules_param)] rules: Option<PyRef<'_, PyRuleSet>>,
    ) -> PyResult<Self> {
        let pos = position_from_py(position)?;
        let state = match rules {
            None => GameState::from_position(&pos),
            Some(r) => GameState::from_position_with_rules(&pos, Arc::new(r.rules.clone())),
        };
        Ok(py_result(state)?.into())
    }

    /// The position of this state as a dict (CONFORMANCE.md "Position" plus the
    /// extension fields that make it exact, RNG included; not the history).
    fn to_position<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = self.read(py, |s| s.to_position().to_json());
        json_to_py(py, &text)
    }

    /// Read a state written by `to_json` (`PositionError` if it is not one).
    #[staticmethod]
    fn from_json(#[pyo3(from_py_with = crate::cards::text_param)] text: String) -> PyResult<Self> {
        let text = text.as_str();
        Ok(py_result(GameState::from_json(text))?.into())
    }

    /// The whole state as JSON: rules, exact position (RNG included) and history.
    /// `GameState.from_json(g.to_json()) == g`.
    fn to_json(&self, py: Python<'_>) -> String {
        self.read(py, GameState::to_json)
    }

    /// An independent copy (history included).
    fn clone(&self, py: Python<'_>) -> Self {
        self.snapshot(py).into()
    }
    fn __copy__(&self, py: Python<'_>) -> Self {
        self.clone(py)
    }
    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone(py)
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let from_json = py.get_type::<PyGameState>().getattr("from_json")?;
        Ok((from_json, (self.to_json(py),)))
    }
    /// Two states are equal when every field, the RNG and the history are.
    fn __eq__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let py = slf.py();
        let Ok(other) = other.cast::<PyGameState>() else {
            return Ok(py.NotImplemented());
        };
        if slf.is(other) {
            return Ok(true.into_pyobject(py)?.to_owned().into_any().unbind());
        }
        // One lock at a time: two threads comparing a == b and b == a never wait on
        // each other.
        let mine = slf.get().snapshot(py);
        let equal = other.get().read(py, |theirs| mine == *theirs);
        Ok(equal.into_pyobject(py)?.to_owned().into_any().unbind())
    }
    /// Rich display in notebooks: the HTML comes from `liverpool.teach.display.state_html`.
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        display_html(slf.as_any(), "state_html")
    }
    fn __repr__(&self, py: Python<'_>) -> String {
        self.read(py, |state| {
            format!(
                "GameState(round={}, phase='{}', active={}, to_act={}, hand_sizes={:?})",
                state.round(),
                state.phase().name(),
                state.active(),
                state.to_act().map_or("None".into(), |s| s.to_string()),
                state.hand_sizes()
            )
        })
    }

    // ----- reading the state -----

    /// 1-based round number.
    #[getter]
    fn round(&self, py: Python<'_>) -> u8 {
        self.read(py, GameState::round)
    }
    #[getter]
    fn dealer(&self, py: Python<'_>) -> usize {
        self.read(py, GameState::dealer)
    }
    /// L-2.2: the dealer's right neighbour, who cuts.
    #[getter]
    fn cutter(&self, py: Python<'_>) -> usize {
        self.read(py, GameState::cutter)
    }
    /// The seat whose turn it is.
    #[getter]
    fn active(&self, py: Python<'_>) -> usize {
        self.read(py, GameState::active)
    }
    /// `"cut"`, `"draw"`, `"buying"`, `"calling"` (W-7), `"call_discard"` (W-7.2),
    /// `"play"`, `"round_over"` or `"game_over"`.
    #[getter]
    fn phase(&self, py: Python<'_>) -> &'static str {
        self.read(py, |s| s.phase().name())
    }
    /// The active player declined the top discard this turn (in `draw`: only
    /// `draw_stock` is left; in `buying`: the window is open).
    #[getter]
    fn declined(&self, py: Python<'_>) -> bool {
        self.read(py, |s| {
            matches!(s.phase(), Phase::Draw { declined: true } | Phase::Buying(_))
        })
    }
    /// L-5.1: the active player drew from the stock while the discard was on offer;
    /// its stock card comes when the open buying window closes.
    #[getter]
    fn draw_pending(&self, py: Python<'_>) -> bool {
        self.read(py, |s| s.buy_window().is_some_and(|w| w.draw_after))
    }
    /// W-7: the call offered on the top discard now (`"rummy"` or `"liverpool"`),
    /// with the seat that discarded it; `None` outside a call offer.
    #[getter]
    fn call_offer(&self, py: Python<'_>) -> Option<(&'static str, usize)> {
        self.read(py, |s| match s.phase() {
            Phase::Calling(w) => Some((w.kind.name(), w.discarder as usize)),
            _ => None,
        })
    }
    /// The seat whose decision the engine waits for (in the buying window or a W-7
    /// call offer: the next seat asked); `None` only at game over.
    #[getter]
    fn to_act(&self, py: Python<'_>) -> Option<usize> {
        self.read(py, GameState::to_act)
    }
    #[getter]
    fn players(&self) -> usize {
        self.players
    }
    #[getter]
    fn rules(&self, py: Python<'_>) -> PyRuleSet {
        PyRuleSet {
            rules: self.read(py, |s| s.rules().clone()),
        }
    }
    /// This round's contract, e.g. `"2 sets"` (L-3).
    #[getter]
    fn contract(&self, py: Python<'_>) -> String {
        self.read(py, |s| s.rules().describe_contract(&s.contract()))
    }
    /// Every hand (cards in id order, jokers last). Hidden information: bots see `view(seat)`.
    #[getter]
    fn hands<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyList>>> {
        let hands: Vec<Vec<Card>> = self.read(py, |s| (0..s.players()).map(|seat| s.hand_cards(seat)).collect());
        hands.iter().map(|h| cards_to_py(py, h)).collect()
    }
    /// One seat's hand.
    fn hand<'py>(&self, py: Python<'py>, seat: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        let seat = self.seat(seat)?;
        let hand = self.read(py, |s| s.hand_cards(seat));
        cards_to_py(py, &hand)
    }
    #[getter]
    fn hand_sizes(&self, py: Python<'_>) -> Vec<usize> {
        self.read(py, GameState::hand_sizes)
    }
    /// The stock, top card first. Hidden information (tests, analysis).
    #[getter]
    fn stock<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let top_first: Vec<Card> = self.read(py, |s| s.stock().iter().rev().copied().collect());
        cards_to_py(py, &top_first)
    }
    #[getter]
    fn stock_size(&self, py: Python<'_>) -> usize {
        self.read(py, |s| s.stock().len())
    }
    /// The discard pile, bottom first (the top card last).
    #[getter]
    fn discard<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let pile = self.read(py, |s| s.discard_pile().to_vec());
        cards_to_py(py, &pile)
    }
    #[getter]
    fn discard_top(&self, py: Python<'_>) -> Option<PyCard> {
        self.read(py, |s| s.discard_top().map(PyCard::from))
    }
    /// The table melds, numbered in the order they were laid.
    #[getter]
    fn table(&self, py: Python<'_>) -> Vec<PyTableMeld> {
        self.read(py, |s| {
            s.table()
                .iter()
                .map(|m| PyTableMeld { table_meld: m.clone() })
                .collect()
        })
    }
    /// Per seat: has gone down this round.
    #[getter]
    fn down(&self, py: Python<'_>) -> Vec<bool> {
        self.read(py, GameState::down_flags)
    }
    /// The active player went down during the current turn (L-5.3).
    #[getter]
    fn down_this_turn(&self, py: Python<'_>) -> bool {
        self.read(py, GameState::down_this_turn)
    }
    /// Buys made this round, per seat.
    #[getter]
    fn buys(&self, py: Python<'_>) -> Vec<u32> {
        self.read(py, |s| s.buys().iter().map(|&b| b as u32).collect())
    }
    /// Totals of the finished rounds (including this round once it is over).
    #[getter]
    fn totals(&self, py: Python<'_>) -> Vec<i32> {
        self.read(py, GameState::totals)
    }
    /// W-9: points charged to each seat this round for failed go-down attempts.
    #[getter]
    fn penalties(&self, py: Python<'_>) -> Vec<i32> {
        self.read(py, GameState::penalties)
    }
    /// This round's scores (cut bonus included) once it is over, else `None`.
    #[getter]
    fn round_scores(&self, py: Python<'_>) -> Option<Vec<i32>> {
        self.read(py, GameState::round_scores)
    }
    /// L-2.3: the seat that earned this round's cut bonus.
    #[getter]
    fn cut_bonus(&self, py: Python<'_>) -> Option<usize> {
        self.read(py, GameState::cut_bonus)
    }
    /// Turns completed this round.
    #[getter]
    fn turn(&self, py: Python<'_>) -> u32 {
        self.read(py, GameState::turn)
    }
    /// The seat that went out this round, once it has; `None` otherwise.
    #[getter]
    fn went_out(&self, py: Python<'_>) -> Option<usize> {
        self.read(py, GameState::went_out)
    }
    #[getter]
    fn is_round_over(&self, py: Python<'_>) -> bool {
        self.read(py, GameState::is_round_over)
    }
    #[getter]
    fn is_game_over(&self, py: Python<'_>) -> bool {
        self.read(py, GameState::is_game_over)
    }
    /// L-10.3: at game over, the seat(s) with the lowest total; empty before.
    #[getter]
    fn winners(&self, py: Python<'_>) -> Vec<usize> {
        self.read(py, GameState::winners)
    }
    /// The number of applied actions: `len(history)` without building the list.
    #[getter]
    fn history_len(&self, py: Python<'_>) -> usize {
        self.read(py, |s| s.history_len())
    }
    /// Every applied `(seat, action)`, in order.
    #[getter]
    fn history(&self, py: Python<'_>) -> Vec<(usize, PyAction)> {
        self.read(py, |s| {
            s.history().into_iter().map(|(seat, a)| (seat, a.into())).collect()
        })
    }

    // ----- acting -----

    /// The legal actions of `seat` (default: `to_act`), sorted; empty when the
    /// engine does not wait for that seat.
    #[pyo3(signature = (seat = None))]
    fn legal_actions(&self, py: Python<'_>, seat: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<PyAction>> {
        let seat = seat.map(|s| self.seat(s)).transpose()?;
        // Computed under the lock with the GIL released: other threads wait for the
        // state (they do not fail), and every other Python thread runs meanwhile.
        let state = self.lock(py);
        let state = &*state;
        let actions = py.detach(|| state.legal_actions(seat));
        Ok(actions.into_iter().map(PyAction::from).collect())
    }

    /// The expert bot's suggested move for `seat` (default: `to_act`) and why, read
    /// from that seat's view only: a `Hint`. `budget`: determinizations (default:
    /// the expert's); `seed`: the expert's seed.
    #[pyo3(signature = (seat = None, budget = None, seed = None))]
    fn hint(
        &self,
        py: Python<'_>,
        seat: Option<&Bound<'_, PyAny>>,
        budget: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<crate::hint::PyHint> {
        // The expert may think for a while: it works on a copy, and the state stays
        // free for other threads meanwhile.
        let state = self.snapshot(py);
        crate::hint::hint(py, &state, seat, budget, seed)
    }

    /// Raise the typed error that refuses `action` by `seat` now; `None` if it is legal.
    fn check(&self, py: Python<'_>, seat: &Bound<'_, PyAny>, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let seat = self.seat(seat)?;
        let action = extract_action(action)?;
        py_result(self.read(py, |s| s.check(seat, &action)))
    }

    /// Whether `seat` may do `action` now.
    fn can(&self, py: Python<'_>, seat: &Bound<'_, PyAny>, action: &Bound<'_, PyAny>) -> PyResult<bool> {
        let seat = self.seat(seat)?;
        let action = extract_action(action)?;
        Ok(self.read(py, |s| s.can(seat, &action)))
    }

    /// Apply `action` (an `Action` or a step dict) by `seat` and return the `Event`.
    /// A refused action raises `IllegalMoveError` and changes nothing (but for W-9:
    /// a refused go-down attempt is charged its penalty, and the message says so).
    fn apply(&self, py: Python<'_>, seat: &Bound<'_, PyAny>, action: &Bound<'_, PyAny>) -> PyResult<PyEvent> {
        let seat = self.seat(seat)?;
        let action = extract_action(action)?;
        let event = self.lock(py).apply(seat, &action);
        Ok(PyEvent {
            event: py_result(event)?,
        })
    }

    /// Apply one scenario step as the conformance runner does, and return the events
    /// of every action it stood for. The CONFORMANCE.md shorthands are expanded:
    /// `draw_stock` by the active player passes every seat still to answer a buying
    /// window or call offer and then draws; a `buy` or call by a seat the engine does
    /// not ask yet passes every seat asked before it. Atomic: if the last action is
    /// refused, nothing is kept and its error is raised. The engine itself (`apply`)
    /// never decides for a seat.
    fn apply_step(&self, py: Python<'_>, seat: &Bound<'_, PyAny>, action: &Bound<'_, PyAny>) -> PyResult<Vec<PyEvent>> {
        let seat = self.seat(seat)?;
        let action = extract_action(action)?;
        let events = game::apply_step(&mut self.lock(py), seat, &action);
        Ok(py_result(events)?.into_iter().map(|event| PyEvent { event }).collect())
    }

    // ----- views -----

    /// What `seat` may see, as a dict: its own hand, the other hands as sizes, the
    /// stock as its size, the discard pile, the table, scores.
    fn view<'py>(&self, py: Python<'py>, seat: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let seat = self.seat(seat)?;
        let text = py_result(self.read(py, |s| s.view(seat).map(|v| v.to_json())))?;
        json_to_py(py, &text)
    }

    /// A text that is equal for two states exactly when `seat` cannot tell them apart.
    fn information_state_string(&self, py: Python<'_>, seat: &Bound<'_, PyAny>) -> PyResult<String> {
        let seat = self.seat(seat)?;
        py_result(self.read(py, |s| s.information_state_string(seat)))
    }

    /// `seat`'s observation as a 1-D float32 array; blocks as in `observation_layout()`.
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        seat: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let seat = self.seat(seat)?;
        Ok(py_result(self.read(py, |s| s.observation_tensor(seat)))?.into_pyarray(py))
    }

    /// A new game state for `seat` to think with: everything `seat` knows (its own
    /// hand, the discard pile, the table, every hand's size, the stock's size, buys,
    /// scores, the phase), with the cards it cannot see (the other hands, the stock)
    /// dealt at random from `seed` around the cards the public history says each seat
    /// holds, a fresh RNG and no history. What `liverpool.agents.bots.play_game` hands a
    /// Python bot: its legal actions there are those of the real game, and nothing in
    /// it tells more than `seat` may know (docs/agents.md).
    #[pyo3(signature = (seat, seed = None))]
    fn sample_for(&self, py: Python<'_>, seat: &Bound<'_, PyAny>, seed: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let seat = self.seat(seat)?;
        let seed = seed.map(seed_arg).transpose()?.unwrap_or(0);
        let info = self.read(py, |s| s.info_set(seat));
        let mut rng = liverpool_engine::rng::Rng::from_seed(seed);
        Ok(py.detach(|| info.sample(&mut rng)).into())
    }

    // ----- the action space (docs/action-space.md) -----

    /// The number of action ids of this game's rule set and player count.
    #[getter]
    fn action_space_size(&self, py: Python<'_>) -> usize {
        self.read(py, |s| s.action_space().size)
    }

    /// The blocks of the action space, in id order, as `name -> slice`.
    fn action_layout<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let space = self.read(py, GameState::action_space);
        crate::action_space::layout_dict(py, &space)
    }

    /// One flag per action id: the legal moves of `seat` (default: `to_act`); all
    /// false when the engine does not wait for that seat.
    #[pyo3(signature = (seat = None))]
    fn legal_action_mask<'py>(
        &self,
        py: Python<'py>,
        seat: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let seat = seat.map(|s| self.seat(s)).transpose()?;
        // As `legal_actions`: under the lock, GIL released; other threads wait.
        let state = self.lock(py);
        let state = &*state;
        let mask = py.detach(|| state.legal_action_mask(seat));
        Ok(mask.into_pyarray(py))
    }

    /// The one id of `action` now: the engine's error for a move it refuses;
    /// `invalid_action_id` (`action_id.several`) for a move of several ids (a swap, a
    /// go-down: see `action_ids`).
    fn action_id(&self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<usize> {
        let action = extract_action(action)?;
        py_result(self.read(py, |s| s.action_id(&action)))
    }

    /// The ids of `action` now, in the order `apply_id` takes them (one for most
    /// moves, two for a joker swap, `2 + cards + melds` for a go-down).
    fn action_ids(&self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<Vec<usize>> {
        let action = extract_action(action)?;
        py_result(self.read(py, |s| s.action_ids(&action)))
    }

    /// The move `action_id` completes now (`action_id.partial` when it only starts
    /// or continues one).
    fn action_from_id(&self, py: Python<'_>, action_id: &Bound<'_, PyAny>) -> PyResult<PyAction> {
        // Arguments are converted before the lock is taken (no Python code under it).
        let id = crate::args::action_id_arg(action_id)?;
        Ok(py_result(self.read(py, |s| s.action_from_id(id)))?.into())
    }

    /// The move a whole sequence of ids names (in any state).
    fn action_from_ids(&self, py: Python<'_>, action_ids: &Bound<'_, PyAny>) -> PyResult<PyAction> {
        let ids = crate::args::action_ids_arg(action_ids)?;
        Ok(py_result(self.read(py, |s| s.action_from_ids(&ids)))?.into())
    }

    /// The ids chosen so far of a move being chosen id by id (empty when none is).
    #[getter]
    fn selection_ids(&self, py: Python<'_>) -> Vec<usize> {
        self.read(py, |s| s.selection_ids())
    }

    /// Apply the id by `seat`: the event of the move it completes, or `None` when it
    /// only chose part of a move. Exactly the ids of `legal_action_mask(seat)` are
    /// accepted; a refused id changes nothing.
    fn apply_id(
        &self,
        py: Python<'_>,
        seat: &Bound<'_, PyAny>,
        action_id: &Bound<'_, PyAny>,
    ) -> PyResult<Option<PyEvent>> {
        let seat = self.seat(seat)?;
        let id = crate::args::action_id_arg(action_id)?;
        let event = self.lock(py).apply_id(seat, id);
        Ok(py_result(event)?.map(|event| PyEvent { event }))
    }

    /// The blocks of `observation_tensor`, in order, as `name -> slice`: card blocks
    /// are counts per card id (53 entries), seat blocks are relative to the observer.
    fn observation_layout<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let rounds = self.read(py, |s| s.rules().rounds() as usize);
        let lay = observation_layout(self.players, rounds);
        let starts = [
            ("hand", lay.hand),
            ("discard_top", lay.discard_top),
            ("discard_pile", lay.discard_pile),
            ("table", lay.table),
            ("hand_sizes", lay.hand_sizes),
            ("down", lay.down),
            ("active", lay.active),
            ("to_act", lay.to_act),
            ("phase", lay.phase),
            ("flags", lay.flags),
            ("round", lay.round),
            ("stock_size", lay.stock_size),
            ("selected", lay.selected),
            ("selected_meld", lay.selected_meld),
            ("selecting", lay.selecting),
        ];
        let d = PyDict::new(py);
        for (i, (name, start)) in starts.iter().enumerate() {
            let stop = starts.get(i + 1).map_or(lay.size, |next| next.1);
            d.set_item(*name, PySlice::new(py, *start as isize, stop as isize, 1))?;
        }
        Ok(d)
    }
}

// ----- scenarios ---------------------------------------------------------------

/// The outcome of one conformance scenario (CONFORMANCE.md "Runner").
#[pyclass(name = "ScenarioReport", module = "liverpool._core", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PyScenarioReport {
    pub report: ScenarioReport,
}

#[pymethods]
impl PyScenarioReport {
    /// A report made by hand (the runner makes the others): failed when `message` is given.
    #[new]
    #[pyo3(signature = (id, message = None, path = None))]
    fn new(id: String, message: Option<String>, path: Option<PathBuf>) -> Self {
        PyScenarioReport {
            report: ScenarioReport {
                id,
                path,
                failure: message,
                steps_run: 0,
            },
        }
    }
    /// The scenario's `id` (the file name when it has none or cannot be read).
    #[getter]
    fn id(&self) -> &str {
        &self.report.id
    }
    #[getter]
    fn passed(&self) -> bool {
        self.report.passed()
    }
    /// What differed (`step N: …`), or `None` when it passed.
    #[getter]
    fn message(&self) -> Option<&str> {
        self.report.failure.as_deref()
    }
    /// The file it came from, if any.
    #[getter]
    fn path(&self) -> Option<PathBuf> {
        self.report.path.clone()
    }
    /// Steps run, up to and including a failing one.
    #[getter]
    fn steps_run(&self) -> usize {
        self.report.steps_run
    }
    /// `PASS id` or `FAIL id: step N: what differed`.
    #[getter]
    fn line(&self) -> String {
        self.report.line()
    }
    fn __repr__(&self) -> String {
        format!("ScenarioReport({:?})", self.report.line())
    }
}

/// Run one scenario file; an unreadable or invalid file is a failed report.
/// `rules`: the rule set of a scenario that carries no `"rule_set"` of its own
/// (instead of its position's `profile`).
#[pyfunction]
#[pyo3(signature = (path, rules = None))]
fn run_scenario_file(
    py: Python<'_>,
    path: PathBuf,
    #[pyo3(from_py_with = crate::cards::rules_param)] rules: Option<PyRef<'_, crate::cards::PyRuleSet>>,
) -> PyScenarioReport {
    let rules = rules.map(|r| std::sync::Arc::new(r.rules.clone()));
    PyScenarioReport {
        report: py.detach(|| game::run_file_with(&path, rules.as_ref())),
    }
}

/// Run one scenario given as JSON text (`rules` as for `run_scenario_file`).
#[pyfunction]
#[pyo3(signature = (text, rules = None))]
fn run_scenario_text(
    py: Python<'_>,
    #[pyo3(from_py_with = crate::cards::text_param)] text: String,
    #[pyo3(from_py_with = crate::cards::rules_param)] rules: Option<PyRef<'_, crate::cards::PyRuleSet>>,
) -> PyScenarioReport {
    let text = text.as_str();
    let rules = rules.map(|r| std::sync::Arc::new(r.rules.clone()));
    PyScenarioReport {
        report: py.detach(|| game::run_scenario_with(text, rules.as_ref())),
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyAction>()?;
    m.add_class::<PyEvent>()?;
    m.add_class::<PyTableMeld>()?;
    m.add_class::<PyGameState>()?;
    m.add_class::<PyScenarioReport>()?;
    m.add_function(wrap_pyfunction!(run_scenario_file, m)?)?;
    m.add_function(wrap_pyfunction!(run_scenario_text, m)?)?;
    Ok(())
}
