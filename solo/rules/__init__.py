"""Rule systems, one package each (``solo/rules/<name>/``), found through the
``solo.rule_systems`` entry points (see ``solo.kernel.registry``). A rule system imports the
kernel; nothing outside its own package imports it, and no system imports another."""
