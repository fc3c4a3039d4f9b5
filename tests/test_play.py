"""``liverpool play``: scripted terminal sessions through standard input."""

from __future__ import annotations

import io
import re

import pytest
from liverpool import Action, Card
from liverpool.tools import cli
from liverpool.teach.play import CommandError, command_for, make_game, parse_command


def session(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], script: str, *args: str) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    code = cli.main(["play", *args])
    return code, capsys.readouterr().out


def first_own_draw(seed: int) -> tuple[list[Card], Card] | None:
    """Seat 0's hand and the top discard when it first has to draw, replaying the
    bots exactly as ``liverpool play`` seats them; None if seat 0 is asked
    something else first (a cut or a buy)."""
    state, bots = make_game(seed, ["greedy", "greedy", "greedy"])
    while (seat := state.to_act) is not None and seat != 0:
        state.apply(seat, bots[seat].choose(state, seat))
    if state.phase != "draw" or state.discard_top is None:
        return None
    return state.hand(0), state.discard_top


def first_decision(seed: int, rules: str) -> str | None:
    """The phase of seat 0's first decision in ``liverpool play --rules RULES``."""
    from liverpool import RuleSet

    state, bots = make_game(seed, ["greedy", "greedy", "greedy"], RuleSet(rules))
    while (seat := state.to_act) is not None and seat != 0:
        state.apply(seat, bots[seat].choose(state, seat))
    return None if state.to_act is None else state.phase


def test_a_scripted_turn_with_refused_moves(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    seed = next(s for s in range(50) if first_own_draw(s) is not None)
    found = first_own_draw(seed)
    assert found is not None
    hand, top = found
    in_hand = hand[0]
    absent = next(Card.from_id(i) for i in range(52) if Card.from_id(i) not in hand and Card.from_id(i) != top)
    script = "\n".join([
        "help",
        "legal",
        f"discard {in_hand}",   # L-5.5: no discard before drawing -> wrong_phase
        "take",
        f"discard {absent}",    # not in hand -> card_not_in_hand
        f"down {hand[0]} {hand[1]}",  # two cards are no meld (L-4.1, L-4.2)
        "frobnicate",
        f"discard {top}",       # L-5.7: discarding the card just taken is legal
        "quit",
    ]) + "\n"
    code, out = session(monkeypatch, capsys, script, "--seed", str(seed))
    assert code == 0
    assert "your turn: 'take'" in out
    assert "down 7♠ 7♥ 7♦ / 9♠ 9♥ 9♦" in out  # the help text
    assert "legal: take; draw" in out
    # A refusal reads as a sentence with its rule id, never as an error code.
    assert "not allowed: cannot discard now: the active player has not drawn yet (L-5.5)" in out
    assert f"you took {top}" in out
    assert f"not allowed: seat 1 does not hold {absent}" in out
    assert "is not a run" in out and "(L-4.2)" in out
    assert not re.search(r"wrong_phase|card_not_in_hand|invalid_meld|\[", out.split("legal:", 1)[1].split("> ?")[0])
    assert "? cannot read 'frobnicate'" in out
    assert f"you discarded {top}" in out
    assert out.rstrip().endswith("bye")
    # Nothing after a refusal changed the game: the bots then played on.
    assert "seat 2" in out.split(f"you discarded {top}", 1)[1]


def test_end_of_input_ends_the_session(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = session(monkeypatch, capsys, "show\n", "--seed", "1", "--bots", "random,greedy")
    assert code == 0
    assert "you are seat 1; bots: seat 2 random, seat 3 greedy" in out  # seats shown from 1
    assert out.rstrip().endswith("bye (end of input)")


def test_a_whole_game_typed_from_the_legal_moves(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # Replay the game with a native bot in seat 0 and type its choices: the session
    # must accept every one and reach the game over.
    from liverpool import NativeBot

    state, bots = make_game(5, ["greedy", "greedy"])
    me = NativeBot("greedy", seed=99)
    commands = []
    while state.to_act is not None:
        seat = state.to_act
        action = (me if seat == 0 else bots[seat]).choose(state, seat)
        if seat == 0:
            commands.append(command_for(action))
        state.apply(seat, action)
    code, out = session(monkeypatch, capsys, "\n".join(commands) + "\n", "--seed", "5", "--bots", "greedy,greedy")
    assert code == 0
    assert "not allowed" not in out
    assert "=== game over: lowest total wins (L-10.3)" in out
    # Seats are shown to people from 1; the person is "you".
    assert f"totals you: {state.totals[0]} · seat 2: {state.totals[1]} · seat 3: {state.totals[2]}" in out


def test_parse_and_format_round_trip() -> None:
    for action in [
        Action.cut(41), Action.cut(), Action.take_discard(), Action.decline_discard(), Action.draw_stock(),
        Action.buy(), Action.pass_(), Action.next_round(), Action.discard("10♣"),
        Action.go_down([["7♠", "7♥", "JK"], ["A♥", "2♥", "3♥", "4♥"]]),
        Action.lay_off(2, ["4♣", "5♣"]), Action.lay_off(0, ["JK"], "low"), Action.swap_joker(1, "6♥", 0, "high"),
        Action.call_rummy(), Action.call_liverpool(3), Action.call_liverpool(0, "high"),
    ]:
        assert parse_command(command_for(action)) == action
    for bad in ["discard", "discard 1X", "down 7♠ / ", "layoff x 4♣", "swap 0 6♥", "cut many", "call liverpool", "call rummy 2"]:
        with pytest.raises(CommandError):
            parse_command(bad)


def test_bad_bot_name(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert cli.main(["play", "--bots", "greedy,genius"]) == 2
    assert "invalid_argument" in capsys.readouterr().err


def test_decline_then_the_prompt_offers_only_the_draw(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # L-5.1: after 'decline' the discard cannot be taken any more; a second decline
    # and a cut now are refused with the reason that applies.
    seed = next(s for s in range(50) if first_own_draw(s) is not None)
    found = first_own_draw(seed)
    assert found is not None
    _, top = found
    script = "decline\nshow\nlegal\ndecline\ncut 5\ntake\nquit\n"
    code, out = session(monkeypatch, capsys, script, "--seed", str(seed))
    assert code == 0
    after = out.split(f"you declined {top}", 1)[1]
    # (A bot may have bought the declined card, emptying the pile.)
    assert "'draw' from the stock" in after
    assert "'take'" not in after
    assert "legal: draw" in after
    assert "not allowed: the top discard was declined this turn (L-5.1)" in after
    assert "round 1 has already been cut and dealt" in after
    assert "the active player has not drawn yet" not in after


def test_the_bots_passes_and_the_buys_left_are_shown(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Profile C limits buys (C-5): the table shows how many each seat has left.
    seed = next(s for s in range(40) if first_decision(s, "contract") not in (None, "cut"))
    code, out = session(monkeypatch, capsys, "show\nquit\n", "--seed", str(seed), "--rules", "contract")
    assert code == 0
    assert re.search(r"buys left \(C-5\): you [0-3] · seat 2 [0-3] · seat 3 [0-3] · seat 4 [0-3]", out)
    # A scripted game from native choices: each bot's pass on a buy is printed (the
    # person's draw runs the buying window first, L-5.1).
    from liverpool import NativeBot

    state, bots = make_game(7, ["greedy", "greedy", "greedy"])
    me = NativeBot("greedy", seed=1)
    commands = []
    while state.to_act is not None and len(commands) < 40:
        seat = state.to_act
        action = (me if seat == 0 else bots[seat]).choose(state, seat)
        if seat == 0:
            commands.append(command_for(action))
        state.apply(seat, action)
    code, out = session(monkeypatch, capsys, "\n".join(commands) + "\nquit\n", "--seed", "7")
    assert code == 0 and "not allowed" not in out
    assert re.search(r"seat [2-4] passed: did not buy", out)


@pytest.mark.parametrize(
    ("lang", "commands", "expected", "english"),
    [
        ("pt", ("ajuda", "jogadas", "pegar", "descartar", "sair"), ("seu turno", "jogadas possíveis", "você pegou", "tchau"), "your turn"),
        ("es", ("ayuda", "jugadas", "tomar", "descartar", "terminar"), ("tu turno", "jugadas posibles", "tomaste", "adiós"), "your turn"),
    ],
)
def test_a_session_in_portuguese_and_spanish(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    lang: str,
    commands: tuple[str, ...],
    expected: tuple[str, ...],
    english: str,
) -> None:
    """--lang speaks the learner's language: the table, the prompts, the help and the
    engine's refusals; the commands are typed in that language too."""
    seed = next(s for s in range(50) if first_own_draw(s) is not None)
    found = first_own_draw(seed)
    assert found is not None
    hand, top = found
    help_, legal, take, discard, quit_ = commands
    script = "\n".join([help_, legal, f"{discard} {hand[0]}", take, f"{discard} {top}", quit_]) + "\n"
    code, out = session(monkeypatch, capsys, script, "--seed", str(seed), "--language", lang)
    assert code == 0
    for sentence in expected:
        assert sentence in out, sentence
    assert english not in out
    # The refusal is the sentence in the language with its rule id, never the error code.
    refusal = {"pt": "jogada recusada: não é possível descartar agora:", "es": "jugada rechazada: no se puede descartar ahora:"}[lang]
    assert refusal in out and "(L-5.5)" in out and "wrong_phase" not in out
    assert "Commands" not in out and "type help" not in out
    assert out.rstrip().endswith(expected[-1])
