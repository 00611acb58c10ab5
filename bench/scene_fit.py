"""Narrations drawn by seeded play, each beside the scene it was told in, for a blind judge.

Plays all five systems with no model: the shipped adventures (scene after scene, as the file leads)
and improvised scenes of varied settings (burning, snowbound, flooded, storm-lashed, crowded,
underground, aboard...), typing the commands a player would (rolls that succeed and fail, foes that
come and act, searches, scene ends). Every narration told is written with the scene as a reader at
the table knows it at that moment: the scene's title and place, its setting, who is on stage, what
was just typed, and the narration told just before (never code, tables or tags' internals).

    python bench/scene_fit.py [PASSAGES] [OUT] [--seed BASE]     (default 320, bench/scene_passages.jsonl, 0)

``--seed BASE`` starts the plays' seeds at BASE + 1 instead of 1: a fresh draw no reader has seen.

A judge who never saw the code rates each passage fit / loose / contradicts against its scene:
``bench/scene_fit.py --batches PASSAGES`` writes them as Markdown batches of 50 with the judge's brief
(into a folder named after the file), and ``bench/scene_fit.py --score VERDICTS`` counts a verdicts
file (JSON lines of {"id": N, "verdict": "fit"|"loose"|"contradicts"}).
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

try:
    from solo.director.adventure import shipped_adventures
except ImportError:  # a solo before its adventures moved into the rule systems' packages
    def shipped_adventures() -> dict[str, Path]:
        return {p.name: p for p in (ROOT / "campaigns").glob("*.toml")}
from solo.store.journal import Journal
from solo.table.session import Session

ROOT = Path(__file__).resolve().parent.parent
DECK = ROOT / "solo" / "rules" / "beyond_code" / "data" / "example-deck.toml"

IMPROVISED = (
    "the deck of a burning airship", "a snowbound mountain observatory", "a flooded crypt at midnight",
    "the fish market at dawn", "a waterfront cellar", "the sleeper train in a storm", "a jungle temple",
    "the opera house on opening night", "a frozen lake at dawn", "the burning warehouse by the docks",
    "a desert oasis at noon", "the catacombs under the city", "a crowded bazaar", "the lighthouse in the gale",
    "a snowbound village inn", "a riverboat in the fog",
)
OPENINGS: dict[str, list[str]] = {
    "enigma": ["pc add Nara --knack climbing --catchphrase Hah --dice 3", "pc add Max --knack boxing --dice 2"],
    "rhun": ["pc add Anna --archetype champion --race men --advancement hardiness --intuition 0 --reason 2 "
             "--finesse 0 --exertion 3 --psyche 2 --influence 1 --dice 4,5,6,3,4",
             "pc add Dun --archetype champion --race men --advancement hardiness --intuition 0 --reason 2 "
             "--finesse 0 --exertion 3 --psyche 2 --influence 1 --dice 4,5,6,3,4"],
    "haasteet": ["pc add Aino --daring 3 --tenacity 2 --instinct 1 --steadfastness 1",
                 "pc add Mabel --daring 1 --tenacity 3 --instinct 2 --steadfastness 1"],
    "alpha": ["pc add Null --endure d10 --navigate d8", "pc add Berrik"],
    "beyond-code": [],
}
ACTIONS = ("climb up for a better look", "force a way through", "search around", "talk them round", "run for it",
           "keep their footing", "pick the lock", "shout a warning", "hide", "leap the gap")


def moves(system: str, rng: random.Random) -> list[str]:
    """A few lines a player of ``system`` types in a scene."""
    act = rng.choice(ACTIONS)
    match system:
        case "enigma":
            return [rng.choice([f"gamble Nara '{act}'", f"gamble Max '{act}'", "snoop Nara the area",
                                "enemy add Thug --type minion", "tumult start", "enemy turn"])]
        case "rhun":
            return [rng.choice([f"risk Anna exertion '{act}'", f"risk Dun reason '{act}'",
                                "challenge add Warg --tier dangerous --sentient", "challenge strike Warg Anna"])]
        case "haasteet":
            return [rng.choice([f"challenge Aino '{act}'", f"challenge Mabel '{act}' --clue", "enemy add Ghoul",
                                "combat start", "enemy turn"])]
        case "alpha":
            return [rng.choice(["check Null navigate --difficulty 6", "check Berrik endure --difficulty 4",
                                "enemy add Soldier --count 2", "attack Null Soldier --melee", "enemy turn"])]
        case _:
            return [rng.choice([f"choose {rng.randint(1, 9)}", "turn end"])]


def run(session: Session, line: str) -> dict[str, Any] | None:
    outcome = session.execute(line)
    return outcome.result if outcome.ok else None


def told(result: dict[str, Any] | None) -> list[dict[str, Any]]:
    if not result:
        return []
    found = result.get("narration", [])
    return [n for n in (found if isinstance(found, list) else [found]) if isinstance(n, dict) and n.get("text")]


def board(status: dict[str, Any]) -> list[str]:
    """Beyond Code's table as a reader sees it: the Character, the hour, the cards face up."""
    names = status.get("names", {})
    up = [f"{c['pos']}: {c.get('name') or c.get('card')}" for c in status.get("grid", []) if c.get("face_up")]
    time = status.get("time") or {}
    return [f"Character: {names.get(status.get('character'), status.get('character'))}",
            f"Time: slot {time.get('slot')} of {time.get('last')}",
            "Face up in the Mansion: " + (", ".join(up) if up else "nothing yet")]


def adventure_over(session: Session) -> bool:
    """Whether the campaign's adventure has ended (its last scene is over and no way leads on)."""
    story = getattr(session, "story", None)
    if story is None:
        return False
    return bool(story.over(session.progress, session.system.rules.where(session.state)))


def open_scene(session: Session) -> bool:
    """Whether a scene is under way (begun and not yet ended)."""
    return session.system.rules.where(session.state).scene >= 1 and not session.progress.ended


def scene_brief(session: Session, line: str, before: list[str]) -> dict[str, Any]:
    """The scene as a reader knows it: what the scene model holds, without its secrets or code."""
    staged = getattr(session.view() if hasattr(session, "view") else session, "stage", None)
    if session.system.name == "beyond-code":
        scene = board(session.status())
    elif callable(staged):  # the scene model as the Director reads the board now: an ended scene's foes as it holds them
        scene = staged(session.state).lines()
    else:  # a solo before the scene model (a baseline round): the same facts, read the long way
        where, status = session.system.rules.where(session.state), session.status()
        story = session.story.current(session.progress, where) if session.story else None
        scene = [f"Scene: {where.scene_title}" + ("" if story else " (improvised)")]
        scene += [f"Place: {story.location}"] if story and story.location != where.scene_title else []
        scene += ["Setting: " + ", ".join(sorted(session.progress.tags))] if session.progress.tags else []
        cast = [n for n in (status.get("characters") or {})]
        scene += [f"Cast: {', '.join(cast)}"] if cast else []
        scene += [f"People here: {', '.join(p.name for p in story.npcs)}"] if story and story.npcs else []
        foes = [n for key in ("enemies", "challenges") for n, v in (status.get(key) or {}).items()
                if isinstance(v, dict) and not v.get("defeated") and v.get("active", True)] \
            if all(isinstance(status.get(k) or {}, dict) for k in ("enemies", "challenges")) else []
        scene += [f"Foes: {', '.join(foes)}" if foes else "Foes: none on stage"]
    if session.system.name != "beyond-code" and not open_scene(session):
        where = session.system.rules.where(session.state)
        scene = [*scene, "No scene is open" + (f": {where.scene_title} has ended" if where.scene_title else "")
                 + " (the cast is between scenes; nothing of the ended scene is under way any more)"]
    return {"scene": scene, "typed": line, "told_before": before[-3:]}


def play(system: str, source: str, seed: int, commands: int, out: list[dict[str, Any]], limit: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        session = Session(Journal(Path(folder) / "j.sqlite"), follow=False)
        rules = f"--from {source}" if source.endswith(".toml") else f"--rules {system}"
        deck = f" --deck {DECK}" if system == "beyond-code" else ""
        if run(session, f"campaign new Bench --seed {seed} {rules}{deck}") is None:
            return
        for line in OPENINGS[system]:
            run(session, line)
        rng = random.Random(seed)
        history: list[str] = []
        finished = False  # the adventure has ended: the player plays on in scenes of their own
        titles = [t for t in IMPROVISED]
        rng.shuffle(titles)
        for i in range(commands):
            if len(out) >= limit:
                return
            if system == "beyond-code":
                line = f"choose {rng.randint(1, 9)}" if i % 2 == 0 else "turn end"
            elif i % 8 == 0:
                line = "scene start" if source.endswith(".toml") and not finished else \
                    f"scene start {titles[(i // 8) % len(titles)]}"
            elif i % 8 == 7:
                line = f"scene end {rng.choice(['success', 'failure'])}"
            else:
                line = moves(system, rng)[0]
            if finished and not open_scene(session) and not line.startswith("scene start"):
                # as a player who finished the adventure and plays on: a new scene of their own first
                line = f"scene start {titles[(i // 8) % len(titles)]}"
            steps = [(line, line)]
            if line.startswith("gamble "):  # as at the table: the roll is settled at once (Enter in solo play)
                steps.append(("resolve", f"{line}, then Enter (resolve)"))
            for typed, shown in steps:
                # a scene's end is told of who was in it as it ended: the brief says so beside the board after
                ended_with = [f"As it ended, {x[0].lower()}{x[1:]}" for x in scene_brief(session, shown, history)["scene"]
                              if x.startswith(("Cast:", "Foes:"))] if typed.startswith("scene end") else []
                result = run(session, typed)
                for n in told(result):
                    if n.get("task") == "recap":
                        continue
                    brief = scene_brief(session, shown, history)
                    brief["scene"] = [*brief["scene"], *ended_with]
                    out.append({"id": len(out) + 1, "system": system, "campaign": Path(source).stem,
                                **brief, "task": n.get("task"), "text": n["text"],
                                "origin": n.get("origin", "")})  # for the record, never shown to the judge
                    history.append(n["text"])
            finished = finished or adventure_over(session)


def score(path: Path) -> None:
    verdicts = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    counts = Counter(v["verdict"] for v in verdicts)
    total = max(1, len(verdicts))
    print(", ".join(f"{k}: {counts[k]} ({counts[k] / total:.0%})" for k in ("fit", "loose", "contradicts")),
          f"of {len(verdicts)}")


JUDGE_BRIEF = """You are judging short passages of narration from a solo role-playing game, each against
the scene it was told in. You see what a player at the table knows: the scene's title and place, its
setting, who is on stage, the line the player just typed, and what was told just before. For each
passage answer one word:

- fit: it could only be told here, or plainly belongs to this scene and this moment;
- loose: nothing wrong, but it could be told anywhere (generic, not about this scene or this action);
- contradicts: it says something the scene rules out (a setting it is not, someone absent or dead,
  a foe where there is none, the same person in two roles, a line repeated from just before...).

Where a brief says "No scene is open", the scene it names has ended: a passage told then (a way forward,
a recap of what came of it) is judged against that ending, and one that tells the ended scene as still
under way contradicts it. Where it says the adventure is over, its people and foes are gone.

Answer as JSON lines: {"id": N, "verdict": "fit"|"loose"|"contradicts", "why": "a few words"}.
"""


def batches(path: Path, size: int = 50) -> None:
    """The passages of ``path`` as Markdown batches of ``size`` for a judge, beside it."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    folder = path.with_suffix("")
    folder.mkdir(exist_ok=True)
    for start in range(0, len(rows), size):
        lines = [JUDGE_BRIEF]
        for r in rows[start:start + size]:
            lines += [f"## Passage {r['id']} ({r['system']})", *(f"- {x}" for x in r["scene"]),
                      f"- The player typed: `{r['typed']}`",
                      *([f"- Told just before: {' | '.join(r['told_before'])}"] if r["told_before"] else []),
                      "", f"> {r['text']}", ""]
        (folder / f"batch_{start // size + 1:02d}.md").write_text("\n".join(lines), encoding="utf-8")
    print(f"{(len(rows) + size - 1) // size} batches of up to {size} -> {folder}")


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--score":
        score(Path(sys.argv[2]))
        return
    if len(sys.argv) > 2 and sys.argv[1] == "--batches":
        batches(Path(sys.argv[2]))
        return
    args = sys.argv[1:]
    base = 0
    if "--seed" in args:
        at = args.index("--seed")
        base = int(args[at + 1])
        args = args[:at] + args[at + 2:]
    limit = int(args[0]) if args else 320
    path = Path(args[1]) if len(args) > 1 else ROOT / "bench" / "scene_passages.jsonl"
    adventures = shipped_adventures()
    plays: list[tuple[str, str]] = [
        ("enigma", str(adventures["the_clockwork_zeppelin.toml"])),
        ("enigma", str(adventures["the_lantern_of_lost_atlantis.toml"])),
        ("rhun", str(adventures["rhun_salt_and_ash.toml"])),
        ("haasteet", str(adventures["haasteet_the_drowned_bell.toml"])),
        ("alpha", str(adventures["alpha_the_salt_road_toll.toml"])),
        ("enigma", "improvised"), ("rhun", "improvised"), ("haasteet", "improvised"), ("alpha", "improvised"),
        ("beyond-code", "run"),
    ]
    share = limit // len(plays) + 1
    out: list[dict[str, Any]] = []
    seed = base
    while len(out) < limit and seed < base + 20 * len(plays):  # rounds of every play, new seeds, until enough
        for system, source in plays:
            seed += 1
            taken = sum(r["system"] == system and r["campaign"] == Path(source).stem for r in out)
            if taken >= share:
                continue
            drawn: list[dict[str, Any]] = []
            play(system, source, seed, 80 if source.endswith(".toml") else 40, drawn, share - taken)
            out += drawn
        if all(sum(r["system"] == sy and r["campaign"] == Path(so).stem for r in out) >= share for sy, so in plays):
            break
    out = out[:limit]
    for i, row in enumerate(out, 1):
        row["id"] = i
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in out), encoding="utf-8")
    print(f"{len(out)} passages by system: {dict(Counter(r['system'] for r in out))} -> {path}")


if __name__ == "__main__":
    main()
