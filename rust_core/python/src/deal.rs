//! Shuffling and dealing (RULES.md L-1.2, L-2): converts arguments and delegates
//! to `liverpool_engine::deal`. The batch shuffle releases the GIL.

use crate::args::{int_arg, players_arg, round_arg, seed_arg, threads_arg};
use crate::cards::{cards_to_py, display_html, extract_card, rules_or_default, PyCard, PyRuleSet};
use crate::errors::{invalid_argument, py_result, to_py};
use liverpool_engine::card::Card;
use liverpool_engine::deal::{self, Dealt};
use liverpool_engine::msg;
use liverpool_engine::search::with_threads;

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyList;

/// A cut size: any int outside `usize` is a `bad_cut` (L-2.2).
fn to_cut(cut: &Bound<'_, PyAny>, deck_len: usize) -> PyResult<usize> {
    match int_arg(cut) {
        Ok(k) if k >= 0 => Ok(k as usize),
        Err(false) => Err(invalid_argument(msg!("arg.cut", cut = cut))),
        _ => Err(to_py(deal::bad_cut(cut, deck_len))),
    }
}

/// Accept a 1-D uint8 array of card ids or any iterable of card-likes.
fn extract_deck(deck: &Bound<'_, PyAny>) -> PyResult<Vec<Card>> {
    if let Ok(array) = deck.extract::<PyReadonlyArray1<'_, u8>>() {
        return array
            .as_array()
            .iter()
            .map(|&id| py_result(Card::from_id(id)))
            .collect();
    }
    let mut cards = Vec::new();
    for item in crate::cards::iter_arg(deck, "deck")? {
        cards.push(extract_card(&item?)?);
    }
    Ok(cards)
}

/// The unshuffled deck in canonical order: each 52-card deck in id order, then the jokers (L-1.2).
#[pyfunction]
#[pyo3(signature = (rules = None, players = None))]
fn new_deck<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = crate::cards::rules_param)] rules: Option<PyRef<'_, PyRuleSet>>,
    players: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    let rules = rules_or_default(rules);
    let players = players_arg(players, &rules)?;
    cards_to_py(py, &deal::new_deck(&rules, players))
}

/// The deck shuffled with `seed` (Fisher–Yates on the engine's pinned PCG64 stream).
/// Equal to row 0 of `shuffled_decks(n, seed)`.
#[pyfunction]
#[pyo3(signature = (seed, rules = None, players = None))]
fn shuffled_deck<'py>(
    py: Python<'py>,
    seed: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = crate::cards::rules_param)] rules: Option<PyRef<'_, PyRuleSet>>,
    players: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    let seed = seed_arg(seed)?;
    let rules = rules_or_default(rules);
    let players = players_arg(players, &rules)?;
    cards_to_py(py, &deal::shuffled_deck(seed, &rules, players))
}

/// `n` shuffled decks as a `(n, deck_size)` uint8 array of card ids, shuffled in
/// parallel without the GIL. Row `i` uses stream `i` of `seed`, so the array is the
/// same for any `threads` (`None`: all cores).
#[pyfunction]
#[pyo3(signature = (n, seed, rules = None, players = None, threads = None))]
fn shuffled_decks<'py>(
    py: Python<'py>,
    n: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = crate::cards::rules_param)] rules: Option<PyRef<'_, PyRuleSet>>,
    players: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let n = int_arg(n)
        .ok()
        .and_then(|k| usize::try_from(k).ok())
        .ok_or_else(|| invalid_argument(msg!("arg.n", n = n)))?;
    let seed = seed_arg(seed)?;
    let rules = rules_or_default(rules);
    let players = players_arg(players, &rules)?;
    let threads = threads_arg(threads)?;
    let deck_len = rules.deck_size(players);
    let bytes =
        py.detach(|| with_threads(threads, || deal::shuffled_decks_batch(n, seed, &rules, players)).and_then(|r| r));
    let bytes = py_result(bytes)?;
    let array =
        Array2::from_shape_vec((n, deck_len), bytes).map_err(|e| invalid_argument(msg!("arg.internal", error = e)))?;
    Ok(array.into_pyarray(py))
}

/// A round after the cut and the deal (L-2.2 to L-2.6).
#[pyclass(name = "Deal", module = "liverpool._core", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PyDeal {
    pub dealt: Dealt,
}

#[pymethods]
impl PyDeal {
    /// One hand per seat, in the order the cards were dealt.
    #[getter]
    fn hands<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyList>>> {
        self.dealt.hands.iter().map(|hand| cards_to_py(py, hand)).collect()
    }
    /// The card turned up to start the discard pile (L-2.6).
    #[getter]
    fn up_card(&self) -> PyCard {
        PyCard::from(self.dealt.up_card)
    }
    /// The rest of the deck, top first (L-2.6).
    #[getter]
    fn stock<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        cards_to_py(py, &self.dealt.stock)
    }
    /// The seat that cut: the dealer's right neighbour (L-2.2).
    #[getter]
    fn cutter(&self) -> u8 {
        self.dealt.cutter
    }
    /// The number of cards cut.
    #[getter]
    fn cut(&self) -> usize {
        self.dealt.cut
    }
    /// The cut was exact (players × hand size + 1) and the rules give a bonus (L-2.3).
    #[getter]
    fn cut_bonus(&self) -> bool {
        self.dealt.cut_bonus
    }
    /// Rich display in notebooks: the HTML comes from `liverpool.teach.display.deal_html`.
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        display_html(slf.as_any(), "deal_html")
    }
    fn __repr__(&self) -> String {
        let sizes: Vec<String> = self.dealt.hands.iter().map(|h| h.len().to_string()).collect();
        format!(
            "Deal(hand_sizes=[{}], up_card='{}', stock={} cards, cutter={}, cut={}, cut_bonus={})",
            sizes.join(", "),
            self.dealt.up_card,
            self.dealt.stock.len(),
            self.dealt.cutter,
            self.dealt.cut,
            if self.dealt.cut_bonus { "True" } else { "False" }
        )
    }
}

/// Cut and deal a round from a shuffled deck (top card first): `deck` is a list of
/// card-likes or a 1-D uint8 array of card ids. The cut (1..len-1) decides only the
/// cut bonus (L-2.2 Decision); cards go one at a time clockwise from the dealer's left.
#[pyfunction(name = "deal")]
#[pyo3(signature = (deck, round, dealer, cut, rules = None, players = None))]
fn deal_round(
    deck: &Bound<'_, PyAny>,
    round: &Bound<'_, PyAny>,
    dealer: &Bound<'_, PyAny>,
    cut: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = crate::cards::rules_param)] rules: Option<PyRef<'_, PyRuleSet>>,
    players: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyDeal> {
    let rules = rules_or_default(rules);
    let deck = extract_deck(deck)?;
    let round = round_arg(round, &rules)?;
    let players = players_arg(players, &rules)?;
    let dealer = int_arg(dealer)
        .ok()
        .and_then(|d| u8::try_from(d).ok())
        .ok_or_else(|| invalid_argument(msg!("arg.dealer", dealer = dealer, last = players - 1)))?;
    let cut = to_cut(cut, deck.len())?;
    let dealt = py_result(deal::deal_round(&deck, &rules, players, round, dealer, cut))?;
    Ok(PyDeal { dealt })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyDeal>()?;
    m.add_function(wrap_pyfunction!(new_deck, m)?)?;
    m.add_function(wrap_pyfunction!(shuffled_deck, m)?)?;
    m.add_function(wrap_pyfunction!(shuffled_decks, m)?)?;
    m.add_function(wrap_pyfunction!(deal_round, m)?)?;
    Ok(())
}
