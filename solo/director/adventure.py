"""Adventure files: TOML validated into a typed adventure.

Each rule system ships its adventures inside its package (``data/adventures/*.toml``, part of
the system's interface: a third party's system ships its own the same way); a user's own live in
``campaigns/`` (of the folder solo runs from, or of solo's data folder; ``SOLO_CAMPAIGNS`` names
another) or anywhere, named by path.

An adventure names its rule system (``rules``, default: solo's shipped default system), a title, a premise, a
villain and its scheme, 1-5 parts (arcs, a system may play each as its chapter; `[[legs]]` in the first format) of Scenes, and optional
pregenerated characters. Each Scene names its location, people, obstacles, the clues a
search reveals at low and high rolls, its enemies, treasure and the ways forward on success
and on failure: the story always keeps moving. The engine validates the shape; the parts a
rule system defines (its enemies, its pregens, its lessons) are checked by that system
(``AdventurePart.check_adventure``). Errors name the file and the path inside it. The typed adventure
itself, and the reading of the first format's keys, are the kernel's (``solo.kernel.adventure``).
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from solo.kernel.adventure import Adventure, spelled
from solo.kernel.datafile import DataFileError, load_toml
from solo.kernel.errors import echo, RuleViolation, SoloError
from solo.kernel.scene import SceneModel
from solo.kernel.wording import locative
from solo.director.tables import fits


class AdventureError(SoloError):
    """An adventure file is broken; the message names the file and the path."""


def message(path: Path, exc: ValidationError, data: Any = None) -> str:
    """The first error of ``exc``, where it is in the file: under the file's own spelling of each key
    (``data``, the file as read: a key of the first format is named as the file writes it)."""
    first = exc.errors()[0]
    written = spelled(data)
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{written.get(str(p), p)}" for p in first["loc"]).lstrip(".")
    text = respelled(first["msg"].removeprefix("Value error, "), data)
    return f"{path.name}: {where}: {text}" if where else f"{path.name}: {text}"


def respelled(text: str, data: Any) -> str:
    """``text`` (an error naming a path in the file, ``parts[0].scenes[1]``) with each key as ``data``,
    the file as read, spells it."""
    for new, old in spelled(data).items():
        text = re.sub(rf"\b{new}(?=[\[.])", old, text)
    return text


def read_toml(path: Path) -> dict[str, Any]:
    try:
        return load_toml(path, missing=f"{str(path)[:120]}: no such file (give a file, or the name of an adventure "
                                        "that `campaign new X --from ?` lists)")
    except DataFileError as exc:
        raise AdventureError(str(exc)) from None


def load_adventure(path: str | Path) -> Adventure:
    path = Path(path)
    data = read_toml(path)
    try:
        adventure = Adventure.model_validate(data)
    except ValidationError as exc:
        raise AdventureError(message(path, exc, data)) from None
    from solo.kernel.registry import get_system

    try:
        system = get_system(adventure.rules)
    except RuleViolation as exc:
        raise AdventureError(f"{path.name}: rules: {exc}") from None
    from solo.kernel.bounds import check_pregens

    try:
        system.adventures.check_adventure(adventure)
        check_pregens(system, adventure.pregens)
    except ValidationError as exc:
        raise AdventureError(message(path, exc, data)) from None
    except ValueError as exc:
        raise AdventureError(f"{path.name}: {respelled(str(exc), data)}") from None
    return adventure


def campaigns_folders() -> list[Path]:
    """Where a user's own adventures are looked for by name: ``SOLO_CAMPAIGNS``, else ``campaigns/``
    in the folder solo runs from (a checkout) and in solo's data folder (an installed solo)."""
    import os

    env = os.environ.get("SOLO_CAMPAIGNS")
    if env:
        return [Path(env)]
    from platformdirs import user_data_dir

    return [Path.cwd() / "campaigns", Path(user_data_dir("solo", appauthor=False)) / "campaigns"]


def shipped_adventures() -> dict[str, Path]:
    """The adventures every installed rule system ships (its ``data/adventures/*.toml``), by file name."""
    from solo.kernel.registry import installed

    found: dict[str, Path] = {}
    for system in installed().values():
        for path in (system.data / "adventures").glob("*.toml"):
            found.setdefault(path.name, path)
    return dict(sorted(found.items()))  # by file name, whatever system plays it (the REPL's menu order)


def available_adventures() -> list[Path]:
    """The adventures found by name: the user's own first, then the shipped ones of the same name left out."""
    own = [p for folder in campaigns_folders() for p in sorted(folder.glob("*.toml"))]
    names = {p.name for p in own}
    return [*own, *(p for name, p in shipped_adventures().items() if name not in names)]


def find_adventure(name: str, base: Path | None = None) -> Path:
    """A path as given, relative to ``base``, or by name (``.toml`` optional; a folder before it is
    passed over): the user's own in ``campaigns/``, then those the rule systems ship."""
    candidates = [Path(name).expanduser()]
    if base is not None:
        candidates.append(base / name)
    for folder in campaigns_folders():
        candidates += [folder / name, folder / f"{name}.toml", folder / Path(name).name]
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    shipped = shipped_adventures()
    short = Path(name).name
    for key in (short, f"{short}.toml"):
        if key in shipped:
            return shipped[key]
    names = sorted(dict.fromkeys(p.stem for p in available_adventures()))
    raise AdventureError(f"no adventure {echo(name, 80)}: give a file, or one of {', '.join(names) or 'none installed'}")


def loadable_adventures() -> list[tuple[str, str, str]]:
    """(title, file name, rule system) of the adventures that load: the user's own, then those shipped."""
    found = []
    for path in available_adventures():
        try:
            adventure = load_adventure(path)
        except SoloError:
            continue  # `campaign validate` tells what is wrong with it
        found.append((adventure.title, path.name, adventure.rules))
    return found


def sign_of(adventure: Adventure, scene_id: str | None, stage: SceneModel | None, villain: str,
            rng: random.Random) -> tuple[str, str] | None:
    """A world move told of what the cast can see (the adventure's ``signs``): one of the opening scene's own,
    else one of the villain's that fits where the scene is, with ``{villain}`` and ``{where}`` (the scene's
    place) put in, which the scene admits (no secret, nothing told lately, nothing its setting rules out).
    Returns (text, origin); None where the file has no sign for this scene."""
    found = adventure.scene(scene_id) if scene_id else None
    where = locative(stage.place) if stage is not None and stage.place else ""
    for origin, signs in ((f"adventure: signs of scene {scene_id}", found[2].signs if found else ()),
                          ("adventure: the villain's signs", adventure.villain.signs)):
        told = [(i, filled_sign(s.text, villain, where)) for i, s in enumerate(signs, 1)
                if fits(s.tags, stage.tags if stage is not None else None) and (where or "{where}" not in s.text)]
        told = [(i, text) for i, text in told if stage is None or stage.admits(text)]
        if told:
            i, text = told[rng.randrange(len(told))]
            return text, f"{origin} #{i}"
    return None


def filled_sign(text: str, villain: str, where: str) -> str:
    """A sign's words with the villain's name and the scene's place put in (a sentence opens in capitals)."""
    text = text.replace("{villain}", villain).replace("{where}", where)
    return text[:1].upper() + text[1:]
