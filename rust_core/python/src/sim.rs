//! Native bots and batch simulation: `NativeBot`, `simulate` / `SimulationResult`,
//! and the `bench_clone_ns` helper of `liverpool bench`.
//!
//! The bots and the simulation live in the engine (`liverpool_engine::bots`,
//! `liverpool_engine::sim`); this module converts arguments, releases the GIL for
//! the long work and returns numpy arrays.

use crate::action::PyAction;
use crate::args::{deciding_seat, threads_arg, u64_arg};
use crate::cards::{rules_or_default, PyRuleSet};
use crate::errors::{busy, invalid_argument, py_result};
use crate::game::PyGameState;
use crate::hint::budget_arg;
use liverpool_engine::bots::{Bot, BotKind, ExpertBot, NativeBot};
use liverpool_engine::game::GameState;
use liverpool_engine::msg;
use liverpool_engine::sim::{check_batch, simulate_range, SimResult};
use numpy::ndarray::{Array2, Array3};
use numpy::{IntoPyArray, PyArray2, PyArray3, PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};
use std::sync::{Arc, Mutex, TryLockError};
use std::time::Instant;

/// Bot names: a sequence of strings, or one comma-separated string.
fn bot_kinds(bots: &Bound<'_, PyAny>) -> PyResult<Vec<BotKind>> {
    let names: Vec<String> = match bots.cast::<PyString>() {
        Ok(s) => s.to_str()?.split(',').map(str::to_owned).collect(),
        Err(_) => {
            let mut names = Vec::new();
            for item in bots
                .try_iter()
                .map_err(|_| invalid_argument(msg!("arg.bots", bots = bots)))?
            {
                let item = item?;
                let name = item
                    .cast::<PyString>()
                    .map_err(|_| invalid_argument(msg!("arg.bot_name", item = &item)))?;
                names.push(name.to_str()?.to_owned());
            }
            names
        }
    };
    names.iter().map(|n| py_result(BotKind::parse(n))).collect()
}

// ----- NativeBot -----------------------------------------------------------------

/// A native bot (`"greedy"`, `"random"` or `"expert"`), seeded: the same seed and
/// the same states give the same choices. `budget` (expert only) is the number of
/// samples of the hidden cards per decision (docs/bots.md). It follows the `liverpool.agents.bots.Bot` protocol:
/// `choose(state, seat)` returns the `Action` for `seat`, which must be
/// `state.to_act`. The bot keeps its random generator between calls, so use one
/// bot per seat and game for reproducible games.
///
/// Threads (docs/guarantees.md): one `choose` at a time per bot. A second thread
/// calling `choose` on the same bot while the first runs gets `ConcurrentUseError`
/// (code `busy`) at once and the bot is unchanged; every other method may be called
/// from any thread at any time.
#[pyclass(name = "NativeBot", module = "liverpool._core", frozen)]
pub struct PyNativeBot {
    bot: Mutex<NativeBot>,
    kind: BotKind,
    seed: u64,
}

#[pymethods]
impl PyNativeBot {
    #[new]
    #[pyo3(
        signature = (kind = String::from("greedy"), seed = None, budget = None),
        text_signature = "(kind='greedy', seed=None, budget=None)"
    )]
    fn new(
        #[pyo3(from_py_with = crate::cards::kind_param)] kind: String,
        seed: Option<&Bound<'_, PyAny>>,
        budget: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let seed = seed.map(|s| u64_arg(s, "seed")).transpose()?.unwrap_or(0);
        let kind = py_result(BotKind::parse(kind.as_str()))?;
        let budget = budget.filter(|b| !b.is_none());
        let bot = match (kind, budget) {
            (BotKind::Expert, Some(_)) => NativeBot::Expert(ExpertBot::with_budget(seed, budget_arg(budget)?)),
            (_, Some(_)) => return Err(invalid_argument(msg!("arg.budget_kind", kind = kind.name()))),
            (_, None) => kind.build(seed),
        };
        Ok(PyNativeBot {
            bot: Mutex::new(bot),
            kind,
            seed,
        })
    }

    /// `"greedy"`, `"random"` or `"expert"`.
    #[getter]
    fn kind(&self) -> &'static str {
        self.kind.name()
    }

    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// The action this bot takes for `seat` (default: `state.to_act`).
    /// `InvalidArgumentError` if `seat` is not the seat to act or the game is over.
    #[pyo3(signature = (state, seat = None))]
    fn choose(
        &self,
        py: Python<'_>,
        state: &Bound<'_, PyGameState>,
        seat: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyAction> {
        // The bot thinks on its own copy of the state with the GIL released, holding
        // no borrow of the caller's state, which stays free for other threads.
        let state = state.get().snapshot(py);
        let state = &state;
        let seat = deciding_seat(state, seat)?;
        let mut bot = match self.bot.try_lock() {
            Ok(bot) => bot,
            Err(TryLockError::WouldBlock) => return Err(busy(msg!("busy.native_bot"))),
            // A panic inside `choose` was turned into an exception; the bot's state is
            // still a valid bot (its RNG may have advanced).
            Err(TryLockError::Poisoned(e)) => e.into_inner(),
        };
        let bot = &mut *bot;
        Ok(py.detach(|| bot.choose(state, seat)).into())
    }

    fn __repr__(&self) -> String {
        format!("NativeBot('{}', seed={})", self.kind.name(), self.seed)
    }
}

/// The seeds of game `index` of a batch seeded with `seed`: the `GameState` seed
/// and one `NativeBot` seed per seat. `simulate` plays game `index` with exactly
/// these, so `liverpool.agents.bots.play_game` can replay any simulated game.
#[pyfunction]
fn game_seeds(
    seed: &Bound<'_, PyAny>,
    index: &Bound<'_, PyAny>,
    players: &Bound<'_, PyAny>,
) -> PyResult<(u64, Vec<u64>)> {
    let seed = u64_arg(seed, "seed")?;
    let index = u64_arg(index, "index")?;
    let players = u64_arg(players, "players")?;
    if players > liverpool_engine::game::MAX_SEATS as u64 {
        return Err(invalid_argument(msg!(
            "arg.players_max",
            players = players,
            max = liverpool_engine::game::MAX_SEATS
        )));
    }
    Ok(liverpool_engine::sim::game_seeds(seed, index, players as usize))
}

// ----- simulate ------------------------------------------------------------------

/// The results of `simulate` as numpy arrays, indexed `[game, round, seat]`.
#[pyclass(name = "SimulationResult", module = "liverpool._core", frozen)]
pub struct PySimulationResult {
    #[pyo3(get)]
    games: usize,
    #[pyo3(get)]
    rounds: usize,
    #[pyo3(get)]
    players: usize,
    #[pyo3(get)]
    seed: u64,
    /// The index of the first game in the batch seeded with `seed`: these are games
    /// `first..first + games` (0 unless `simulate` was given `first`).
    #[pyo3(get)]
    first: u64,
    /// The bot name of each seat.
    #[pyo3(get)]
    bots: Py<PyTuple>,
    /// Wall-clock seconds the simulation took (progress callbacks included).
    #[pyo3(get)]
    seconds: f64,
    /// `(games, rounds, players)` int32: round scores, the cut bonus included (L-10).
    #[pyo3(get)]
    round_scores: Py<PyArray3<i32>>,
    /// `(games, rounds)` int8: the seat that went out, -1 for no winner.
    #[pyo3(get)]
    went_out: Py<PyArray2<i8>>,
    /// `(games, rounds)` int32: turns played, the round's last turn included.
    #[pyo3(get)]
    turns: Py<PyArray2<i32>>,
    /// `(games, rounds, players)` int16: buys per seat (L-6).
    #[pyo3(get)]
    buys: Py<PyArray3<i16>>,
    /// `(games, rounds)` int8: the seat that earned the cut bonus (L-2.3), -1 for none.
    #[pyo3(get)]
    cut_bonus: Py<PyArray2<i8>>,
    /// `(games, rounds)` bool: the round ended with no winner (L-9.2, L-9.3).
    #[pyo3(get)]
    no_winner: Py<PyArray2<bool>>,
    /// `(games, players)` int32: final totals.
    #[pyo3(get)]
    totals: Py<PyArray2<i32>>,
    /// `(games, players)` bool: the seat won the game (several for a draw, L-10.3).
    #[pyo3(get)]
    winners: Py<PyArray2<bool>>,
}

fn array2<T: numpy::Element>(py: Python<'_>, data: Vec<T>, shape: (usize, usize)) -> PyResult<Py<PyArray2<T>>> {
    let a = Array2::from_shape_vec(shape, data).map_err(|e| invalid_argument(msg!("arg.internal", error = e)))?;
    Ok(a.into_pyarray(py).unbind())
}

fn array3<T: numpy::Element>(py: Python<'_>, data: Vec<T>, shape: (usize, usize, usize)) -> PyResult<Py<PyArray3<T>>> {
    let a = Array3::from_shape_vec(shape, data).map_err(|e| invalid_argument(msg!("arg.internal", error = e)))?;
    Ok(a.into_pyarray(py).unbind())
}

/// A flat copy of a numpy array of a result (C order, whatever the array's strides).
fn flat2<T: numpy::Element + Copy>(py: Python<'_>, a: &Py<PyArray2<T>>) -> Vec<T> {
    a.bind(py).readonly().as_array().iter().copied().collect()
}

fn flat3<T: numpy::Element + Copy>(py: Python<'_>, a: &Py<PyArray3<T>>) -> Vec<T> {
    a.bind(py).readonly().as_array().iter().copied().collect()
}

impl PySimulationResult {
    fn new(py: Python<'_>, r: SimResult, seed: u64, first: u64, kinds: &[BotKind], seconds: f64) -> PyResult<Self> {
        let names: Vec<&str> = kinds.iter().map(|b| b.name()).collect();
        Self::from_parts(py, r, seed, first, PyTuple::new(py, names)?.unbind(), seconds)
    }

    fn from_parts(
        py: Python<'_>,
        r: SimResult,
        seed: u64,
        first: u64,
        bots: Py<PyTuple>,
        seconds: f64,
    ) -> PyResult<Self> {
        let (g, k, p) = (r.games, r.rounds, r.players);
        Ok(PySimulationResult {
            games: g,
            rounds: k,
            players: p,
            seed,
            first,
            bots,
            seconds,
            round_scores: array3(py, r.round_scores, (g, k, p))?,
            went_out: array2(py, r.went_out, (g, k))?,
            turns: array2(py, r.turns, (g, k))?,
            buys: array3(py, r.buys, (g, k, p))?,
            cut_bonus: array2(py, r.cut_bonus, (g, k))?,
            no_winner: array2(py, r.no_winner, (g, k))?,
            totals: array2(py, r.totals, (g, p))?,
            winners: array2(py, r.winners, (g, p))?,
        })
    }

    /// The arrays back as the engine's flat result.
    fn to_sim(&self, py: Python<'_>) -> SimResult {
        SimResult {
            games: self.games,
            rounds: self.rounds,
            players: self.players,
            round_scores: flat3(py, &self.round_scores),
            went_out: flat2(py, &self.went_out),
            turns: flat2(py, &self.turns),
            buys: flat3(py, &self.buys),
            cut_bonus: flat2(py, &self.cut_bonus),
            no_winner: flat2(py, &self.no_winner),
            totals: flat2(py, &self.totals),
            winners: flat2(py, &self.winners),
        }
    }

    /// The bot names as one comma-separated string (for messages).
    fn bot_list(&self, py: Python<'_>) -> PyResult<String> {
        let names: Vec<String> = self.bots.bind(py).extract()?;
        Ok(names.join(","))
    }
}

#[pymethods]
impl PySimulationResult {
    fn __len__(&self) -> usize {
        self.games
    }
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let first = if self.first == 0 {
            String::new()
        } else {
            format!(", first={}", self.first)
        };
        Ok(format!(
            "SimulationResult(games={}, seed={}{}, bots={})",
            self.games,
            self.seed,
            first,
            self.bots.bind(py).repr()?
        ))
    }

    /// One result from consecutive parts of one batch: the same seed, bots and
    /// rounds, each part starting where the one before ended (`first`). The games
    /// are those of the parts in order, so joining the parts of a batch split by
    /// game index gives the arrays of the whole batch. `seconds` defaults to the
    /// sum of the parts' seconds (give the wall-clock time of a parallel run).
    /// `InvalidArgumentError` for no parts or for a part that does not follow.
    #[staticmethod]
    #[pyo3(signature = (parts, seconds = None))]
    fn concat(py: Python<'_>, parts: &Bound<'_, PyAny>, seconds: Option<f64>) -> PyResult<PySimulationResult> {
        let mut items: Vec<Bound<'_, PySimulationResult>> = Vec::new();
        let kind_of = |obj: &Bound<'_, PyAny>| obj.get_type().name().map(|n| n.to_string()).unwrap_or_default();
        for item in parts
            .try_iter()
            .map_err(|_| invalid_argument(msg!("arg.not_iterable", what = "parts", kind = kind_of(parts))))?
        {
            let item = item?;
            let part = item.cast_into::<PySimulationResult>().map_err(|e| {
                invalid_argument(msg!(
                    "arg.not_iterable",
                    what = "parts",
                    kind = kind_of(&e.into_inner())
                ))
            })?;
            items.push(part);
        }
        let Some(head) = items.first() else {
            return Err(invalid_argument(msg!("sim.concat_empty")));
        };
        let head = head.get();
        let head_bots = head.bot_list(py)?;
        let mut next = head.first;
        let mut joined: Option<SimResult> = None;
        let mut total_seconds = 0.0;
        for (index, part) in items.iter().enumerate() {
            let part = part.get();
            let bots = part.bot_list(py)?;
            if part.seed != head.seed || part.first != next || bots != head_bots || part.rounds != head.rounds {
                return Err(invalid_argument(msg!(
                    "sim.concat_part",
                    index = index,
                    seed = part.seed,
                    first = part.first,
                    bots = bots,
                    rounds = part.rounds,
                    expected_seed = head.seed,
                    expected_first = next,
                    expected_bots = &head_bots,
                    expected_rounds = head.rounds
                )));
            }
            next += part.games as u64;
            total_seconds += part.seconds;
            let sim = part.to_sim(py);
            match joined.as_mut() {
                None => joined = Some(sim),
                Some(j) => j.append(sim),
            }
        }
        let joined = joined.expect("at least one part");
        let bots = head.bots.clone_ref(py);
        PySimulationResult::from_parts(
            py,
            joined,
            head.seed,
            head.first,
            bots,
            seconds.unwrap_or(total_seconds),
        )
    }

    /// Pickling (Ray and multiprocessing send results between processes): the
    /// fields and arrays, rebuilt by `_simulation_result_from_arrays`.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let this = slf.get();
        let rebuild = py
            .import("liverpool._core")?
            .getattr("_simulation_result_from_arrays")?;
        let arrays = PyList::new(
            py,
            [
                this.round_scores.bind(py).as_any(),
                this.went_out.bind(py).as_any(),
                this.turns.bind(py).as_any(),
                this.buys.bind(py).as_any(),
                this.cut_bonus.bind(py).as_any(),
                this.no_winner.bind(py).as_any(),
                this.totals.bind(py).as_any(),
                this.winners.bind(py).as_any(),
            ],
        )?;
        let args = (
            this.games,
            this.rounds,
            this.players,
            this.seed,
            this.first,
            this.bots.bind(py),
            this.seconds,
            arrays,
        )
            .into_pyobject(py)?;
        Ok((rebuild, args))
    }
}

/// A flat copy of an array argument, checked against `shape` (C order).
fn checked<T: numpy::Element + Copy>(a: &Bound<'_, PyAny>, shape: &[usize]) -> PyResult<Vec<T>> {
    let array = a
        .extract::<PyReadonlyArrayDyn<'_, T>>()
        .map_err(|_| invalid_argument(msg!("arg.internal", error = "SimulationResult array of the wrong type")))?;
    if array.shape() != shape {
        return Err(invalid_argument(msg!(
            "arg.internal",
            error = "SimulationResult array of the wrong shape"
        )));
    }
    Ok(array.as_array().iter().copied().collect())
}

/// The unpickler of `SimulationResult.__reduce__` (not a public constructor).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn _simulation_result_from_arrays(
    py: Python<'_>,
    games: usize,
    rounds: usize,
    players: usize,
    seed: u64,
    first: u64,
    bots: Bound<'_, PyTuple>,
    seconds: f64,
    arrays: Vec<Bound<'_, PyAny>>,
) -> PyResult<PySimulationResult> {
    let [round_scores, went_out, turns, buys, cut_bonus, no_winner, totals, winners] = arrays.as_slice() else {
        return Err(invalid_argument(msg!(
            "arg.internal",
            error = "SimulationResult needs 8 arrays"
        )));
    };
    let (g, k, p) = (games, rounds, players);
    let sim = SimResult {
        games,
        rounds,
        players,
        round_scores: checked(round_scores, &[g, k, p])?,
        went_out: checked(went_out, &[g, k])?,
        turns: checked(turns, &[g, k])?,
        buys: checked(buys, &[g, k, p])?,
        cut_bonus: checked(cut_bonus, &[g, k])?,
        no_winner: checked(no_winner, &[g, k])?,
        totals: checked(totals, &[g, p])?,
        winners: checked(winners, &[g, p])?,
    };
    PySimulationResult::from_parts(py, sim, seed, first, bots.unbind(), seconds)
}

/// Play `games` full games between native bots, one bot name per seat (`"greedy"`,
/// `"random"`; the number of bots is the number of players), and return their
/// results as numpy arrays. Game `i` depends only on `(seed, i)`, the bots and the
/// rules: never on `threads` (default: every core) or on progress reporting. The
/// GIL is released while games run. `progress(done, total)`, if given, is called
/// between chunks of games. Unknown bot names raise `InvalidArgumentError`.
/// `first` plays games `first..first + games` of the batch instead (a seed range of
/// a larger batch: `liverpool.agents.distributed` splits a batch this way and joins the
/// parts with `SimulationResult.concat`).
#[pyfunction]
#[pyo3(signature = (games, seed = None, bots = None, rules = None, threads = None, progress = None, first = None))]
#[allow(clippy::too_many_arguments)]
fn simulate(
    py: Python<'_>,
    games: &Bound<'_, PyAny>,
    seed: Option<&Bound<'_, PyAny>>,
    bots: Option<&Bound<'_, PyAny>>,
    #[pyo3(from_py_with = crate::cards::rules_param)] rules: Option<PyRef<'_, PyRuleSet>>,
    threads: Option<&Bound<'_, PyAny>>,
    progress: Option<&Bound<'_, PyAny>>,
    first: Option<&Bound<'_, PyAny>>,
) -> PyResult<PySimulationResult> {
    let games = u64_arg(games, "games")?;
    let first = first
        .filter(|f| !f.is_none())
        .map(|f| u64_arg(f, "first"))
        .transpose()?
        .unwrap_or(0);
    // The limit is the whole batch's, not each chunk's.
    py_result(check_batch(games))?;
    let seed = seed.map(|s| u64_arg(s, "seed")).transpose()?.unwrap_or(0);
    let kinds = match bots {
        Some(b) => bot_kinds(b)?,
        None => vec![BotKind::Greedy, BotKind::Greedy, BotKind::Random, BotKind::Greedy],
    };
    let threads = threads_arg(threads.filter(|t| !t.is_none()))?;
    let progress = progress.filter(|p| !p.is_none());
    if let Some(p) = progress {
        if !p.is_callable() {
            return Err(invalid_argument(msg!("arg.progress")));
        }
    }
    let rules = Arc::new(rules_or_default(rules));
    let start = Instant::now();
    // Chunks let Ctrl-C and the progress callback in between; each game's result
    // depends only on its index, so chunking changes nothing.
    let chunk = (games / 100).clamp(64, 4096);
    let mut result: Option<SimResult> = None;
    let mut done = 0u64;
    loop {
        let n = chunk.min(games - done);
        let part = py.detach(|| simulate_range(first + done, n, seed, &kinds, Arc::clone(&rules), threads));
        let part = py_result(part)?;
        done += n;
        match result.as_mut() {
            None => result = Some(part),
            Some(r) => r.append(part),
        }
        if let Some(p) = progress {
            p.call1((done, games))?;
        }
        if done >= games {
            break;
        }
        py.check_signals()?;
    }
    let result = result.expect("at least one chunk ran");
    PySimulationResult::new(py, result, seed, first, &kinds, start.elapsed().as_secs_f64())
}

// ----- benchmark helpers -----------------------------------------------------------

/// Nanoseconds per native `GameState::clone` of a mid-game state (round 3, a few
/// melds on the table, after greedy play), averaged over `iterations` clones, for
/// `liverpool bench`. Measured in Rust so the number is the engine's, not Python's.
#[pyfunction]
#[pyo3(signature = (iterations = None))]
fn bench_clone_ns(py: Python<'_>, iterations: Option<&Bound<'_, PyAny>>) -> PyResult<f64> {
    let iterations = iterations
        .map(|i| u64_arg(i, "iterations"))
        .transpose()?
        .unwrap_or(100_000)
        .max(1);
    Ok(py.detach(|| {
        let state = mid_game_state();
        let start = Instant::now();
        for _ in 0..iterations {
            std::hint::black_box(std::hint::black_box(&state).clone());
        }
        start.elapsed().as_nanos() as f64 / iterations as f64
    }))
}

/// A state in the middle of a game: greedy bots play from seed 1 into round 3 until
/// some seat has gone down and a few turns have passed.
fn mid_game_state() -> GameState {
    let mut state = GameState::new_liverpool(1);
    let mut bots: Vec<NativeBot> = (0..4).map(|s| BotKind::Greedy.build(s)).collect();
    let mut turns_after_down = 0;
    while let Some(seat) = state.to_act() {
        if state.round() >= 3 && !state.table().is_empty() {
            turns_after_down += 1;
            if turns_after_down > 20 {
                break;
            }
        }
        let action = bots[seat].choose(&state, seat);
        if state.apply(seat, &action).is_err() {
            break;
        }
    }
    state
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyNativeBot>()?;
    m.add_class::<PySimulationResult>()?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(game_seeds, m)?)?;
    m.add_function(wrap_pyfunction!(_simulation_result_from_arrays, m)?)?;
    m.add_function(wrap_pyfunction!(bench_clone_ns, m)?)?;
    Ok(())
}
