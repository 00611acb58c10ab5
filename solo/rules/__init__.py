"""Rule systems, one package each (``solo/rules/<name>/``), found through the
``solo.rule_systems`` entry points (see ``solo.kernel.registry``). A rule system imports the
kernel, the Director and the narrator's checks, never the table or the faces; nothing outside its own
package imports it, and no system imports another. A system's entry point is a manifest
(``solo.kernel.manifest.Manifest``); the parts it leaves out are the kernel's (``solo.kernel.base``)."""
