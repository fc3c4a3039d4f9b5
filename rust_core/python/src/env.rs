//! Reinforcement-learning entry points: the fixed action space of a game
//! (`GameState.legal_action_mask`, `action_id`, `action_from_id`, `apply_id`, called
//! from `game.rs`), `liverpool.action_space_size` and `liverpool.VecEnv`. Conversions only: ids, masks
//! and legality are the engine's (`liverpool_engine::game::ActionSpace`).

use crate::action_space::{layout_dict, names_of};
use crate::args::{index_arg, players_arg, threads_arg};
use crate::cards::PyRuleSet;
use crate::errors::{busy, invalid_argument, py_result};
use crate::game::PyGameState;
use liverpool_engine::bots::BotKind;
use liverpool_engine::game::ActionSpace;
use liverpool_engine::msg;
use liverpool_engine::rules::RuleSet;
use liverpool_engine::search::with_threads;
use liverpool_engine::vec_env::{Outputs, VecEnv, VecEnvConfig};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::{Arc, Mutex, TryLockError};

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyVecEnv>()?;
    Ok(())
}

// ----- VecEnv ------------------------------------------------------------------------

/// `n` games held in Rust and stepped together, in parallel with the GIL released
/// (docs/action-space.md "VecEnv"). `reset()` and `step(actions)` write into arrays
/// the environment owns and returns: the next call overwrites them, so copy what you
/// keep. Without `opponents` every seat is an agent and each row is the `to_act`
/// seat's; with `opponents` (`"greedy"`, `"random"`) the other seats are native bots
/// and each row is `agent_seat`'s. A finished game reports `terminated` and is
/// replaced at once: the row returned is already the next game's, and the finished
/// game's totals are in `last_totals`.
///
/// Threads: one call at a time per environment; a second thread gets
/// `ConcurrentUseError` (code `busy`) and nothing changes.
#[pyclass(name = "VecEnv", module = "liverpool._core", frozen)]
pub struct PyVecEnv {
    env: Mutex<VecEnv>,
    obs: Py<PyArray2<f32>>,
    mask: Py<PyArray2<bool>>,
    rewards: Py<PyArray2<f32>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    to_act: Py<PyArray1<i8>>,
    final_obs: Py<PyArray2<f32>>,
    n: usize,
    players: usize,
    space_size: usize,
    obs_size: usize,
    rules: RuleSet,
}

type Reset<'py> = (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray2<bool>>);

type Step<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray2<bool>>,
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
);

impl PyVecEnv {
    fn lock(&self) -> PyResult<std::sync::MutexGuard<'_, VecEnv>> {
        match self.env.try_lock() {
            Ok(env) => Ok(env),
            Err(TryLockError::WouldBlock) => Err(busy(msg!("busy.vec_env"))),
            Err(TryLockError::Poisoned(e)) => Ok(e.into_inner()),
        }
    }

    /// Run `f` on the engine environment and this object's output arrays, with the
    /// GIL released.
    fn with_outputs<T: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut VecEnv, Outputs<'_>) -> liverpool_engine::Result<T> + Send,
    ) -> PyResult<T> {
        let mut env = self.lock()?;
        let env = &mut *env;
        let mut obs = self.obs.bind(py).readwrite();
        let mut mask = self.mask.bind(py).readwrite();
        let mut rewards = self.rewards.bind(py).readwrite();
        let mut terminated = self.terminated.bind(py).readwrite();
        let mut truncated = self.truncated.bind(py).readwrite();
        let mut to_act = self.to_act.bind(py).readwrite();
        let mut final_obs = self.final_obs.bind(py).readwrite();
        let internal = |e: numpy::AsSliceError| invalid_argument(msg!("arg.internal", error = e));
        let out = Outputs {
            obs: obs.as_slice_mut().map_err(internal)?,
            mask: mask.as_slice_mut().map_err(internal)?,
            rewards: rewards.as_slice_mut().map_err(internal)?,
            terminated: terminated.as_slice_mut().map_err(internal)?,
            truncated: truncated.as_slice_mut().map_err(internal)?,
            to_act: to_act.as_slice_mut().map_err(internal)?,
            final_obs: final_obs.as_slice_mut().map_err(internal)?,
        };
        py_result(py.detach(move || f(env, out)))
    }
}

/// The action ids of one step: a 1-D array (or sequence) of integers. Floats, bools,
/// complex numbers, strings and objects are refused (`vec_env.actions_kind`), never
/// truncated to ids; unsigned ids beyond `i64` wrap to negative ones, which every
/// step refuses as out of range.
fn actions_arg(py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
    let kind = || {
        actions
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_else(|_| "?".into())
    };
    if let Ok(a) = actions.cast::<PyArray1<i64>>() {
        return Ok(a.readonly().as_array().iter().copied().collect());
    }
    let refuse = |what: String| invalid_argument(msg!("vec_env.actions_kind", kind = what));
    let numpy = py.import("numpy")?;
    let array = numpy
        .getattr("asarray")?
        .call1((actions,))
        .map_err(|_| refuse(kind()))?;
    let dtype = array.getattr("dtype")?;
    let dtype_kind: String = dtype.getattr("kind")?.extract()?;
    if dtype_kind != "i" && dtype_kind != "u" {
        return Err(refuse(format!("{} of {}", kind(), dtype.str()?)));
    }
    let converted = array.call_method1("astype", ("int64",))?;
    let array = converted.cast::<PyArray1<i64>>().map_err(|_| {
        refuse(format!(
            "{} of {} dimensions",
            kind(),
            array.getattr("ndim").map(|d| d.to_string()).unwrap_or_default()
        ))
    })?;
    Ok(array.readonly().as_array().iter().copied().collect())
}

#[pymethods]
impl PyVecEnv {
    #[new]
    #[pyo3(signature = (n, rules = None, players = None, seed = None, opponents = None, agent_seat = None, threads = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        n: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = crate::cards::rules_param)] rules: Option<PyRef<'_, PyRuleSet>>,
        players: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        opponents: Option<&Bound<'_, PyAny>>,
        agent_seat: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let n = index_arg(n, "n")?;
        let rules = rules.map(|r| r.rules.clone()).unwrap_or_else(RuleSet::liverpool);
        let players = players_arg(players, &rules)? as usize;
        let seed = seed.map(|s| index_arg(s, "seed")).transpose()?.unwrap_or(0);
        let opponents = opponents
            .map(|o| py_result(BotKind::parse(&crate::cards::str_arg(o, "opponents")?)))
            .transpose()?;
        let agent_seat = agent_seat.map(|s| index_arg(s, "agent_seat")).transpose()?.unwrap_or(0);
        let threads = match threads {
            Some(t) if index_arg(t, "threads").is_err() => {
                return Err(invalid_argument(msg!("arg.threads", threads = t)))
            }
            t => threads_arg(t)?,
        };
        py_result(with_threads(threads, || ()))?;
        let config = VecEnvConfig {
            n: usize::try_from(n).unwrap_or(usize::MAX),
            rules: Arc::new(rules.clone()),
            players,
            seed,
            opponents,
            agent_seat: usize::try_from(agent_seat).unwrap_or(usize::MAX),
            threads,
        };
        let env = py_result(py.detach(|| VecEnv::new(config)))?;
        let (n, space_size, obs_size) = (env.len(), env.space().size, env.obs_size());
        Ok(PyVecEnv {
            obs: PyArray2::zeros(py, (n, obs_size), false).unbind(),
            mask: PyArray2::zeros(py, (n, space_size), false).unbind(),
            rewards: PyArray2::zeros(py, (n, players), false).unbind(),
            terminated: PyArray1::zeros(py, n, false).unbind(),
            truncated: PyArray1::zeros(py, n, false).unbind(),
            to_act: PyArray1::zeros(py, n, false).unbind(),
            final_obs: PyArray2::zeros(py, (n, obs_size), false).unbind(),
            env: Mutex::new(env),
            n,
            players,
            space_size,
            obs_size,
            rules,
        })
    }

    /// Start a new game everywhere (`seed` replaces the seed given at construction)
    /// and return `(obs, mask)`: float32 `(n, obs_size)` and bool `(n, action_space_size)`.
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(&self, py: Python<'py>, seed: Option<&Bound<'py, PyAny>>) -> PyResult<Reset<'py>> {
        let seed = seed.map(|s| index_arg(s, "seed")).transpose()?;
        self.with_outputs(py, |env, out| env.reset(seed, out))?;
        Ok((self.obs.bind(py).clone(), self.mask.bind(py).clone()))
    }

    /// Apply one action id per game and return `(obs, mask, rewards, terminated,
    /// truncated)`. Rewards (float32 `(n, players)`) are minus each seat's round score
    /// for every round that ended in the step (L-10). An illegal id raises
    /// `InvalidArgumentError` (`invalid_action_id`) naming the game; nothing changes.
    fn step<'py>(&self, py: Python<'py>, actions: &Bound<'py, PyAny>) -> PyResult<Step<'py>> {
        let actions = actions_arg(py, actions)?;
        let actions = &actions;
        self.with_outputs(py, move |env, out| env.step(actions, out))?;
        Ok((
            self.obs.bind(py).clone(),
            self.mask.bind(py).clone(),
            self.rewards.bind(py).clone(),
            self.terminated.bind(py).clone(),
            self.truncated.bind(py).clone(),
        ))
    }

    /// One uniformly random legal id per game (int64 `(n,)`), drawn natively from `seed`.
    fn sample_actions<'py>(&self, py: Python<'py>, seed: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let seed = index_arg(seed, "seed")?;
        let env = self.lock()?;
        let env = &*env;
        let mut out = vec![0i64; self.n];
        let buf = &mut out;
        py_result(py.detach(move || env.sample_actions(seed, buf)))?;
        Ok(out.into_pyarray(py))
    }

    /// float32 `(n, obs_size)`: row `i` is the last observation of game `i`'s
    /// last finished game, written by the step that ended it (the row's seat: the
    /// agent, or the seat that moved last); other rows keep older values. Owned by
    /// the environment like the other arrays: copy what you keep.
    #[getter]
    fn final_observations<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.final_obs.bind(py).clone()
    }

    /// int8 `(n,)`: the seat whose observation and mask each row holds.
    #[getter]
    fn to_act<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        self.to_act.bind(py).clone()
    }

    /// int32 `(n, players)`: the final totals of each game's last finished game
    /// (zeros where `episodes` is 0).
    #[getter]
    fn last_totals<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i32>>> {
        let env = self.lock()?;
        let mut flat = vec![0i32; self.n * self.players];
        for (e, row) in flat.chunks_mut(self.players).enumerate() {
            if let Some(t) = env.last_totals(e) {
                row.copy_from_slice(t);
            }
        }
        let a = numpy::ndarray::Array2::from_shape_vec((self.n, self.players), flat)
            .map_err(|e| invalid_argument(msg!("arg.internal", error = e)))?;
        Ok(a.into_pyarray(py))
    }

    /// int64 `(n,)`: games finished so far in each environment.
    #[getter]
    fn episodes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let env = self.lock()?;
        let counts: Vec<i64> = (0..self.n).map(|e| env.episodes(e).unwrap_or(0) as i64).collect();
        Ok(counts.into_pyarray(py))
    }

    /// A copy of game `index` now (for tests and inspection).
    fn game(&self, index: &Bound<'_, PyAny>) -> PyResult<PyGameState> {
        let i = index_arg(index, "index")?;
        let env = self.lock()?;
        usize::try_from(i)
            .ok()
            .and_then(|i| env.state(i))
            .map(|g| PyGameState::from(g.clone()))
            .ok_or_else(|| invalid_argument(msg!("vec_env.no_such_env", index = i, n = self.n)))
    }

    fn __len__(&self) -> usize {
        self.n
    }
    #[getter]
    fn num_envs(&self) -> usize {
        self.n
    }
    #[getter]
    fn players(&self) -> usize {
        self.players
    }
    #[getter]
    fn action_space_size(&self) -> usize {
        self.space_size
    }
    #[getter]
    fn observation_size(&self) -> usize {
        self.obs_size
    }
    #[getter]
    fn rules(&self) -> PyRuleSet {
        PyRuleSet {
            rules: self.rules.clone(),
        }
    }
    /// The blocks of the action space, as `name -> slice`.
    fn action_layout<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        layout_dict(py, &ActionSpace::new(&self.rules, self.players))
    }
    /// The name of every action id, in id order (see `liverpool.action_names`).
    fn action_names(&self) -> Vec<String> {
        names_of(&ActionSpace::new(&self.rules, self.players))
    }
    fn __repr__(&self) -> String {
        format!(
            "VecEnv(n={}, rules='{}', players={})",
            self.n, self.rules.name, self.players
        )
    }
}
