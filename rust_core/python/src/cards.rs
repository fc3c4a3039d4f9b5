//! Cards, rule sets and melds: thin wrappers over the engine types.

use crate::args::{int_arg, round_arg};
use crate::errors::{invalid_argument, py_result, to_py};
use liverpool_engine::card::{Card, CARD_KINDS};
use liverpool_engine::meld::{check_go_down as engine_check_go_down, End, Meld, MeldKind};
use liverpool_engine::rules::{RuleSet, RULE_OPTIONS};
use liverpool_engine::{msg, Error, ErrorCode};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyInt, PyList, PyString};

/// A playing card or a joker. Build one from its notation: `Card("7♦")`, `Card("TS")`, `Card("JK")`.
#[pyclass(name = "Card", module = "liverpool._core", frozen, eq, hash, ord)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PyCard {
    pub card: Card,
}

impl From<Card> for PyCard {
    fn from(card: Card) -> Self {
        PyCard { card }
    }
}

#[pymethods]
impl PyCard {
    #[new]
    fn new(text: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyCard {
            card: extract_card(text)?,
        })
    }
    /// Build a card from its compact id (0..=51 naturals, 52 the joker).
    #[staticmethod]
    fn from_id(id: &Bound<'_, PyAny>) -> PyResult<Self> {
        // Only ints (never bools); any int outside 0..=52 is `malformed_card`, as for `Card(id)`.
        if !is_index(id) {
            return Err(not_a_card(id));
        }
        Ok(PyCard {
            card: extract_card(id)?,
        })
    }
    /// The compact id: `suit * 13 + rank - 1`, the joker is 52.
    #[getter]
    fn id(&self) -> u8 {
        self.card.id()
    }
    /// 1 (ace) … 13 (king); 0 for the joker.
    #[getter]
    fn rank(&self) -> u8 {
        self.card.rank()
    }
    /// `"♠"`, `"♥"`, `"♦"`, `"♣"`, or `None` for the joker.
    #[getter]
    fn suit(&self) -> Option<String> {
        self.card.suit().map(|s| s.symbol().to_string())
    }
    #[getter]
    fn is_joker(&self) -> bool {
        self.card.is_joker()
    }
    /// ASCII notation, e.g. `"10C"`, `"JK"`.
    #[getter]
    fn ascii(&self) -> String {
        self.card.ascii()
    }
    /// Points this card scores left in hand under `rules` (L-10.1).
    #[pyo3(signature = (rules = None))]
    fn points(&self, #[pyo3(from_py_with = crate::cards::rules_param)] rules: Option<PyRef<'_, PyRuleSet>>) -> u16 {
        match rules {
            Some(r) => r.rules.card_points(self.card),
            None => RuleSet::liverpool().card_points(self.card),
        }
    }
    /// Rich display in notebooks: the HTML comes from `liverpool.teach.display.card_html`.
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        display_html(slf.as_any(), "card_html")
    }
    fn __repr__(&self) -> String {
        format!("Card('{}')", self.card)
    }
    fn __str__(&self) -> String {
        self.card.to_string()
    }
    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, (String,))> {
        let cls = py.get_type::<PyCard>().into_any().unbind();
        Ok((cls, (self.card.to_string(),)))
    }
}

/// `invalid_argument`: `obj` is not a card-like at all (not a Card, str or int).
fn not_a_card(obj: &Bound<'_, PyAny>) -> PyErr {
    let kind = obj
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into());
    invalid_argument(msg!("arg.not_a_card", kind = kind))
}

/// An integer that may be a card id: an `int` or an integer-like such as
/// `numpy.int64` (anything with `__index__`), but never a `bool` (`True` is not 2♠).
fn is_index(obj: &Bound<'_, PyAny>) -> bool {
    !obj.is_instance_of::<PyBool>() && (obj.is_instance_of::<PyInt>() || obj.call_method0("__index__").is_ok())
}

/// The text of a card string; a string that is not valid Unicode (a lone surrogate)
/// is `malformed_card`.
fn card_text(s: &Bound<'_, PyString>) -> PyResult<String> {
    s.to_str().map(str::to_owned).map_err(|_| {
        to_py(Error::with(
            ErrorCode::MalformedCard,
            None,
            msg!(
                "arg.card_not_unicode",
                text = s.repr().map(|r| r.to_string()).unwrap_or_default()
            ),
        ))
    })
}

/// Accept a `Card`, a card string or a compact id. A bool is not a card id (`True`
/// would read as 2♠); a string that is not valid Unicode is a malformed card.
pub fn extract_card(obj: &Bound<'_, PyAny>) -> PyResult<Card> {
    if let Ok(c) = obj.cast::<PyCard>() {
        return Ok(c.get().card);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return py_result(Card::parse(&card_text(s)?));
    }
    if is_index(obj) {
        return match obj.extract::<i64>() {
            Ok(id) if (0..CARD_KINDS as i64).contains(&id) => Ok(Card::from_id(id as u8).expect("in range")),
            _ => Err(to_py(Error::with(
                ErrorCode::MalformedCard,
                None,
                msg!("arg.card_id_range", id = obj.to_string()),
            ))),
        };
    }
    Err(not_a_card(obj))
}

/// Accept any iterable of card-likes, or one string of space-separated cards.
pub fn extract_cards(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Card>> {
    if let Ok(s) = obj.cast::<PyString>() {
        return card_text(s)?
            .split_whitespace()
            .map(|t| py_result(Card::parse(t)))
            .collect();
    }
    // Bytes are not cards (iterating them gives ints, which would read as card ids).
    if obj.is_instance_of::<PyBytes>() || obj.is_instance_of::<PyByteArray>() {
        return Err(not_cards(obj));
    }
    let iter = obj.try_iter().map_err(|_| not_cards(obj))?;
    let mut out = Vec::new();
    for item in iter {
        out.push(extract_card(&item?)?);
    }
    Ok(out)
}

/// `invalid_argument`: `obj` is not a collection of cards.
fn not_cards(obj: &Bound<'_, PyAny>) -> PyErr {
    let kind = obj
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into());
    invalid_argument(msg!("arg.not_cards", kind = kind))
}

/// The 53 card objects, made once: cards are immutable, so lists of cards can share
/// them (building a 107-card list then costs reference counts, not allocations).
static CARD_OBJECTS: PyOnceLock<Vec<Py<PyCard>>> = PyOnceLock::new();

/// The shared Python object for `card`.
pub fn card_object<'py>(py: Python<'py>, card: Card) -> PyResult<Bound<'py, PyCard>> {
    let objects = CARD_OBJECTS.get_or_try_init(py, || -> PyResult<Vec<Py<PyCard>>> {
        (0..CARD_KINDS as u8)
            .map(|id| {
                Py::new(
                    py,
                    PyCard {
                        card: Card::from_id(id).expect("id < 53"),
                    },
                )
            })
            .collect()
    })?;
    Ok(objects[card.id() as usize].clone_ref(py).into_bound(py))
}

pub fn cards_to_py<'py>(py: Python<'py>, cards: &[Card]) -> PyResult<Bound<'py, PyList>> {
    let objects = cards
        .iter()
        .map(|&c| card_object(py, c))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, objects)
}

/// A rule set: everything a profile of RULES.md decides, as data.
#[pyclass(name = "RuleSet", module = "liverpool._core", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PyRuleSet {
    pub rules: RuleSet,
}

#[pymethods]
impl PyRuleSet {
    /// A preset by name: `RuleSet("liverpool")` (default), `"contract"`,
    /// `"liverpool-classic"`, or a C-8 variation: `"shanghai"`, `"california"`,
    /// `"no-buy"`, `"double-progressive"` (see `RuleSet.presets()`). Rule sets written
    /// by users: `RuleSet.from_file`, `RuleSet.from_toml`, `RuleSet.from_json`.
    #[new]
    #[pyo3(signature = (preset = String::from("liverpool")), text_signature = "(preset='liverpool')")]
    fn new(#[pyo3(from_py_with = preset_param)] preset: String) -> PyResult<Self> {
        let preset = preset.as_str();
        Ok(PyRuleSet {
            rules: py_result(RuleSet::preset(preset))?,
        })
    }
    /// A rule set from JSON: a complete one (the format of `to_json`) or
    /// `{"base": "contract", ...changes}`. Unknown keys and impossible values are
    /// refused with `InvalidRulesError`, whose message names the key and the reason.
    #[staticmethod]
    fn from_json(#[pyo3(from_py_with = text_param)] text: String) -> PyResult<Self> {
        let text = text.as_str();
        Ok(PyRuleSet {
            rules: py_result(RuleSet::from_json(text))?,
        })
    }
    /// A rule set from TOML: `base = "contract"` plus the options that change, or a
    /// complete rule set (the format of `to_toml`). Refusals as `from_json`.
    ///
    /// >>> rules = RuleSet.from_toml('base = "contract"\nname = "house"\ndeal_sizes = [7, 10, 10, 10, 12, 12, 12]')
    /// >>> rules.name, rules.deal_sizes[0]
    /// ('house', 7)
    #[staticmethod]
    fn from_toml(#[pyo3(from_py_with = text_param)] text: String) -> PyResult<Self> {
        let text = text.as_str();
        Ok(PyRuleSet {
            rules: py_result(RuleSet::from_toml(text))?,
        })
    }
    /// A rule set file: JSON if the name ends in `.json` (or the text starts with
    /// `{`), TOML otherwise. An unreadable file is `InvalidArgumentError`.
    /// A file above 256 KiB is refused before it is read (`InvalidRulesError`); a
    /// path that is not a `str` or `os.PathLike` of text is `InvalidArgumentError`.
    #[staticmethod]
    fn from_file(#[pyo3(from_py_with = path_param)] path: String) -> PyResult<Self> {
        Ok(PyRuleSet {
            rules: py_result(RuleSet::from_file(std::path::Path::new(&path)))?,
        })
    }
    /// A preset name, else the path of a rule set file: what every `--rules` option
    /// of the command line accepts.
    #[staticmethod]
    fn load(#[pyo3(from_py_with = name_or_path_param)] name_or_path: String) -> PyResult<Self> {
        Ok(PyRuleSet {
            rules: py_result(RuleSet::named_or_file(&name_or_path))?,
        })
    }
    /// The complete rule set as JSON (`from_json` reads it back).
    fn to_json(&self) -> String {
        self.rules.to_json()
    }
    /// The complete rule set as TOML, every option under a comment naming its rule
    /// (`from_toml` reads it back to an equal rule set).
    fn to_toml(&self) -> String {
        self.rules.to_toml()
    }
    /// Every option of a rule set: `(key, rule ids, description)`, in file order.
    #[staticmethod]
    fn options() -> Vec<(&'static str, &'static str, &'static str)> {
        RULE_OPTIONS.iter().map(|o| (o.key, o.rules, o.doc)).collect()
    }
    #[staticmethod]
    fn presets() -> Vec<&'static str> {
        RuleSet::preset_names().to_vec()
    }
    #[getter]
    fn name(&self) -> String {
        self.rules.name.clone()
    }
    /// The RULES.md profile whose rule ids refusals cite: `"L"`, `"C"` or `"W"`.
    #[getter]
    fn profile(&self) -> &'static str {
        match self.rules.profile {
            liverpool_engine::rules::Profile::L => "L",
            liverpool_engine::rules::Profile::C => "C",
            liverpool_engine::rules::Profile::W => "W",
        }
    }
    #[getter]
    fn rounds(&self) -> u8 {
        self.rules.rounds()
    }
    #[getter]
    fn deal_sizes(&self) -> Vec<u32> {
        // u32, not u8: PyO3 turns Vec<u8> into bytes.
        self.rules.deal_sizes.iter().map(|&n| n as u32).collect()
    }
    /// `[(sets, runs, whole_hand), ...]` per round. A contract whose melds have
    /// their own lengths (C-8) says more: see `contract_melds`.
    #[getter]
    fn contracts(&self) -> Vec<(u8, u8, bool)> {
        self.rules
            .contracts
            .iter()
            .map(|c| (c.sets(), c.runs(), c.whole_hand))
            .collect()
    }
    /// The melds the contract of `round` asks for: `[(kind, min cards, max cards or
    /// None), ...]` (sets then runs as the rule set lists them), with the lengths a
    /// go-down must have (C-8 per-meld minimums, the profile's opening sizes).
    ///
    /// >>> RuleSet().contract_melds(2)
    /// [('set', 3, 3), ('run', 4, 4)]
    /// >>> RuleSet("shanghai").contract_melds(8)
    /// [('set', 3, None), ('set', 3, None), ('set', 3, None), ('run', 4, None)]
    fn contract_melds(&self, round: &Bound<'_, PyAny>) -> PyResult<Vec<(&'static str, u8, Option<u8>)>> {
        let contract = py_result(self.rules.contract_for(round_arg(round, &self.rules)?))?;
        Ok(contract
            .melds()
            .iter()
            .map(|spec| {
                let (min, max) = self.rules.meld_range(spec, contract.whole_hand);
                (spec.kind.as_str(), min, max)
            })
            .collect())
    }
    /// Is the go-down of `round` the whole hand with no discard (L-8, C-8 Shanghai's round 8)?
    fn whole_hand(&self, round: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(py_result(self.rules.contract_for(round_arg(round, &self.rules)?))?.whole_hand)
    }
    /// The rank whose every card is wild (C-8 California: `"Q"`), or `None`.
    #[getter]
    fn wild_rank(&self) -> Option<&'static str> {
        self.rules.wild_rank.map(Card::rank_str)
    }
    /// Is this card wild: a joker, or a card of the wild rank?
    fn is_wild(&self, card: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.rules.is_wild(extract_card(card)?))
    }
    /// A sentence per round, e.g. `"1 set + 1 run"`.
    fn describe_contract(&self, round: &Bound<'_, PyAny>) -> PyResult<String> {
        let contract = py_result(self.rules.contract_for(round_arg(round, &self.rules)?))?;
        Ok(self.rules.describe_contract(&contract))
    }
    #[pyo3(signature = (players = None))]
    fn deck_size(&self, players: Option<u8>) -> usize {
        self.rules.deck_size(players.unwrap_or(self.rules.default_players))
    }
    #[getter]
    fn default_players(&self) -> u8 {
        self.rules.default_players
    }
    /// Points a card scores left in hand (L-10.1, C-7, W-10).
    fn card_points(&self, card: &Bound<'_, PyAny>) -> PyResult<u16> {
        Ok(self.rules.card_points(extract_card(card)?))
    }
    /// L-2.3: the cut size that earns the cut bonus in this round.
    #[pyo3(signature = (round, players = None))]
    fn exact_cut(&self, round: &Bound<'_, PyAny>, players: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
        let round = round_arg(round, &self.rules)?;
        let players = crate::args::players_arg(players.filter(|p| !p.is_none()), &self.rules)?;
        py_result(self.rules.exact_cut(round, players))
    }
    #[getter]
    fn cut_bonus(&self) -> i32 {
        self.rules.cut_bonus
    }
    fn __repr__(&self) -> String {
        format!("RuleSet('{}')", self.rules.name)
    }
}

/// A `rules=` argument: a `RuleSet` or `None`; anything else is `invalid_argument`
/// (never PyO3's bare `TypeError`).
pub fn rules_param<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Option<PyRef<'py, PyRuleSet>>> {
    if obj.is_none() {
        return Ok(None);
    }
    obj.extract::<PyRef<'py, PyRuleSet>>().map(Some).map_err(|_| {
        let kind = obj
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_else(|_| "?".into());
        invalid_argument(msg!("arg.rules", kind = kind))
    })
}

/// A text argument (`what` names it in the error): a `str` of valid Unicode.
pub fn str_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    let kind = || {
        obj.get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_else(|_| "?".into())
    };
    let s = obj
        .cast::<PyString>()
        .map_err(|_| invalid_argument(msg!("arg.not_text", what = what, kind = kind())))?;
    s.to_str()
        .map(str::to_owned)
        .map_err(|_| invalid_argument(msg!("arg.not_text", what = what, kind = "str (not valid Unicode)")))
}

/// A file path argument (`what` names it): a `str` or an `os.PathLike` whose
/// `os.fspath` is a `str`, of valid Unicode. Bytes paths, other objects and lone
/// surrogates are `invalid_argument` (never a bare `TypeError` or
/// `UnicodeEncodeError`).
pub fn path_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    if obj.is_instance_of::<PyString>() {
        return str_arg(obj, what);
    }
    let fspath = obj.py().import("os")?.getattr("fspath")?;
    match fspath.call1((obj,)) {
        Ok(path) if path.is_instance_of::<PyString>() => str_arg(&path, what),
        _ => {
            let kind = obj
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_else(|_| "?".into());
            Err(invalid_argument(msg!("arg.path", what = what, kind = kind)))
        }
    }
}

/// `path=` (`path_arg`).
pub fn path_param(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    path_arg(obj, "path")
}

/// `name_or_path=` (`path_arg`).
pub fn name_or_path_param(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    path_arg(obj, "name_or_path")
}

/// `text=` (`str_arg`).
pub fn text_param(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    str_arg(obj, "text")
}

/// `preset=` (`str_arg`).
pub fn preset_param(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    str_arg(obj, "preset")
}

/// `kind=` (`str_arg`).
pub fn kind_param(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    str_arg(obj, "kind")
}

pub fn rules_or_default(rules: Option<PyRef<'_, PyRuleSet>>) -> RuleSet {
    rules.map(|r| r.rules.clone()).unwrap_or_default()
}

/// A legal set or run. Build with `Meld.set(cards)`, `Meld.run(cards)` or `Meld.parse(cards)`.
#[pyclass(name = "Meld", module = "liverpool._core", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PyMeld {
    pub meld: Meld,
}

#[pymethods]
impl PyMeld {
    /// A set (L-4.1): cards of one rank, any order.
    #[staticmethod]
    #[pyo3(signature = (cards, rules = None))]
    fn set(
        cards: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = crate::cards::rules_param)] rules: Option<PyRef<'_, PyRuleSet>>,
    ) -> PyResult<Self> {
        let cards = extract_cards(cards)?;
        Ok(PyMeld {
            meld: py_result(Meld::set(&cards, &rules_or_default(rules)))?,
        })
    }
    /// A run (L-4.2, L-4.3): cards of one suit listed low to high; a joker's place fixes its card.
    #[staticmethod]
    #[pyo3(signature = (cards, rules = None))]
    fn run(
        cards: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = crate::cards::rules_param)] rules: Option<PyRef<'_, PyRuleSet>>,
    ) -> PyResult<Self> {
        let cards = extract_cards(cards)?;
        Ok(PyMeld {
            meld: py_result(Meld::run(&cards, &rules_or_default(rules)))?,
        })
    }
    /// A set or a run, whichever the cards are (a set when both readings are legal).
    #[staticmethod]
    #[pyo3(signature = (cards, rules = None))]
    fn parse(
        cards: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = crate::cards::rules_param)] rules: Option<PyRef<'_, PyRuleSet>>,
    ) -> PyResult<Self> {
        let cards = extract_cards(cards)?;
        let mut readings = py_result(Meld::interpretations(&cards, &rules_or_default(rules)))?;
        Ok(PyMeld {
            meld: readings.swap_remove(0),
        })
    }
    /// `"set"` or `"run"`.
    #[getter]
    fn kind(&self) -> &'static str {
        match self.meld.kind() {
            MeldKind::Set => "set",
            MeldKind::Run => "run",
        }
    }
    /// The cards. A run's are listed low to high, so each joker (or wild card, C-8)
    /// stands for the position where it sits; a set's are in the order given (the
    /// search gives its sets in card-id order, wild cards last).
    #[getter]
    fn cards<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        cards_to_py(py, self.meld.cards())
    }
    /// A set's rank (1..13); `None` for a run.
    #[getter]
    fn rank(&self) -> Option<u8> {
        self.meld.rank()
    }
    /// A run's suit symbol; `None` for a set.
    #[getter]
    fn suit(&self) -> Option<String> {
        self.meld.suit().map(|s| s.symbol().to_string())
    }
    /// A run's (low, high) positions: A (low) = 1, 2..10, J = 11, Q = 12, K = 13 and
    /// A (high) = 14 (L-4.3), so `(11, 14)` is J-Q-K-A. `None` for a set.
    ///
    /// >>> Meld.run("J♥ Q♥ K♥ A♥").span, Meld.run("A♥ 2♥ 3♥ 4♥").span
    /// ((11, 14), (1, 4))
    #[getter]
    fn span(&self) -> Option<(u8, u8)> {
        self.meld.span()
    }
    /// The natural card the joker at `index` stands for (runs only, L-4.5).
    fn joker_stands_for(&self, index: &Bound<'_, PyAny>) -> PyResult<Option<PyCard>> {
        let index = match int_arg(index) {
            Ok(i) if i >= 0 => usize::try_from(i).unwrap_or(usize::MAX),
            _ => return Err(invalid_argument(msg!("arg.index", index = index.to_string()))),
        };
        Ok(self.meld.joker_stands_for(index).map(PyCard::from))
    }
    /// The meld after laying `cards` off on it (L-5.3); this meld is unchanged.
    #[pyo3(signature = (cards, end = None, rules = None))]
    fn lay_off(
        &self,
        cards: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = end_param)] end: Option<End>,
        #[pyo3(from_py_with = crate::cards::rules_param)] rules: Option<PyRef<'_, PyRuleSet>>,
    ) -> PyResult<Self> {
        let cards = extract_cards(cards)?;
        Ok(PyMeld {
            meld: py_result(self.meld.lay_off(&cards, end, &rules_or_default(rules)))?,
        })
    }
    /// The run after putting `card` in place of the joker it stands for (L-7.2).
    fn swap_joker(&self, card: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyMeld {
            meld: py_result(self.meld.swap_joker(extract_card(card)?))?,
        })
    }
    fn __len__(&self) -> usize {
        self.meld.len()
    }
    /// Rich display in notebooks: the HTML comes from `liverpool.teach.display.meld_html`.
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        display_html(slf.as_any(), "meld_html")
    }
    fn __repr__(&self) -> String {
        format!("Meld.{}('{}')", self.kind(), self.meld)
    }
    fn __str__(&self) -> String {
        self.meld.to_string()
    }
}

/// `end=`: `None`, `"low"` or `"high"`; anything else is `invalid_argument`.
pub fn end_param(obj: &Bound<'_, PyAny>) -> PyResult<Option<End>> {
    if obj.is_none() {
        return Ok(None);
    }
    match obj.cast::<PyString>().ok().and_then(|s| s.to_str().ok()) {
        Some("low") => Ok(Some(End::Low)),
        Some("high") => Ok(Some(End::High)),
        _ => Err(invalid_argument(msg!("arg.end", end = obj.repr()?))),
    }
}

/// An iterable argument (`what` names it), or `invalid_argument`.
pub fn iter_arg<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Bound<'py, pyo3::types::PyIterator>> {
    obj.try_iter().map_err(|_| {
        let kind = obj
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_else(|_| "?".into());
        invalid_argument(msg!("arg.not_iterable", what = what, kind = kind))
    })
}

/// Check a go-down for a round's contract (L-4.6, L-4.4, L-8) and return its melds.
#[pyfunction]
#[pyo3(signature = (melds, round, rules = None))]
fn check_go_down(
    melds: &Bound<'_, PyAny>,
    round: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = crate::cards::rules_param)] rules: Option<PyRef<'_, PyRuleSet>>,
) -> PyResult<Vec<PyMeld>> {
    let rules = rules_or_default(rules);
    let round = round_arg(round, &rules)?;
    let contract = py_result(rules.contract_for(round))?;
    let mut groups = Vec::new();
    for g in iter_arg(melds, "melds")? {
        groups.push(extract_cards(&g?)?);
    }
    let melds = py_result(engine_check_go_down(&groups, &contract, &rules))?;
    Ok(melds.into_iter().map(|meld| PyMeld { meld }).collect())
}

/// Parse cards: a string of space-separated cards or an iterable of card-likes.
#[pyfunction]
fn parse_cards<'py>(py: Python<'py>, cards: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
    cards_to_py(py, &extract_cards(cards)?)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyCard>()?;
    m.add_class::<PyRuleSet>()?;
    m.add_class::<PyMeld>()?;
    m.add_function(wrap_pyfunction!(check_go_down, m)?)?;
    m.add_function(wrap_pyfunction!(parse_cards, m)?)?;
    Ok(())
}

/// Rich notebook display: the binding only forwards to `liverpool.teach.display.<function>`,
/// so presentation (HTML, SVG, translations) stays in Python.
pub(crate) fn display_html(obj: &Bound<'_, PyAny>, function: &str) -> PyResult<String> {
    obj.py()
        .import("liverpool.teach.display")?
        .getattr(function)?
        .call1((obj,))?
        .extract()
}
