"""How often the oracle's narration fits its scene: the share of table draws whose entry fits the
scene's tags.

1. ENIGMA narrations in the shipped adventures' scenes and in improvised scenes whose setting comes
   from the place the Wide Shot drew, beside the same narrations drawn blind to the scene (as the
   engine drew them before scenes carried tags).
2. Improvised scenes a player titles (``scene start fish market at dawn``): the engine knows only
   what the title's words tell (the scene's tags as the journal's progress folds them), and each
   draw is scored against the setting the title means (given by hand below). ENIGMA's narrations
   and Alpha's scene tables, beside the same drawn blind.
3. The title's words against the shipped adventures: how many scene titles name a setting, and how
   many of the tags read from them the file's own tags hold.

    python bench/story_fit.py [NARRATIONS]      (default 200)
"""

from __future__ import annotations

import random
import sys

from solo.director.adventure import load_adventure, shipped_adventures
from solo.rules.alpha import SYSTEM as ALPHA
from solo.rules.enigma import SYSTEM
from solo.rules.enigma.director import PulpNarrator
from solo.director.story import Progress, progress_step, tags_from_words
from solo.director.tables import Draw, Entry, OracleTables, fits, system_tables

ADVENTURES = sorted(shipped_adventures().values())  # every rule system's data/adventures/

# Titles a player might give an improvised scene, and the setting each one means.
TITLES: tuple[tuple[str, frozenset[str]], ...] = tuple((title, frozenset(tags.split())) for title, tags in (
    ("fish market at dawn", "city outdoors crowd day"),
    ("a bridge under the stars", "outdoors night"),
    ("Rooftop chase", "city outdoors"),
    ("The sleeper train to Istanbul", "vehicle indoors"),
    ("Into the catacombs", "underground ancient"),
    ("Crossing the glacier", "wilderness outdoors day"),
    ("Aboard the airship", "vehicle air indoors"),
    ("Showdown at the docks", "water outdoors city"),
    ("The professor's study", "indoors city"),
    ("Lost in the jungle", "wilderness outdoors day"),
    ("Midnight in the museum", "indoors city night"),
    ("The smugglers' cave", "underground water"),
    ("Tea at the embassy", "indoors city day"),
    ("The village fair", "outdoors crowd day"),
    ("A skiff on the river", "vehicle water outdoors wilderness"),
    ("The old road through the woods", "outdoors wilderness"),
    ("Ambush in the ravine", "outdoors wilderness"),
    ("The tavern common room", "indoors crowd"),
    ("Dinner on the Orient Express", "vehicle indoors night"),
    ("The cellars under the manor", "underground indoors"),
    ("The Duke's masquerade", "indoors city crowd night"),  # words the engine does not read: setting unknown
    ("An audience with the Baron", "indoors"),
    ("The lighthouse in the gale", "outdoors water night"),
    ("Sunday at the racetrack", "outdoors crowd day"),
))
ALPHA_TABLES = ("foes.band", "wide_shot.opening", "checks.failure", "combat.start", "combat.hit_melee",
                "oracle_events.event", "foes.flee", "twists.path_forward")


def engine_scene(title: str) -> frozenset[str] | None:
    """The tags the engine draws by in an improvised scene started with ``title``."""
    moved = {"type": "adventure_moved", "scene": None, "leg": 1, "tags": list(tags_from_words(title)), "title": title}
    return progress_step(Progress(), moved).scene_tags


def original(tables: OracleTables, drawn: Draw) -> Entry:
    """The entry a draw's result names in ``tables`` (a blind draw's entry carries no tags)."""
    table = tables.tables[drawn.table]
    return table.entries[drawn.result - 1] if table.dice in ("list", "weighted") else table._lookup[drawn.result]


def blind(tables: OracleTables) -> OracleTables:
    """The same tables with every tag dropped: draws blind to the scene."""
    return OracleTables({tid: t.model_copy(update={"entries": tuple(e.model_copy(update={"tags": ()})
                                                                      for e in t.entries)})
                         for tid, t in tables.tables.items()})


def every(drawn: list[Draw]) -> list[Draw]:
    out = []
    for d in drawn:
        out.append(d)
        out += every(list(d.nested))
    return out


def tell(narrator: PulpNarrator, rng: random.Random, kind: int) -> list[Draw]:
    """One narration of a task a scene meets, and every table draw it made."""
    made: list[Draw] = []
    real = narrator.tables.draw

    def spy(table: str, rng_: random.Random, depth: int = 0, given: dict[str, str] | None = None,
            scene: frozenset[str] | None = None, context: dict[str, str] | None = None) -> Draw:
        drawn = real(table, rng_, depth, given, scene, context)
        if depth == 0:
            made.append(drawn)
        return drawn

    narrator.tables.draw = spy  # type: ignore[method-assign,assignment]
    try:
        match kind % 6:
            case 0:
                narrator.blunder(rng, character="Nara", action="climb")
            case 1:
                narrator.enemy_turn(rng, enemy="Bruno", enemy_type=rng.choice(["minion", "lieutenant", "villain"]),
                                    target="Nara")
            case 2:
                narrator.snoop(rng, character="Nara", level=rng.randint(1, 6), topic=None)
            case 3:
                narrator.oracle_event(rng)
            case 4:
                narrator.path_forward(rng)
            case _:
                narrator.scene_transition(rng)
    finally:
        narrator.tables.draw = real  # type: ignore[method-assign]
    return every(made)


def share(counts: list[int]) -> str:
    return f"{counts[0]}/{counts[1]} = {counts[0] / max(1, counts[1]):.3f}"


def adventure_scenes(count: int, tables: OracleTables, untagged: OracleTables) -> None:
    base, blind_base = PulpNarrator(tables), PulpNarrator(untagged)
    scenes = [frozenset(s.tags) for p in ADVENTURES for leg in load_adventure(p).legs
              for s in leg.scenes if s.tags]
    rng = random.Random(1931)
    totals = {"fitted": [0, 0], "blind": [0, 0]}
    improvised = 0
    for i in range(count):
        if i % 4 == 3:  # an improvised scene: the place its Wide Shot draws says where it is
            shot = base.with_context({}).wide_shot(rng, place=None, character="Nara")
            tags = shot.facts.get("scene_tags")
            if not tags:
                continue
            scene = frozenset(tags)
            improvised += 1
        else:
            scene = scenes[i % len(scenes)]
        for mode, narrator in (("fitted", base.with_context({}, scene)), ("blind", blind_base.with_context({}))):
            made = tell(narrator, random.Random(f"{i}:{mode}"), i)
            totals[mode][0] += sum(fits(original(tables, d).tags, scene) for d in made)
            totals[mode][1] += len(made)
    fitted, blind_ = totals["fitted"], totals["blind"]
    print("1. ENIGMA narrations in adventure scenes and Wide Shot places")
    print(f"   drawn to fit the scene: {share(fitted)} of draws from entries that fit")
    print(f"   drawn blind to the scene (before tags): {share(blind_)}")
    print(f"   ({count} narrations; {len(scenes)} tagged adventure scenes; {improvised} improvised scenes set by "
          "their Wide Shot)")
    print(f"   fitted / blind share: {(fitted[0] / max(1, fitted[1])) / max(1e-9, blind_[0] / max(1, blind_[1])):.3f}")


def titled_scenes(count: int, tables: OracleTables, untagged: OracleTables) -> None:
    alpha = system_tables(ALPHA.data)
    alpha_blind = blind(alpha)
    base, blind_base = PulpNarrator(tables), PulpNarrator(untagged)
    totals = {(system, mode): [0, 0] for system in ("ENIGMA", "Alpha") for mode in ("engine", "blind")}
    misfits: dict[str, int] = {}
    for i in range(count):
        title, truth = TITLES[i % len(TITLES)]
        known = engine_scene(title)
        for mode in ("engine", "blind"):
            rng = random.Random(f"{i}:{mode}")
            narrator = base.with_context({}, known) if mode == "engine" else blind_base.with_context({})
            made = tell(narrator, rng, i)
            table_set = alpha if mode == "engine" else alpha_blind
            alpha_made = [table_set.draw(t, rng, scene=known if mode == "engine" else None) for t in ALPHA_TABLES]
            for system, source, drawn in (("ENIGMA", tables, made), ("Alpha", alpha, every(alpha_made))):
                fit = [fits(original(source, d).tags, truth) for d in drawn]
                totals[(system, mode)][0] += sum(fit)
                totals[(system, mode)][1] += len(fit)
                if mode == "engine":
                    for d, ok in zip(drawn, fit):
                        if not ok:
                            misfits[f"{title}: {d.table} {original(source, d).text[:50]}"] = 1
    print(f"2. Improvised scenes titled by the player ({len(TITLES)} titles, scored against the setting each means)")
    for system in ("ENIGMA", "Alpha"):
        print(f"   {system}: drawn by the engine from the title's words: {share(totals[(system, 'engine')])}; "
              f"drawn blind: {share(totals[(system, 'blind')])}")
    read = sum(bool(tags_from_words(t)) for t, _ in TITLES)
    print(f"   titles whose words the engine reads a setting from: {read}/{len(TITLES)}; "
          f"distinct misfits drawn by the engine: {len(misfits)}")
    for line in sorted(misfits)[:8]:
        print(f"     {line}")


def title_words() -> None:
    named = total = right = wrong = 0
    for path in ADVENTURES:
        for leg in load_adventure(path).legs:
            for scene in leg.scenes:
                total += 1
                read = set(tags_from_words(scene.title))
                named += bool(read)
                right += len(read & set(scene.tags))
                wrong += len(read - set(scene.tags))
    print("3. Scene titles of the shipped adventures read for their setting")
    print(f"   titles that name a setting: {named}/{total}; tags read: {right} the file holds, {wrong} it does not")


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    tables = system_tables(SYSTEM.data)
    untagged = blind(tables)
    adventure_scenes(count, tables, untagged)
    titled_scenes(count, tables, untagged)
    title_words()


if __name__ == "__main__":
    main()
