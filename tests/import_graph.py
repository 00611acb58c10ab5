"""solo's import graph as its source says it: which module imports which (tests/test_layout.py,
tests/test_kernel.py)."""

from __future__ import annotations

import ast
from pathlib import Path

SOLO = Path(__file__).resolve().parent.parent / "solo"


def module_name(path: Path, root: Path = SOLO) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(SOLO.rglob("*.py"))}


def imported(path: Path, modules: dict[str, Path], root: Path = SOLO) -> set[str]:
    """The modules of ``modules`` that ``path`` imports, at any depth of the file: ``from a import b``
    counts as ``a.b`` where that is a module, else as ``a``; relative imports are resolved."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    named: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            named |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            named |= {f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names}
    found = set()
    for target in named:
        while target and target not in modules:
            target = target.rpartition(".")[0]
        if target and target != name:
            found.add(target)
    return found
