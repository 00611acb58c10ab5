"""The ENIGMA rules (ENIGMA System Reference Document v0.6.2, Andrew Pelham, CC BY-NC 4.0).

``SYSTEM`` is the rule system object the engine finds through the ``solo.rule_systems`` entry
point; the modules beneath hold state (``state``), commands, events, the deciding and
applying functions, odds, the grammar, results, the Director, the presentation, the rules
reference, the adventure-file extension and the data (tables, prompts, pregens).
"""

from __future__ import annotations

from . import commands, events
from .apply import apply, fold
from .decide import decide, enemies_due, peril_change, resolve_pending, roll
from .odds import odds_report, saves_needed, success_chance
from .state import Character, Enemy, GameState, PendingGamble
from .results import status
from .system import SYSTEM

ENIGMA = SYSTEM

__all__ = [
    "ENIGMA", "SYSTEM", "Character", "Enemy", "GameState", "PendingGamble", "apply", "commands",
    "decide", "enemies_due", "events", "fold", "odds_report", "peril_change", "resolve_pending", "roll",
    "saves_needed", "status", "success_chance",
]
