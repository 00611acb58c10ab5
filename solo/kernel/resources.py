"""The data solo ships inside its packages (oracle tables, prompts, each rule system's ``data``
folder and adventures), found through ``importlib.resources`` wherever solo is installed: a
checkout, an editable install or a wheel unpacked in site-packages."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from solo.kernel.errors import SoloError


def folder(package: str, *parts: str) -> Path:
    """The folder ``parts`` inside ``package`` on the file system.

    An installer unpacks a wheel, so the package's files are files; a package imported from a
    zip archive has none to glob or to hand Jinja2, and is refused with what to do instead."""
    found = resources.files(package).joinpath(*parts)
    if isinstance(found, Path):
        return found
    raise SoloError(f"{package} is imported from an archive ({found}); install solo with pip or pipx, "
                    "which unpacks its data files")


def shared(*parts: str) -> Path:
    """A folder of the data every rule system shares (``oracle_tables``, ``prompts``)."""
    return folder("solo", *parts)
