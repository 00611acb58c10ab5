"""The kernel: what every rule system plugs into, and nothing any one of them owns.

``protocol`` is the typed seam (``RuleSystem``), ``registry`` finds the installed systems
through Python entry points, ``events`` holds the session's own journal events, and
``grammar`` the command-language machinery a system's grammar is written in. The values every
layer passes around live here too: ``narration`` (a told piece of story), ``outcome`` (what the rules
decided, for a model to be held to), ``calls`` (a model call, as the journal keeps it) and ``adventure``
(an adventure file's data); ``services`` names, as protocols, what the Director hands a system through
the seam. The kernel imports nothing of solo outside it (tests/test_layout.py), and no module of the
engine outside ``solo/rules/<name>/`` imports a rule system.
"""
