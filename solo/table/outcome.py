"""What one line did (``Outcome``): the contract's JSON object for ``script --json``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from solo.kernel.inert import inert


@dataclass
class Outcome:
    """What one line did: the contract's JSON object for ``script --json``."""

    line: str
    ok: bool
    result: dict[str, Any] | None = None
    error: str | None = None
    kind: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def as_json(self, number: int) -> dict[str, Any]:
        return {"line": number, "command": self.line, "ok": self.ok, "error": self.error,
                "result": self.result if self.result is not None else {}}


def replayed(line: str, result: dict[str, Any], kind: str) -> Outcome:
    """`replay --verify`'s line: it fails when damage was found, naming the first differences."""
    if result.get("ok", True):
        return Outcome(line=line, ok=True, result=result, kind=kind)
    differences = [str(d) for d in result.get("differences") or ["a difference"]]
    shown = "; ".join(differences[:4]) + (f"; and {len(differences) - 4} more" if len(differences) > 4 else "")
    return Outcome(line=line, ok=False, result=result, kind=kind,
                   error=f"replay --verify found {len(differences)} difference(s): {inert(shown)}; the "
                         "journal's events stand and the snapshots are a cache: restore a copy of the "
                         "journal if its events are damaged")
