"""Campaign administration and the table's reading commands: `campaign new` planned (the session
journals it), `campaign use` found, `campaign validate`, ready-made characters, `help`, `rules`,
`undo`'s targets, and `export md`'s file. Functions over the session's frozen view; none writes
the journal.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solo.director import mythic
from solo.director.adventure import find_adventure, load_adventure
from solo.kernel.adventure import Adventure
from solo.kernel.narration import Narration
from solo.director.story import Story, fold_name
from solo.director.canon import canon_key
from solo.kernel.board import met_in_every_scene
from solo.kernel.errors import echo, InvalidCommand, JournalError, RuleViolation, SoloError
from solo.kernel.events import FOLDED, TYPES, CommandUndone, OracleChosen, session_event_to_dict
from solo.kernel.grammar import uncommented
from solo.kernel.inert import inert
from solo.kernel.protocol import PregenEntry
from solo.kernel.registry import AnySystem, broken, default_system, get_system, installed
from solo.kernel.words import words_of
from solo.store.files import write_atomically
from solo.store.journal import Campaign, Head, Journal
from solo.store.quick import CURRENT
from solo.store.ledger import Folded, Ledger, command_rng
from solo.table import chronicle, commands, fate, parser, talk
from solo.table.chronicle import seed_canon
from solo.table.view import Decision, View


@dataclass(frozen=True)
class NewCampaign:
    """A campaign to create, decided: its first command's events and the adventure it follows."""

    name: str
    system: AnySystem
    seed: int
    adventure: Adventure | None
    start: Any
    events: tuple[Any, ...]
    payloads: tuple[dict[str, Any], ...]


def campaign_new(command: commands.CampaignNew, base_dir: Path, seed_source: Any) -> NewCampaign:
    """`campaign new`: the rule system (the adventure's, or the one named), its start command decided
    on the system's initial state, the adventure's canon and the oracle chosen."""
    source = command.source
    adventure = load_adventure(find_adventure(source, base_dir)) if source is not None else None
    rules = command.rules or (adventure.rules if adventure else None)
    system = get_system(rules) if rules else default_system()
    if adventure is not None and system.name != get_system(adventure.rules).name:
        raise RuleViolation(f"{adventure.title} is written for the {adventure.rules} rules, not {system.name}")
    own = {o.dest for o in system.campaign_options}
    foreign = [dest for dest in command.options if dest not in own]
    if foreign:
        raise InvalidCommand(f"--{foreign[0]} is not an option of {system.title} campaigns")
    chosen = [OracleChosen(oracle="mythic", chaos=mythic.CHAOS_START)] if command.oracle == "mythic" else []
    if chosen:
        fate.plays(system)
    seed = command.seed if command.seed is not None else seed_source()
    name = " ".join(command.name.split())
    start = system.rules.start_command(name, seed, command.options)
    events = system.rules.decide(system.rules.initial_state(), start, rng=command_rng(seed, 1))
    seeded = seed_canon(adventure) if adventure is not None else []
    payloads = (*(system.rules.event_to_dict(e) for e in events), *(session_event_to_dict(e) for e in [*seeded, *chosen]))
    return NewCampaign(name, system, seed, adventure, start, tuple(events), payloads)


def started(v: View, new: NewCampaign) -> dict[str, Any]:
    """What `campaign new` shows, ``v`` the session on the new campaign."""
    system, adventure = new.system, new.adventure
    result: dict[str, Any] = {"campaign": new.name, "seed": new.seed, "rules": system.name,
                              **system.rules.describe(system.rules.initial_state(), new.start, list(new.events), v.state),
                              **fate.status(v)}
    if adventure is not None:
        result["adventure"] = {"title": adventure.title, f"{words_of(system).chapter_key}s": len(adventure.parts),
                               "villain": adventure.villain.name,
                               "pregens": [str(p.get("name", "")) for p in adventure.pregens]}
        result["narration"] = premise(adventure).as_result()
    return result


def premise(adventure: Adventure) -> Narration:
    return Narration(task="premise", text=adventure.premise, origin=f"adventure {adventure.title}")


def opened(journal: Journal, campaign: Campaign) -> tuple[AnySystem, Ledger, Story | None, Folded, Head]:
    """``campaign`` read: its rule system, its fold and the journal's head, the adventure it follows; a
    one-line error if it cannot be (a rule system not installed, an event of a newer solo, damage)."""
    system = get_system(campaign.rules)
    ledger = Ledger(journal, system)
    journal.first_damage(campaign.id)  # damage past a snapshot still shuts this campaign, and only it
    folded, head = ledger.fold(campaign.id, use_snapshots=True)
    try:
        story = Story(Adventure.model_validate_json(campaign.adventure), follows_chapter=system.chapter_is_part,
                      chapter_word=system.chapter_word, words=words_of(system)) if campaign.adventure else None
    except ValueError:  # pydantic's ValidationError: the adventure stored with the campaign is damaged
        raise journal.damage(campaign.id, "the adventure stored with it", "it does not read") from None
    return system, ledger, story, folded, head


def unplayable(campaign: Campaign, exc: SoloError) -> str:
    """Why the current campaign cannot be played here (its rule system not installed, or unreadable)."""
    if isinstance(exc, RuleViolation):
        return (f"the current campaign {campaign.name!r} plays the {campaign.rules!r} rules, "
                "which are not installed here: `campaign use` another, or install them")
    return f"the current campaign {campaign.name!r} cannot be read: {exc}"


def current(journal: Journal) -> Campaign | None:
    """The campaign the journal's setting names current (None: none, or a setting naming no campaign)."""
    chosen = journal.setting(CURRENT)
    with contextlib.suppress(JournalError, ValueError, TypeError):
        return journal.campaign_by_id(int(chosen)) if chosen is not None else None
    return None


def find_campaign(journal: Journal, name: str) -> Campaign:
    """`campaign use NAME`: the campaign of that name, or the one whose name starts so."""
    campaign, campaigns = journal.campaign(name), journal.campaigns()
    if campaign is None:  # a unique start of a name will do, as for every name
        key = fold_name(name)
        starts = [c for c in campaigns if fold_name(c.name).startswith(key)]
        campaign = starts[0] if len(starts) == 1 else None
    if campaign is None:
        names = ", ".join(c.name for c in campaigns) or "none yet"
        raise RuleViolation(f"no campaign named {name!r} (campaigns: {names})")
    get_system(campaign.rules)  # a campaign of a system not installed here: one line, no switch
    return campaign


def validate(name: str, base_dir: Path) -> dict[str, Any]:
    """``campaign validate FILE``: an adventure, or a data file of a rule system (its pregens)."""
    given = [c for c in (Path(name).expanduser(), base_dir / name) if c.is_file()]

    def owner_first(system: AnySystem) -> bool:  # the system whose data folder holds the file is asked first
        return not any(c.resolve().parent == system.data.resolve() for c in given)

    for system in sorted(installed().values(), key=owner_first):
        # the file named, where it is; a bare name not found there: the system's own data file of that name
        for candidate in given or [system.data / Path(name).name]:
            if candidate.is_file():
                checked = system.adventures.validate_data_file(candidate)
                if checked is not None:
                    return checked
    path = find_adventure(name, base_dir)
    adventure = load_adventure(path)
    words = words_of(get_system(adventure.rules))  # the keys in the words of the system it is written for
    return {"file": str(path), "ok": True, "kind": "adventure", "rules": adventure.rules,
            "title": adventure.title, "villain": adventure.villain.name,
            f"{words.chapter_key}s": [{"title": part.title, "scenes": [s.id for s in part.scenes],
                                       f"{words.fight.casefold()}s": sum(s.fight for s in part.scenes)}
                                      for part in adventure.parts],
            "pregens": [str(p.get("name", "")) for p in adventure.pregens],
            "teaching": adventure.lessons is not None}


def pregens(v: View) -> list[PregenEntry]:
    return v.system.adventures.pregens(v.story.adventure if v.story else None)


def pregen_command(v: View, name: str, dice: int | None) -> Any:
    """The system's command adding the ready-made character ``name`` (a unique part will do)."""
    entries = pregens(v)
    key = fold_name(name)
    matches = [p for p in entries if fold_name(p.name) == key] or [p for p in entries if key in fold_name(p.name)]
    if len({p.name for p in matches}) != 1:
        names = ", ".join(p.name for p in (matches or entries)) or "none"
        raise RuleViolation(f"no single ready-made character matches {name!r} (choose from {names})")
    try:
        return v.system.adventures.pregen_command(matches[0], dice)
    except (ValueError, KeyError, TypeError) as exc:  # a file checked before pregens were built at validation
        why = f"{exc.args[0]!r} is missing" if isinstance(exc, KeyError) else str(exc).splitlines()[0][:160]
        raise RuleViolation(f"the ready-made character {matches[0].name} cannot be used: {why}; "
                            "fix its file (`campaign validate FILE` names the fault)") from None


def pregen_list(v: View) -> dict[str, Any]:
    """`pc pregen` with no name: the ready-made characters; none at all is said, with what to type instead."""
    if not pregens(v):
        instead = "`pc show` shows who is in it" if parser.find_spec(["pc", "add"], v.system) is None else \
            "`pc add NAME` makes a character"
        raise RuleViolation(f"no ready-made characters in this {v.system.title} campaign: {instead}")
    return {"pregens": [{"name": p.name, "summary": p.summary, **{k: x for k, x in p.data.items()
                                                                  if k in ("archetype", "profession")}}
                        for p in pregens(v)]}


def help(v: View, name: str | None) -> dict[str, Any]:
    if name is None:
        return {"commands": [{"command": s.name, "usage": parser.usage_line(s), "summary": s.summary}
                             for s in parser.all_specs(v.system)], "rules": v.system.name}
    spec = parser.usage(name, v.system)
    if spec is None:
        group = [s for s in parser.all_specs(v.system) if s.name.split()[0] == name.casefold().strip()]
        if group:  # `help pc`: the commands it begins
            return {"commands": [{"command": s.name, "usage": parser.usage_line(s), "summary": s.summary}
                                 for s in group], "rules": v.system.name}
        raise InvalidCommand(f"no command {echo(name, 40)}: type `help` for the list")
    return {"command": spec.name, "usage": parser.usage_line(spec), "summary": spec.summary,
            "aliases": list(spec.aliases)}


def reference(v: View, topic: str | None) -> dict[str, Any]:
    """`rules [TOPIC]`: with no topic, the installed systems and the campaign's topics; `rules mythic`
    the Mythic oracle, whatever the system."""
    if topic is not None and len(topic.strip()) >= 3 and "mythic".startswith(topic.strip().casefold()):
        return mythic.reference()
    result = v.system.presentation.reference(topic)
    if topic is None and parser.has_scenes(v.system):
        result["topics"] = [*result.get("topics", []), "mythic"]  # where the Mythic oracle plays
        result["systems"] = [{"name": s.name, "title": s.title, "credit": s.credit,
                              "current": v.campaign is not None and s.name == v.system.name}
                             for s in installed().values()]
        result["rules"] = v.system.name
    if topic is None and (failed := broken()):  # installed, but its entry point fails to load: named, with why
        result["broken"] = [{"name": name, "error": error} for name, error in failed.items()]
    return result


def undo(v: View) -> Decision:
    """`undo`: the last state-changing command reverted, or everything since open business began
    (CONTRACT Ruling *Undo*); recorded as an event, nothing deleted."""
    return Decision(events=(CommandUndone(commands=tuple(undo_targets(v))),), before=v.state)


def undone(v: View, decision: Decision) -> dict[str, Any]:
    """What `undo` shows once journaled: the lines it reverted and their command numbers."""
    targets = decision.events[0].commands
    lines = {c["id"]: c["line"] for c in v.reader.commands(v.need_campaign().id)}
    return {"undone": [uncommented(lines[t]) for t in targets], "commands": list(targets)}


def undo_targets(v: View) -> list[int]:
    """The commands an `undo` reverts, found walking the journal backwards: the last one that changed
    the state, or with business open every command since it opened (CONTRACT Ruling *Undo*)."""
    campaign = v.need_campaign().id
    undone = v.reader.undone_commands(campaign)
    targets: list[int] = []
    journal_only = TYPES - FOLDED | v.system.journal_only_events
    for command, types in v.reader.commands_backwards(campaign):
        if command in undone or not set(types) - journal_only:
            continue  # already undone, or nothing folded (a note, a question, an answer, an undo)
        if command == 1:
            break  # `campaign new` cannot be undone
        targets.append(command)
        if not v.system.flow.pending(v.state) or set(types) & v.system.opens_pending:
            return sorted(targets)
    if targets:
        return sorted(targets)
    raise RuleViolation("nothing to undo")


def read(v: View, command: Any) -> dict[str, Any] | None:
    """The commands that only read and need no catching up: answered from the view (None: not one)."""
    match command:
        case commands.CampaignList():
            current = v.campaign.id if v.campaign else None
            return {"campaigns": [{"name": c.name, "rules": c.rules, "seed": c.seed, "created": c.created,
                                   "current": c.id == current} for c in v.reader.campaigns()]}
        case commands.CampaignValidate():
            return validate(command.file, v.base_dir)
        case commands.PregenAdd() if not command.name:
            return pregen_list(v)
        case commands.Help():
            return help(v, command.command)
        case commands.RulesReference():
            return reference(v, command.topic)
        case commands.Log():
            return {"commands": v.reader.commands(v.need_campaign().id, last=command.count)}
        case commands.Search():
            return {"words": command.words, "hits": v.reader.search(v.need_campaign().id, command.words)}
        case commands.Draw() if command.table is None:
            return {"tables": sorted(v.need_director().narrator.tables.tables)}
    return None


def reads_fresh(command: Any, system: AnySystem) -> bool:
    """Whether ``command`` reads the campaign as the journal now holds it (``read_fresh``)."""
    return isinstance(command, (commands.Status, commands.SceneShow, commands.CanonShow, commands.ExportMarkdown,
                                commands.CastShow)) \
        or (isinstance(command, commands.Clock) and command.by == 0) \
        or (not isinstance(command, commands.Meta) and system.flow.is_query(command))


def read_fresh(v: View, command: Any, journal: Journal) -> dict[str, Any]:
    """`status`, `scene show`, `canon`, `clock`, `export md` (read from ``journal`` as it is written) and
    the system's queries, ``v`` caught up."""
    match command:
        case commands.Status():
            return status(v)
        case commands.SceneShow():
            return talk.scene(v)
        case commands.CanonShow():
            return chronicle.show(v, command)
        case commands.Clock():
            return {"world": chronicle.clock(v)}
        case commands.ExportMarkdown():
            return export(v, command, journal)
        case commands.CastShow():
            return cast_show(v, command.name)
    return v.system.flow.query(v.state, command)


def cast_show(v: View, name: str | None) -> dict[str, Any]:
    """`pc show [NAME]` of a system with no sheets of its own: its cast as its narration knows it."""
    cast = [m for m in v.system.narration.cast(v.state) if m.get("name")]
    if name is not None:
        cast = [m for m in cast if canon_key(m["name"]) == canon_key(name)] or \
            [m for m in cast if canon_key(name) in canon_key(m["name"])]
        if not cast:
            known = ", ".join(m["name"] for m in v.system.narration.cast(v.state) if m.get("name")) or "nobody yet"
            raise RuleViolation(f"no one named {echo(name, 40)} in the story (in it: {known})")
    if not cast:
        raise RuleViolation(f"nobody in the story yet: {_cast_hint(v.system)}")
    return {"cast": cast}


def _cast_hint(system: AnySystem) -> str:
    """What to type to bring someone into a campaign of ``system``."""
    if parser.find_spec(["pc", "add"], system) is not None:
        return "`pc add NAME` makes a character"
    return "`status` shows how the game stands"


def status(v: View, folded: Folded | None = None) -> dict[str, Any]:
    """``status --json`` of the current campaign, as ``v`` holds it or as ``folded``."""
    v.need_campaign()
    f = v.folded if folded is None else folded
    shown = {**v.system.rules.status(f.state), "rules": v.system.name, "tension": f.tension,
             **fate.status(v, f.oracle), "world": chronicle.status(v, f.canon)}
    if v.story is not None:
        shown["adventure"] = v.story.status(f.progress, v.system.rules.where(f.state))
    return shown


def export(v: View, command: commands.ExportMarkdown, journal: Journal) -> dict[str, Any]:
    """`export md FILE`: the campaign told as Markdown, written whole or not at all, never onto the journal."""
    from solo.table.export import markdown_lines

    campaign = v.need_campaign()
    path = Path(command.file).expanduser()
    if not path.is_absolute():
        path = v.base_dir / path
    every = replace(v.folded, state=met_in_every_scene(v.folded.state))  # the story's foes
    lines = markdown_lines(journal, campaign, v.system, status(v, every), story=command.story, canon=v.canon)

    def pieces() -> Iterator[str]:
        """The lines joined by newlines, trailing white space held back so the file ends in one newline."""
        held, first = "", True
        for line in lines:
            piece = inert(line) if first else "\n" + inert(line)
            first = False
            body = piece.rstrip()
            if body:
                yield held + body
                held = piece[len(body):]
            else:
                held += piece
        yield "\n"

    size = write_atomically(path, pieces(), journal.path, force=command.force)
    return {"file": str(path), "bytes": size}
