"""solo: a solo-play and Director co-pilot engine for rule-light tabletop RPGs.

Each rule system is a package found through the ``solo.rule_systems`` entry points; each credits its
rule document where its data is used (ENIGMA: the ENIGMA System Reference Document v0.6.2 by Andrew
Pelham, licensed CC BY-NC 4.0, https://creativecommons.org/licenses/by-nc/4.0/; the others in their
own packages and in NOTICE).
"""

__version__ = "0.1.0"

# the masthead before any campaign is open, when no rule system is being played
ENGINE_INTRO = ("[bold]solo[/] — solo play and a Director's co-pilot for rule-light tabletop RPGs. `help` lists "
                "commands; Tab completes; Ctrl-C cancels a line; Ctrl-D leaves (everything is saved).")
