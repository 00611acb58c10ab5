"""Files `solo` writes at a player's word (``export md FILE``): written whole or not at all, and never
over what would lose a campaign.

A target is refused, in one line that says what to do, when it is the open journal, its WAL, its
shared-memory or rollback file (whatever path names them: ``./j.db``, ``/abs/../j.db``, a symlink, a
hard link), a folder, or anything but a regular file (a device, a FIFO, a socket). An existing
regular file is replaced only when it is one `solo` wrote (its front matter names ``solo`` as its
maker, ``SOLO_MARK``) or when the player says ``--force``; a SQLite database (another journal)
never. The text goes to a new temporary file beside the target (created exclusively: a planted link
cannot redirect it), is synced, then renamed over the target; a symlinked target keeps its link and
the file it points at is replaced.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

from solo.kernel.errors import JournalError

SOLO_MARK = "generator: solo"  # a line of the front matter of every file solo writes
JOURNAL_SIDES = ("", "-wal", "-shm", "-journal")  # SQLite's files for one journal


def _identity(path: str) -> tuple[int, int] | None:
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


def journal_files(journal_path: str) -> tuple[set[str], set[tuple[int, int]]]:
    """The real paths and the (device, inode) of the journal's files, present or to come."""
    real = os.path.realpath(os.path.expanduser(journal_path))
    paths = {real + side for side in JOURNAL_SIDES} | {os.path.abspath(journal_path) + side for side in JOURNAL_SIDES}
    ids = {i for i in (_identity(p) for p in paths) if i is not None}
    return paths, ids


def written_by_solo(path: Path) -> bool:
    """Whether the regular file ``path`` opens with front matter that names solo as its maker
    (``SOLO_MARK``), or with the front matter of an export before the mark was written
    (``campaign:`` first, ``tags: [solo, ...]``)."""
    try:
        with path.open("rb") as fh:
            head = fh.read(8192).decode("utf-8", errors="replace")
    except OSError:
        return False
    lines = head.splitlines()
    if not lines or lines[0] != "---":
        return False
    front = lines[1:lines.index("---", 1)] if "---" in lines[1:] else []
    return SOLO_MARK in front or (bool(front) and front[0].startswith("campaign: ")
                                  and any(line.startswith("tags: [solo, ") for line in front))


def _is_database(path: Path) -> bool:
    try:
        with path.open("rb") as fh:
            return fh.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


_WHAT_TO_DO = {errno.ENOTDIR: "a part of the path is a file, not a folder: pick another path",
               errno.ENAMETOOLONG: "pick a shorter name", errno.EACCES: "pick a folder you may write in",
               errno.EPERM: "pick a folder you may write in", errno.EROFS: "pick a folder you may write in",
               errno.ENOSPC: "free some space or pick another disk"}


def cannot_write(shown: str, exc: OSError) -> JournalError:
    """The one-line error for a file that cannot be written: the system's reason and what to do."""
    return JournalError(f"cannot write {shown}: {exc.strerror or exc}; "
                        f"{_WHAT_TO_DO.get(exc.errno or 0, 'pick another path')}")


def check_target(path: Path, journal_path: str, force: bool) -> Path:
    """The file to write for the target ``path`` (a symlink's target), or ``JournalError`` saying
    why not and what to do."""
    shown = str(path)[:80]
    real = Path(os.path.realpath(path))
    paths, ids = journal_files(journal_path)
    if str(real) in paths or os.path.abspath(path) in paths or _identity(str(real)) in ids:
        raise JournalError(f"{shown} is the journal this campaign is kept in (or one of its files): "
                           "export to another file name")
    try:
        found = os.stat(real)
    except FileNotFoundError:
        if not real.parent.is_dir():
            raise JournalError(f"cannot write {shown}: there is no folder {str(real.parent)[:80]}: "
                               "create it or pick another path") from None
        return real
    except OSError as exc:
        raise cannot_write(shown, exc) from None
    if stat.S_ISDIR(found.st_mode):
        raise JournalError(f"{shown} is a folder: give a file name inside it, e.g. {shown.rstrip('/')}/campaign.md")
    if not stat.S_ISREG(found.st_mode):
        raise JournalError(f"{shown} is not a regular file (a device, a pipe or a socket): export to a file")
    if _is_database(real):
        raise JournalError(f"{shown} is a SQLite database (perhaps another journal): export to another file name")
    if not force and not written_by_solo(real):
        raise JournalError(f"{shown} exists and solo did not write it: pick a new file name, "
                           "or add --force to replace it")
    return real


def write_atomically(path: Path, pieces: Iterable[str], journal_path: str, *, force: bool = False) -> int:
    """Write the text of ``pieces`` to ``path`` whole (see the module); returns the bytes written.
    An error while the pieces are made (the journal read, say) leaves the target as it was and
    propagates as it is; an error of the file system is one ``JournalError`` naming the file."""
    target = check_target(path, journal_path, force)
    size = 0
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{target.name[:60]}.", suffix=".part", dir=target.parent)
    except OSError as exc:
        raise cannot_write(str(path)[:80], exc) from None
    try:
        with os.fdopen(fd, "wb") as out:
            for piece in pieces:
                data = piece.encode("utf-8", errors="replace")  # a lone surrogate from a journal's JSON: '?'
                out.write(data)
                size += len(data)
            out.flush()
            os.fsync(out.fileno())
        with contextlib.suppress(OSError):
            os.chmod(temp, 0o644 & ~_umask())
        check_target(path, journal_path, force=True)  # nothing became the journal, a folder or a device meanwhile
        os.replace(temp, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise cannot_write(str(path)[:80], exc) from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    return size


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
