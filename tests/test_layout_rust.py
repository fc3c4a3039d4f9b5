"""scripts/check_imports.py: no Rust file of the engine or the binding uses a file that
uses it back (issue 19). The checker must find a planted cycle, say where each of its
edges is, follow the documented rules for child modules, and pass on the real tree."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "scripts" / "check_imports.py"


def load_checker() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_imports", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    return module


checker = load_checker()


def write_tree(root: Path, engine: dict[str, str], binding: dict[str, str] | None = None) -> Path:
    """A minimal repository with the two crates' source files."""
    crates = {
        "rust_core/engine/src": engine,
        "rust_core/python/src": binding or {"lib.rs": "mod errors;\n", "errors.rs": "pub fn to_py() {}\n"},
    }
    for crate_dir, files in crates.items():
        for rel, text in files.items():
            path = root / crate_dir / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    return root


def run(root: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = checker.main(["--root", str(root)])
    return code, capsys.readouterr().out


def test_the_real_tree_has_no_import_cycle() -> None:
    result = subprocess.run(
        [sys.executable, str(SCRIPT)], capture_output=True, text=True, cwd=REPO, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "ok: no import cycle" in result.stdout
    assert "error:" not in result.stdout


def test_a_planted_use_cycle_fails_and_names_both_edges(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = write_tree(
        tmp_path,
        {
            "lib.rs": "pub mod game;\n",
            "game/mod.rs": "mod action;\nmod state;\npub use state::GameState;\n",
            "game/state.rs": "use super::action::Action;\npub struct GameState(Action);\n",
            "game/action.rs": "use super::state::GameState;\npub struct Action;\n",
        },
    )
    code, out = run(root, capsys)
    assert code == 1
    assert "error: import cycle among rust_core/engine/src/game/action.rs, rust_core/engine/src/game/state.rs" in out
    assert "rust_core/engine/src/game/action.rs:1 -> rust_core/engine/src/game/state.rs" in out
    assert "rust_core/engine/src/game/state.rs:1 -> rust_core/engine/src/game/action.rs" in out


def test_a_path_in_code_is_an_edge_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A three-file circle closed by `crate::a::f()` in a function body, not by a `use`;
    # the same words in a comment or a string are not an edge.
    root = write_tree(
        tmp_path,
        {
            "lib.rs": "mod a;\nmod b;\nmod c;\n",
            "a.rs": "use crate::b::g;\npub fn f() { g() }\n",
            "b.rs": "use crate::c::h;\npub fn g() { h() }\n",
            "c.rs": 'pub fn h() {\n    // crate::b::g() in a comment\n    let _ = "crate::b::g()";\n    crate::a::f()\n}\n',
        },
    )
    code, out = run(root, capsys)
    assert code == 1
    assert "rust_core/engine/src/c.rs:4 -> rust_core/engine/src/a.rs" in out
    assert "c.rs:2" not in out and "c.rs:3" not in out


def test_a_facade_used_by_its_child_is_a_cycle(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # bots/mod.rs re-exports greedy.rs, and greedy.rs names an item through the facade.
    root = write_tree(
        tmp_path,
        {
            "lib.rs": "pub mod bots;\n",
            "bots/mod.rs": "mod greedy;\npub use greedy::GreedyBot;\npub trait Bot {}\n",
            "bots/greedy.rs": "use super::Bot;\npub struct GreedyBot;\nimpl Bot for GreedyBot {}\n",
        },
    )
    code, out = run(root, capsys)
    assert code == 1
    assert "rust_core/engine/src/bots/greedy.rs:1 -> rust_core/engine/src/bots/mod.rs" in out


def test_child_modules_follow_the_documented_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Declaring a test module is not a use, so its `use super::*` closes no circle; an
    # inline test module belongs to its file; a `#[macro_export]` macro named at the
    # crate root maps to the file that defines it, not to lib.rs.
    root = write_tree(
        tmp_path,
        {
            "lib.rs": "pub mod error;\npub mod meld;\npub use meld::Meld;\n",
            "error.rs": "#[macro_export]\nmacro_rules! msg { () => {} }\npub struct Error;\n",
            "meld.rs": (
                "use crate::error::Error;\nuse crate::msg;\npub struct Meld(Error);\n"
                "#[cfg(test)]\nmod tests;\n#[cfg(test)]\nmod inline {\n    use super::*;\n}\n"
            ),
            "meld/tests.rs": "use super::*;\nuse crate::Meld as Again;\n",
        },
    )
    code, out = run(root, capsys)
    assert code == 0, out
    graph_code = checker.main(["--root", str(root), "--graph"])
    graph = capsys.readouterr().out
    assert graph_code == 0
    assert "rust_core/engine/src/meld.rs -> rust_core/engine/src/error.rs\n" in graph
    assert "rust_core/engine/src/meld/tests.rs -> rust_core/engine/src/lib.rs, rust_core/engine/src/meld.rs\n" in graph


def test_a_cycle_in_the_binding_fails_as_well(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = write_tree(
        tmp_path,
        {"lib.rs": "pub mod card;\n", "card.rs": "pub struct Card;\n"},
        {
            "lib.rs": "mod env;\nmod game;\n",
            "env.rs": "use crate::game::PyGameState;\npub fn layout_dict() {}\n",
            "game.rs": "pub struct PyGameState;\nfn f() { crate::env::layout_dict() }\n",
        },
    )
    code, out = run(root, capsys)
    assert code == 1
    assert "import cycle among rust_core/python/src/env.rs, rust_core/python/src/game.rs" in out
