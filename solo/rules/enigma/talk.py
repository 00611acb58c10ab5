"""The REPL's conversation around an ENIGMA command: the physical dice it calls for (Director
co-pilot), Tab completion, odds before a Gamble, Blammo! sounds on the spot, the choices a roll
still has, the long form of a command, and the character walk-through ([Making a Character]).
"""

from __future__ import annotations

import random
import re
import shlex
from collections.abc import Mapping, Sequence
from typing import Any

from solo.kernel.inert import escape
from solo.kernel.words import plural
from ...kernel.protocol import Cancelled, Conversation, DiceNeed, ask_choice, ask_required
from solo.director.tables import oracle_tables
from solo.kernel.services import Tables
from . import commands as rc
from .odds import success_chance
from .present import _dice
from .state import MAX_EQUIPMENT, MAX_KNACKS, OPTIONAL_RULES, Archetype, EnemyType, GameState, sound_key

# --- physical dice (Director co-pilot) --------------------------------------------------------


def dice_needed(state: GameState, command: rc.Command) -> list[DiceNeed]:
    """The dice a command rolls that the Director has not typed: asked for at the table."""
    match command:
        case rc.Gamble(dice=None):
            actor = state.find(command.character)
            from .results import odds

            try:
                pool = odds(state, rc.Odds(gamble=command))["pool"]
            except Exception:  # noqa: BLE001 - an illegal Gamble: the rules will say why when it runs
                return []
            own = pool - (1 if command.help is not None else 0)
            needs = [DiceNeed(actor.name if actor else command.character, own)]
            if command.help is not None and command.help.die is None:
                needs.append(DiceNeed(f"{command.help.helper}'s help die", 1))
            return needs
        case rc.Gamble() if command.help is not None and command.help.die is None:
            return [DiceNeed(f"{command.help.helper}'s help die", 1)]
        case rc.Snoop(dice=None):
            return [DiceNeed(command.character, 1)]
        case rc.AddCharacter(dice=None):
            return [DiceNeed(command.name, 1, what="starting Lucky Saves")]
        case rc.UseCatchphrase(dice=None) if state.pending is not None:
            return [DiceNeed(command.character, len(state.pending.dice), what="re-roll")]
        case rc.Rest(dice=d) if not d:
            return [DiceNeed(c.name, 1) for c in state.characters]
        case rc.StartLeg(dice=d) if not d:
            return [DiceNeed(c.name, 1, what="Lucky Saves") for c in state.characters if not c.retired]
        case rc.GroupGamble(dice=d) if not d:
            return [DiceNeed(c.name, 1 + sum(1 for n, _ in command.assets if state.find(n) is c))
                    for c in state.active_characters()]
    return []


def with_dice(state: GameState, command: rc.Command, faces: Mapping[str, tuple[int, ...]]) -> rc.Command:
    """``command`` carrying the faces rolled at the table (keys as ``dice_needed`` named them)."""
    match command:
        case rc.Gamble():
            update: dict[str, Any] = {}
            for who, rolled in faces.items():
                if who.endswith("'s help die") and command.help is not None:
                    update["help"] = command.help.model_copy(update={"die": rolled[0]})
                else:
                    update["dice"] = rolled
            return command.model_copy(update=update)
        case rc.Snoop() | rc.AddCharacter():
            return command.model_copy(update={"dice": next(iter(faces.values()))[0]})
        case rc.UseCatchphrase():
            return command.model_copy(update={"dice": next(iter(faces.values()))})
        case rc.Rest() | rc.StartLeg() | rc.GroupGamble():
            return command.model_copy(update={"dice": dict(faces)})
    return command


# --- completion and the REPL's conversation ---------------------------------------------------


def _quote(name: str) -> str:
    return f'"{name}"' if any(ch.isspace() for ch in name) else name


ACTORS = ("gamble", "odds", "luck", "catchphrase", "snoop", "peril", "thing", "pc show")


def completions(state: GameState, spec: str, args: Sequence[str], previous: str, current: str) -> list[str]:
    """Names, each character's own knacks and equipment, enemies, types, topics."""
    character = state.find(args[0]) if args and spec in ACTORS else None
    if previous == "--knack" and character:
        return [_quote(k) for k in character.knacks]
    if previous == "--equip" and character:
        return [_quote(e) for e in character.equipment]
    if previous in ("--help", "--with"):
        return [_quote(f"{c.name}:{a}") for c in state.characters for a in c.knacks + c.equipment]
    if previous in ("--target", "--pay"):
        return [_quote(f"{c.name}:") for c in state.characters]
    if previous == "--vs":
        return [_quote(e.name) for e in state.enemies if not e.defeated]
    if previous == "--type":
        return [t.value for t in EnemyType]
    if previous == "--archetype":
        return [a.value for a in Archetype]
    if previous == "--optional":
        return list(OPTIONAL_RULES)
    if current.startswith("+") and character:
        return ["+" + _quote(a) for a in character.knacks + character.equipment]
    if previous == "--how":
        return ["flee", "surrender", "removed"]
    if spec in ("hit", "enemy act", "enemy leave"):
        return [_quote(e.name) for e in state.enemies] if not args else []
    if spec in ACTORS and not args:
        return [_quote(c.name) for c in state.characters]
    return []


def prepare(state: GameState, command: rc.Command, talk: Conversation) -> rc.Command:
    """Before a Gamble: Blammo! sounds written as ``?`` are asked for and every sound is checked
    on the spot ([Blammo! Dice]); then the pool and the exact odds are shown."""
    if not isinstance(command, rc.Gamble):
        return command
    used = set(state.used_sounds)
    sounds = []
    for sound in command.blammo:
        while sound.strip() in ("?", "") or sound_key(sound) in used:
            if sound.strip() not in ("?", ""):
                talk.error(f"the sound {sound!r} has been used in this campaign: invent a new one")
            sound = talk.ask("Blammo! sound effect (never used before):").strip()
        used.add(sound_key(sound))
        sounds.append(sound)
    command = command.model_copy(update={"blammo": tuple(sounds)})
    r = talk.query(rc.Odds(gamble=command.model_copy(update={"dice": None})))
    if r is None:
        raise Cancelled  # the odds failed, so would the Gamble: the error is shown
    why = ", ".join(r["bonus"] + [f"penalty: {p}" for p in r["penalties"]]) or "no bonus dice"
    helper = f" + {r['helper']}'s die" if r.get("helper") else ""
    saves = f", {r['with_lucky_saves'][-1]:.1%} counting Lucky Saves" if len(r["with_lucky_saves"]) > 1 else ""
    talk.say(f"[bold]{escape(r['character'])}[/] rolls {r['pool']}d6 ({escape(why)}{escape(helper)}): "
             f"[bold]{r['success']:.1%}[/] to succeed{saves}")
    return command


def after(state: GameState, command: rc.Command, talk: Conversation) -> None:
    """After a command: what each open choice of a pending roll would change ([Lucky Saves],
    [Catchphrase], [Peril], [Knockouts]); in a Tumult, what comes next ([Tumults])."""
    lines = roll_choices(state) if isinstance(command, (rc.Gamble, rc.SpendLuck, rc.UseCatchphrase)) else []
    lines += tumult_next(state, command)
    if lines:
        talk.say("\n".join(lines))


def roll_choices(state: GameState) -> list[str]:
    """The choices a pending roll still has, each with what it would change."""
    pending = state.pending
    if pending is None:
        return []
    actor = state.find(pending.character)
    assert actor is not None
    who = escape(_quote(actor.name))
    dice = pending.all_dice
    best = max(range(len(dice)), key=lambda i: dice[i])
    lines = []
    if max(dice) >= 5:
        lines.append("  [green]Enter[/] accept: a success" + unaimed(state))
    else:
        need = 5 - dice[best]
        if need <= actor.lucky_saves:
            lines.append(f"  [cyan]luck {who} {best + 1} {need}[/]  die {best + 1}: "
                         f"{dice[best]} → 5, a success ({need} of {actor.lucky_saves} Lucky Saves)")
        else:
            lines.append(f"  Lucky Saves cannot make this a success ({actor.lucky_saves} left, {need} needed)")
        if actor.catchphrase_available:
            chance = success_chance(len(pending.dice), actor.lucky_saves)
            lines.append(f"  [cyan]catchphrase {who}[/]  “{escape(actor.catchphrase or '')}”: "
                         f"re-roll {_dice(len(pending.dice))}, {float(chance):.1%} with your Lucky Saves")
        lines.append("  [red]Enter[/] accept: a blunder (a Blammo! die, and the Director tells what goes wrong)")
    ones = [i for i, face in enumerate(pending.dice) if face == 1]
    if ones:
        lines.append(f"  each 1 adds 1 Peril to {escape(actor.name)} when the roll resolves")
        if not actor.retired and actor.peril + len(ones) >= 6:
            spare = min(len(ones), actor.lucky_saves)
            saved = len(ones) - spare
            if spare and actor.peril + saved < 6:
                raise_ = ", ".join(f"luck {who} {i + 1}" for i in ones[:spare])
                lines.append(f"  [bold]a Knockout is coming[/] (Peril {actor.peril} + {len(ones)}): [cyan]{raise_}[/] "
                             f"turns {'the 1' if spare == 1 else 'those 1s'} into 2 and avoids it")
            else:
                lines.append(f"  [bold]a Knockout is coming[/] (Peril {actor.peril} + {len(ones)}), "
                             f"and {plural(actor.lucky_saves, 'Lucky Save')} cannot raise enough of the 1s")
    return lines


def unaimed(state: GameState) -> str:
    """[Tumults] a pending success named against no enemy strikes none: how one it struck counts (told with the
    success, before it resolves; a Gamble that named its enemy, or a blunder, hears nothing of it)."""
    pending, tumult = state.pending, state.tumult
    standing = [e for e in state.enemies if not e.defeated]
    if pending is None or tumult is None or pending.vs is not None or not standing:
        return ""
    return (f"; it strikes no enemy: one it struck counts with `hit {escape(_quote(standing[0].name))}` once it "
            "resolves (or name it next time: `gamble ... --vs ENEMY`)")


def tumult_next(state: GameState, command: rc.Command) -> list[str]:
    """[Tumults] the next step once the cast has acted or the enemies are bested."""
    tumult = state.tumult
    if tumult is None or state.pending is not None or isinstance(command, rc.EndTumult):
        return []
    standing = [e for e in state.enemies if not e.defeated]
    if state.enemies and not standing:
        return ["  [dim]every enemy is bested: `tumult end`[/]"]
    waiting = [c.name for c in state.active_characters() if c.name not in tumult.acted]
    hint = []
    if not waiting and standing:
        hint.append("  [dim]everyone has acted: `round end` (the enemies act, then round "
                    f"{tumult.round + 1})[/]")
    elif waiting:
        hint.append(f"  [dim]still to act this round: {escape(', '.join(waiting))}[/]")
    return hint


def gamble_line(command: rc.Gamble) -> str:
    """The contract's long form of a Gamble, as it is journaled."""
    words = ["gamble", command.character, command.action]
    for flag, values in (("--knack", command.knacks), ("--equip", command.equipment),
                         ("--advantage", command.advantages), ("--penalty", command.penalties),
                         ("--blammo", command.blammo)):
        for value in values:
            words += [flag, value]
    words += [f"+{asset}" for asset in command.assets]
    if command.help is not None:
        die = f":{command.help.die}" if command.help.die is not None else ""
        words += ["--help", f"{command.help.helper}:{command.help.asset}{die}"]
    if command.vs is not None:
        words += ["--vs", command.vs]
    if command.dice is not None:
        words += ["--dice", ",".join(map(str, command.dice))]
    return shlex.join(words)


def _named(dice: Mapping[str, tuple[int, ...]]) -> list[str]:
    return [w for name, rolled in dice.items() for w in ("--dice", f"{name}={','.join(map(str, rolled))}")]


def as_line(command: rc.Command, typed: str) -> str:
    """A command written out in the contract's long form: a co-pilot suggestion, or the journal's
    line for a command the REPL built or gave physical dice (what was typed stands otherwise)."""
    match command:
        case rc.Gamble():
            return gamble_line(command)
        case rc.AddEnemy():
            return shlex.join(["enemy", "add", command.name, "--type", command.type.value]
                              + (["--threshold", str(command.threshold)] if command.threshold is not None else [])
                              + (["--danger", str(command.danger)] if command.danger is not None else []))
        case rc.AssignPeril():
            return shlex.join(["peril", command.character, f"{command.amount:+d}"]
                              + (["--cause", command.cause] if command.cause else []))
        case rc.AddCharacter() if typed and (command.dice is None or "--dice" in typed):
            return typed
        case rc.AddCharacter():
            words = ["pc", "add", command.name]
            for flag, value in (("--archetype", command.archetype.value if command.archetype else None),
                                ("--profession", command.profession), ("--drive", command.drive),
                                ("--catchphrase", command.catchphrase), ("--biography", command.biography),
                                ("--appearance", command.appearance)):
                if value:
                    words += [flag, value]
            for flag, values in (("--knack", command.knacks), ("--equip", command.equipment),
                                 ("--relationship", command.relationships)):
                for value in values:
                    words += [flag, value]
            if command.dice is not None:
                words += ["--dice", str(command.dice)]
            return f"{typed} --dice {command.dice}" if typed else shlex.join(words)
        case rc.Snoop(dice=int(die)) if "--dice" not in typed:
            return f"{typed} --dice {die}"
        case rc.UseCatchphrase(dice=tuple(rolled)) if "--dice" not in typed:
            return f"{typed} --dice {','.join(map(str, rolled))}"
        case rc.Rest(dice=dict(dice)) | rc.StartLeg(dice=dict(dice)) | rc.GroupGamble(dice=dict(dice)) \
                if dice and "--dice" not in typed:
            return " ".join([typed, *(shlex.quote(w) for w in _named(dice))])
        case rc.RemoveEnemy() if not typed:
            return shlex.join(["enemy", "leave", command.enemy, "--how", command.how])
        case rc.EndTumult() if not typed:
            return "tumult end"
        case rc.Resolve() if not typed:
            return "resolve"
    return typed or command.kind.replace("_", " ")


# [Knacks] the SRD's own examples of specific knacks
KNACK_EXAMPLES = ("Throwing large nets", "Climbing over walls", "Listening to organ music")


def create_character(state: GameState, talk: Conversation, tables: Tables | None,
                     rng: random.Random) -> rc.AddCharacter | None:
    """[Making a Character] name, archetype, profession, drive, knacks, equipment, catchphrase:
    the SRD's six archetypes with its sample drives and equipment (a number, r for a random
    pick, or your own words). Lucky Saves are rolled when the character joins."""
    oracle = oracle_tables(tables) if tables is not None else None
    name = ask_required(talk, "Name:")
    archetypes = [a.value for a in Archetype]
    talk.say("Archetypes: " + ", ".join(f"{i} {a}" for i, a in enumerate(archetypes, 1)))
    archetype = ask_choice(talk, "Archetype (number, r for random, Enter to skip):", archetypes, rng)
    profession = talk.ask("Profession (Enter to skip):").strip()
    if archetype and oracle and f"srd_drives.{archetype}" in oracle:
        drives = [e.text for e in oracle.tables[f"srd_drives.{archetype}"].entries]
        talk.say("Sample drives: " + ", ".join(f"{i} {d}" for i, d in enumerate(drives, 1)))
        drive = ask_choice(talk, "Drive (number, r for random, or your own words):", drives, rng, free=True)
    else:
        drive = talk.ask("Drive (Enter to skip):").strip()
    knacks: list[str] = []
    talk.say("Knacks are what the character is great at, and specific: " + ", ".join(KNACK_EXAMPLES) + ".")
    while len(knacks) < MAX_KNACKS:
        knack = talk.ask(f"Knack {len(knacks) + 1} of up to {MAX_KNACKS}, something specific (Enter to finish):").strip()
        if not knack:
            break
        if len(re.findall(r"[^\W\d_]", knack)) < 3:  # "r", "2": a habit from the questions before, not a knack
            talk.say(f"a knack is a few words, like {KNACK_EXAMPLES[1]!r}: type one, or Enter to finish")
            continue
        knacks.append(knack)
    items = ([e.text for e in oracle.tables[f"srd_equipment.{archetype}"].entries]
             if archetype and oracle and f"srd_equipment.{archetype}" in oracle else [])
    if items:
        talk.say("Sample equipment: " + ", ".join(f"{i} {x}" for i, x in enumerate(items, 1)))
    equipment: list[str] = []
    for i in range(MAX_EQUIPMENT):
        item = ask_choice(talk, f"Equipment {i + 1} of up to {MAX_EQUIPMENT} (number, r for random, your own words, "
                       "Enter to finish):", items, rng, free=True)
        if not item:
            break
        equipment.append(item)
    catchphrase = talk.ask("Catchphrase (Enter to skip):").strip()
    return rc.AddCharacter(name=name, archetype=Archetype(archetype) if archetype else None,
                           profession=profession or None, drive=drive or None, knacks=tuple(knacks),
                           equipment=tuple(equipment), catchphrase=catchphrase or None)
