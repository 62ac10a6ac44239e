"""A picture of one replayed game (:mod:`dragonsim.lords.views.replay`) on the hex map.

Each dragon's course is drawn turn by turn: its start (a square), the hex it ends each move on
(a dot coloured by altitude, a short arrow for its facing, the turn number beside it), joined
by lines in the dragon's colour (a move's hexes in between are not drawn: the line joins where
it ended each turn). Breath attacks are lines from the attacker to its target at the end of that
turn's movement: solid red for a hit, dashed grey for a miss; close combats are stars between
the two; where a dragon was removed or flew off the board is a cross. Under the advanced rules
of the ground (p.17) a dragon's position on the ground is a brown hexagon in place of the dot,
on a hatched hex; a landing's line runs through the hex its flight ended in, and a crash is a
dark red downward triangle where the dragon fell, "crash" and the turn beside it. Pointy-top
hexes, axial coordinates as the engine's (``x = sqrt(3) (q + r/2)``, ``y = 1.5 r``, rows
downwards), the board in force in offset rows (rule ``lords.board``; 33 x 24 as shipped).
"""

from __future__ import annotations

import math

import numpy as np

from ...rules.lords import ALTITUDES
from ..game.hexes import DQ, DR
from .replay import Replay

#: the dragons' colours (seat order) and the altitudes' (Very Low .. Very High)
DRAGON_COLOURS = ("tab:blue", "tab:orange", "tab:green", "tab:purple", "tab:brown", "tab:pink")
ALTITUDE_CMAP = "viridis"
#: a dragon on the ground (its hexagon) and a crash (the triangle), advanced rules p.17
GROUND_COLOUR = "saddlebrown"
GROUND_FILL = "wheat"  # the hatched hex under it
CRASH_COLOUR = "darkred"


def _xy(q, r):
    return math.sqrt(3) * (q + r / 2), 1.5 * r


def _scene(rep: Replay, upto: int):
    """What the picture shows up to turn ``upto``: each dragon's positions ``(turn, q, r,
    facing, altitude index, path hexes or None)``, the breath attacks ``(attacker's,
    target's position, hit, turn)``, the close combats, the crashes ``(q, r, turn)``, who
    fell how, and the map coordinates of every position of the whole game (a frame's
    view)."""
    pos = {n: [] for n in rep.names}
    breaths, fights, crashes, gone, now, whole = [], [], [], {}, {}, []
    for e in rep.events:
        if e["event"] in ("placed", "move"):
            whole.append(_xy(e["q"], e["r"]))
            whole.extend(_xy(h[0], h[1]) for h in _via(e))
        if e["turn"] > upto:
            continue
        if e["event"] in ("placed", "move"):
            alt = ALTITUDES.index(e["altitude"])
            p = (e["turn"], e["q"], e["r"], e["facing"], alt, _via(e))
            pos[e["dragon"]].append(p)
            now[e["dragon"]] = p
        elif e["event"] == "crashes":
            crashes.append((e["q"], e["r"], e["turn"]))
            if pos[e["dragon"]]:  # where it stands is now the ground (p.17), facing as rolled
                t, q, r, _, _, via = pos[e["dragon"]][-1]
                pos[e["dragon"]][-1] = now[e["dragon"]] = (t, q, r, e["facing"], 0, via)
        elif e["event"] == "breath" and e["target_number"] >= 0:
            breaths.append((now[e["dragon"]], now[e["other"]], e["hit"], e["turn"]))
        elif e["event"] == "close combat":
            fights.append((now[e["dragon"]], now[e["other"]], e["turn"]))
        elif e["event"] == "leaves the board":
            gone[e["dragon"]] = "flew off the board"
        elif e["event"] == "effects" and not e["in_play"]:
            gone[e["dragon"]] = "removed"
    return pos, breaths, fights, crashes, gone, whole


def _via(e) -> list:
    """The hexes a move's line runs through: a scripted path's, a landing's (the hex its
    flight ended in at Very Low, p.17) or a take-off's (the end of its straight leap)."""
    if e.get("path"):
        return e["path"]
    if e.get("flight_end"):
        return [[*e["flight_end"], 1]]
    if e.get("leap_end"):
        return [[*e["leap_end"], 1]]
    return []


def _view(points) -> tuple[float, float, float, float]:
    """The map area around ``points`` (three hexes around them): x0, x1, y0, y1."""
    xy = np.array(points, dtype=float)
    (x0, y0), (x1, y1) = xy.min(axis=0) - 3.5, xy.max(axis=0) + 3.5
    return x0, x1, y0, y1


def figure_size(rep: Replay) -> tuple[float, float]:
    """A figure for the whole game's view: the map 10 inches wide (its height by the view's
    shape, 2.5 to 7 inches), the title above and the legend below."""
    x0, x1, y0, y1 = _view(_scene(rep, rep.turns)[5])
    h = min(max(10.0 * (y1 - y0) / (x1 - x0), 2.5), 7.0)
    return 10.5, h + 1.9


def draw(rep: Replay, ax=None, last_turn: int | None = None, *, frame: bool = False):
    """Draw ``rep`` (up to ``last_turn``, default the whole game) on the board it was played
    on (``rep.board``) and return the figure.

    ``frame``: one turn's picture of a series (:func:`save_turns`, :func:`save_gif`): the
    view is the whole game's, so every frame shows the same part of the board, and the turn
    ``last_turn`` stands out: its moves are drawn bold and its breath attacks in full, the
    earlier turns' courses and breaths faded. A scripted game's moves follow their paths hex
    by hex (the events' ``path``); a simulated game's join where each move ended."""
    import matplotlib.pyplot as plt
    from matplotlib import colors

    from ...report import plot_style

    upto = rep.turns if last_turn is None else last_turn
    width, depth = rep.board
    pos, breaths, fights, crashes, gone, whole = _scene(rep, upto)

    def faded(turn):  # an earlier turn's mark in a frame
        return frame and turn < upto

    norm = colors.Normalize(1, len(ALTITUDES) - 1)
    cmap = plt.get_cmap(ALTITUDE_CMAP)
    with plot_style():
        if ax is None:
            fig, ax = plt.subplots(figsize=figure_size(rep))
        else:
            fig = ax.figure
        _draw_board(ax, width, depth)
        _draw_breaths(ax, breaths, faded)
        _draw_fights(ax, fights, faded)
        _draw_ground(ax, pos, faded)
        _draw_crashes(ax, crashes, faded)
        _draw_courses(ax, rep, pos, gone, faded, frame, cmap, norm)
        ax.set_aspect("equal")
        x0, x1, y0, y1 = _view(
            whole if frame else [_xy(p[1], p[2]) for ps in pos.values() for p in ps]
        )
        ax.set_xlim(x0, x1)
        ax.set_ylim(y1, y0)  # rows grow downwards, as the map is read
        ax.set_xticks([])
        ax.set_yticks([])
        for side in ax.spines.values():
            side.set_visible(False)
        _draw_legends(ax, rep, pos, cmap, norm)
        ax.set_title(_title(rep, upto, frame), fontsize=10)
        fig.tight_layout()
    return fig


def _draw_board(ax, width: int, depth: int) -> None:
    """The board's hexes, ``width`` columns by ``depth`` rows."""
    from matplotlib.patches import RegularPolygon

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


def _draw_breaths(ax, breaths, faded) -> None:
    """Each breath attack as a line from the attacker to the target, bold red when it hit,
    dashed grey when it missed (``faded(turn)``: an earlier turn's in a frame)."""
    for a, t, hit, turn in breaths:
        # a third of a hex to the attacker's right, so two dragons breathing at each
        # other draw two lines; the arrowhead points at the target
        (x0, y0), (x1, y1) = _xy(a[1], a[2]), _xy(t[1], t[2])
        d = math.hypot(x1 - x0, y1 - y0) or 1.0
        ox, oy = -(y1 - y0) / d * 0.3, (x1 - x0) / d * 0.3
        style = dict(
            color="tab:red" if hit else "0.35",
            lw=2.2 if hit else 1.3,
            alpha=0.2 if faded(turn) else 0.9,
        )
        ax.plot(
            [x0 - ox, x1 - ox],
            [y0 - oy, y1 - oy],
            ls="-" if hit else (0, (2, 2)),
            zorder=4.5,
            **style,
        )
        ax.annotate(
            "",
            xy=(x1 - ox - 0.55 * (x1 - x0) / d, y1 - oy - 0.55 * (y1 - y0) / d),
            xytext=(x1 - ox - 1.3 * (x1 - x0) / d, y1 - oy - 1.3 * (y1 - y0) / d),
            arrowprops=dict(arrowstyle="-|>", mutation_scale=12, **style),
            zorder=4.5,
        )


def _draw_fights(ax, fights, faded) -> None:
    """A star between the two dragons of each close combat."""
    for a, b, turn in fights:
        (x0, y0), (x1, y1) = _xy(a[1], a[2]), _xy(b[1], b[2])
        ax.plot(
            [(x0 + x1) / 2],
            [(y0 + y1) / 2],
            marker="*",
            ms=16,
            color="gold",
            mec="k",
            zorder=5,
            alpha=0.3 if faded(turn) else 1.0,
        )


def _draw_ground(ax, pos, faded) -> None:
    """The hexes a dragon stood on the ground in, hatched."""
    from matplotlib.patches import RegularPolygon

    for ps in pos.values():  # the hexes a dragon stood on the ground in
        for p in ps:
            if p[4] == 0:
                ax.add_patch(
                    RegularPolygon(
                        _xy(p[1], p[2]),
                        6,
                        radius=1.0,
                        orientation=0,
                        facecolor=GROUND_FILL,
                        edgecolor=GROUND_COLOUR,
                        hatch="////",
                        lw=0.8,
                        zorder=0.5,
                        alpha=0.4 if faded(p[0]) else 1.0,
                    )
                )


def _draw_crashes(ax, crashes, faded) -> None:
    """A mark and the turn where each dragon crashed."""
    for q, r, turn in crashes:
        x, y = _xy(q, r)
        ax.plot(
            [x],
            [y + 0.55],
            marker="v",
            ms=13,
            color=CRASH_COLOUR,
            mec="k",
            zorder=5.5,
            alpha=0.35 if faded(turn) else 1.0,
        )
        ax.annotate(
            f"crash {turn}",
            (x, y + 0.55),
            xytext=(-10, -16),
            textcoords="offset points",
            fontsize=7,
            color=CRASH_COLOUR,
            alpha=0.5 if faded(turn) else 1.0,
            zorder=6,
        )


def _draw_courses(ax, rep: Replay, pos, gone, faded, frame: bool, cmap, norm) -> None:
    """Each dragon's course: a line into each turn's end, a dot there coloured by altitude
    with an arrow for the facing and the turn number, and where it was removed."""
    for k, name in enumerate(rep.names):
        c = DRAGON_COLOURS[k % len(DRAGON_COLOURS)]
        pts = pos[name]
        xy = np.array([_xy(p[1], p[2]) for p in pts])
        for j in range(1, len(pts)):  # into each turn's end (by its path when scripted)
            old = faded(pts[j][0])
            via = [_xy(h[0], h[1]) for h in pts[j][5]]
            line = np.array([xy[j - 1], *via, xy[j]])
            ax.plot(
                line[:, 0],
                line[:, 1],
                color=c,
                lw=1.4 if old else (3.0 if frame else 2.0),
                zorder=3,
                alpha=0.35 if old else 0.85,
            )
        for j, p in enumerate(pts):
            x, y = xy[j]
            ground = p[4] == 0
            fc = GROUND_COLOUR if ground else cmap(norm(p[4]))
            old = faded(p[0]) and j < len(pts) - 1
            ax.plot(
                [x],
                [y],
                marker="s" if j == 0 else ("h" if ground else "o"),
                ms=(9 if j == 0 else (9 if frame and not old else 7)) + 3 * ground,
                mfc=fc,
                mec=c,
                mew=1.8,
                zorder=4,
                alpha=0.45 if old else 1.0,
            )
            dx, dy = _xy(DQ[p[3]], DR[p[3]])
            ax.annotate(
                "",
                xy=(x + 0.9 * dx, y + 0.9 * dy),
                xytext=(x, y),
                arrowprops=dict(arrowstyle="->", color=c, lw=1.3, alpha=0.45 if old else 1),
                zorder=4,
            )
            if j > 0:
                ax.annotate(
                    str(p[0]),
                    (x, y),
                    xytext=(5, 5),
                    textcoords="offset points",
                    fontsize=8 if frame and not old else 7,
                    color=c,
                    alpha=0.6 if old else 1.0,
                    zorder=6,
                )
        if name in gone and pts:
            x, y = xy[-1]
            ax.plot([x], [y], marker="X", ms=12, color="k", mec="white", zorder=7)
            ax.annotate(
                f"{name} {gone[name]}",
                (x, y),
                xytext=(8, -12),
                textcoords="offset points",
                fontsize=8,
                zorder=7,
            )


def _draw_legends(ax, rep: Replay, pos, cmap, norm) -> None:
    """The legends under the map: the dragons and the marks, and the altitudes' colours."""
    from matplotlib.lines import Line2D

    handles = [
        Line2D([], [], color=DRAGON_COLOURS[k % 6], lw=2, label=f"{n} ({rep.policies[k]})")
        for k, n in enumerate(rep.names)
    ]
    handles += [
        Line2D([], [], marker="s", ls="", mfc="white", mec="k", label="start"),
        Line2D([], [], color="tab:red", lw=2.2, label="breath: hit"),
        Line2D([], [], color="0.35", ls=(0, (2, 2)), lw=1.3, label="breath: miss"),
        Line2D([], [], marker="*", ls="", ms=12, color="gold", mec="k", label="close combat"),
        Line2D([], [], marker="v", ls="", ms=10, color=CRASH_COLOUR, mec="k", label="crash"),
        Line2D([], [], marker="X", ls="", ms=10, color="k", label="removed / off the board"),
    ]
    marks = ax.legend(
        handles=handles,
        loc="upper left",
        bbox_to_anchor=(0.0, -0.01),
        ncol=3,
        fontsize=8,
        frameon=False,
    )
    ax.add_artist(marks)
    marks.set_clip_on(False)  # add_artist clips to the axes: the saved bbox would cut it
    grounded = any(p[4] == 0 for ps in pos.values() for p in ps)
    ax.legend(  # the dots' colours (Ground only when a dragon stood on it)
        handles=[
            Line2D(
                [],
                [],
                marker="h",
                ls="",
                ms=9,
                mfc=GROUND_COLOUR,
                mec="0.3",
                label=a + " (hatched)",
            )
            if k == 0
            else Line2D([], [], marker="o", ls="", ms=7, mfc=cmap(norm(k)), mec="0.3", label=a)
            for k, a in enumerate(ALTITUDES)
            if k >= 1 or grounded
        ],
        loc="upper right",
        bbox_to_anchor=(1.0, -0.01),
        ncol=3 if grounded else 5,
        fontsize=8,
        frameon=False,
        title="altitude (the dots' colour)",
        title_fontsize=8,
    )


def _title(rep: Replay, upto: int, frame: bool) -> str:
    """The picture's title: the game and how it ended (a frame: which turn), and how to
    read it."""
    if rep.script is not None and rep.winner < 0 and rep.hit_turn_limit:
        res = f"the script's {rep.turns} turns, no side has won"
    else:
        res = (f"{rep.winner_name} wins" if rep.winner >= 0 else "a draw") + (
            f" after {rep.turns} turns"
        )
    if frame:
        res = f"turn {upto} of {rep.turns}" if upto > 0 else "setup"
    elif upto < rep.turns:
        res += f" (turns 1-{upto} shown)"
    game = rep.script if rep.script is not None else f"seed {rep.seed}, game {rep.game}"
    return f"{rep.title()}, {game}: {res}\n" + (
        "this turn's moves bold and its breaths in full, earlier turns faded"
        if frame
        else "dots: where each move ended (turn number beside it, arrow = facing)"
    )


def _frame_turns(rep: Replay, last_turn: int | None) -> range:
    upto = rep.turns if last_turn is None else min(last_turn, rep.turns)
    return range(1, upto + 1)


def save_turns(rep: Replay, pattern: str, *, last_turn: int | None = None, dpi: int = 100):
    """One picture per turn: ``pattern % turn`` for turns 1..``last_turn`` (default all), each
    a :func:`draw` frame (the whole game's view, that turn bold). Returns the paths."""
    import matplotlib.pyplot as plt

    paths = []
    for t in _frame_turns(rep, last_turn):
        fig = draw(rep, last_turn=t, frame=True)  # the whole game's figure size
        path = pattern % t
        fig.savefig(path, dpi=dpi)
        plt.close(fig)
        paths.append(path)
    return paths


def save_gif(
    rep: Replay, path, *, last_turn: int | None = None, seconds_per_turn: float = 1.2, dpi=90
) -> int:
    """An animated GIF, one frame per turn (:func:`draw` frames: the same view throughout,
    each turn's moves bold); returns the number of frames.

    Every frame is quantized to ONE palette: the picture's own colours exactly (the
    dragons', the altitudes', the breath lines'), then the colours of all the frames
    together. matplotlib's
    ``PillowWriter`` lets each frame choose its own 256 colours, and a colour few pixels
    carry (the Very High yellow of the altitude key) came out orange in some frames."""
    import matplotlib.pyplot as plt
    from matplotlib import colors
    from PIL import Image

    frames = []
    for t in _frame_turns(rep, last_turn):
        fig = draw(rep, last_turn=t, frame=True)
        fig.set_dpi(dpi)
        fig.canvas.draw()
        frames.append(Image.fromarray(np.asarray(fig.canvas.buffer_rgba())).convert("RGB"))
        plt.close(fig)
    if not frames:
        raise ValueError("no turn to draw")
    w, h = frames[0].size
    cmap = plt.get_cmap(ALTITUDE_CMAP)
    keys = [*DRAGON_COLOURS, "tab:red", "0.35", "gold", "black", "white", "0.85"]
    keys += [GROUND_COLOUR, GROUND_FILL, CRASH_COLOUR]
    keys += [cmap(k / (len(ALTITUDES) - 2)) for k in range(len(ALTITUDES) - 1)]
    exact = [tuple(int(round(255 * v)) for v in colors.to_rgb(c)) for c in keys]
    sheet = Image.new("RGB", (w * len(frames), h), "white")
    for k, f in enumerate(frames):
        sheet.paste(f, (w * k, 0))
    rest = sheet.quantize(colors=256 - len(exact)).getpalette()[: 3 * (256 - len(exact))]
    palette = Image.new("P", (1, 1))
    palette.putpalette([v for c in exact for v in c] + rest)
    out = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in frames]
    out[0].save(
        str(path),
        save_all=True,
        append_images=out[1:],
        duration=int(1000 * seconds_per_turn),
        loop=0,
    )
    return len(out)
