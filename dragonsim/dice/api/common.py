"""What every Dice run shares: the checked turns and game count, a checkpoint's identity, the
manifest of a records file, the winner columns of a game's records."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...checkpoint import Checkpoint
from ...errors import UserError
from ...report import manifest
from .options import Options

MAX_TURNS = 1000


def _identity(command: str, seed, n, opts: Options, **what: Any) -> dict[str, Any]:
    """What a Dice checkpoint belongs to (the kernel's arguments are checked as well)."""
    return {"command": command, "seed": seed, "n": n, "rules_hash": opts.rules.hash, **what}


def _records_manifest(command: str, seed, n, opts: Options, **what: Any) -> dict[str, Any]:
    return manifest(
        command=command,
        game="dragon-dice",
        seed=int(seed),
        requested=int(n),
        rules_hash=opts.rules.hash,
        rules_overrides=opts.rules.overrides,
        options=opts.to_dict(),
        **what,
    )


def _sides(first: np.ndarray, second: np.ndarray, names: tuple[str, str]) -> dict:
    """winner_side / winner from two per-game booleans (side 0 won / side 1 won)."""
    side = np.where(first & ~second, 0, np.where(second & ~first, 1, -1)).astype(np.int64)
    label = np.array([*names, "none"], dtype=str)
    return {"winner_side": side, "winner": label[np.where(side < 0, 2, side)]}


def _turns(turns: int) -> int:
    if isinstance(turns, bool) or not isinstance(turns, int | np.integer):
        raise UserError(f"turns must be a whole number 1..{MAX_TURNS}, got {turns!r}")
    if not 1 <= turns <= MAX_TURNS:
        raise UserError(f"turns must be 1..{MAX_TURNS}, got {turns}")
    return int(turns)


def _n(n: int | float | str) -> int:
    from ...errors import parse_count

    return parse_count(n)


def _study_checkpoint(checkpoint, identity) -> Checkpoint | None:
    """A checkpoint of several kernel runs (one section each), from a path or a Checkpoint."""
    if checkpoint is None or isinstance(checkpoint, Checkpoint):
        return checkpoint
    return Checkpoint(checkpoint, identity)
