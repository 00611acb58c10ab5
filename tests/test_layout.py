"""The layout reads top to bottom: the import graph of ``solo/``, read from the source with ``ast``.

Every import counts: at the top of a module, under ``if TYPE_CHECKING:`` and inside a function.

- The kernel (``solo/kernel/``) imports nothing of solo outside itself.
- The import graph has no cycle, type-only rings included (a ring found is named).
- The layers run one way: kernel < director < store < llm < table < faces (the store's ledger folds the
  Director's canon, oracle and story progress, so the store sits above the Director). A rule system
  (``solo/rules/``) stands beside the table: it imports the kernel, the Director and the narrator's checks,
  never the store, the table or the faces, and no layer below the table imports it.
- No module outside ``solo/rules/`` passes 600 lines (the style guide's size for a module; the session's
  own test holds ``session.py`` to 400).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from import_graph import MODULES, SOLO, imported, module_name

# lowest first: a module may import its own layer and the layers before it
LAYERS = ("kernel", "director", "store", "llm", "table", "faces")
RULES_MAY_IMPORT = frozenset({"kernel", "director", "llm", "rules"})
# an arrow that runs up, named until the change that removes it lands (none now: `export md`'s Markdown
# writer sits in the table, below the faces that show it)
KNOWN_UPWARD: frozenset[tuple[str, str]] = frozenset()
MAX_LINES = 600


def graph(modules: dict[str, Path] = MODULES) -> dict[str, set[str]]:
    return {name: imported(path, modules) for name, path in modules.items()}


def layer(module: str) -> str:
    """``kernel``, ``rules``, ... for a module of solo: ``python -m solo`` is a face; ``solo`` itself (the
    package, its version) sits under everything."""
    if module == "solo.__main__":
        return "faces"
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "solo"


def rings(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted, in the order found."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        # iterative, so a long chain of imports cannot reach Python's recursion limit
        work: list[tuple[str, Iterator[str]]] = [(node, iter(sorted(edges.get(node, ()))))]
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        while work:
            here, targets = work[-1]
            step = next(targets, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(edges.get(step, ())))))
                elif step in on_stack:
                    low[here] = min(low[here], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[here])
            if low[here] == index[here]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == here:
                        break
                if len(group) > 1:
                    found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def upward(edges: dict[str, set[str]]) -> list[str]:
    """Every import that runs against the layers, as "module -> target (why)"."""
    out = []
    for module, targets in sorted(edges.items()):
        mine = layer(module)
        for target in sorted(targets):
            theirs = layer(target)
            if (module, target) in KNOWN_UPWARD or theirs == "solo":
                continue
            if mine == "rules":
                if theirs not in RULES_MAY_IMPORT:
                    out.append(f"{module} -> {target} (a rule system imports the {theirs})")
            elif theirs == "rules":  # the registry finds the systems by name; nothing imports them
                out.append(f"{module} -> {target} (the {mine} imports a rule system's package)")
            elif LAYERS.index(theirs) > LAYERS.index(mine):
                out.append(f"{module} -> {target} (the {mine} imports the {theirs}, above it)")
    return out


def test_every_module_is_in_a_layer():
    assert {layer(m) for m in MODULES} == {*LAYERS, "rules", "solo"}
    assert [m for m in MODULES if layer(m) == "solo"] == ["solo"]


def test_the_kernel_imports_nothing_of_solo_above_it():
    edges = graph()
    outside = sorted(f"{m} -> {t}" for m, ts in edges.items() if layer(m) == "kernel"
                     for t in ts if layer(t) != "kernel")
    assert not outside, "the kernel imports above it: " + "; ".join(outside)


def test_the_import_graph_of_solo_has_no_cycle():
    found = rings(graph())
    assert not found, "import rings: " + " | ".join(" <-> ".join(group) for group in found)


def test_the_layers_run_one_way():
    wrong = upward(graph())
    assert not wrong, "imports against the layers: " + "; ".join(wrong)
    edges = graph()
    assert all(pair[1] in edges[pair[0]] for pair in KNOWN_UPWARD), "a known upward arrow is gone: drop it"


@pytest.mark.parametrize("name", [m for m in MODULES if layer(m) != "rules"])
def test_no_engine_module_passes_the_size_of_a_module(name):
    lines = len(MODULES[name].read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{name} has {lines} lines: split it (at most {MAX_LINES})"


def test_the_checks_would_catch_what_they_look_for(tmp_path):
    root = tmp_path / "solo"
    files = {
        "kernel/__init__.py": "",
        "kernel/a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from solo.director import b\n",
        "director/__init__.py": "",
        "director/b.py": "def f():\n    from ..kernel import a\n",
        "faces/__init__.py": "",
        "faces/c.py": "import solo.kernel.a\n",
        "rules/__init__.py": "",
        "rules/toy/__init__.py": "from solo.faces import c\n",
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")

    modules = {module_name(p, root): p for p in root.rglob("*.py")}
    edges = {m: imported(p, modules, root) for m, p in modules.items()}
    assert edges["solo.kernel.a"] == {"solo.director.b"}  # a type-only import counts
    assert edges["solo.director.b"] == {"solo.kernel.a"}  # so does a function-local, relative one
    assert rings(edges) == [["solo.director.b", "solo.kernel.a"]]
    assert upward(edges) == ["solo.kernel.a -> solo.director.b (the kernel imports the director, above it)",
                             "solo.rules.toy -> solo.faces.c (a rule system imports the faces)"]
