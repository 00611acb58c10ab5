"""solo: a solo-play and Director co-pilot engine for the ENIGMA pulp adventure RPG.

Rules data and procedures follow the ENIGMA System Reference Document v0.6.2 by
Andrew Pelham, licensed CC BY-NC 4.0 (https://creativecommons.org/licenses/by-nc/4.0/).
"""

__version__ = "0.1.0"
