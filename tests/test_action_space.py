"""The fixed action space (docs/action-space.md) through the Python API.

Every id means the same thing in every state (``action_names``); the mask is
exactly the ids ``apply_id`` accepts; every move the engine accepts — every move of
the native bots included — has one id sequence (``action_ids``) that plays to the
same game and decodes back (``action_from_ids``); a refused id raises a typed error
and changes nothing (issue 18, item 1). The round trip plays thousands of greedy
games and hundreds of games with an expert seat through the release extension
(``round_trip_budget``: more under ``make test-long``); the Rust versions
(``game/tests_encoding.rs``) check the same natively.
"""

from __future__ import annotations

import os
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import liverpool
from liverpool import Action, GameState, InvalidArgumentError, LiverpoolError, NativeBot, RuleSet

PRESETS = RuleSet.presets()


def _few() -> settings:
    """A fraction of the profile's examples: each one plays a few hundred moves."""
    return settings(max_examples=max(4, settings().max_examples // 5))


def _table_key(g: GameState) -> list[tuple[int, list[str]]]:
    """The table in canonical form: a set's cards sorted, the melds sorted (a go-down's
    melds in another order are the same move)."""
    melds = []
    for m in g.table:
        cards = [str(c) for c in m.meld.cards]
        melds.append((m.owner, sorted(cards) if m.meld.kind == "set" else cards))
    return sorted(melds)


def play_by_ids(g: GameState, seat: int, action: Action) -> GameState:
    """``action`` as ids: each one in the mask when played, only the last one makes
    the move, the ids decode back to the move, and the game is the one ``apply``
    makes. Returns the game after ``apply``."""
    ids = g.action_ids(action)
    by_move = g.clone()
    by_move.apply(seat, action)
    decoded = g.action_from_ids(ids)
    assert g.action_ids(decoded) == ids
    by_ids = g.clone()
    for k, i in enumerate(ids):
        assert by_ids.legal_action_mask(seat)[i], (action, i)
        event = by_ids.apply_id(seat, i)
        assert (event is not None) == (k == len(ids) - 1)
    assert by_ids.selection_ids == []
    if by_ids != by_move:
        assert _table_key(by_ids) == _table_key(by_move)
        assert by_ids.hand(seat) == by_move.hand(seat) and by_ids.totals == by_move.totals
    return by_move


# --- the round trip of every move of thousands of bot games (issue 18, item 1) ---------

#: The games are cut into parts (one test each) so pytest-xdist shares them out.
ROUND_TRIP_PARTS = 4


def round_trip_budget() -> tuple[int, int]:
    """How many greedy games and games with one expert seat (budget 1, three greedy
    seats) this run plays: 20 and 2 per hypothesis example of the profile (dev: 1,000
    and 100; ci, what ``make test`` runs: 2,000 and 200; long, ``make test-long``:
    20,000 and 2,000). ``LIVERPOOL_ROUND_TRIP_GAMES=N`` sets N greedy and N // 10
    expert games. A greedy game is about 1,100 moves (5 ms with the checks below),
    a game with an expert seat about 70 ms."""
    override = os.environ.get("LIVERPOOL_ROUND_TRIP_GAMES")
    greedy = int(override) if override else 20 * settings().max_examples
    expert = max(1, greedy // 10) if override else 2 * settings().max_examples
    return greedy, expert


def check_refused_or_accepted(g: GameState, seat: int, probe: Action) -> bool:
    """``probe`` (an earlier move, usually refused now) has ids exactly when the engine
    accepts it, and a refused one makes ``action_id`` and ``action_ids`` raise the
    engine's own refusal (same code). Whether it was accepted. (Plain ``try`` rather
    than ``pytest.raises``: this runs tens of thousands of times.)"""
    try:
        g.clone().apply(seat, probe)
    except LiverpoolError as refusal:
        for convert in (g.action_id, g.action_ids):
            try:
                convert(probe)
            except LiverpoolError as e:
                assert e.code == refusal.code, (probe, e.code, refusal.code)
            else:
                raise AssertionError(f"{probe} is refused ({refusal.code}) but has ids")
        return False
    ids = g.action_ids(probe)
    if len(ids) == 1:
        assert g.action_id(probe) == ids[0]
    else:
        with pytest.raises(InvalidArgumentError) as e:
            g.action_id(probe)
        assert e.value.key == "action_id.several"
    return True


def round_trip_game(g: GameState, bots: list[NativeBot]) -> tuple[int, int, int]:
    """Play ``g`` to its end, every move by the ids of the bot's move: ``action_ids``,
    then ``action_from_ids`` gives the same move (or, when the move was given in
    another order, one with the same ids that makes the same game), each id accepted
    by ``apply_id`` (which accepts exactly the mask's ids), only the last one making
    the move. Every 4th decision also probes the move before it. Returns (moves,
    moves of several ids, refused probes)."""
    moves = several = refused = 0
    previous: Action | None = None
    while (seat := g.to_act) is not None:
        if previous is not None and moves % 4 == 0:
            refused += not check_refused_or_accepted(g, seat, previous)
        action = bots[seat].choose(g, seat)
        ids = g.action_ids(action)
        decoded = g.action_from_ids(ids)
        reference = None
        if decoded != action:
            # A go-down's melds or a lay-off's cards in another order, a joker's end
            # left to the engine (L-5.3): the canonical move has the same ids.
            assert g.action_ids(decoded) == ids, (action, decoded)
            reference = g.clone()
            reference.apply(seat, action)
        for k, action_id in enumerate(ids):
            event = g.apply_id(seat, action_id)
            assert (event is None) == (k < len(ids) - 1), (action, ids, k)
        if reference is not None and reference != g:
            assert _table_key(reference) == _table_key(g), action
            assert reference.hand(seat) == g.hand(seat) and reference.totals == g.totals
        moves += 1
        several += len(ids) > 1
        previous = action
    return moves, several, refused


@pytest.mark.parametrize("part", range(ROUND_TRIP_PARTS))
def test_every_move_of_thousands_of_bot_games_converts_to_ids_and_back(part: int) -> None:
    # L-4.6 go-downs, L-5.3 lay-offs (a joker without an end goes where the engine puts
    # it), L-7.2 swaps: the 81 moves of 200 greedy games that had no usable id before.
    # Greedy games rotate through every preset (profile L, C, W, Shanghai, C-8 wild
    # queens); expert games are profile L with the expert in a rotating seat.
    greedy, expert = round_trip_budget()
    moves = several = refused = 0
    for i in range(part, greedy, ROUND_TRIP_PARTS):
        rules = RuleSet(PRESETS[i % len(PRESETS)])
        g = GameState(seed=i, rules=rules)
        bots = [NativeBot("greedy", seed=i * 7 + s) for s in range(g.players)]
        m, s, r = round_trip_game(g, bots)
        moves, several, refused = moves + m, several + s, refused + r
    for i in range(part, expert, ROUND_TRIP_PARTS):
        g = GameState(seed=10**6 + i)
        bots = [NativeBot("greedy", seed=i * 7 + s) for s in range(g.players)]
        bots[i % g.players] = NativeBot("expert", seed=i, budget=1)
        m, s, r = round_trip_game(g, bots)
        moves, several, refused = moves + m, several + s, refused + r
    games = len(range(part, greedy, ROUND_TRIP_PARTS)) + len(range(part, expert, ROUND_TRIP_PARTS))
    assert moves > 300 * games and several > games and refused > games


def test_a_whole_game_of_four_experts_converts_to_ids_and_back() -> None:
    # Experts against each other play differently (more swaps and lay-offs against
    # experts): one game at budget 1 (a few seconds), ten under the long profile.
    for i in range(1 if settings().max_examples < 1000 else 10):
        g = GameState(seed=2 * 10**6 + i)
        moves, several, _ = round_trip_game(g, [NativeBot("expert", seed=i * 4 + s, budget=1) for s in range(4)])
        assert moves > 300 and several > 0


def test_a_joker_laid_off_without_an_end_has_the_id_of_where_it_goes() -> None:
    # The defect of issue 18: lay_off(0, ["JK"]) on a run had an id the mask refused.
    for seed in range(200):
        g = GameState(seed=seed, rules=RuleSet("liverpool-classic"))
        bots = [NativeBot("greedy", seed=s) for s in range(4)]
        while (seat := g.to_act) is not None:
            action = bots[seat].choose(g, seat)
            if action.name == "lay_off" and action.cards == [liverpool.Card("JK")]:
                meld = g.table[action.meld].meld
                if meld.kind == "run":
                    i = g.action_id(action)
                    assert g.legal_action_mask(seat)[i]
                    assert liverpool.action_names(g.rules)[i].startswith("lay_off JK ")
                    assert g.action_from_id(i).end in ("low", "high")
                    play_by_ids(g, seat, action)
                    return
            g.apply(seat, action)
    pytest.skip("no joker laid off on a run in 200 games")


def _check(g: GameState, rng: random.Random) -> None:
    size = g.action_space_size
    mask = g.legal_action_mask()
    assert mask.shape == (size,) and mask.dtype == np.bool_
    seat = g.to_act
    assert seat is not None
    legal = np.flatnonzero(mask)
    for i in rng.sample(list(legal), min(6, len(legal))):
        g.clone().apply_id(seat, int(i))  # every masked id is accepted
    if not g.selection_ids:
        for action in g.legal_actions():
            assert mask[g.action_ids(action)[0]], action
    for other in range(g.players):
        if other != seat:
            assert not g.legal_action_mask(other).any(), "only the seat asked has ids"
    illegal = np.flatnonzero(~mask)
    if len(illegal):
        i = int(rng.choice(illegal))
        before = g.to_json()
        with pytest.raises(LiverpoolError):
            g.apply_id(seat, i)
        assert g.to_json() == before, "a refused id changed the state"


@_few()
@given(seed=st.integers(0, 2**64 - 1), preset=st.sampled_from(PRESETS), steps=st.integers(1, 300))
def test_the_mask_is_the_accepted_ids_in_random_play(seed: int, preset: str, steps: int) -> None:
    g = GameState(seed=seed, rules=RuleSet(preset))
    rng = random.Random(seed)
    for _ in range(steps):
        if g.is_game_over:
            break
        _check(g, rng)
        seat = g.to_act
        assert seat is not None
        i = int(rng.choice(np.flatnonzero(g.legal_action_mask(seat))))
        g.apply_id(seat, i)


def test_names_and_layout_are_the_same_in_every_state() -> None:
    for preset in PRESETS:
        rules = RuleSet(preset)
        g = GameState(seed=1, rules=rules)
        layout = g.action_layout()
        assert layout == liverpool.action_layout(rules)
        assert list(layout)[:8] == [
            "draw_stock", "take_discard", "buy", "pass", "call_rummy", "next_round", "decline_discard", "cut_random",
        ]
        stops = [0]
        for block in layout.values():
            assert block.start == stops[-1]
            stops.append(block.stop)
        assert stops[-1] == g.action_space_size == liverpool.action_space_size(rules)
        names = liverpool.action_names(rules)
        assert len(names) == len(set(names)) == g.action_space_size
    names = liverpool.action_names()
    layout = liverpool.action_layout()
    assert names[layout["cut"].start + 40] == "cut 41"
    assert names[layout["discard"].start + 52] == "discard JK"
    assert names[layout["go_down"].start] == "go_down"
    assert liverpool.action_space_size() == 1590
    assert liverpool.action_space_size(players=8) > liverpool.action_space_size(players=4)


def test_a_go_down_takes_its_cards_then_its_melds() -> None:
    # Greedy play until a seat may go down (L-4.6), then choose it id by id.
    g = GameState(seed=5)
    bots = [NativeBot("greedy", seed=s) for s in range(4)]
    go_down = g.action_layout()["go_down"].start
    while (seat := g.to_act) is not None and not g.legal_action_mask(seat)[go_down]:
        g.apply(seat, bots[seat].choose(g, seat))
    assert seat is not None
    assert g.apply_id(seat, go_down) is None and g.selection_ids == [go_down]
    obs = g.observation_tensor(seat)
    lay = g.observation_layout()
    assert obs[lay["selecting"]].tolist() == [1.0, 0.0]
    with pytest.raises(InvalidArgumentError) as e:
        g.action_from_id(go_down)
    assert e.value.key == "action_id.partial"
    while g.selection_ids:
        ids = np.flatnonzero(g.legal_action_mask(seat))
        assert all(liverpool.action_names()[i].startswith("go_down_") for i in ids)
        event = g.apply_id(seat, int(ids[0]))
    assert event is not None and event.kind == "went_down" and g.down[seat], event.kind


def test_bad_ids_are_typed_errors_that_change_nothing() -> None:
    g = GameState(seed=4)
    before = g.to_json()
    for bad, code in [
        (g.action_space_size, "invalid_action_id"),
        (-1, "invalid_argument"),
        ("3", "invalid_argument"),
        (b"1", "invalid_argument"),
        (7.0, "invalid_argument"),
        (True, "invalid_argument"),
        (np.bool_(True), "invalid_argument"),
        (float("inf"), "invalid_argument"),
    ]:
        with pytest.raises(InvalidArgumentError) as e:
            g.apply_id(g.to_act, bad)  # type: ignore[arg-type]
        assert e.value.code == code, bad
    go_down = g.action_layout()["go_down"].start
    with pytest.raises(InvalidArgumentError) as e:
        g.apply_id(g.to_act, go_down)
    assert e.value.code == "invalid_action_id" and e.value.key == "action_id.not_legal"
    assert g.to_json() == before
    # A move the engine refuses has no id: its own refusal (L-5.1: no draw at the cut).
    with pytest.raises(LiverpoolError):
        g.action_id(Action.draw_stock())
    # A go-down takes several ids: action_id says so, action_ids gives them.
    with pytest.raises(InvalidArgumentError) as e:
        g.action_from_ids([go_down])
    assert e.value.key == "action_id.partial"
    # numpy integers are ids too (what argmax returns).
    cut = g.action_layout()["cut"]
    assert g.action_from_ids([np.int64(cut.start + 40)]) == Action.cut(41)  # type: ignore[list-item]
    g.apply_id(g.to_act, np.int64(cut.start + 40))  # type: ignore[arg-type]
    assert g.phase == "draw"
