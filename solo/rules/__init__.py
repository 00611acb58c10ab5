"""Rule systems, one package each (``solo/rules/<name>/``), found through the
``solo.rule_systems`` entry points (see ``solo.kernel.registry``). A rule system imports the
kernel, the Director and the narrator's checks, never the table or the faces; nothing outside its own
package imports it, and no system imports another. ``solo.rules.base`` holds the defaults a system may
keep (``BaseSystem``)."""
