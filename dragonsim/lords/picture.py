"""A picture of one replayed game (:mod:`dragonsim.lords.replay`) on the hex map.

Each dragon's course is drawn turn by turn: its start (a square), the hex it ends each move on
(a dot coloured by altitude, a short arrow for its facing, the turn number beside it), joined
by lines in the dragon's colour (a move's hexes in between are not drawn: the line joins where
it ended each turn). Breath attacks are lines from the attacker to its target at the end of that
turn's movement: solid red for a hit, dashed grey for a miss; close combats are stars between
the two; where a dragon was removed or flew off the board is a cross. Pointy-top hexes, axial
coordinates as the engine's (``x = sqrt(3) (q + r/2)``, ``y = 1.5 r``, rows downwards), the
board in force in offset rows (rule ``lords.board``; 33 x 24 as shipped).
"""

from __future__ import annotations

import math

import numpy as np

from ..rules.lords import ALTITUDES
from .hexes import DQ, DR
from .replay import Replay

#: the dragons' colours (seat order) and the altitudes' (Very Low .. Very High)
DRAGON_COLOURS = ("tab:blue", "tab:orange", "tab:green", "tab:purple", "tab:brown", "tab:pink")
ALTITUDE_CMAP = "viridis"


def _xy(q, r):
    return math.sqrt(3) * (q + r / 2), 1.5 * r


def draw(rep: Replay, ax=None, last_turn: int | None = None):
    """Draw ``rep`` (up to ``last_turn``, default the whole game) on the board it was played
    on (``rep.board``) and return the figure."""
    import matplotlib.pyplot as plt
    from matplotlib import cm, colors
    from matplotlib.lines import Line2D
    from matplotlib.patches import RegularPolygon

    from ..report import plot_style

    upto = rep.turns if last_turn is None else last_turn
    width, depth = rep.board
    pos = {n: [] for n in rep.names}  # (turn, q, r, facing, altitude index)
    breaths, fights, gone = [], [], {}
    now = {}
    for e in rep.events:
        if e["turn"] > upto:
            break
        if e["event"] in ("placed", "move"):
            alt = ALTITUDES.index(e["altitude"])
            p = (e["turn"], e["q"], e["r"], e["facing"], alt)
            pos[e["dragon"]].append(p)
            now[e["dragon"]] = p
        elif e["event"] == "breath" and e["target_number"] >= 0:
            a, t = now[e["dragon"]], now[e["other"]]
            breaths.append((a, t, e["hit"]))
        elif e["event"] == "close combat":
            fights.append((now[e["dragon"]], now[e["other"]]))
        elif e["event"] == "leaves the board":
            gone[e["dragon"]] = "flew off the board"
        elif e["event"] == "effects" and not e["in_play"]:
            gone[e["dragon"]] = "removed"
    norm = colors.Normalize(1, len(ALTITUDES) - 1)
    cmap = plt.get_cmap(ALTITUDE_CMAP)
    with plot_style():
        if ax is None:
            fig, ax = plt.subplots(figsize=(12, 7))
        else:
            fig = ax.figure
        for row in range(depth):
            for col in range(width):
                q = col - (row - (row & 1)) // 2
                x, y = _xy(q, row)
                ax.add_patch(
                    RegularPolygon(
                        (x, y),
                        6,
                        radius=1.0,
                        orientation=0,
                        facecolor="white",
                        edgecolor="0.85",
                        lw=0.4,
                        zorder=0,
                    )
                )
        for a, t, hit in breaths:
            (x0, y0), (x1, y1) = _xy(a[1], a[2]), _xy(t[1], t[2])
            ax.plot(
                [x0, x1],
                [y0, y1],
                color="tab:red" if hit else "0.35",
                ls="-" if hit else (0, (2, 2)),
                lw=2.2 if hit else 1.3,
                zorder=4.5,
                alpha=0.9,
            )
        for a, b in fights:
            (x0, y0), (x1, y1) = _xy(a[1], a[2]), _xy(b[1], b[2])
            ax.plot(
                [(x0 + x1) / 2], [(y0 + y1) / 2], marker="*", ms=16, color="gold", mec="k", zorder=5
            )
        for k, name in enumerate(rep.names):
            c = DRAGON_COLOURS[k % len(DRAGON_COLOURS)]
            pts = pos[name]
            xy = np.array([_xy(p[1], p[2]) for p in pts])
            ax.plot(xy[:, 0], xy[:, 1], color=c, lw=2.0, zorder=3, alpha=0.8)
            for j, p in enumerate(pts):
                x, y = xy[j]
                fc = cmap(norm(max(p[4], 1)))
                ax.plot(
                    [x],
                    [y],
                    marker="s" if j == 0 else "o",
                    ms=9 if j == 0 else 7,
                    mfc=fc,
                    mec=c,
                    mew=1.8,
                    zorder=4,
                )
                dx, dy = _xy(DQ[p[3]], DR[p[3]])
                ax.annotate(
                    "",
                    xy=(x + 0.9 * dx, y + 0.9 * dy),
                    xytext=(x, y),
                    arrowprops=dict(arrowstyle="->", color=c, lw=1.3),
                    zorder=4,
                )
                if j > 0:
                    ax.annotate(
                        str(p[0]),
                        (x, y),
                        xytext=(5, 5),
                        textcoords="offset points",
                        fontsize=7,
                        color=c,
                        zorder=6,
                    )
            if name in gone and pts:
                x, y = xy[-1]
                ax.plot([x], [y], marker="X", ms=15, color="k", zorder=7)
                ax.annotate(
                    f"{name} {gone[name]}",
                    (x, y),
                    xytext=(8, -12),
                    textcoords="offset points",
                    fontsize=8,
                    zorder=7,
                )
        ax.set_aspect("equal")
        # the part of the board the game used, with three hexes around it
        allxy = np.array([_xy(p[1], p[2]) for ps in pos.values() for p in ps])
        (x0, y0), (x1, y1) = allxy.min(axis=0) - 3.5, allxy.max(axis=0) + 3.5
        ax.set_xlim(x0, x1)
        ax.set_ylim(y1, y0)  # rows grow downwards, as the map is read
        ax.set_xticks([])
        ax.set_yticks([])
        for side in ax.spines.values():
            side.set_visible(False)
        handles = [
            Line2D([], [], color=DRAGON_COLOURS[k % 6], lw=2, label=f"{n} ({rep.policies[k]})")
            for k, n in enumerate(rep.names)
        ]
        handles += [
            Line2D([], [], marker="s", ls="", mfc="white", mec="k", label="start"),
            Line2D([], [], color="tab:red", lw=2.2, label="breath: hit"),
            Line2D([], [], color="0.35", ls=(0, (2, 2)), lw=1.3, label="breath: miss"),
            Line2D([], [], marker="*", ls="", ms=12, color="gold", mec="k", label="close combat"),
            Line2D([], [], marker="X", ls="", ms=10, color="k", label="removed / off the board"),
        ]
        ax.legend(
            handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False
        )
        sm = cm.ScalarMappable(norm=norm, cmap=cmap)
        cax = ax.inset_axes([1.03, 0.0, 0.022, 0.38])  # under the legend, right of the map
        bar = fig.colorbar(sm, cax=cax, orientation="vertical")
        bar.set_ticks(range(1, len(ALTITUDES)))
        bar.set_ticklabels(ALTITUDES[1:])
        bar.set_label("altitude (dots)", fontsize=8)
        bar.ax.tick_params(labelsize=7)
        res = (f"{rep.winner_name} wins" if rep.winner >= 0 else "a draw") + (
            f" after {rep.turns} turns" + ("" if upto >= rep.turns else f" (turns 1-{upto} shown)")
        )
        ax.set_title(
            f"{rep.title()}, seed {rep.seed}, game {rep.game}: {res}\n"
            "dots: where each move ended (turn number beside it, arrow = facing)",
            fontsize=10,
        )
        fig.tight_layout()
    return fig
