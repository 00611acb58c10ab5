"""Every built-in rule system and the toy Coin of Fate type-check as ``solo.kernel.RuleSystem``
(and each optional part as its protocol) under ``mypy --strict`` (`make test` checks this file;
it runs nothing). A system whose rules core drifts from the seam fails here, by name."""

from __future__ import annotations

from typing import Any

from solo.kernel import RuleSystem
from solo.kernel.protocol import AdventurePart, Flow, NarrationPart, Presentation, TableTalk
from solo.rules.alpha.state import AlphaState
from solo.rules.alpha.system import SYSTEM as ALPHA
from solo.rules.beyond_code.state import BeyondState
from solo.rules.beyond_code.system import SYSTEM as BEYOND
from solo.rules.enigma import commands as enigma_commands
from solo.rules.enigma import events as enigma_events
from solo.rules.enigma.state import GameState
from solo.rules.enigma.system import EnigmaRules
from solo.rules.enigma.system import SYSTEM as ENIGMA
from solo.rules.haasteet.state import HaasteetState
from solo.rules.haasteet.system import SYSTEM as HAASTEET
from solo.rules.rhun.state import RhunState
from solo.rules.rhun.system import SYSTEM as RHUN
from toy_coin import SYSTEM as COIN  # tests/toy_system, on MYPYPATH as an installed package would be
from toy_coin import CoinRules, CoinState

# the rules core of each system, as its own concrete class (not only through the manifest's annotation)
enigma: RuleSystem[GameState, enigma_commands.Command, enigma_events.Event] = EnigmaRules()
rhun: RuleSystem[RhunState, Any, Any] = RHUN.rules
haasteet: RuleSystem[HaasteetState, Any, Any] = HAASTEET.rules
alpha: RuleSystem[AlphaState, Any, Any] = ALPHA.rules
beyond_code: RuleSystem[BeyondState, Any, Any] = BEYOND.rules
coin: RuleSystem[CoinState, Any, Any] = CoinRules()
coin_manifest: RuleSystem[CoinState, Any, Any] = COIN.rules

# each optional part, as the kernel asks for it
flow: Flow[GameState, enigma_commands.Command, enigma_events.Event] = ENIGMA.flow
presentation: Presentation = ENIGMA.presentation
talk: TableTalk[GameState, enigma_commands.Command] = ENIGMA.talk
narration: NarrationPart[GameState, enigma_commands.Command, enigma_events.Event] = ENIGMA.narration
adventures: AdventurePart[enigma_commands.Command] = ENIGMA.adventures
