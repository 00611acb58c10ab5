"""Shared helpers for the ENIGMA rules tests: a small game driver and hypothesis strategies.

``Table`` drives the rules core the way the session does (decide, then fold) and
records every event, so a test can replay or serialise the whole game afterwards.
The strategies build random command sequences over a small cast, with random
physical dice (sometimes wrong on purpose) and random engine seeds.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import strategies as st

from solo.kernel.errors import RuleViolation
from solo.rules.enigma import GameState, commands as c, decide, fold
from solo.rules.enigma.state import Character, Enemy

# --- a game driver ------------------------------------------------------------------


class NoDice(random.Random):
    """A random generator that fails the test if the rules roll with it."""

    def random(self):  # pragma: no cover - only reached on a bug
        raise AssertionError("the rules rolled although every die was given")

    def getrandbits(self, k):  # pragma: no cover
        raise AssertionError("the rules rolled although every die was given")

    def randint(self, a, b):
        raise AssertionError("the rules rolled although every die was given")

    def randrange(self, *args, **kwargs):  # pragma: no cover
        raise AssertionError("the rules rolled although every die was given")


def assert_one_line(error: Exception) -> str:
    message = str(error)
    assert message.strip(), "a RuleViolation must say what is wrong"
    assert "\n" not in message and "\r" not in message, f"message is not one line: {message!r}"
    return message


class Table:
    """One campaign driven through ``decide`` and ``fold``; every event is kept."""

    def __init__(self, seed: int = 7, optional: tuple[str, ...] = (), rng: random.Random | None = None):
        self.rng = rng if rng is not None else random.Random(seed)
        self.state = GameState()
        self.events: list = []
        self.do(c.StartCampaign(name="Marseille", seed=seed, optional=optional))

    def do(self, command, *, rng: random.Random | None = None) -> tuple:
        events = decide(self.state, command, rng=rng or self.rng)
        assert isinstance(events, tuple) and events, "a legal command yields at least one event"
        self.state = fold(self.state, events)
        self.events.extend(events)
        return events

    def reject(self, command, match: str | None = None, *, rng: random.Random | None = None) -> str:
        """The command is illegal: RuleViolation with a one-line message, nothing changes."""
        before = self.state
        snapshot = before.model_dump()
        with pytest.raises(RuleViolation, match=match) as info:
            decide(self.state, command, rng=rng or self.rng)
        assert self.state is before
        assert before.model_dump() == snapshot
        return assert_one_line(info.value)

    def add(self, name: str, *, knacks=(), equipment=(), catchphrase=None, dice: int | None = 3, **sheet):
        return self.do(
            c.AddCharacter(
                name=name, knacks=tuple(knacks), equipment=tuple(equipment), catchphrase=catchphrase,
                dice=dice, **sheet,
            )
        )

    def char(self, name: str) -> Character:
        character = self.state.find(name)
        assert character is not None, f"{name} is not in the cast"
        return character

    def enemy(self, name: str) -> Enemy:
        enemy = self.state.find_enemy(name)
        assert enemy is not None, f"no enemy {name}"
        return enemy

    def gamble(self, name: str, dice, **kwargs):
        return self.do(c.Gamble(character=name, action=kwargs.pop("action", "try it"), dice=tuple(dice), **kwargs))

    def peril(self, name: str, amount: int):
        return self.do(c.AssignPeril(character=name, amount=amount))

    def knock_out(self, name: str):
        """A Knockout by Director Peril (6 from wherever the character stands)."""
        return self.peril(name, 6)

    def retire(self, name: str):
        """Four Knockouts, each followed by a new Scene so the character can take Peril again."""
        for _ in range(4 - self.char(name).knockouts):
            self.knock_out(name)
            self.do(c.StartScene())
        assert self.char(name).retired


def types(events) -> list[str]:
    return [e.type for e in events]


# --- hypothesis strategies ----------------------------------------------------------

CAST = ("Nara", "Max", "Ivy")
NAMES = CAST + ("Zed", "nara", "Ivy\n")  # an outsider, a different case, a stray newline
ENEMIES = ("Goon", "Boss", "Ghost", "goon\n", "Gh\nost")
KNACKS = {
    "Nara": ("Ancient stonework", "Climbing walls"),
    "Max": ("Boxing", "Climbing ropes", "Card tricks"),
    "Ivy": ("Chemistry",),
}
EQUIPMENT = {
    "Nara": ("Dad's grappling hook",),
    "Max": ("Brass knuckles", "Rope"),
    "Ivy": ("Test tubes", "Lab coat"),
}
ASSET_WORDS = ("stonework", "climbing", "Boxing", "rope", "hook", "Chemistry", "lab coat", "whip", "c")
SOUNDS = ("KA-BOOM", "ka boom", "Pow!", "WHAM", "zing", "Kra-KOW", "!!!")


def face() -> st.SearchStrategy[int]:
    """Mostly a real d6 face, now and then an impossible one (0 or 7)."""
    return st.integers(0, 12).map(lambda i: i if i <= 7 else i % 6 + 1)


def maybe_dice(max_len: int = 5) -> st.SearchStrategy[tuple[int, ...] | None]:
    return st.one_of(st.none(), st.lists(face(), min_size=0, max_size=max_len).map(tuple))


def dice_by_name() -> st.SearchStrategy[dict[str, tuple[int, ...]]]:
    return st.dictionaries(st.sampled_from(NAMES), st.lists(face(), min_size=0, max_size=3).map(tuple), max_size=3)


def split() -> st.SearchStrategy[dict[str, int]]:
    return st.dictionaries(st.sampled_from(NAMES), st.integers(-1, 6), max_size=3)


names = st.sampled_from(NAMES)
enemy_names = st.sampled_from(ENEMIES)
words = st.sampled_from(ASSET_WORDS)


def mostly(value, strategy: st.SearchStrategy, weight: int = 3) -> st.SearchStrategy:
    """``value`` about ``weight`` times in ``weight + 1``, otherwise something from ``strategy``."""
    return st.sampled_from([True] * weight + [False]).flatmap(lambda keep: st.just(value) if keep else strategy)


@st.composite
def gambles(draw) -> c.Gamble:
    """A Gamble that is legal more often than not: own assets, sensible dice, a rare blunder on purpose."""
    who = draw(st.sampled_from(CAST * 3 + NAMES[len(CAST):]))
    own_knacks = KNACKS.get(who.strip().title(), ()) * 3 + ("climbing",)
    own_equipment = EQUIPMENT.get(who.strip().title(), ()) * 3 + ("rope",)
    knacks = draw(st.lists(st.sampled_from(own_knacks), max_size=2, unique=True))
    equipment = draw(st.lists(st.sampled_from(own_equipment), max_size=2, unique=True))
    advantages = draw(st.lists(st.sampled_from(("high ground", "surprise")), max_size=2, unique=True))
    penalties = draw(st.lists(st.sampled_from(("fear of heights", "darkness", "wounded")), max_size=3, unique=True))
    blammo = draw(mostly((), st.lists(st.sampled_from(SOUNDS), min_size=1, max_size=2).map(tuple)))
    help_spec = draw(mostly(None, st.builds(c.HelpSpec, helper=names, asset=words,
                                            die=st.one_of(st.none(), face()))))
    pool = max(1, 1 + len(knacks) + len(equipment) + len(advantages) + len(blammo) - len(penalties))
    dice = draw(st.one_of(
        st.none(),
        st.lists(st.integers(1, 6), min_size=pool, max_size=pool).map(tuple),
        st.lists(face(), max_size=5).map(tuple),
    ))
    action = draw(mostly("leap the gap", st.just(" "), weight=9))
    vs = draw(mostly(None, enemy_names, weight=4))  # a Gamble named against an enemy: its success is a hit
    return c.Gamble(character=who, action=action, knacks=tuple(knacks), equipment=tuple(equipment),
                    advantages=tuple(advantages), penalties=tuple(penalties), blammo=blammo, help=help_spec,
                    dice=dice, vs=vs)


@st.composite
def gamble_moves(draw) -> list:
    """A Gamble and what its player does with the pending roll: Lucky Saves, the catchphrase, resolve."""
    gamble = draw(gambles())
    who = draw(mostly(gamble.character, names, weight=5))
    follow = st.one_of(
        st.builds(c.SpendLuck, character=st.just(who), die=mostly(1, st.integers(0, 4), weight=2),
                  count=mostly(1, st.integers(0, 4))),
        st.builds(c.UseCatchphrase, character=st.just(who), dice=mostly(None, maybe_dice(3))),
    )
    return [gamble] + draw(st.lists(follow, max_size=3)) + draw(st.sampled_from(([], [c.Resolve()])))


# Enemy turns that are legal whenever their targets stand (Goon: danger 1, Boss: danger 2; see ``opening``).
GOOD_TURNS = (
    ("Goon", {"Nara": 1}), ("Goon", {"Ivy": 1}), ("Boss", {"Max": 2}), ("Boss", {"Nara": 1, "Ivy": 1}),
)
GOOD_ROUND_ENDS = (
    {"Goon": {"Nara": 1}, "Boss": {"Max": 1, "Ivy": 1}},
    {"Goon": {"Max": 1}, "Boss": {"Nara": 2}},
    {"Boss": {"Ivy": 2}},
    {"Goon": {"Ivy": 1}},
    {},
)


def knockouts() -> st.SearchStrategy[list]:
    """One, two or four Knockouts of one character, each followed by a new Scene (four retire them)."""
    return st.tuples(st.sampled_from(CAST), st.sampled_from((1, 4, 2))).map(
        lambda t: [cmd for _ in range(t[1]) for cmd in (c.AssignPeril(character=t[0], amount=6), c.StartScene())]
    )


def one_die_each() -> st.SearchStrategy[dict[str, tuple[int, ...]]]:
    """Dice for a whole-cast roll: usually none or one good die per named character."""
    return mostly({}, st.one_of(
        st.dictionaries(st.sampled_from(CAST), st.integers(1, 6).map(lambda d: (d,)), max_size=3),
        dice_by_name(),
    ), weight=1)


def targets() -> st.SearchStrategy[dict[str, int]]:
    return st.one_of(split(), st.dictionaries(st.sampled_from(CAST), st.integers(1, 3), min_size=1, max_size=2))


commands = st.one_of(
    gambles(),
    st.builds(c.SpendLuck, character=names, die=mostly(1, st.integers(0, 4), weight=1),
              count=mostly(1, st.integers(0, 4), weight=1)),
    st.builds(c.UseCatchphrase, character=names, dice=mostly(None, maybe_dice(3))),
    st.just(c.Resolve()),
    st.builds(
        c.AddCharacter,
        name=st.sampled_from(NAMES + ("Lou",)),
        knacks=st.lists(st.sampled_from(("Boxing", "Chess", "Sailing", "Lockpicking", "boxing")), max_size=4).map(tuple),
        equipment=st.lists(st.sampled_from(("Whip", "Revolver", "Map")), max_size=3).map(tuple),
        catchphrase=st.sampled_from((None, "Great Scott!", "   ")),
        dice=st.one_of(st.none(), face()),
    ),
    st.builds(c.StartLeg, dice=one_die_each()),
    st.builds(c.StartScene, title=st.sampled_from((None, "The docks"))),
    st.builds(
        c.GroupGamble,
        action=st.just("hold the door"),
        assets=mostly((), st.lists(st.tuples(names, words), max_size=2).map(tuple), weight=1),
        dice=mostly({}, dice_by_name()),
    ),
    st.builds(c.Snoop, character=names, topic=st.sampled_from((None, "the idol")), dice=st.one_of(st.none(), face())),
    st.builds(c.Rest, dice=one_die_each()),
    st.builds(c.AssignPeril, character=names, amount=st.integers(-7, 7)),
    st.builds(c.AssignPeril, character=names, amount=st.integers(-7, 7)),
    st.builds(c.JustTheThing, character=names, item=st.sampled_from(("flashlight", "", "rope"))),
    st.just(c.StartTumult()),
    st.just(c.EndTumult()),
    st.builds(
        c.AddEnemy,
        name=st.sampled_from(ENEMIES[:2]),  # no third enemy, so GOOD_ROUND_ENDS stay legal
        type=st.sampled_from(list(c.EnemyType)),
        threshold=mostly(None, st.integers(0, 3), weight=1),
        danger=mostly(None, st.integers(-1, 4), weight=1),
    ),
    st.builds(c.Hit, enemy=enemy_names, count=mostly(1, st.integers(0, 3), weight=1)),
    st.builds(c.RemoveEnemy, enemy=enemy_names, how=st.sampled_from(("flee", "surrender", "removed"))),
    st.builds(c.EnemyAct, enemy=enemy_names, targets=targets()),
    st.builds(c.EndRound, targets=st.dictionaries(enemy_names, targets(), max_size=3)),
    st.builds(c.Flashpoint, payments=st.dictionaries(names, st.integers(-1, 3), max_size=3)),
)

fight_moves = st.one_of(
    st.sampled_from(GOOD_TURNS).map(lambda t: [c.EnemyAct(enemy=t[0], targets=t[1])]),
    st.sampled_from(GOOD_ROUND_ENDS).map(lambda targets: [c.EndRound(targets=targets)]),
    st.just([c.Flashpoint(payments={"Nara": 1, "Max": 1, "Ivy": 1})]),
)

moves = st.one_of(
    gamble_moves(),
    gamble_moves(),
    commands.map(lambda command: [command]),
    commands.map(lambda command: [command]),
    fight_moves,
    knockouts(),
)
"""Lists of commands; a script is the concatenation of a list of moves."""

optional_rules = st.sampled_from(((), ("just-the-thing", "flashpoints"), ("flashpoints",)))


def opening(optional: tuple[str, ...], seed: int, tumult: bool = False, veteran: bool = False) -> list:
    """The start every random game shares: a campaign and a cast of three, maybe a fight.
    A ``veteran`` Ivy has three Knockouts behind her (the next one retires her) and Max has retired."""
    scars = [c.AssignPeril(character="Ivy", amount=6), c.StartScene()] * 3 + [
        c.AssignPeril(character="Max", amount=6), c.StartScene()] * 4
    fight = [
        c.AddEnemy(name="Goon", type=c.EnemyType.MINION),
        c.AddEnemy(name="Boss", type=c.EnemyType.LIEUTENANT, danger=2),
        c.StartTumult(),
    ]
    return [
        c.StartCampaign(name="Prop", seed=seed, optional=optional),
        c.AddCharacter(name="Nara", knacks=KNACKS["Nara"], equipment=EQUIPMENT["Nara"], catchphrase="Not today!"),
        c.AddCharacter(name="Max", knacks=KNACKS["Max"], equipment=EQUIPMENT["Max"]),
        c.AddCharacter(name="Ivy", knacks=KNACKS["Ivy"], equipment=EQUIPMENT["Ivy"], catchphrase="Eureka"),
    ] + (scars if veteran else []) + (fight if tumult else [])
