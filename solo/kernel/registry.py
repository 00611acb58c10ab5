"""Rule systems found by name through Python entry points (group ``solo.rule_systems``).

The built-in systems register in pyproject.toml exactly as a third-party package would::

    [project.entry-points."solo.rule_systems"]
    enigma = "solo.rules.enigma:SYSTEM"

so adding a system is one new package and one line in its own packaging, with no edit here.
"""

from __future__ import annotations

import os
from functools import cache
from importlib.metadata import entry_points
from typing import Any

from solo.kernel.errors import RuleViolation
from solo.kernel.settings import shipped_setting
from .protocol import RuleSystem

GROUP = "solo.rule_systems"

AnySystem = RuleSystem[Any, Any, Any]


@cache
def installed() -> dict[str, AnySystem]:
    """Every installed system by name, loaded once per process. An entry point that fails
    to load is left out: one broken plugin must not stop the others."""
    found: dict[str, AnySystem] = {}
    for point in entry_points(group=GROUP):
        try:
            system = point.load()
        except Exception:  # noqa: BLE001 - a third party's import error is theirs; `rules` lists what loads
            continue
        found[getattr(system, "name", point.name)] = system
    for system in _built_in():
        found.setdefault(system.name, system)
    return dict(sorted(found.items()))


# The package of the built-in systems, looked up by name as a plugin is: the kernel imports no system
# (nor the package that holds them), it finds them.
BUILT_IN = f"{__package__.rpartition('.')[0]}.rules"


def _built_in_folders() -> list[str]:
    """The folders that hold ``solo/rules/``'s packages (none if it is not there)."""
    from importlib.util import find_spec

    spec = find_spec(BUILT_IN)
    return list(spec.submodule_search_locations or []) if spec is not None else []


@cache
def _folders() -> frozenset[str]:
    """The names of the packages under ``solo/rules/``."""
    import pkgutil

    return frozenset(m.name for m in pkgutil.iter_modules(_built_in_folders()) if m.ispkg)


def _built_in() -> list[AnySystem]:
    """The packages under ``solo/rules/`` that carry a ``SYSTEM``, for a source tree run without
    its package metadata installed (their entry points are then unknown); found by folder, not by name."""
    import importlib
    import pkgutil

    out = []
    for module in pkgutil.iter_modules(_built_in_folders()):
        if not module.ispkg:
            continue
        try:
            system = getattr(importlib.import_module(f"{BUILT_IN}.{module.name}"), "SYSTEM", None)
        except Exception:  # noqa: BLE001 - a broken package is left out, like a broken entry point
            continue
        if system is not None:
            out.append(system)
    return out


def get_system(name: str) -> AnySystem:
    """The system called ``name`` (case ignored); ``RuleViolation`` naming the choices if none.

    A system shipped in ``solo/rules/<name>/`` is found by its folder first, which spares every
    start of the program a scan of all installed packages' entry points; any other name (a third
    party's system, an alias) is looked up among the entry points."""
    key = name.strip().casefold()
    if key.isidentifier() and key in _folders():
        import importlib

        try:
            found = getattr(importlib.import_module(f"{BUILT_IN}.{key}"), "SYSTEM", None)
        except Exception:  # noqa: BLE001 - a broken built-in package: the entry points say what is installed
            found = None
        if found is not None and found.name == key:
            return found  # type: ignore[no-any-return]
    systems = installed()
    for system in systems.values():
        if key == system.name or key in system.aliases:
            return system
    raise RuleViolation(f"unknown rules {name!r}: choose from {', '.join(systems) or 'none installed'}")


@cache
def shipped_rules() -> str:
    """The rule system solo ships as its default: ``rules`` in ``solo/data/settings.toml``; where that
    file is missing or damaged, the first installed system by name."""
    return shipped_setting("rules") or next(iter(installed()), "")


def default_rules() -> str:
    """The rule system of a `campaign new` without ``--rules``: the user's ``SOLO_RULES`` when set, else
    the shipped default (``shipped_rules``)."""
    return os.environ.get("SOLO_RULES", "").strip() or shipped_rules()


def default_system() -> AnySystem:
    """The default rule system (``default_rules``); a ``SOLO_RULES`` naming none installed is refused
    with the choices (RuleViolation), as `campaign new --rules` refuses it."""
    name = default_rules()
    try:
        return get_system(name)
    except RuleViolation as exc:
        if os.environ.get("SOLO_RULES", "").strip():
            raise RuleViolation(f"SOLO_RULES: {exc}") from None
        raise


def fallback_system() -> AnySystem:
    """The system that reads commands before any campaign is open: the default one, or the shipped one
    where ``SOLO_RULES`` names none installed (the error waits for the `campaign new` that would use it)."""
    try:
        return default_system()
    except RuleViolation:
        return get_system(shipped_rules())
