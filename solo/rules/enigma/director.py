"""ENIGMA's Director emulator: what the world does in solo play, when the rules leave it open.

It reads what the rules decided (the events of a command) and answers with narration from
the oracle tables (or the adventure file) and, where the fiction calls for it, *proposed*
rules commands (Director Peril, a scene's enemies) that the session decides like any typed
command. It never writes state.

Enemy targets ([Dangers]), a fixed, seeded policy:
- a villain puts its whole danger rating on the active character closest to a
  Knockout (highest Peril; ties broken by the command's oracle dice);
- a lieutenant puts half (rounded up) there and spreads the rest over the others;
- minions spread one point at a time over the active characters, starting with the
  most imperiled, so a gang wears everyone down.

Tension (0-6) rises by 1 with each blunder, each Peril gain and each Knockout, and
falls by 1 with each success; it never leaves 0-6 and starts at 2. An oracle
question rolls doubles at or under the tension: a random event.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ValidationError

from solo.kernel.words import agree, foe_does, verb_for
from solo.director.moment import TableDirector
from solo.kernel.errors import RuleViolation, SoloError
from ...kernel.protocol import Proposer, Reaction, StoryView
from solo.kernel.calls import ModelCall
from ...llm.check import clean
from solo.director.narration import OracleNarrator, as_phrase, one_of
from solo.kernel.narration import Narration
from solo.kernel.acts import action_kind
from solo.director.oracle import asked_to_leave
from solo.director.tables import OracleTables
from . import commands as rc
from . import events as ev
from .adventure import foes, lesson
from .apply import fold
from .decide import decide, enemies_due, enemy_named
from .odds import saves_needed
from .record import about
from .state import Character, Enemy, EnemyType, GameState, fold_name

TENSION_START = 2
TENSION_MAX = 6

# The tables the narrator draws from; a folder without them cannot narrate.
REQUIRED_TABLES = (
    "wide_shot.place", "wide_shot.opening", "wide_shot.question", "consequences.blunder", "success.prompt",
    "enemies.tactics_minion", "enemies.tactics_lieutenant", "enemies.tactics_villain", "srd_flashpoints.flashpoint",
    *(f"snooping.level{n}" for n in range(1, 7)), "srd_treasure.form", "twists.path_forward",
    "twists.scene_transition", "twists.leg_transition", "oracle_events.event", "oracle_events.focus",
)


class PulpNarrator(OracleNarrator):
    """ENIGMA's narration tasks, told straight from the oracle tables."""

    required = REQUIRED_TABLES

    def wide_shot(self, rng: random.Random, *, place: str | None, character: str) -> Narration:
        """[The Wide Shot] the place, what lights it, a sound, a smell, one thing wrong, and a leading
        question for a player to answer. A place the player named stands in for the drawn one."""
        ctx = {**self.context, "character": character}
        scene, placed = self.scene, None
        if place:  # the place named is the scene's, wherever an opening would tell of one
            given = {"wide_shot.place": as_phrase(place), "locations.location": as_phrase(place)}
        else:  # the place first: in a scene of unknown setting, it says where the scene is
            placed = self.tables.draw("wide_shot.place", rng, scene=scene)
            given = {"wide_shot.place": placed.text}
            if scene is None and placed.entry.tags:
                scene = frozenset(placed.entry.tags)
        opening = self.pick("wide_shot.opening", rng, given=given, scene=scene)
        if placed is not None and "{wide_shot.place}" not in opening.entry.text:
            # the opening tells another place, or none: the scene is where the telling says, if anywhere
            other = next((n for n in opening.nested if n.table == "locations.location"), None)
            placed, scene = other, (frozenset(other.entry.tags) or None) if other is not None else self.scene
        question = self.tables.draw("wide_shot.question", rng, scene=scene, said=opening.text)  # of the same place
        text = opening.filled(ctx)
        if place and as_phrase(place) not in text:
            text = f"{place}. {text}"
        parts = [(text, opening), (question.filled(ctx), question)]
        told = self.tell("wide_shot", parts, question=question.filled(ctx))
        if placed is not None and placed.table == "wide_shot.place":
            told = told.model_copy(update={"origin": f"{placed.origin()}; {told.origin}"})
        facts = {**told.facts, "place": place or (placed.text if placed else "")}
        if self.scene is None and placed is not None and placed.entry.tags:
            facts["scene_tags"] = list(placed.entry.tags)  # an improvised scene learns where it is
        return told.model_copy(update={"facts": facts})

    def blunder(self, rng: random.Random, *, character: str, action: str) -> Narration:
        """[Blunder] the Director tells what goes wrong, and it changes something: what goes wrong with the kind
        of thing tried (``action_kind``: a climb, words, a search, a hiding, a lock), where the tables have it, and of
        how it was done (a handhold comes away on a climb, never on a run: ``OracleNarrator.draw``)."""
        kind = action_kind(action)
        table = f"consequences.blunder_{kind}" if f"consequences.blunder_{kind}" in self.tables else "consequences.blunder"
        text, drawn = self.draw(table, rng, {"character": character, **({"action": action} if action else {})})
        return self.tell("blunder", [(text, drawn)], harm=drawn.entry.harm, bearer=character)

    def success(self, rng: random.Random, *, character: str, action: str) -> Narration:
        """[Success] the player tells how it goes: a prompt to do so, asking of the kind of thing tried
        (``action_kind``) where the tables have one."""
        kind = action_kind(action)
        table = f"success.prompt_{kind}" if f"success.prompt_{kind}" in self.tables else "success.prompt"
        return self.tell("success", [self.draw(table, rng, {"character": character})])

    def enemy_turn(self, rng: random.Random, *, enemy: str, enemy_type: str, target: str | None) -> Narration:
        if target is None:
            return Narration(task="enemy_turn", text=f"{agree(enemy, 'stands')} over the fallen and {verb_for(enemy, 'turns')} to the spoils.",
                             origin="fixed line", facts={"enemy": enemy})
        text, drawn = self.draw(f"enemies.tactics_{enemy_type}", rng, {"enemy": one_of(enemy), "target": target})
        return self.tell("enemy_turn", [(text, drawn)])

    def captured(self, rng: random.Random) -> Narration:
        """[Adventuring Strain] the whole cast knocked out: they wake up captured, and the story goes on."""
        if "strain.captured" not in self.tables:
            return Narration(task="path_forward", text="The whole cast wakes up captured: the story goes on from there.",
                             origin="fixed line")
        return self.tell("path_forward", [self.draw("strain.captured", rng, {})])

    def flashpoint(self, rng: random.Random) -> Narration:
        """[Flashpoints] a third party crashes the Tumult."""
        return self.tell("flashpoint", [self.draw("srd_flashpoints.flashpoint", rng, {})])

    def snoop(self, rng: random.Random, *, character: str, level: int, topic: str | None) -> Narration:
        """[Snooping] the closer to 6, the more is learned; a 1 still gives something. What the
        character looks into leads the telling."""
        told = self.tell("snoop", [self.draw(f"snooping.level{level}", rng, {"character": character})])
        if topic:
            told = told.model_copy(update={"text": f"Looking into {topic.strip().rstrip('.')}: {told.text}"})
        return told

    def treasure(self, rng: random.Random) -> Narration:
        """[Uncovering Treasure] riches, allies or shortcuts."""
        return self.tell("treasure", [self.draw("srd_treasure.form", rng, {})])

    def path_forward(self, rng: random.Random) -> Narration:
        """[Scenes] win or lose, the story keeps moving: a new lead, and a meaning to read it by."""
        return self.with_meaning(self.tell("path_forward", [self.draw("twists.path_forward", rng, {})]), rng)

    def scene_transition(self, rng: random.Random) -> Narration:
        """An improvised campaign's twist between scenes (an adventure tells its own next scene)."""
        return self.with_meaning(self.tell("scene_transition", [self.draw("twists.scene_transition", rng, {})]), rng)

    def leg_transition(self, rng: random.Random) -> Narration:
        return self.with_meaning(self.tell("leg_transition", [self.draw("twists.leg_transition", rng, {})]), rng)


def enemy_targets(state: GameState, enemy: Enemy, rng: random.Random | None = None) -> dict[str, int]:
    """How ``enemy`` splits its danger rating over the active characters (policy above)."""
    active = list(state.active_characters())
    if not active or enemy.danger == 0:
        return {}
    tiebreak = {c.name: (rng.random() if rng else 0.0) for c in active}
    order = sorted(active, key=lambda c: (-c.peril, tiebreak[c.name]))
    split: dict[str, int] = {}

    def spread(amount: int, people: list[Character]) -> None:
        for i in range(amount):
            name = people[i % len(people)].name
            split[name] = split.get(name, 0) + 1

    if enemy.type is EnemyType.VILLAIN:
        split[order[0].name] = enemy.danger
    elif enemy.type is EnemyType.LIEUTENANT:
        focus = (enemy.danger + 1) // 2
        split[order[0].name] = focus
        spread(enemy.danger - focus, order[1:] or order)
    else:
        spread(enemy.danger, order)
    return split


def tension_step(tension: int, event: Any) -> int:
    """The tension after one rules event (see the module doc)."""
    change = 0
    if isinstance(event, (ev.GambleResolved, ev.GroupGambleRolled)):
        change = 1 if not event.success else -1
    elif isinstance(event, ev.PerilChanged) and event.after != event.before and event.amount > 0:
        change = 1 + (1 if event.knockout else 0)
    elif isinstance(event, ev.CampaignStarted):
        return TENSION_START
    return max(0, min(TENSION_MAX, tension + change))


def moment(state: GameState, rng: random.Random) -> dict[str, str]:
    """Words for table placeholders from the current state: a character of the cast, the
    villain on the board, the scene's place."""
    context: dict[str, str] = {}
    cast = state.active_characters() or state.characters
    if cast:
        context["character"] = context["target"] = rng.choice(cast).name
        others = [c for c in cast if c.name != context["character"]]
        if others:
            context["helper"] = rng.choice(others).name
    villains = [e for e in state.enemies if e.type is EnemyType.VILLAIN]
    if villains:
        context["villain"] = villains[0].name
    if state.enemies:
        context["enemy"] = state.enemies[0].name
    if state.scene_title:
        context["place"] = state.scene_title
    return context


def _tactics(story: StoryView, enemy: str) -> str | None:
    """How the adventure file says this foe fights, told as what it does (``foe_does``), if it does."""
    if story.scene is None:
        return None
    for foe in foes(story.scene.enemies):
        if fold_name(foe.name) == fold_name(enemy) and foe.tactics:
            return foe_does(enemy, foe.tactics)
    return None


def _knocked_out_by(events: Sequence[ev.Event], turn: ev.EnemyActed) -> list[str]:
    """The characters this enemy turn knocked out: the Knockouts among the Peril it dealt."""
    out: list[str] = []
    for event in events[events.index(turn) + 1:]:
        if isinstance(event, (ev.EnemyActed, ev.RoundEnded)):
            break
        if isinstance(event, ev.PerilChanged) and event.knockout:
            out.append(event.character)
    return out


def enemy_asked_to_leave(state: GameState, question: str) -> tuple[str, str] | None:
    """The enemy on the board an oracle question asks about leaving, and how (``asked_to_leave``)."""
    return asked_to_leave(question, [e.name for e in state.enemies])


class Split(BaseModel):
    """A model's proposal for an enemy's turn: hero name -> Peril."""

    targets: dict[str, int]


def _lessons_due(lessons_given: tuple[str, ...], state: GameState, events: Sequence[Any]) -> list[str]:
    """A teaching adventure explains each rule the first time it can be used."""
    due: list[str] = []
    for event in events:
        if isinstance(event, ev.SceneStarted):
            due.append("wide_shot")
        elif isinstance(event, ev.SnoopRolled):
            due.append("snoop")
        elif isinstance(event, ev.TumultStarted):
            due.append("tumult")
        elif isinstance(event, ev.TumultEnded) or isinstance(event, ev.GambleResolved) and event.success:
            due.append("scene_end")
        if isinstance(event, ev.GambleRolled):
            due.append("bonus_dice")
            actor = state.find(event.character)
            dice = event.dice + ((event.help.die,) if event.help else ())
            if actor and saves_needed(dice) and actor.lucky_saves:
                due.append("lucky_saves")
            if actor and saves_needed(dice) and actor.catchphrase_available:
                due.append("catchphrase")
        elif isinstance(event, ev.GambleResolved) and not event.success:
            due.append("blammo")
        elif isinstance(event, ev.PerilChanged) and event.after > event.before:
            due.append("peril")
    return [key for key in dict.fromkeys(due) if key not in lessons_given]


class EnigmaDirector(TableDirector[GameState, PulpNarrator]):
    """Turns ENIGMA's events into the world's answer, from the oracle tables and the adventure."""

    def __init__(self, tables: OracleTables):
        super().__init__(PulpNarrator(tables), moment)

    def answered(self, state: GameState, question: str, answer: str, rng: random.Random,
                 story: StoryView) -> Reaction[rc.Command]:
        """A yes to "does the foe flee (or give up)?" takes it off the board: the emulated
        Director's own move in solo play, a proposal to a human Director in the co-pilot."""
        out: Reaction[rc.Command] = Reaction()
        asked = enemy_asked_to_leave(state, question) if answer.startswith("yes") else None
        if asked is None:
            return out
        enemy, how = asked
        out.solo_moves.append(rc.RemoveEnemy(enemy=enemy, how="surrender" if how == "surrender" else "flee"))
        told = (f"{agree(enemy, 'throws')} down their weapons and {verb_for(enemy, 'gives')} up." if how == "surrender"
                else f"{agree(enemy, 'breaks')} away and {verb_for(enemy, 'flees')} the scene.")
        out.narrations.append(Narration(task="enemy_leaves", text=told,
                                        origin=f"the oracle's {answer!r} to a question of {enemy}'s leaving"))
        return out

    def treasure(self, state: GameState, rng: random.Random, tags: frozenset[str] | None = None) -> Narration:
        return self._n(state, rng, tags).treasure(rng)

    def path_forward(self, state: GameState, rng: random.Random, tags: frozenset[str] | None = None) -> Narration:
        return self._n(state, rng, tags).path_forward(rng)

    def react(self, before: GameState, events: Sequence[ev.Event], after: GameState, rng: random.Random,
              story: StoryView) -> Reaction[rc.Command]:
        out: Reaction[rc.Command] = Reaction()
        n = self._n(after, rng, story.tags)
        for event in events:
            told = len(out.narrations)
            match event:
                case ev.SceneStarted():
                    if event.scene > 1:
                        out.narrations.append(n.scene_transition(rng))
                    present = after.active_characters() or after.characters
                    name = rng.choice(present).name if present else "you"
                    shot = n.wide_shot(rng, place=event.title, character=name)
                    out.narrations.append(shot)
                    if story.tags is None and shot.facts.get("scene_tags"):
                        out.scene_tags = tuple(shot.facts["scene_tags"])
                        n = n.with_context(n.context, frozenset(out.scene_tags))
                case ev.LegStarted():
                    out.narrations.append(n.leg_transition(rng))
                case ev.GambleResolved():
                    self._after_gamble(n, out, after, event.character, event.action, event.success, rng)
                case ev.GroupGambleRolled():
                    members = list(event.members)
                    failed = [m for m in members if not event.members[m].success] or members
                    teller = rng.choice(failed if not event.success else members)
                    self._after_gamble(n, out, after, teller, event.action, event.success, rng)
                case ev.EnemyActed():
                    enemy = after.find_enemy(event.enemy) or before.find_enemy(event.enemy)
                    kind = enemy.type.value if enemy else "minion"
                    target = max(event.targets, key=lambda k: event.targets[k]) if event.targets else None
                    turn = n.enemy_turn(rng, enemy=event.enemy, enemy_type=kind, target=target)
                    tactics = _tactics(story, event.enemy)
                    if tactics and target:  # the adventure's own foe fights its own way
                        turn = Narration(task="enemy_turn", text=f"{tactics} {agree(event.enemy, 'goes')} for {target}.",
                                         origin=f"adventure scene {story.scene.id if story.scene else ''} tactics")
                    fallen = _knocked_out_by(events, event)
                    if fallen:  # [Knockouts] the turn is told as the Knockout it dealt
                        said = " and ".join(fallen)
                        said_so_far = turn.text.rstrip()
                        said_so_far += "" if said_so_far.endswith((".", "!", "?")) else "."
                        turn = turn.model_copy(update={"text": f"{said_so_far} {said} "
                                                       f"{'goes' if len(fallen) == 1 else 'go'} down, knocked out!"})
                    out.narrations.append(turn)
                case ev.FlashpointBought():
                    out.narrations.append(n.flashpoint(rng))
                case ev.SnoopRolled():
                    out.narrations.append(n.snoop(rng, character=event.character, level=event.die, topic=event.topic))
                case ev.TumultEnded():
                    if event.cleared:
                        out.narrations.append(n.treasure(rng))
                    out.narrations.append(n.path_forward(rng))
            facts = about(event)
            if facts:  # what the rules decided, for a model to be held to
                out.narrations[told:] = [x.model_copy(update={"facts": {**x.facts, "about": facts}})
                                         for x in out.narrations[told:]]
        if story.story is not None:
            self._follow_the_story(out, events, after, rng, story)
        knocked_out = any(isinstance(e, ev.PerilChanged) and e.knockout for e in events)
        if after.tumult is not None and after.characters and not after.active_characters() and knocked_out:
            # [Adventuring Strain] the whole cast is out: in solo play the Tumult ends and they wake up
            # captured; elsewhere the Director is told so and ends it when it suits the table
            out.solo_moves.append(rc.EndTumult())
            out.narrations.append(n.captured(rng))
        return out

    def _follow_the_story(self, out: Reaction[rc.Command], events: Sequence[ev.Event], after: GameState,
                          rng: random.Random, view: StoryView) -> None:
        """The adventure file's own words and enemies where it has them; lessons when teaching."""
        story, scene = view.story, view.scene
        assert story is not None
        for event in events:  # [Legs] a new Leg of the adventure is the file's, not the oracle's
            opening = story.chapter_opening(event.leg) if isinstance(event, ev.LegStarted) else None
            if opening is not None:
                out.narrations = [opening if x.task == "leg_transition" else x for x in out.narrations]
        if scene is not None:
            for i, told in enumerate(out.narrations):
                if told.task == "wide_shot":
                    out.narrations[i] = story.opening(scene, told)
                elif told.task == "scene_transition":  # the way to the file's scene, not a generic twist
                    out.narrations[i] = story.scene_opening(scene)
            for event in events:
                if isinstance(event, ev.SnoopRolled):  # [Snooping] 1-3: the file's low clue; 4-6: the high one
                    stage = getattr(self.narrator.tables, "stage", None)  # what this scene has told so far
                    clue = story.clue(scene, high=event.die >= 4, told=getattr(stage, "told", ()))
                    if event.topic:  # the search follows what the player looked into
                        clue = clue.model_copy(update={
                            "text": f"Looking into {event.topic.strip().rstrip('.')}: {clue.text}"})
                    # the file's words, with what the rules decided (who snooped, the die) kept for the record
                    out.narrations = [clue.model_copy(update={"facts": {**x.facts, **clue.facts}}) if x.task == "snoop"
                                      else x for x in out.narrations]
                if isinstance(event, ev.TumultEnded):
                    # the file tells where the story goes (`scene end`); its treasure comes first
                    found = story.treasure(scene, rng) if event.cleared else None
                    out.narrations = [found if x.task == "treasure" and found else x for x in out.narrations
                                      if x.task != "path_forward"]
                if isinstance(event, ev.TumultStarted):  # [Dangers] the scene's enemies come on
                    out.proposals += [rc.AddEnemy(name=f.name, type=f.type, threshold=f.threshold, danger=f.danger)
                                      for f in foes(scene.enemies) if after.find_enemy(f.name) is None]
        teaching = lesson(story.adventure)
        if teaching is not None:
            for key in _lessons_due(view.lessons_given, after, events):
                text = getattr(teaching, key)
                if text:  # a teaching adventure may leave a lesson out
                    out.narrations.append(Narration(task="lesson", text=text, origin=f"lesson {key}"))
                    out.lessons.append(key)

    def _after_gamble(self, narrator: PulpNarrator, out: Reaction[rc.Command], state: GameState, name: str,
                      action: str, success: bool, rng: random.Random) -> None:
        """[Success] the player narrates (prompted); [Blunder] the Director tells a consequence
        that changes something, with Peril where it calls for it."""
        if success:
            out.narrations.append(narrator.success(rng, character=name, action=action))
            return
        told = narrator.blunder(rng, character=name, action=action)
        character = state.find(name)
        if told.harm and character is not None and character.active and not character.retired:
            out.reported_apart.append(rc.AssignPeril(character=character.name, amount=told.harm,
                                                     cause=f"blunder: {action}"))
        out.narrations.append(told)


# the Director's choices ([Dangers]): a policy of the rules, with or without tables to narrate from ----


def complete(state: GameState, command: rc.Command, rng: random.Random, propose: Proposer | None
         ) -> tuple[rc.Command, list[ModelCall]]:
    """Fill in the Director's choices a command left open ([Dangers] targets)."""
    calls: list[ModelCall] = []
    if isinstance(command, rc.EnemyAct) and command.targets is None and state.tumult is not None:
        enemy = enemy_named(state, command.enemy)
        if enemy is not None and not enemy.defeated:
            return command.model_copy(update={"targets": _targets(state, enemy, rng, propose, calls)}), calls
    if isinstance(command, rc.EndRound) and state.tumult is not None:
        targets = dict(command.targets)
        given = {fold_name(k) for k in targets}
        current = state
        for enemy in enemies_due(state):
            if fold_name(enemy.name) not in given:
                targets[enemy.name] = _targets(current, enemy, rng, propose, calls)
            act = rc.EnemyAct(enemy=enemy.name, targets=targets.get(enemy.name) or {})
            try:
                current = fold(current, decide(current, act, rng=random.Random(0)))
            except SoloError:
                break  # the rules will report it when deciding the whole round
        return command.model_copy(update={"targets": targets}), calls
    return command, calls

def _targets(state: GameState, enemy: Enemy, rng: random.Random, propose: Proposer | None,
             calls: list[ModelCall]) -> dict[str, int]:
    """How an enemy splits its danger: the model's proposal if the rules accept it,
    else the Director policy ([Dangers]; models propose, rules dispose)."""
    if propose is not None and state.active_characters():
        heroes = [{"name": c.name, "peril": c.peril} for c in state.active_characters()]
        raw, call = propose("enemy_split", seed=rng.randrange(2**31), enemy=enemy.name,
                            enemy_type=enemy.type.value, danger=enemy.danger, heroes=heroes)
        calls.append(call)
        if raw is not None:
            try:
                split = Split(targets=json.loads(clean(raw).strip())).targets
            except (ValueError, ValidationError):
                call.fallback = "the proposal is not a JSON object of names and whole numbers"
            else:
                try:
                    decide(state, rc.EnemyAct(enemy=enemy.name, targets=split), rng=random.Random(0))
                    return split
                except RuleViolation as exc:
                    call.fallback = f"the rules refused the proposal: {exc}"
    return enemy_targets(state, enemy, rng)
