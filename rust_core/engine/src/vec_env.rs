//! A vectorised environment for reinforcement learning: `n` games stepped together,
//! in parallel, writing observations, action masks, rewards and terminations into
//! caller-provided flat buffers (docs/action-space.md "VecEnv").
//!
//! - Actions are ids of the game's [`ActionSpace`]. Without opponents every seat is
//!   an agent and the action is the `to_act` seat's; with opponents the action is
//!   `agent_seat`'s and the native bots then play until that seat must act again.
//! - Rewards: minus each seat's round score (L-10) for every round that ended during
//!   the step, one column per seat.
//! - Automatic reset: a game that ends during a step reports `terminated`; its
//!   totals go to `last_totals` and the observation and mask returned are already
//!   those of the next game of that environment.
//! - Determinism: game `e` of episode `k` is seeded from `(seed, e, k)` only, and each
//!   game has its own bots and RNG, so results do not depend on the thread count.
//! - A step validates every action against the last mask first: one illegal id
//!   refuses the whole step with nothing changed.

use crate::bots::{Bot, BotKind, NativeBot};
use crate::error::{Error, ErrorCode, Result};
use crate::game::{observation_layout, ActionSpace, Event, GameState, ObservationLayout};
use crate::msg;
use crate::rng::Rng;
use crate::rules::RuleSet;
use crate::search::with_threads;
use rayon::prelude::*;
use std::sync::Arc;

/// The most environments one `VecEnv` holds.
pub const MAX_ENVS: usize = 1 << 20;

/// How a `VecEnv` is built.
#[derive(Clone, Debug)]
pub struct VecEnvConfig {
    pub n: usize,
    pub rules: Arc<RuleSet>,
    pub players: usize,
    pub seed: u64,
    /// `None`: every seat is an agent. `Some(kind)`: every seat but `agent_seat` is a
    /// native bot of this kind.
    pub opponents: Option<BotKind>,
    pub agent_seat: usize,
    /// Threads of the rayon pool (`None`: one per core).
    pub threads: Option<usize>,
}

/// Where one step's results go: flat row-major buffers of `n` rows.
pub struct Outputs<'a> {
    /// `n × obs_size`.
    pub obs: &'a mut [f32],
    /// `n × action space size`.
    pub mask: &'a mut [bool],
    /// `n × players`.
    pub rewards: &'a mut [f32],
    pub terminated: &'a mut [bool],
    pub truncated: &'a mut [bool],
    /// The seat whose observation and mask are in the row (-1 never happens: a
    /// finished game is replaced at once).
    pub to_act: &'a mut [i8],
    /// `n × obs_size`: for a game that ended in this step, its last observation (the
    /// seat of its row: the agent, or the seat that made the last move); rows of
    /// games that did not end are left as they were.
    pub final_obs: &'a mut [f32],
}

/// One environment: its game, its bots, and where it is in its sequence of games.
#[derive(Clone, Debug)]
struct Env {
    state: GameState,
    bots: Vec<NativeBot>,
    /// Games finished so far (the next game's episode number).
    episode: u64,
    /// The legal ids of the row returned last (checked by the next step, drawn
    /// from by `sample_actions`): a short list instead of a second copy of the mask.
    legal: Vec<u16>,
    seat: usize,
    /// Totals of the last finished game (empty before the first).
    last_totals: Vec<i32>,
}

/// `n` games held in Rust and stepped in parallel.
#[derive(Clone, Debug)]
pub struct VecEnv {
    config: VecEnvConfig,
    space: ActionSpace,
    layout: ObservationLayout,
    envs: Vec<Env>,
}

/// The seeds of episode `episode` of environment `env`: the game's, then one per seat.
fn episode_seeds(seed: u64, env: usize, episode: u64, players: usize) -> (u64, Vec<u64>) {
    let mut rng = Rng::for_stream(seed ^ episode.wrapping_mul(0x9E37_79B9_7F4A_7C15), env as u64);
    let game = rng.next_u64();
    (game, (0..players).map(|_| rng.next_u64()).collect())
}

fn invalid(message: crate::error::Message) -> Error {
    Error::with(ErrorCode::InvalidArgument, None, message)
}

impl VecEnv {
    /// Check the configuration and build the first game of every environment (call
    /// [`VecEnv::reset`] to get its observations).
    pub fn new(config: VecEnvConfig) -> Result<VecEnv> {
        if config.n == 0 || config.n > MAX_ENVS {
            return Err(invalid(msg!("vec_env.size", n = config.n, max = MAX_ENVS)));
        }
        // The rule set and the player count are checked by the engine (L-1.1).
        let probe = GameState::new(Arc::clone(&config.rules), config.players, config.seed)?;
        if config.opponents.is_some() {
            probe.check_seat(config.agent_seat)?;
        }
        let space = probe.action_space();
        let layout = observation_layout(config.players, config.rules.rounds() as usize);
        let mut env = VecEnv {
            space,
            layout,
            envs: Vec::new(),
            config,
        };
        env.envs = (0..env.config.n)
            .map(|e| fresh_env(&env.config, e, 0, Vec::new()))
            .collect::<Result<_>>()?;
        Ok(env)
    }

    pub fn len(&self) -> usize {
        self.envs.len()
    }
    pub fn is_empty(&self) -> bool {
        self.envs.is_empty()
    }
    pub fn players(&self) -> usize {
        self.config.players
    }
    pub fn space(&self) -> &ActionSpace {
        &self.space
    }
    pub fn obs_size(&self) -> usize {
        self.layout.size
    }
    pub fn config(&self) -> &VecEnvConfig {
        &self.config
    }
    /// The game of environment `env` now.
    pub fn state(&self, env: usize) -> Option<&GameState> {
        self.envs.get(env).map(|e| &e.state)
    }
    /// Totals of each environment's last finished game (`None` before its first).
    pub fn last_totals(&self, env: usize) -> Option<&[i32]> {
        self.envs
            .get(env)
            .and_then(|e| (!e.last_totals.is_empty()).then_some(&e.last_totals[..]))
    }
    /// Games finished so far by environment `env`.
    pub fn episodes(&self, env: usize) -> Option<u64> {
        self.envs.get(env).map(|e| e.episode)
    }

    fn check_outputs(&self, out: &Outputs<'_>) -> Result<()> {
        let n = self.envs.len();
        let ok = out.obs.len() == n * self.layout.size
            && out.mask.len() == n * self.space.size
            && out.rewards.len() == n * self.config.players
            && out.terminated.len() == n
            && out.truncated.len() == n
            && out.to_act.len() == n
            && out.final_obs.len() == n * self.layout.size;
        if ok {
            Ok(())
        } else {
            Err(invalid(msg!("vec_env.buffers", n = n)))
        }
    }

    /// Start a new game in every environment (episode numbers restart at 0; `seed`
    /// replaces the configured seed when given) and write the first observations.
    pub fn reset(&mut self, seed: Option<u64>, out: Outputs<'_>) -> Result<()> {
        self.check_outputs(&out)?;
        if let Some(s) = seed {
            self.config.seed = s;
        }
        let (space, layout, agent) = (self.space, self.layout, self.agent());
        let fresh: Vec<Env> = (0..self.envs.len())
            .map(|e| fresh_env(&self.config, e, 0, Vec::new()))
            .collect::<Result<_>>()?;
        self.envs = fresh;
        let players = self.config.players;
        let mut envs = std::mem::take(&mut self.envs);
        let result = with_threads(self.config.threads, || {
            (
                envs.par_iter_mut(),
                out.obs.par_chunks_mut(layout.size),
                out.mask.par_chunks_mut(space.size),
                out.rewards.par_chunks_mut(players),
                out.terminated.par_iter_mut(),
                out.truncated.par_iter_mut(),
                out.to_act.par_iter_mut(),
            )
                .into_par_iter()
                .with_min_len(8)
                .map(|(env, obs, mask, rewards, terminated, truncated, to_act)| {
                    rewards.fill(0.0);
                    *terminated = false;
                    *truncated = false;
                    play_bots(env, agent, rewards)?;
                    publish(env, &space, &layout, agent, obs, mask, to_act);
                    Ok(())
                })
                .collect::<Result<Vec<()>>>()
        });
        self.envs = envs;
        result?.map(|_| ())
    }

    fn agent(&self) -> Option<usize> {
        self.config.opponents.map(|_| self.config.agent_seat)
    }

    /// Apply one action id per environment (the `to_act` seat's; with opponents,
    /// `agent_seat`'s) and write the results. Every id is checked against the last
    /// mask first: an illegal one refuses the step (naming the environment) and
    /// nothing changes.
    pub fn step(&mut self, actions: &[i64], out: Outputs<'_>) -> Result<()> {
        self.check_outputs(&out)?;
        if actions.len() != self.envs.len() {
            return Err(invalid(msg!(
                "vec_env.actions_len",
                n = self.envs.len(),
                given = actions.len()
            )));
        }
        let size = self.space.size;
        for (e, (env, &id)) in self.envs.iter().zip(actions).enumerate() {
            let legal = usize::try_from(id)
                .ok()
                .filter(|&i| i < size)
                .map(|i| env.legal.contains(&(i as u16)));
            if legal != Some(true) {
                let reason = if legal.is_none() {
                    msg!("action_id.out_of_range", id = id, last = size - 1)
                } else {
                    let block = self.space.block_of(id as usize).unwrap_or("?");
                    msg!("action_id.not_legal", id = id, block = block)
                };
                return Err(Error::with(
                    ErrorCode::InvalidActionId,
                    None,
                    msg!("vec_env.illegal_action", env = e, reason = reason),
                ));
            }
        }
        let (space, layout, agent) = (self.space, self.layout, self.agent());
        let players = self.config.players;
        let config = self.config.clone();
        let mut envs = std::mem::take(&mut self.envs);
        let result = with_threads(self.config.threads, || {
            (
                envs.par_iter_mut().enumerate(),
                actions.par_iter(),
                out.obs.par_chunks_mut(layout.size),
                out.mask.par_chunks_mut(space.size),
                out.rewards.par_chunks_mut(players),
                out.terminated.par_iter_mut(),
                out.truncated.par_iter_mut(),
                out.to_act.par_iter_mut(),
                out.final_obs.par_chunks_mut(layout.size),
            )
                .into_par_iter()
                .with_min_len(8)
                .map(
                    |((e, env), &id, obs, mask, rewards, terminated, truncated, to_act, final_obs)| {
                        rewards.fill(0.0);
                        *truncated = false;
                        let seat = env.seat;
                        let event = env.state.apply_legal_id(&space, seat, id as usize).map_err(|err| {
                            let reason = err.to_message();
                            Error::with(
                                err.code,
                                err.rule,
                                msg!("vec_env.illegal_action", env = e, reason = reason),
                            )
                        })?;
                        if let Some(event) = &event {
                            add_rewards(event, rewards);
                        }
                        play_bots(env, agent, rewards)?;
                        *terminated = env.state.is_game_over();
                        if *terminated {
                            env.state.write_observation(env.seat, &layout, final_obs);
                            let totals = env.state.totals();
                            let episode = env.episode + 1;
                            *env = fresh_env(&config, e, episode, totals)?;
                            play_bots(env, agent, rewards)?;
                        }
                        publish(env, &space, &layout, agent, obs, mask, to_act);
                        Ok(())
                    },
                )
                .collect::<Result<Vec<()>>>()
        });
        self.envs = envs;
        result?.map(|_| ())
    }

    /// One uniformly random legal id per environment, drawn from `Rng::for_stream(seed, env)`
    /// (the ids in the order the engine lists them for the mask).
    pub fn sample_actions(&self, seed: u64, out: &mut [i64]) -> Result<()> {
        if out.len() != self.envs.len() {
            return Err(invalid(msg!("vec_env.buffers", n = self.envs.len())));
        }
        with_threads(self.config.threads, || {
            (self.envs.par_iter().enumerate(), out.par_iter_mut())
                .into_par_iter()
                .with_min_len(64)
                .for_each(|((e, env), slot)| {
                    let mut rng = Rng::for_stream(seed, e as u64);
                    let k = rng.below(env.legal.len().max(1) as u32) as usize;
                    *slot = env.legal.get(k).map_or(-1, |&i| i64::from(i));
                })
        })
    }
}

/// Environment `index`'s game of episode `episode`, built from the configuration.
fn fresh_env(config: &VecEnvConfig, index: usize, episode: u64, last: Vec<i32>) -> Result<Env> {
    let (game_seed, bot_seeds) = episode_seeds(config.seed, index, episode, config.players);
    let state = GameState::new(Arc::clone(&config.rules), config.players, game_seed)?;
    let bots = match config.opponents {
        Some(kind) => bot_seeds.into_iter().map(|s| kind.build(s)).collect(),
        None => Vec::new(),
    };
    Ok(Env {
        state,
        bots,
        episode,
        legal: Vec::with_capacity(64),
        seat: 0,
        last_totals: last,
    })
}

/// L-10: minus each seat's score of every round the event (or what it set off) ended.
fn add_rewards(event: &Event, rewards: &mut [f32]) {
    let mut next = Some(event);
    while let Some(e) = next {
        if let Some(end) = &e.round_end {
            for (r, &s) in rewards.iter_mut().zip(&end.scores) {
                *r -= s as f32;
            }
        }
        next = e.then.as_deref();
    }
}

/// With opponents: the bots play until the agent must act or the game is over.
fn play_bots(env: &mut Env, agent: Option<usize>, rewards: &mut [f32]) -> Result<()> {
    let Some(agent) = agent else { return Ok(()) };
    while let Some(seat) = env.state.to_act() {
        if seat == agent {
            break;
        }
        let action = env.bots[seat].choose(&env.state, seat);
        let event = env.state.apply(seat, &action)?;
        add_rewards(&event, rewards);
    }
    Ok(())
}

/// Write the observation, the mask and the seat of `env` (the seat to act; with
/// opponents, the agent's) and remember the mask for the next step's check.
fn publish(
    env: &mut Env,
    space: &ActionSpace,
    layout: &ObservationLayout,
    agent: Option<usize>,
    obs: &mut [f32],
    mask: &mut [bool],
    to_act: &mut i8,
) {
    let seat = agent.or(env.state.to_act()).unwrap_or(0);
    env.seat = seat;
    mask.fill(false);
    let legal = &mut env.legal;
    legal.clear();
    env.state.for_each_legal_id(space, Some(seat), |id| {
        mask[id] = true;
        legal.push(id as u16);
    });
    env.state.write_observation(seat, layout, obs);
    *to_act = seat as i8;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Owned output buffers for `v`.
    #[derive(Clone, PartialEq, Debug)]
    struct Buffers {
        obs: Vec<f32>,
        mask: Vec<bool>,
        rewards: Vec<f32>,
        terminated: Vec<bool>,
        truncated: Vec<bool>,
        to_act: Vec<i8>,
        final_obs: Vec<f32>,
    }

    impl Buffers {
        fn for_env(v: &VecEnv) -> Buffers {
            let n = v.len();
            Buffers {
                obs: vec![0.0; n * v.obs_size()],
                mask: vec![false; n * v.space().size],
                rewards: vec![0.0; n * v.players()],
                terminated: vec![false; n],
                truncated: vec![false; n],
                to_act: vec![0; n],
                final_obs: vec![0.0; n * v.obs_size()],
            }
        }
        fn out(&mut self) -> Outputs<'_> {
            Outputs {
                obs: &mut self.obs,
                mask: &mut self.mask,
                rewards: &mut self.rewards,
                terminated: &mut self.terminated,
                truncated: &mut self.truncated,
                to_act: &mut self.to_act,
                final_obs: &mut self.final_obs,
            }
        }
    }

    fn config(n: usize, opponents: Option<BotKind>, threads: Option<usize>) -> VecEnvConfig {
        VecEnvConfig {
            n,
            rules: Arc::new(RuleSet::liverpool_classic()),
            players: 4,
            seed: 9,
            opponents,
            agent_seat: 1,
            threads,
        }
    }

    /// Run `steps` random steps, checking every row against its game; return every
    /// output of every step.
    fn run(cfg: VecEnvConfig, steps: u64) -> Vec<Buffers> {
        let mut v = VecEnv::new(cfg).unwrap();
        let mut b = Buffers::for_env(&v);
        v.reset(None, b.out()).unwrap();
        let mut trace = Vec::new();
        let mut actions = vec![0i64; v.len()];
        let (size, width) = (v.space().size, v.obs_size());
        for k in 0..steps {
            for e in 0..v.len() {
                let g = v.state(e).unwrap();
                let seat = b.to_act[e] as usize;
                let row = &b.mask[e * size..(e + 1) * size];
                assert_eq!(row, &g.legal_action_mask(Some(seat))[..], "env {e}: mask");
                let o = &b.obs[e * width..(e + 1) * width];
                assert_eq!(o, &g.observation_tensor(seat).unwrap()[..], "env {e}: observation");
            }
            v.sample_actions(k, &mut actions).unwrap();
            for (e, &id) in actions.iter().enumerate() {
                assert!(b.mask[e * size + id as usize], "sample_actions drew an illegal id");
            }
            v.step(&actions, b.out()).unwrap();
            trace.push(b.clone());
        }
        trace
    }

    #[test]
    fn the_same_seed_gives_the_same_arrays_whatever_the_thread_count() {
        for opponents in [None, Some(BotKind::Greedy)] {
            let one = run(config(6, opponents, Some(1)), 60);
            let two = run(config(6, opponents, Some(2)), 60);
            assert!(one == two, "threads=1 and threads=2 differ ({opponents:?})");
        }
    }

    #[test]
    fn every_preset_steps_with_masks_equal_to_legal_action_mask() {
        for name in RuleSet::preset_names() {
            let mut cfg = config(3, None, Some(2));
            cfg.rules = Arc::new(RuleSet::preset(name).unwrap());
            run(cfg, 150);
        }
    }

    #[test]
    fn an_illegal_id_refuses_the_whole_step_and_changes_nothing() {
        let mut v = VecEnv::new(config(3, None, Some(1))).unwrap();
        let mut b = Buffers::for_env(&v);
        v.reset(None, b.out()).unwrap();
        let before: Vec<GameState> = (0..3).map(|e| v.state(e).unwrap().clone()).collect();
        let returned = b.clone();
        let mut actions = vec![0i64; 3];
        v.sample_actions(1, &mut actions).unwrap();
        actions[2] = 0; // draw_stock: not legal in the cut phase (L-2.2)
        let e = v.step(&actions, b.out()).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidActionId);
        assert_eq!(e.key, "vec_env.illegal_action");
        assert!(e.message.starts_with("environment 2:"), "{}", e.message);
        for bad in [v.space().size as i64, -1] {
            actions[2] = bad;
            assert_eq!(v.step(&actions, b.out()).unwrap_err().code, ErrorCode::InvalidActionId);
        }
        assert_eq!(
            v.step(&actions[..2], b.out()).unwrap_err().code,
            ErrorCode::InvalidArgument
        );
        for (e, g) in before.iter().enumerate() {
            assert!(v.state(e).unwrap() == g && v.state(e).unwrap().history_len() == g.history_len());
        }
        assert_eq!(b, returned, "a refused step writes nothing");
    }

    #[test]
    fn rewards_are_minus_the_round_scores_and_finished_games_reset() {
        let mut cfg = config(2, Some(BotKind::Greedy), Some(1));
        cfg.agent_seat = 0;
        let mut v = VecEnv::new(cfg).unwrap();
        let mut b = Buffers::for_env(&v);
        v.reset(None, b.out()).unwrap();
        let mut sums = [vec![0f32; 4], vec![0f32; 4]];
        let mut finished = 0;
        let mut actions = vec![0i64; 2];
        for k in 0..200_000u64 {
            v.sample_actions(k, &mut actions).unwrap();
            let before: Vec<(u64, Vec<i32>)> = (0..2)
                .map(|e| (v.episodes(e).unwrap(), v.state(e).unwrap().totals()))
                .collect();
            v.step(&actions, b.out()).unwrap();
            for e in 0..2 {
                assert_eq!(b.to_act[e], 0, "the agent's row");
                for (sum, r) in sums[e].iter_mut().zip(&b.rewards[e * 4..e * 4 + 4]) {
                    *sum += r;
                }
                if b.terminated[e] {
                    // L-10.3: the rewards of a game add up to minus its totals.
                    let expected: Vec<f32> = v.last_totals(e).unwrap().iter().map(|&t| -(t as f32)).collect();
                    assert_eq!(sums[e], expected, "env {e}");
                    sums[e] = vec![0.0; 4];
                    finished += 1;
                    // Automatic reset: the row returned is already the next game's.
                    assert_eq!(v.episodes(e), Some(before[e].0 + 1));
                    let g = v.state(e).unwrap();
                    assert!(g.round() == 1 && g.totals().iter().all(|&t| t == 0));
                } else {
                    // L-10.1: this step's rewards are minus the round scores it added.
                    let now = v.state(e).unwrap().totals();
                    let added: Vec<f32> = now.iter().zip(&before[e].1).map(|(n, b)| -((n - b) as f32)).collect();
                    assert_eq!(&b.rewards[e * 4..e * 4 + 4], &added[..]);
                }
            }
            if finished >= 2 {
                break;
            }
        }
        assert!(finished >= 2, "no game finished");
    }

    /// VecEnv reuses its rows: writing into a dirty row gives the fresh tensor.
    #[test]
    fn the_observation_writer_overwrites_a_reused_row() {
        let mut g = GameState::new(Arc::new(RuleSet::contract()), 5, 3).unwrap();
        let lay = observation_layout(5, 7);
        let mut rng = Rng::from_seed(4);
        let mut buf = vec![7.0; lay.size];
        for _ in 0..400 {
            let Some(seat) = g.to_act() else { break };
            for s in 0..5 {
                g.write_observation(s, &lay, &mut buf);
                assert_eq!(buf, g.observation_tensor(s).unwrap());
            }
            let legal = g.legal_actions(None);
            g.apply(seat, &legal[rng.below(legal.len() as u32) as usize]).unwrap();
        }
    }
}
