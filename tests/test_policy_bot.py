"""The learned-policy bot (liverpool.agents.policy_bot): a saved MLP played with numpy.

Hostile files each get a typed error with a stable code (PolicyFileError:
policy_not_found, policy_too_large, bad_policy, policy_mismatch) and a sentence in
three languages; the bot only ever picks ids the engine's mask offers, and the
engine applies its moves (a whole game under the driver, which refuses illegal
moves as faults). The policies here are written by the test with random weights in
the exported format, so no torch is needed; tests/test_train_example.py checks the
export of a real SB3 model against SB3's own choices.
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import liverpool
from liverpool import GameState, RuleSet
from liverpool.agents.bots import play_game
from liverpool.errors import LiverpoolError, PolicyFileError
from liverpool.i18n import language
from liverpool.agents.policy_bot import (
    MAX_POLICY_BYTES,
    POLICY_FORMAT,
    PolicyBot,
    load_policy,
    policy_bot_class,
)
from liverpool.agents.tournament import play

COMMITTED = Path(__file__).resolve().parents[1] / "examples" / "policies" / "maskable_ppo_liverpool_4p.npz"


def policy_arrays(
    rules: RuleSet | None = None, players: int = 4, hidden: tuple[int, ...] = (16, 8), seed: int = 0
) -> dict[str, Any]:
    """The arrays of a policy file in the exported format, with random weights."""
    rules = rules or RuleSet()
    state = GameState(seed=0, players=players, rules=rules)
    obs_size = state.observation_tensor(0).shape[0]
    action_size = liverpool.action_space_size(rules, players)
    rng = np.random.default_rng(seed)
    arrays: dict[str, Any] = {
        "format": np.array(POLICY_FORMAT),
        "activation": np.array("tanh"),
        "obs_size": np.array(obs_size),
        "action_size": np.array(action_size),
        "players": np.array(players),
        "agent_seat": np.array(0),
        "rules_name": np.array(rules.name),
        "rules_json": np.array(rules.to_json()),
        "hidden_layers": np.array(len(hidden)),
        "obs_mean": rng.random(obs_size, dtype=np.float32),
        "obs_var": rng.random(obs_size, dtype=np.float32) + 0.5,
        "clip_obs": np.array(10.0, dtype=np.float32),
        "obs_epsilon": np.array(1e-8, dtype=np.float32),
    }
    width = obs_size
    for i, out in enumerate(hidden):
        arrays[f"hidden_{i}_weight"] = rng.normal(0, 0.3, (out, width)).astype(np.float32)
        arrays[f"hidden_{i}_bias"] = rng.normal(0, 0.1, out).astype(np.float32)
        width = out
    arrays["action_weight"] = rng.normal(0, 1.0, (action_size, width)).astype(np.float32)
    arrays["action_bias"] = rng.normal(0, 0.1, action_size).astype(np.float32)
    return arrays


def write_policy(path: Path, **overrides: Any) -> Path:
    arrays = policy_arrays()
    for name, value in overrides.items():
        if value is None:
            del arrays[name]
        else:
            arrays[name] = value
    np.savez_compressed(path, **arrays)
    return path


@pytest.fixture
def policy_file(tmp_path: Path) -> Path:
    return write_policy(tmp_path / "policy.npz")


def refusal(path: Path | str) -> PolicyFileError:
    with pytest.raises(PolicyFileError) as caught:
        load_policy(path)
    return caught.value


# ----- what a policy is ------------------------------------------------------------------


def test_forward_pass_is_the_mlp_of_the_file(policy_file: Path) -> None:
    arrays = policy_arrays()
    policy = load_policy(policy_file)
    obs = GameState(seed=5).observation_tensor(0)
    x = np.clip((obs - arrays["obs_mean"]) / np.sqrt(arrays["obs_var"] + 1e-8), -10, 10)
    for i in range(2):
        x = np.tanh(arrays[f"hidden_{i}_weight"] @ x + arrays[f"hidden_{i}_bias"])
    expected = arrays["action_weight"] @ x + arrays["action_bias"]
    np.testing.assert_allclose(policy.logits(obs), expected, rtol=1e-4, atol=1e-4)
    batch = policy.logits(np.stack([obs, obs]))
    assert batch.shape == (2, policy.action_size)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), legal=st.integers(1, 40))
def test_choice_is_the_best_scored_id_the_mask_allows(seed: int, legal: int) -> None:
    policy = _SHARED_POLICY
    rng = np.random.default_rng(seed)
    obs = rng.integers(0, 20, policy.obs_size).astype(np.float32)
    mask = np.zeros(policy.action_size, dtype=bool)
    mask[rng.choice(policy.action_size, legal, replace=False)] = True
    chosen = policy.choose_id(obs, mask)
    assert mask[chosen]
    logits = policy.logits(obs)
    assert logits[chosen] == logits[mask].max()


def test_an_empty_or_misshapen_mask_is_refused(policy_file: Path) -> None:
    policy = load_policy(policy_file)
    obs = GameState(seed=1).observation_tensor(0)
    with pytest.raises(liverpool.InvalidArgumentError) as empty:
        policy.choose_id(obs, np.zeros(policy.action_size, dtype=bool))
    assert empty.value.code == "invalid_argument"
    with pytest.raises(liverpool.InvalidArgumentError):
        policy.choose_id(obs, np.ones(3, dtype=bool))
    with pytest.raises(liverpool.InvalidArgumentError):
        policy.logits(obs[:-1])


def test_bot_plays_whole_games_the_engine_accepts(policy_file: Path) -> None:
    # The driver applies every move to the real game and stops with a BotError on
    # any move the engine refuses (L-4..L-10 decide them, not the bot).
    bot = PolicyBot(policy_file, seed=3)
    for seed in (0, 1):
        game = play_game([bot, "greedy", "random", "greedy"], seed=seed, time_limit=None)
        assert game.is_game_over
        assert len(game.totals) == 4


def test_bot_completes_multi_id_moves_on_a_copy(policy_file: Path) -> None:
    # A go-down is several ids (docs/action-space.md): the bot chooses them on its own
    # copy and returns the whole move; the state it was given is not changed.
    bot = PolicyBot(policy_file)
    game = GameState(seed=11)
    for _ in range(400):
        if game.is_game_over:
            break
        seat = game.to_act
        assert seat is not None
        before = game.to_json()
        action = bot.choose(game, seat)
        assert game.to_json() == before
        game.apply(seat, action)
    assert game.history_len > 0


def test_tournament_entry_policy_path(policy_file: Path) -> None:
    result = play(["greedy", f"policy:{policy_file}", "random", "greedy"], deals=1, seed=2)
    assert result.entries[1] == f"policy:{policy_file}"
    assert result.games == 4 and not result.faults
    assert {s.entry for s in result.ranking()} == set(result.entries)


def test_policy_bot_class_builds_with_a_seed(policy_file: Path) -> None:
    cls = policy_bot_class(policy_file)
    bot = cls(seed=7)  # type: ignore[call-arg]
    assert isinstance(bot, PolicyBot) and bot.seed == 7
    # Loaded once: every bot of the class shares the same arrays.
    assert cls(seed=8).policy is bot.policy  # type: ignore[call-arg]


# ----- hostile files ----------------------------------------------------------------------


def test_missing_file(tmp_path: Path) -> None:
    error = refusal(tmp_path / "nothing.npz")
    assert error.code == "policy_not_found" and isinstance(error, ValueError)
    assert refusal(tmp_path).code == "policy_not_found"  # a directory is not a policy file


def test_corrupt_files(tmp_path: Path, policy_file: Path) -> None:
    garbage = tmp_path / "garbage.npz"
    garbage.write_bytes(os.urandom(5000))
    assert refusal(garbage).code == "bad_policy"
    truncated = tmp_path / "truncated.npz"
    truncated.write_bytes(policy_file.read_bytes()[:3000])
    assert refusal(truncated).code == "bad_policy"
    empty = tmp_path / "empty.npz"
    empty.write_bytes(b"")
    assert refusal(empty).code == "bad_policy"
    # A zip whose member is not a .npy array.
    notnpy = tmp_path / "notnpy.npz"
    with zipfile.ZipFile(notnpy, "w") as archive:
        archive.writestr("format.npy", b"not an array")
    assert refusal(notnpy).code == "bad_policy"


def test_huge_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    big = tmp_path / "big.npz"
    with big.open("wb") as handle:  # sparse: no real disk used
        handle.truncate(MAX_POLICY_BYTES + 1)
    error = refusal(big)
    assert error.code == "policy_too_large"
    assert error.params["limit"] == str(MAX_POLICY_BYTES)
    # A small archive that unpacks to more than the limit (a zip bomb) is refused
    # from the sizes its directory declares, before anything is unpacked.
    bomb = tmp_path / "bomb.npz"
    np.savez_compressed(bomb, format=np.array(POLICY_FORMAT), zeros=np.zeros(200_000, dtype=np.float32))
    monkeypatch.setattr("liverpool.agents.policy_bot.MAX_POLICY_BYTES", 100_000)
    assert bomb.stat().st_size < 100_000
    assert refusal(bomb).code == "policy_too_large"


def test_pickled_objects_are_never_loaded(tmp_path: Path) -> None:
    pickled = tmp_path / "pickled.npz"
    arrays = policy_arrays()
    arrays["rules_json"] = np.array([{"evil": True}], dtype=object)
    np.savez(pickled, **arrays)
    error = refusal(pickled)
    assert (error.code, error.key) == ("bad_policy", "policy.pickled")


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("action_weight", np.zeros((5, 8), dtype=np.float32)),  # wrong shape
        ("hidden_0_weight", np.zeros((16, 3), dtype=np.float32)),  # does not fit the observation
        ("hidden_1_bias", np.zeros(9, dtype=np.float32)),
        ("obs_mean", np.zeros(3, dtype=np.float32)),
        ("action_bias", np.full(1590, np.nan, dtype=np.float32)),  # not finite
        ("obs_var", -np.ones(354, dtype=np.float32)),
        ("players", np.array(4.5)),  # not an integer
        ("players", np.array(0)),
        ("agent_seat", np.array(9)),
        ("hidden_layers", np.array(10_000)),
        ("activation", np.array("relu")),
        ("rules_json", np.array("{not json")),
        ("action_weight", np.zeros((1590, 8), dtype=np.int32)),  # not floats
        ("clip_obs", np.array(-1.0, dtype=np.float32)),
    ],
)
def test_wrong_fields(tmp_path: Path, field: str, value: Any) -> None:
    error = refusal(write_policy(tmp_path / "bad.npz", **{field: value}))
    assert error.code == "bad_policy"
    assert error.params.get("field") == field


@pytest.mark.parametrize("field", ["format", "action_weight", "hidden_1_weight", "obs_var", "rules_json"])
def test_missing_fields(tmp_path: Path, field: str) -> None:
    error = refusal(write_policy(tmp_path / "missing.npz", **{field: None}))
    assert (error.code, error.key, error.params["field"]) == ("bad_policy", "policy.missing_field", field)


def test_another_format(tmp_path: Path) -> None:
    error = refusal(write_policy(tmp_path / "other.npz", format=np.array("someone-else/7")))
    assert (error.code, error.key) == ("bad_policy", "policy.format")


def test_mismatched_table_is_refused_before_any_game(tmp_path: Path, policy_file: Path) -> None:
    policy = load_policy(policy_file)
    with pytest.raises(PolicyFileError) as players:
        policy.check_table(None, 3)
    assert players.value.code == "policy_mismatch"
    with pytest.raises(PolicyFileError) as profile:
        policy.check_table(RuleSet("shanghai"), 4)
    assert profile.value.code == "policy_mismatch" and profile.value.key == "policy.mismatch_rules"
    # A file claiming another action space (shapes consistent, sizes not the engine's).
    arrays = policy_arrays()
    arrays["action_size"] = np.array(1000)
    arrays["action_weight"] = arrays["action_weight"][:1000]
    arrays["action_bias"] = arrays["action_bias"][:1000]
    other = tmp_path / "other_actions.npz"
    np.savez(other, **arrays)
    with pytest.raises(PolicyFileError) as actions:
        load_policy(other).check_table(None, 4)
    assert actions.value.key == "policy.mismatch_actions"
    # The tournament refuses before it plays: three entries is a table of 3.
    with pytest.raises(PolicyFileError) as table:
        play(["greedy", f"policy:{policy_file}", "random"], deals=1)
    assert table.value.code == "policy_mismatch"
    # A bot handed a game of another size refuses it the same way.
    with pytest.raises(PolicyFileError):
        PolicyBot(policy).choose(GameState(seed=0, players=3), 0)


def test_cli_reports_a_bad_policy_in_one_line(tmp_path: Path, policy_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from liverpool.tools.cli import main

    assert main(["tournament", "greedy", "expert", f"policy:{policy_file}", "--deals", "1"]) == 2
    err = capsys.readouterr().err
    assert "[policy_mismatch]" in err and "Traceback" not in err
    assert "4 players, not for 3 players" in err
    assert main(["tournament", "greedy", "expert", "random", f"policy:{tmp_path / 'nope.npz'}"]) == 2
    assert "[policy_not_found]" in capsys.readouterr().err


def test_refusals_read_in_three_languages(tmp_path: Path) -> None:
    error = refusal(tmp_path / "nothing.npz")
    sentences = {}
    for lang in ("en", "pt", "es"):
        with language(lang):
            sentences[lang] = str(error)
    assert sentences["en"].startswith("there is no policy file at")
    assert sentences["pt"].startswith("não há arquivo de política em")
    assert sentences["es"].startswith("no hay ningún archivo de política en")
    assert error.english == sentences["en"]
    assert all("policy_not_found" not in s for s in sentences.values())
    # A plural chosen by the count (never "(s)").
    mismatch = PolicyFileError.make("policy_mismatch", "policy.mismatch_players", path="p", found=4, count=1)
    with language("pt"):
        assert str(mismatch) == "a política p foi treinada para 4 jogadores, não para 1 jogador"


def test_errors_pickle_and_are_liverpool_errors(tmp_path: Path) -> None:
    import pickle

    error = refusal(tmp_path / "nothing.npz")
    assert isinstance(error, LiverpoolError)
    again = pickle.loads(pickle.dumps(error))
    assert (type(again), again.code, again.key, str(again)) == (PolicyFileError, error.code, error.key, str(error))


def test_non_path_argument_is_refused() -> None:
    with pytest.raises(liverpool.InvalidArgumentError):
        load_policy(3)  # type: ignore[arg-type]


def test_committed_policy_loads_and_fits_the_default_table() -> None:
    policy = load_policy(COMMITTED)
    policy.check_table(None, 4)
    assert COMMITTED.stat().st_size < 2 * 2**20
    assert play_game([PolicyBot(policy), "greedy", "greedy", "expert"], seed=0).is_game_over


def _shared() -> Any:
    """One small policy for the property test (hypothesis does not mix with fixtures
    of function scope), loaded from a temporary file that is removed at once."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "shared.npz"
        np.savez(path, **policy_arrays(hidden=(8,), seed=4))
        return load_policy(path)


_SHARED_POLICY = _shared()
