#!/usr/bin/env python3
"""Fail if any Rust file of the engine or the binding depends on a file that depends on it back.

The graph has one node per source file of a crate (`rust_core/engine/src`,
`rust_core/python/src`) and an edge A -> B when code in A names a module defined in B:

- a `use` (any visibility, at any depth): `use crate::game::GameState;`,
  `use super::action::Action;`, `use self::x::y;`, `use child::Item;`;
- a path in code: `crate::deal::draw_cut(...)`, `super::estimate::estimate(...)`,
  `child::f()` where `child` is a module declared by the current module, or a module
  alias brought in by a `use` of this file (`use super::serde_cards;` then
  `serde_cards::list`).

A path maps to the file that defines the deepest *module* it names: `crate::game::GameState`
is the module `game`, so `game/mod.rs`; `crate::game::state::GameState` is `game/state.rs`.
A `#[macro_export]` macro named at the crate root (`use crate::msg;`) maps to the file that
defines the macro, not to `lib.rs`; a `$crate::x::f` inside a macro's body is an edge of the
file that defines the macro. Paths into other crates (`std`, `serde`, `liverpool_engine`
from the binding) are not edges.

Child modules:
- `mod x;` (a declaration, `#[cfg(test)]` or not) is *not* an edge: declaring a child is
  not using it.
- A parent that re-exports a child (`pub use state::GameState;`) or calls into it has an
  edge parent -> child. So a parent that re-exports its children (a facade `mod.rs`) must
  not be used by them: children name their siblings (`super::state::GameState`), never the
  facade (`super::GameState`).
- A child's `use super::*` (a test module's usual first line) is an edge child -> parent:
  a test file may use its facade because the facade never uses the test file.
- Inline modules (`mod tests { ... }` inside a file) belong to their file; their
  `use super::*` is a self-edge and ignored.

Known limit: names brought in by a glob (`use super::*;` then `dfs::Scratch`) are not
followed; the glob itself is already an edge to the parent.

Usage: scripts/check_imports.py [--root REPO] [--graph]
Exit status 0 when no cycle is found, 1 with each cycle printed (file:line of each edge).
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

CRATES = ("rust_core/engine/src", "rust_core/python/src")

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
MOD_DECL = re.compile(rf"\bmod\s+(?:r#)?({IDENT})\s*([;{{])")
USE_STMT = re.compile(r"\buse\s+([^;]*);")
CODE_PATH = re.compile(rf"(?<![A-Za-z0-9_:])((?:{IDENT})(?:\s*::\s*{IDENT})+)")
RAW_STRING = re.compile(r'b?r(#*)"')
CHAR_LITERAL = re.compile(r"'(?:\\u\{[0-9A-Fa-f]+\}|\\.|[^'\\\n])'")
MACRO_EXPORT = re.compile(rf"#\[macro_export\]\s*(?:#\[[^\]]*\]\s*)*macro_rules!\s*({IDENT})")


def strip_comments_and_strings(src: str) -> str:
    """The source with comments, string and char literals blanked (newlines kept)."""
    out: list[str] = []
    i, n = 0, len(src)

    def blank(text: str) -> str:
        return "".join("\n" if ch == "\n" else " " for ch in text)

    while i < n:
        ch = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            out.append(blank(src[i:j]))
            i = j
        elif src.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if src.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif src.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(blank(src[i:j]))
            i = j
        elif (m := RAW_STRING.match(src, i)) and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_")):
            end = src.find('"' + m.group(1), m.end())
            j = n if end < 0 else end + 1 + len(m.group(1))
            out.append(blank(src[i:j]))
            i = j
        elif ch == '"' or (ch == "b" and src.startswith('b"', i) and (i == 0 or not src[i - 1].isalnum())):
            j = i + (2 if ch == "b" else 1)
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            out.append(blank(src[i : j + 1]))
            i = j + 1
        elif ch == "'" and (m := CHAR_LITERAL.match(src, i)):
            out.append(blank(m.group(0)))
            i = m.end()
        else:
            out.append(ch)
            i += 1
    return "".join(out)


@dataclass
class Module:
    path: tuple[str, ...]  # from the crate root
    file: Path
    children: dict[str, "Module"] = field(default_factory=dict)
    parent: "Module | None" = None
    span: tuple[int, int] = (0, 0)  # inline modules: the braces' range in the file's text


@dataclass
class Edge:
    source: Path
    target: Path
    line: int
    text: str


class Crate:
    def __init__(self, src_dir: Path):
        self.src_dir = src_dir
        self.texts: dict[Path, str] = {}
        self.modules_by_file: dict[Path, list[Module]] = {}
        self.macros: dict[str, Path] = {}
        self.root = self._load(("crate",), src_dir / "lib.rs", None, own_dir=src_dir)

    def _load(self, path: tuple[str, ...], file: Path, parent: Module | None, own_dir: Path) -> Module:
        text = strip_comments_and_strings(file.read_text(encoding="utf-8"))
        self.texts[file] = text
        for m in MACRO_EXPORT.finditer(text):
            self.macros[m.group(1)] = file
        top = Module(path, file, parent=parent, span=(0, len(text)))
        self.modules_by_file[file] = [top]
        self._declare(top, text, 0, len(text), own_dir)
        return top

    def _declare(self, module: Module, text: str, start: int, end: int, own_dir: Path) -> None:
        """Find the `mod` items directly inside text[start:end] (one brace level)."""
        pos = start
        while pos < end:
            m = MOD_DECL.search(text, pos, end)
            if not m:
                return
            if _depth_between(text, start, m.start()) != 0:
                pos = m.end()
                continue
            name = m.group(1)
            if m.group(2) == ";":
                candidates = [own_dir / f"{name}.rs", own_dir / name / "mod.rs"]
                child_file = next((c for c in candidates if c.exists()), None)
                if child_file is None:
                    raise SystemExit(f"{module.file}: `mod {name};` but no {candidates[0]} or {candidates[1]}")
                child_dir = child_file.parent if child_file.name == "mod.rs" else own_dir / name
                module.children[name] = self._load(module.path + (name,), child_file, module, child_dir)
                pos = m.end()
            else:
                close = _matching_brace(text, m.end() - 1)
                inline = Module(module.path + (name,), module.file, parent=module, span=(m.end(), close))
                module.children[name] = inline
                self.modules_by_file[module.file].append(inline)
                self._declare(inline, text, m.end(), close, own_dir / name)
                pos = close + 1

    def module_at(self, file: Path, offset: int) -> Module:
        """The innermost module of `file` whose text contains `offset`."""
        best = self.modules_by_file[file][0]
        for mod in self.modules_by_file[file][1:]:
            if mod.span[0] <= offset < mod.span[1] and len(mod.path) > len(best.path):
                best = mod
        return best

    def resolve(self, here: Module, segments: list[str], aliases: dict[str, Module]) -> Path | None:
        """The file defining the deepest module that `segments` names from `here`, or None."""
        if not segments:
            return None
        first, rest = segments[0], segments[1:]
        current: Module | None
        if first == "crate":
            current = self.root
        elif first == "self":
            current = here
        elif first == "super":
            current = here.parent
            while rest and rest[0] == "super" and current is not None:
                current, rest = current.parent, rest[1:]
        elif first in here.children:
            current, rest = here.children[first], rest
        elif first in aliases:
            current = aliases[first]
        else:
            return None  # another crate (std, serde, pyo3, liverpool_engine) or a type
        if current is None:
            return None
        for seg in rest:
            if seg in current.children:
                current = current.children[seg]
            elif current is self.root and seg in self.macros:
                return self.macros[seg]
            else:
                break
        return current.file

    def module_of(self, here: Module, segments: list[str]) -> Module | None:
        """The module `segments` names exactly (for `use` aliases), or None."""
        first, rest = segments[0], segments[1:]
        current: Module | None
        if first == "crate":
            current = self.root
        elif first == "self":
            current = here
        elif first == "super":
            current = here.parent
        elif first in here.children:
            current = here.children[first]
        else:
            return None
        for seg in rest:
            if current is None:
                return None
            if seg == "super":
                current = current.parent
            elif seg in current.children:
                current = current.children[seg]
            else:
                return None
        return current

    def edges(self) -> list[Edge]:
        found: list[Edge] = []
        for file, text in self.texts.items():
            found.extend(self._file_edges(file, text))
        return found

    def _file_edges(self, file: Path, text: str) -> list[Edge]:
        found: list[Edge] = []
        raw_lines = file.read_text(encoding="utf-8").splitlines()

        def add(target: Path | None, offset: int) -> None:
            if target is not None and target != file:
                line = text.count("\n", 0, offset) + 1
                found.append(Edge(file, target, line, raw_lines[line - 1].strip()))

        aliases_by_module: dict[tuple[str, ...], dict[str, Module]] = {}
        use_spans: list[tuple[int, int]] = []
        for m in USE_STMT.finditer(text):
            use_spans.append((m.start(), m.end()))
            here = self.module_at(file, m.start())
            aliases = aliases_by_module.setdefault(here.path, {})
            for segments, alias in _use_tree_paths(m.group(1)):
                add(self.resolve(here, segments, {}), m.start())
                target_module = self.module_of(here, segments)
                if target_module is not None and alias not in ("*", "self", "_"):
                    aliases[alias] = target_module
        for m in CODE_PATH.finditer(text):
            if any(a <= m.start() < b for a, b in use_spans):
                continue
            here = self.module_at(file, m.start())
            segments = [s.strip() for s in m.group(1).split("::")]
            aliases = aliases_by_module.get(here.path, {})
            add(self.resolve(here, segments, aliases), m.start())
        return found


def _depth_between(text: str, start: int, end: int) -> int:
    return text.count("{", start, end) - text.count("}", start, end)


def _matching_brace(text: str, open_at: int) -> int:
    depth = 0
    for i in range(open_at, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    raise SystemExit("unbalanced braces")


def _use_tree_paths(tree: str) -> list[tuple[list[str], str]]:
    """Every leaf path of a use tree, with the name it binds: `a::{b, c::d as e}` ->
    ([a, b], b), ([a, c, d], e)."""
    tree = " ".join(tree.split())
    tree = re.sub(r"^::", "", tree)
    results: list[tuple[list[str], str]] = []

    def walk(prefix: list[str], s: str) -> None:
        s = s.strip()
        if not s:
            return
        if "{" in s:
            head, _, body = s.partition("{")
            body = body[: body.rfind("}")]
            head_segments = [x.strip() for x in head.split("::") if x.strip()]
            for part in _split_top(body):
                walk(prefix + head_segments, part)
            return
        name, _, alias = s.partition(" as ")
        segments = [x.strip() for x in name.split("::") if x.strip()]
        if segments and segments[-1] == "self":
            segments = segments[:-1]
            bound = (prefix + segments)[-1] if prefix + segments else "self"
        else:
            bound = segments[-1] if segments else "*"
        results.append((prefix + segments, alias.strip() or bound))

    walk([], tree)
    return results


def _split_top(body: str) -> list[str]:
    parts: list[str] = []
    cur: list[str] = []
    depth = 0
    for ch in body:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return parts


def find_cycles(nodes: list[Path], edges: list[Edge]) -> list[list[Path]]:
    """The strongly connected components with more than one file (Tarjan)."""
    succ: dict[Path, list[Path]] = {n: [] for n in nodes}
    for e in edges:
        if e.target not in succ[e.source]:
            succ[e.source].append(e.target)
    index: dict[Path, int] = {}
    low: dict[Path, int] = {}
    stack: list[Path] = []
    on_stack: set[Path] = set()
    components: list[list[Path]] = []

    def connect(v: Path) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in succ[v]:
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                components.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in nodes:
        if v not in index:
            connect(v)
    return components


def one_cycle(component: list[Path], edges: list[Edge]) -> list[Edge]:
    """A shortest cycle through the component's first file, as its edges."""
    inside = set(component)
    start = component[0]
    first_edge: dict[tuple[Path, Path], Edge] = {}
    for e in edges:
        if e.source in inside and e.target in inside:
            first_edge.setdefault((e.source, e.target), e)
    came_from: dict[Path, Edge] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for (a, b), e in first_edge.items():
                if a != v:
                    continue
                if b == start:
                    path = [e]
                    while path[0].source != start:
                        path.insert(0, came_from[path[0].source])
                    return path
                if b not in came_from:
                    came_from[b] = e
                    nxt.append(b)
        frontier = nxt
    return []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--graph", action="store_true", help="print every file's dependencies")
    args = parser.parse_args(argv)
    root: Path = args.root.resolve()
    failed = False
    for crate_dir in CRATES:
        crate = Crate(root / crate_dir)
        edges = crate.edges()
        nodes = sorted(crate.texts)

        def rel(p: Path) -> str:
            return p.relative_to(root).as_posix()

        if args.graph:
            for node in nodes:
                targets = sorted({rel(e.target) for e in edges if e.source == node})
                print(f"{rel(node)} -> {', '.join(targets) or '(nothing)'}")
        for comp in find_cycles(nodes, edges):
            print(f"error: import cycle among {', '.join(rel(p) for p in comp)}")
            for e in one_cycle(comp, edges):
                print(f"  {rel(e.source)}:{e.line} -> {rel(e.target)}    {e.text}")
            failed = True
    if not failed:
        print(f"ok: no import cycle in {' or '.join(CRATES)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
