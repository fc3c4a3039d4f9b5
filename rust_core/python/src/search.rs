//! Contract search (RULES.md L-3, L-4, L-8): converts arguments and delegates to
//! `liverpool_engine::search`. Batches release the GIL and run in parallel; single
//! calls are short enough (about a microsecond) to keep it.

use crate::args::{int_arg, players_arg, round_arg, threads_arg};
use crate::cards::{cards_to_py, display_html, extract_cards, PyCard, PyMeld, PyRuleSet};
use crate::errors::{invalid_argument, py_result};
use liverpool_engine::card::{format_cards, CardCounts};
use liverpool_engine::msg;
use liverpool_engine::rules::{Contract, RuleSet};
use liverpool_engine::search::{self, Arrangement, GoDown, PAD};

use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyList;

/// One way to lay a round's contract: `melds` (sets, then runs, each in canonical
/// order), the cards `left` in hand and their `points_left` (L-10.1).
///
/// Conventions: card ids are `suit * 13 + rank - 1` with suits ♠ ♥ ♦ ♣ and A = 1 …
/// K = 13, the joker 52; a set's cards are sorted by id (jokers last), a run's low to
/// high with each joker where it stands; the melds are the sets by card-id tuple,
/// then the runs by card-id tuple. With wild cards (C-8 California) the search reads
/// every wild card as a joker and then gives the melds the hand's wild cards in id
/// order, reading the melds in order; the rest stay in `left`.
#[pyclass(name = "GoDown", module = "liverpool._core", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PyGoDown {
    pub go_down: GoDown,
}

#[pymethods]
impl PyGoDown {
    /// The melds: sets first, then runs, each group sorted by card-id tuples; a run's
    /// cards low to high (its `span` runs 1..14, 14 for a high ace).
    #[getter]
    fn melds(&self) -> Vec<PyMeld> {
        self.go_down.melds.iter().map(|m| PyMeld { meld: m.clone() }).collect()
    }
    /// The cards that stay in hand, in card-id order (♠ A..K, ♥, ♦, ♣, then jokers).
    #[getter]
    fn left<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        cards_to_py(py, &self.go_down.left.to_cards())
    }
    /// Points of the cards left in hand.
    #[getter]
    fn points_left(&self) -> u32 {
        self.go_down.points_left
    }
    /// Rich display in notebooks: the HTML comes from `liverpool.teach.display.go_down_html`.
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        display_html(slf.as_any(), "go_down_html")
    }
    fn __repr__(&self) -> String {
        format!(
            "GoDown(melds={}, left='{}', points_left={})",
            melds_repr(&self.go_down.melds),
            format_cards(&self.go_down.left.to_cards()),
            self.go_down.points_left
        )
    }
}

/// Melds of any number and length, with no contract, and the `deadwood` they leave
/// (its `points`): what a hand would score if it had to be laid out now.
#[pyclass(name = "Arrangement", module = "liverpool._core", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PyArrangement {
    pub arrangement: Arrangement,
}

#[pymethods]
impl PyArrangement {
    /// The melds: sets first, then runs, each group sorted by card ids.
    #[getter]
    fn melds(&self) -> Vec<PyMeld> {
        self.arrangement
            .melds
            .iter()
            .map(|m| PyMeld { meld: m.clone() })
            .collect()
    }
    /// The cards in no meld, in card-id order (♠ A..K, ♥, ♦, ♣, then jokers).
    #[getter]
    fn deadwood<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        cards_to_py(py, &self.arrangement.deadwood.to_cards())
    }
    /// Points of the deadwood.
    #[getter]
    fn points(&self) -> u32 {
        self.arrangement.points
    }
    /// Rich display in notebooks: the HTML comes from `liverpool.teach.display.arrangement_html`.
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        display_html(slf.as_any(), "arrangement_html")
    }
    fn __repr__(&self) -> String {
        format!(
            "Arrangement(melds={}, deadwood='{}', points={})",
            melds_repr(&self.arrangement.melds),
            format_cards(&self.arrangement.deadwood.to_cards()),
            self.arrangement.points
        )
    }
}

fn melds_repr(melds: &[liverpool_engine::Meld]) -> String {
    let parts: Vec<String> = melds.iter().map(|m| format!("'{m}'")).collect();
    format!("[{}]", parts.join(", "))
}

// ---------------------------------------------------------------------------------
// Argument conversion

/// The rule set passed in, or profile L built once (single calls stay cheap).
fn rules_ref<'a>(rules: &'a Option<PyRef<'_, PyRuleSet>>) -> &'a RuleSet {
    static DEFAULT: PyOnceLock<RuleSet> = PyOnceLock::new();
    match rules {
        Some(r) => &r.rules,
        None => Python::attach(|py| DEFAULT.get_or_init(py, RuleSet::liverpool)),
    }
}

/// The contract of a round; any integer outside the rule set's rounds is `invalid_round`.
fn contract_of(round: &Bound<'_, PyAny>, rules: &RuleSet) -> PyResult<Contract> {
    py_result(rules.contract_for(round_arg(round, rules)?))
}

/// Cards as a multiset, refused if the deck for `players` could not hold them
/// (`too_many_copies`, or `no_jokers_in_profile` for a joker in a joker-free deck).
fn counts_of(
    cards: &Bound<'_, PyAny>,
    rules: &RuleSet,
    players: u8,
    what: liverpool_engine::Message,
) -> PyResult<CardCounts> {
    let cards = extract_cards(cards).map_err(|e| {
        // Not iterable at all (a float, None...): say so with a stable code.
        if e.is_instance_of::<PyTypeError>(cards.py()) {
            invalid_argument(msg!("arg.cards", what = what.clone(), value = cards))
        } else {
            e
        }
    })?;
    let mut counts = [0u32; 53];
    for c in &cards {
        counts[c.id() as usize] += 1;
    }
    // The real counts in the message (never clamped); a hand that passes fits a byte.
    py_result(rules.check_copies_wide(&counts, players, what))?;
    Ok(CardCounts(counts.map(|n| n as u8)))
}

/// A hand checked against the largest deck the rule set can have (its `max_players`):
/// refused only if no table of this profile could deal it.
fn hand_of(hand: &Bound<'_, PyAny>, rules: &RuleSet) -> PyResult<CardCounts> {
    counts_of(hand, rules, rules.max_players, msg!("what.the_hand"))
}

/// A 2-D uint8 array of card ids as (row-major bytes, row width). A `(n, 0)` array
/// becomes `n` rows holding one pad each, so that every row still gets a result.
fn batch_of(hands: &Bound<'_, PyAny>) -> PyResult<(Vec<u8>, usize)> {
    let Ok(array) = hands.cast::<PyArray2<u8>>() else {
        let what = match hands
            .getattr("dtype")
            .and_then(|d| Ok((d.str()?.to_string(), hands.getattr("ndim")?.to_string())))
        {
            Ok((dtype, ndim)) => msg!("arg.array_kind", ndim = ndim, dtype = dtype),
            Err(_) => msg!("arg.object_kind", kind = hands.get_type().name()?),
        };
        return Err(invalid_argument(msg!("arg.hands_array", what = what)));
    };
    let readonly = array.readonly();
    let (rows, width) = (readonly.shape()[0], readonly.shape()[1]);
    if width == 0 {
        return Ok((vec![PAD; rows], 1));
    }
    // ndarray hands out a slice only for row-major (C) layout; a Fortran-ordered or
    // strided array is read element by element, in row order.
    let view = readonly.as_array();
    let bytes = match view.as_slice() {
        Some(slice) => slice.to_vec(),
        None => view.iter().copied().collect(),
    };
    Ok((bytes, width))
}

// ---------------------------------------------------------------------------------
// Single calls

/// Does `hand` hold the contract of `round` (L-3; round 7: the whole hand, L-8)?
///
/// >>> from liverpool import has_contract
/// >>> has_contract("7♠ 7♥ 7♦ 9♠ 9♥ 9♦ 3♣", round=1)
/// True
/// >>> has_contract("7♠ 7♥ 9♠ 9♥ 9♦ 3♣", round=1)
/// False
#[pyfunction]
#[pyo3(signature = (hand, round, rules = None))]
fn has_contract(
    hand: &Bound<'_, PyAny>,
    round: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = crate::cards::rules_param)] rules: Option<PyRef<'_, PyRuleSet>>,
) -> PyResult<bool> {
    let rules = rules_ref(&rules);
    let contract = contract_of(round, rules)?;
    Ok(search::has_contract(&hand_of(hand, rules)?, &contract, rules))
}

/// The best go-down of `hand` for `round`: fewest points left in hand, then the
/// smallest card ids left (compared as sorted lists), then the smallest melds list.
/// `None` without the contract. A contract meld with its own minimum (C-8, "one run
/// of 7") is filled by a meld at least that long.
///
/// >>> from liverpool import best_go_down
/// >>> best = best_go_down("7♠ 7♥ 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥ 7♦", round=1)
/// >>> best
/// GoDown(melds=['7♠ 7♥ 7♦', '9♠ 9♥ 9♦'], left='A♥ 8♦ 3♣ 4♣ 5♣', points_left=35)
/// >>> best_go_down("A♠ K♦ 4♥", round=1) is None
/// True
#[pyfunction]
#[pyo3(signature = (hand, round, rules = None))]
fn best_go_down(
    hand: &Bound<'_, PyAny>,
    round: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = crate::cards::rules_param)] rules: Option<PyRef<'_, PyRuleSet>>,
) -> PyResult<Option<PyGoDown>> {
    let rules = rules_ref(&rules);
    let contract = contract_of(round, rules)?;
    let found = search::best_go_down(&hand_of(hand, rules)?, &contract, rules);
    Ok(found.map(|go_down| PyGoDown { go_down }))
}

/// The limit of `all_go_downs`: `None` is the default, 1000.
fn limit_arg(limit: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    match limit {
        None => Ok(1000),
        Some(l) => match int_arg(l) {
            Ok(n) if n >= 0 => Ok(n as usize),
            // An int beyond 64 bits: no limit in practice, if it is positive.
            Err(true) if l.gt(0)? => Ok(usize::MAX),
            _ => Err(invalid_argument(msg!("arg.limit", limit = l))),
        },
    }
}

/// Every distinct go-down of `hand` for `round`, best first (the order of
/// `best_go_down`), at most `limit` of them. `liverpool.all_go_downs` wraps this
/// to say whether the limit cut any off (`all_go_downs_limited`).
///
/// >>> from liverpool import all_go_downs
/// >>> [g.points_left for g in all_go_downs("7♠ 7♥ 7♦ 7♣ 9♠ 9♥ 9♦", round=1)]
/// [7, 7, 7, 7]
#[pyfunction]
#[pyo3(
    signature = (hand, round, rules = None, limit = None),
    text_signature = "(hand, round, rules=None, limit=1000)"
)]
fn all_go_downs(
    hand: &Bound<'_, PyAny>,
    round: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = crate::cards::rules_param)] rules: Option<PyRef<'_, PyRuleSet>>,
    limit: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<PyGoDown>> {
    Ok(all_go_downs_limited(hand, round, rules, limit)?.0)
}

/// `(go-downs, truncated)`: `all_go_downs`, and whether the hand has more distinct
/// go-downs than `limit` let through.
///
/// >>> from liverpool._core import all_go_downs_limited
/// >>> found, truncated = all_go_downs_limited("7♠ 7♥ 7♦ 7♣ 9♠ 9♥ 9♦", round=1, limit=3)
/// >>> len(found), truncated
/// (3, True)
#[pyfunction]
#[pyo3(
    signature = (hand, round, rules = None, limit = None),
    text_signature = "(hand, round, rules=None, limit=1000)"
)]
fn all_go_downs_limited(
    hand: &Bound<'_, PyAny>,
    round: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = crate::cards::rules_param)] rules: Option<PyRef<'_, PyRuleSet>>,
    limit: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Vec<PyGoDown>, bool)> {
    let rules = rules_ref(&rules);
    let contract = contract_of(round, rules)?;
    let limit = limit_arg(limit)?;
    let found = search::all_go_downs_limited(&hand_of(hand, rules)?, &contract, rules, limit);
    Ok((
        found.go_downs.into_iter().map(|go_down| PyGoDown { go_down }).collect(),
        found.truncated,
    ))
}

/// The cards that would give `hand` the contract of `round`, each with how many
/// copies are still unseen (the deck for `players`, minus the hand, minus `seen`),
/// sorted by card id (♠ A..K, ♥, ♦, ♣, then the joker). In rounds 1–6 a hand that
/// already holds the contract has no outs; in a whole-hand round (L-8, round 7) the
/// outs are the cards that keep a whole-hand go-down after the draw, even for a hand
/// that already makes one.
///
/// >>> from liverpool import outs
/// >>> [(str(card), unseen) for card, unseen in outs("7♠ 7♥ 9♠ 9♥ 9♦ 3♣", round=1, seen=["7♦"])]
/// [('7♠', 1), ('7♥', 1), ('7♦', 1), ('7♣', 2), ('JK', 3)]
#[pyfunction]
#[pyo3(signature = (hand, round, rules = None, seen = None, players = None))]
fn outs<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    round: &Bound<'py, PyAny>,
    rules: Option<PyRef<'py, PyRuleSet>>,
    seen: Option<&Bound<'py, PyAny>>,
    players: Option<&Bound<'py, PyAny>>,
) -> PyResult<Vec<(Bound<'py, PyCard>, u8)>> {
    let rules = rules_ref(&rules);
    let contract = contract_of(round, rules)?;
    let players = players_arg(players, rules)?;
    let hand = counts_of(hand, rules, players, msg!("what.the_hand"))?;
    let seen = match seen {
        Some(s) => counts_of(s, rules, players, msg!("what.seen_cards"))?,
        None => CardCounts::default(),
    };
    search::outs(&hand, &contract, rules, &seen, players)
        .into_iter()
        .map(|(card, unseen)| Ok((Bound::new(py, PyCard::from(card))?, unseen)))
        .collect()
}

/// Melds of any number and length (no contract; L-4.4 does not apply) leaving the
/// fewest deadwood points; ties go to the smallest deadwood ids, then the fewest melds.
///
/// >>> from liverpool import best_arrangement
/// >>> best_arrangement("5♥ 6♥ 7♥ 8♥ 8♠ 8♦")
/// Arrangement(melds=['5♥ 6♥ 7♥ 8♥'], deadwood='8♠ 8♦', points=16)
#[pyfunction]
#[pyo3(signature = (hand, rules = None))]
fn best_arrangement(
    hand: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = crate::cards::rules_param)] rules: Option<PyRef<'_, PyRuleSet>>,
) -> PyResult<PyArrangement> {
    let rules = rules_ref(&rules);
    Ok(PyArrangement {
        arrangement: search::best_arrangement(&hand_of(hand, rules)?, rules),
    })
}

// ---------------------------------------------------------------------------------
// Batches

/// Run an engine batch without the GIL, on `threads` threads (`None`: all cores).
fn run_batch<T: Send>(
    py: Python<'_>,
    threads: Option<usize>,
    job: impl FnOnce() -> liverpool_engine::Result<T> + Send,
) -> PyResult<T> {
    py_result(py.detach(|| search::with_threads(threads, job).and_then(|r| r)))
}

/// `best_go_down(hand, round).points_left` for each row of `hands` (an `(n, k)` uint8
/// array of card ids, 255 pads short hands): the points *left in hand* after the best
/// go-down, `-1` where there is no go-down. Runs in parallel without the GIL; the
/// result does not depend on `threads`.
///
/// >>> import numpy as np
/// >>> from liverpool import Card, best_go_down_points_left_batch
/// >>> ids = [Card(c).id for c in "7♠ 7♥ 7♦ 9♠ 9♥ 9♦ 3♣".split()]
/// >>> best_go_down_points_left_batch(np.array([ids, ids[1:] + [255]], dtype=np.uint8), round=1)
/// array([ 3, -1], dtype=int32)
#[pyfunction]
#[pyo3(signature = (hands, round, rules = None, threads = None))]
fn best_go_down_points_left_batch<'py>(
    py: Python<'py>,
    hands: &Bound<'py, PyAny>,
    round: &Bound<'py, PyAny>,
    rules: Option<PyRef<'py, PyRuleSet>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray1<i32>>> {
    let rules = rules_ref(&rules);
    let contract = contract_of(round, rules)?;
    let threads = threads_arg(threads)?;
    let (bytes, width) = batch_of(hands)?;
    let out = run_batch(py, threads, || {
        search::best_go_down_points_left_batch(&bytes, width, &contract, rules)
    })?;
    Ok(out.into_pyarray(py))
}

/// `has_contract(hand, round)` for each row of `hands` (see `best_go_down_points_left_batch`).
///
/// >>> import numpy as np
/// >>> from liverpool import Card, has_contract_batch
/// >>> ids = [Card(c).id for c in "7♠ 7♥ 7♦ 9♠ 9♥ 9♦ 3♣".split()]
/// >>> has_contract_batch(np.array([ids, ids[1:] + [255]], dtype=np.uint8), round=1)
/// array([ True, False])
#[pyfunction]
#[pyo3(signature = (hands, round, rules = None, threads = None))]
fn has_contract_batch<'py>(
    py: Python<'py>,
    hands: &Bound<'py, PyAny>,
    round: &Bound<'py, PyAny>,
    rules: Option<PyRef<'py, PyRuleSet>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray1<bool>>> {
    let rules = rules_ref(&rules);
    let contract = contract_of(round, rules)?;
    let threads = threads_arg(threads)?;
    let (bytes, width) = batch_of(hands)?;
    let out = run_batch(py, threads, || {
        search::has_contract_batch(&bytes, width, &contract, rules)
    })?;
    Ok(out.into_pyarray(py))
}

/// `best_arrangement(hand).points` for each row of `hands` (see
/// `best_go_down_points_left_batch`).
///
/// >>> import numpy as np
/// >>> from liverpool import Card, deadwood_batch
/// >>> ids = [Card(c).id for c in "5♥ 6♥ 7♥ 8♥ 8♠ 8♦".split()]
/// >>> deadwood_batch(np.array([ids], dtype=np.uint8))
/// array([16], dtype=int32)
#[pyfunction]
#[pyo3(signature = (hands, rules = None, threads = None))]
fn deadwood_batch<'py>(
    py: Python<'py>,
    hands: &Bound<'py, PyAny>,
    rules: Option<PyRef<'py, PyRuleSet>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray1<i32>>> {
    let rules = rules_ref(&rules);
    let threads = threads_arg(threads)?;
    let (bytes, width) = batch_of(hands)?;
    let out = run_batch(py, threads, || search::deadwood_batch(&bytes, width, rules))?;
    Ok(out.into_pyarray(py))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGoDown>()?;
    m.add_class::<PyArrangement>()?;
    m.add_function(wrap_pyfunction!(has_contract, m)?)?;
    m.add_function(wrap_pyfunction!(best_go_down, m)?)?;
    m.add_function(wrap_pyfunction!(all_go_downs, m)?)?;
    m.add_function(wrap_pyfunction!(all_go_downs_limited, m)?)?;
    m.add_function(wrap_pyfunction!(outs, m)?)?;
    m.add_function(wrap_pyfunction!(best_arrangement, m)?)?;
    m.add_function(wrap_pyfunction!(best_go_down_points_left_batch, m)?)?;
    m.add_function(wrap_pyfunction!(has_contract_batch, m)?)?;
    m.add_function(wrap_pyfunction!(deadwood_batch, m)?)?;
    Ok(())
}
