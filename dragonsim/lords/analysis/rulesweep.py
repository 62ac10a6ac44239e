"""How a duel's answer moves with one rule value: :func:`sensitivity` plays A against B under
each value of one rule on the same games as under the value in force (common random numbers,
:mod:`~dragonsim.lords.analysis.paired`) and reports A's win rate and its paired difference,
for a fixed number of games or to a precision target.

Examples
--------
>>> from dragonsim.lords.analysis.rulesweep import sensitivity
>>> df = sensitivity("Reaper", "Skyblazer", rule="altitude_mod",
...                  values=[[0, 0, 1, 1, 2], [0, 1, 1, 2, 2]], n=2000)  # doctest: +SKIP
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ...errors import UserError
from ..game.sheets import rule_switches
from ..inputs import _rules
from .paired import PairedResult, _checkpoint, outcomes, paired

__all__ = ["sensitivity", "SENSITIVITY_COLUMNS"]

#: the columns a sensitivity study's records add to a duel's (``records=``)
SENSITIVITY_COLUMNS = {
    "value": "the rule's value these games were played under (JSON)",
    "is_base": "true for the base games: under the value in force before the study, the one "
    "every value is paired with",
}


#: most values one sensitivity study plays
MAX_VALUES = 100


def _parse_value(text: str):
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def sensitivity(
    a,
    b,
    *,
    rule: str,
    values: Sequence[Any],
    n: int | None = None,
    precision: float | None = None,
    max_n: int | None = None,
    simultaneous: bool = False,
    seed: int = 1,
    policies: Sequence[str] = ("hunter", "hunter"),
    confidence: float = 0.95,
    rules=None,
    progress: bool | None = False,
    checkpoint=None,
    records=None,
    backend: str = "local",
    dask_client=None,
    threads: int | None = None,
):
    """``a``'s win rate for each value of one rule, paired against the rule's value in force.

    ``rule`` is any overridable key (``altitude_mod``, ``damage_allocation.7``, ...); values
    are checked like any override. ``rules`` (a RuleSet or overrides) is the game the sweep
    starts from (default: the rules as printed and assumed); each value is applied on top of
    it. Returns a pandas DataFrame, one row per value. An interruption keeps the values that
    finished (``df.attrs["interrupted"]`` is True); ``checkpoint`` (a path) keeps every finished
    block, and the same call resumes from it. ``records`` (a ``.parquet`` or ``.csv`` path):
    one row per game and value (:data:`SENSITIVITY_COLUMNS` then the duel's), the games under
    the value in force first.

    ``precision``, ``max_n``: instead of ``n``, play every value and the value in force on the
    same games, look by look (:func:`~dragonsim.stats.precision_plan`, the duel's plan), and
    stop at the first look where every value's win rate (and the value in force's) has a 95%
    confidence-sequence interval (:meth:`~dragonsim.stats.LookPlan.interval`) of half-width at
    most ``precision``; ``ci_low`` / ``ci_high`` are those intervals, valid however the stop
    fell (``simultaneous``: all of them at once; by default each on its own). The paired
    difference keeps its fixed-n normal interval (it is not a rate the target bounds).
    ``df.attrs["n"]`` is the games each value needed and ``df.attrs["precision"]`` how the
    run went. Not with ``checkpoint`` or ``records``.

    ``backend``, ``dask_client``, ``threads``: where the blocks run and on how many numba
    threads (default all), as for :func:`~dragonsim.runner.run_blocks`; the same result on any.
    """
    import pandas as pd

    from ...report import manifest
    from ...runner import n_or_precision

    _check_sweep(rule, values)
    n, cap = n_or_precision(n, precision, max_n, simultaneous=simultaneous)
    if precision is not None and (checkpoint is not None or records is not None):
        raise UserError(
            "checkpoints and records are not supported with a precision target; give n instead"
        )
    key = rule if rule.startswith("lords.") else f"lords.{rule}"
    start = _rules(rules)
    default = start.get(key)
    for v in values:  # refuse a bad value before any game is played
        start.with_overrides({key: v})
    if precision is not None:
        return _sensitivity_to_precision(
            a, b, key, values, start, default, float(precision), cap, simultaneous, seed,
            policies, progress, backend, dask_client, threads,
        )  # fmt: skip
    identity = {
        "command": "sensitivity",
        "a": str(a),
        "b": str(b),
        "rule": key,
        "values": [json.dumps(v) for v in values],
        "policies": list(policies) if not isinstance(policies, str) else policies,
        "seed": seed,
        "n": n,
        "rules_hash": start.hash,
    }
    ck = _checkpoint(checkpoint, identity)
    stopped: list = []
    file = None
    if records is not None:
        file = _sweep_records(records, identity, default, policies, start)

    def play(name: str, rs, value) -> np.ndarray | None:
        w = outcomes(
            a,
            b,
            n=n,
            seed=seed,
            policies=policies,
            rules=rs,
            progress=progress,
            checkpoint=None if ck is None else ck.section(name),
            interrupted=stopped,
            records=file,
            context={"value": json.dumps(value), "is_base": name == "default"},
            backend=backend,
            dask_client=dask_client,
            threads=threads,
        )
        return None if stopped else w == 0

    rows = []
    base = None
    try:
        base = play("default", start, default)
        for i, v in enumerate(values):
            if base is None:
                break
            alt = play(f"value {i}", start.with_overrides({key: v}), v)
            if alt is None:
                break
            rows.append(_sensitivity_row(key, v, default, paired(base, alt, confidence)))
    except KeyboardInterrupt:
        if not rows:
            raise
        stopped.append(True)
    finally:
        if file is not None:
            file.close(values_finished=len(rows), interrupted=bool(stopped))
    df = pd.DataFrame(rows)
    df.attrs.update(
        rule=key,
        interrupted=bool(stopped),
        values_requested=len(values),
        manifest=manifest(
            command="sensitivity",
            rule=key,
            rules_hash=start.hash,
            rules_overrides=start.overrides,
            options=rule_switches(start),
            seed=seed,
            n=n,
            interrupted=bool(stopped),
        ),
        n=n,
        precision=None,
        precision_run=None,
    )
    return df


def _check_sweep(rule, values) -> None:
    """Refuse a rule that is not a key and values that are not a list of 1..MAX_VALUES."""
    if not isinstance(rule, str) or not rule.strip():
        raise UserError(f"rule must be a rule key such as altitude_mod, got {rule!r}")
    if isinstance(values, str | bytes | Mapping) or not isinstance(values, Sequence):
        raise UserError(f"values must be a list of rule values, got {values!r}")
    if not 1 <= len(values) <= MAX_VALUES:
        raise UserError(f"sensitivity needs 1 to {MAX_VALUES} values, got {len(values)}")


def _sweep_records(records, identity, default, policies, start):
    """A sensitivity study's records file (:data:`SENSITIVITY_COLUMNS` then the duel's), its
    manifest (the study's ``identity``, the value in force, the rules) written before the
    games."""
    from ...records import RecordsFile, check_path
    from ..inputs import resolve_policies
    from ..results import DUEL_COLUMNS, records_manifest

    check_path(records)
    return RecordsFile(
        records,
        records_manifest(
            command="sensitivity",
            a=identity["a"],
            b=identity["b"],
            rule=identity["rule"],
            values=identity["values"],
            default=json.dumps(default),
            policies=list(resolve_policies(None, policies)),
            seed=identity["seed"],
            n=identity["n"],
            rules_hash=start.hash,
            rules_overrides=start.overrides,
            options=rule_switches(start),
        ),
        SENSITIVITY_COLUMNS | DUEL_COLUMNS,
    )


def _sensitivity_row(key: str, v, default, r: PairedResult, ci=None) -> dict[str, Any]:
    """One value's row of a sensitivity study; ``ci``: the win rate's interval when it is not
    the paired result's Wilson interval (a precision run's confidence sequence)."""
    lo, hi = r.alt.ci if ci is None else ci
    return {
        "rule": key,
        "value": json.dumps(v),
        "is_default": v == default,
        "win_rate_a": r.alt.rate,
        "ci_low": lo,
        "ci_high": hi,
        "difference": r.difference,
        "diff_low": r.ci[0],
        "diff_high": r.ci[1],
        "mcnemar_p": r.pvalue,
        "variance_reduction": r.variance_reduction,
    }


def _sensitivity_to_precision(
    a,
    b,
    key,
    values,
    start,
    default,
    precision,
    cap,
    simultaneous,
    seed,
    policies,
    progress,
    backend="local",
    dask_client=None,
    threads=None,
):
    """:func:`sensitivity` with a precision target: every configuration (the value in force,
    then each value) extends its games look by look on the same game indices, until every
    win rate's confidence-sequence half-width is within ``precision``."""
    import pandas as pd

    from ...report import manifest
    from ...runner import PrecisionRun
    from ...stats import half_width, precision_plan

    configs = [start] + [start.with_overrides({key: v}) for v in values]
    plan = precision_plan(precision, cap, rates=len(configs) if simultaneous else 1)
    wins: list[np.ndarray] = [np.zeros(0, dtype=bool) for _ in configs]
    stopped: list = []
    done, taken, widest = 0, 0, 1.0
    for look, n_k in enumerate(plan.looks, start=1):
        taken = look
        try:
            for c, rs in enumerate(configs):
                w = outcomes(
                    a,
                    b,
                    n=n_k - done,
                    seed=seed,
                    policies=policies,
                    rules=rs,
                    progress=progress,
                    interrupted=stopped,
                    first=done,
                    backend=backend,
                    dask_client=dask_client,
                    threads=threads,
                )
                wins[c] = np.concatenate([wins[c], w == 0])
                if stopped:
                    break
        except KeyboardInterrupt:
            stopped.append(True)
        if stopped:  # keep the games every configuration finished
            done = min(len(w) for w in wins)
            wins = [w[:done] for w in wins]
            break
        done = n_k
        widest = max(half_width(*plan.interval(int(w.sum()), done)) for w in wins)
        if widest <= precision:
            break
    if done == 0:
        raise KeyboardInterrupt
    prun = PrecisionRun(plan, taken, widest <= precision and not stopped, float(widest))
    if not prun.met and not stopped:
        from ...runner import _note

        _note(
            f"precision target +-{precision:g} not reached in {cap:,} games (widest half-width "
            f"{widest:.3g}); raise the cap (max_n, --max-n) or loosen the target"
        )
    rows = [
        _sensitivity_row(
            key,
            v,
            default,
            paired(wins[0], wins[c + 1]),
            plan.interval(int(wins[c + 1].sum()), done),
        )
        for c, v in enumerate(values)
    ]
    df = pd.DataFrame(rows)
    df.attrs.update(
        rule=key,
        interrupted=bool(stopped),
        values_requested=len(values),
        n=done,
        precision=prun.to_dict(),
        precision_run=prun,
        manifest=manifest(
            command="sensitivity",
            rule=key,
            rules_hash=start.hash,
            rules_overrides=start.overrides,
            options=rule_switches(start),
            seed=seed,
            n=done,
            precision=prun.to_dict(),
            interrupted=bool(stopped),
        ),
    )
    return df
