"""The kernel: what every rule system plugs into, and nothing any one of them owns.

``protocol`` is the typed seam (``RuleSystem``), ``registry`` finds the installed systems
through Python entry points, ``events`` holds the session's own journal events, and
``grammar`` the command-language machinery a system's grammar is written in. No module
of the engine outside ``solo/rules/<name>/`` imports a rule system.
"""
