//! Steps a `VecEnv` with random legal ids, for profiling the per-step cost
//! (`liverpool bench` measures the same from Python).
//!
//! `cargo run --release -p liverpool-engine --example vec_env_steps [envs] [steps] [preset]`

use liverpool_engine::rules::RuleSet;
use liverpool_engine::vec_env::{Outputs, VecEnv, VecEnvConfig};
use std::sync::Arc;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(4096);
    let steps: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(300);
    let preset = args.next().unwrap_or_else(|| "liverpool".into());
    let rules = Arc::new(RuleSet::preset(&preset).unwrap());
    let players = rules.default_players as usize;
    let mut env = VecEnv::new(VecEnvConfig {
        n,
        rules,
        players,
        seed: 1,
        opponents: None,
        agent_seat: 0,
        threads: None,
    })
    .unwrap();
    let (obs_size, size) = (env.obs_size(), env.space().size);
    let mut obs = vec![0f32; n * obs_size];
    let mut mask = vec![false; n * size];
    let mut rewards = vec![0f32; n * players];
    let (mut term, mut trunc, mut to_act) = (vec![false; n], vec![false; n], vec![0i8; n]);
    let mut final_obs = vec![0f32; n * obs_size];
    macro_rules! out {
        () => {
            Outputs {
                obs: &mut obs,
                mask: &mut mask,
                rewards: &mut rewards,
                terminated: &mut term,
                truncated: &mut trunc,
                to_act: &mut to_act,
                final_obs: &mut final_obs,
            }
        };
    }
    env.reset(None, out!()).unwrap();
    let mut actions = vec![0i64; n];
    for k in 0..50 {
        env.sample_actions(k, &mut actions).unwrap();
        env.step(&actions, out!()).unwrap();
    }
    let start = Instant::now();
    let mut finished = 0;
    for k in 0..steps {
        env.sample_actions(1000 + k, &mut actions).unwrap();
        env.step(&actions, out!()).unwrap();
        finished += term.iter().filter(|&&t| t).count();
    }
    let s = start.elapsed().as_secs_f64();
    println!(
        "{preset}: {n} envs x {steps} steps: {:.0} steps/s, {finished} games finished",
        (n as f64 * steps as f64) / s
    );
}
