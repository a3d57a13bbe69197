"""A deal's course as a picture: the running scores trick by trick, the declarations marked, written as SVG when
the page is rendered (no script draws it, so it shows without JavaScript and on paper).

The chart carries its own text alternative (the SVG's title and description, read by a screen reader), and the
deal's score sheet beside it holds every number. Each line differs from the others by its dash as well as its
colour, and is named at its end, so that a reader who does not tell colours apart, or a black-and-white printout,
still tells the seats apart.

An expected final margin after every play (the sampled analysis of the deal, as lichess draws its evaluation) is a
second panel under the scores, drawn only when the deal's data carries one (:attr:`ScoreChart.margin`): nothing here
estimates it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from markupsafe import escape

__all__ = ["ChartMark", "ScoreChart", "chart_svg"]

WIDTH = 640
LEFT, RIGHT, TOP, BOTTOM = 46, 104, 14, 34
HEIGHT = 236
MARGIN_HEIGHT = 110
COLOURS = ("#0b5fc0", "#c0182b", "#17773a", "#8a4b08", "#6b3fa0", "#1b1b1b")
DASHES = ("", "7 4", "2 3", "9 3 2 3", "4 4", "1 5")
NICE = (1, 2, 2.5, 5)


@dataclass(frozen=True)
class ChartMark:
    """A declaration on a line: at step ``x`` (0: the deal), on the line of scorer ``line``."""

    x: int
    line: int
    text: str
    """What was declared, in words: "North declares bezique Q♠ J♦: 40"."""


@dataclass
class ScoreChart:
    """What a deal's chart shows, in the lesson's language."""

    id: str
    title: str
    labels: list[str]
    """The scorers' names, one line each."""
    scores: list[list[int]]
    """Each scorer's score after each step (index 0: the deal, then trick by trick)."""
    marks: list[ChartMark]
    axis: str
    """The name of the horizontal axis ("trick")."""
    summary: str
    """The text alternative: how the deal ended and what was declared when."""
    final: list[int] = field(default_factory=list)
    """Each scorer's score at the deal's end, when points counted after the last trick (brisques) change it:
    drawn as a rise at the last trick. Empty: the last step's."""
    margin: list[tuple[float, float]] = field(default_factory=list)
    """The hook for the sampled analysis: (position in tricks, e.g. 4.5 after the first card of trick 5; the
    expected final margin of the first scorer over the second). Empty: no second panel."""
    margin_label: str = ""


def _step(span: float, lines: int = 5) -> float:
    """A round interval between gridlines that gives at most about ``lines`` of them over ``span``."""
    if span <= 0:
        return 1
    scale = 1.0
    while scale * 10 < span:
        scale *= 10
    while True:
        for n in NICE:
            if span / (n * scale) <= lines:
                return n * scale
        scale *= 10


def _number(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"


def _grid(low: float, high: float, top: float, height: float) -> tuple[list[float], float, float]:
    """Gridline values from ``low`` to ``high`` (rounded out to them) and the y scale: (values, bottom, per unit)."""
    step = _step(high - low)
    start = (low // step) * step
    end = -((-high) // step) * step
    if end <= start:
        end = start + step
    values = []
    v = start
    while v <= end + step / 2:
        values.append(v)
        v += step
    return values, top + height, height / (end - start)


def chart_svg(chart: ScoreChart) -> str:
    """The chart as an SVG element (escaped markup), scaled to its container's width."""
    tricks = max(len(s) for s in chart.scores) - 1 if chart.scores else 0
    plot_w = WIDTH - LEFT - RIGHT
    per_x = plot_w / max(tricks, 1)
    low = min(0, *(min(s) for s in chart.scores if s), *chart.final)
    high = max(1, *(max(s) for s in chart.scores if s), *chart.final)
    height = HEIGHT - TOP - BOTTOM
    values, base, per_y = _grid(low, high, TOP, height)
    bottom_value = values[0]

    def x_of(x: float) -> float:
        return LEFT + x * per_x

    def y_of(v: float) -> float:
        return base - (v - bottom_value) * per_y

    total = HEIGHT + (MARGIN_HEIGHT if chart.margin else 0)
    cid = escape(chart.id)
    out = [
        f'<svg class="score-chart" viewBox="0 0 {WIDTH} {total}" role="img" '
        f'aria-labelledby="{cid}-t {cid}-d" xmlns="http://www.w3.org/2000/svg">'
        f'<title id="{cid}-t">{escape(chart.title)}</title><desc id="{cid}-d">{escape(chart.summary)}</desc>'
        '<g class="grid">'
    ]
    for v in values:
        y = y_of(v)
        out.append(
            f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y:.1f}" y2="{y:.1f}"/>'
            f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{_number(v)}</text>'
        )
    every = max(1, -(-tricks // 16))
    for x in range(0, tricks + 1, every):
        out.append(f'<text x="{x_of(x):.1f}" y="{base + 16:.1f}" text-anchor="middle">{x}</text>')
    out.append(
        f'<text x="{LEFT + plot_w / 2:.1f}" y="{base + 30:.1f}" text-anchor="middle" class="axis">'
        f"{escape(chart.axis)}</text></g>"
    )
    xs = [str(round(x_of(x))) for x in range(tricks + 1)]
    ends: list[tuple[float, int]] = []
    for i, series in enumerate(chart.scores):
        colour, dash = COLOURS[i % len(COLOURS)], DASHES[i % len(DASHES)]
        # A score changes at a trick, not between two: each step is drawn as a stair. (Whole units of a 640-wide
        # picture are fine enough, and a page's charts are written at every render: no decimals to format.)
        ys = [str(round(y_of(v))) for v in series]
        points = [f"{xs[0]},{ys[0]}"]
        for x in range(1, len(series)):
            points.append(f"{xs[x]},{ys[x - 1]} {xs[x]},{ys[x]}")
        end = chart.final[i] if chart.final else series[-1]
        if end != series[-1]:
            points.append(f"{xs[len(series) - 1]},{round(y_of(end))}")
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<polyline class="line" points="{" ".join(points)}" stroke="{colour}"{dashed}/>')
        ends.append((y_of(end), i))
    # The names at the lines' ends, moved apart where two scores end close together.
    last = -1e9
    for y, i in sorted(ends):
        y = max(y, last + 14)
        last = y
        out.append(
            f'<text class="end" x="{LEFT + plot_w + 6}" y="{y + 4:.1f}" fill="{COLOURS[i % len(COLOURS)]}">'
            f"{escape(chart.labels[i])} {chart.final[i] if chart.final else chart.scores[i][-1]}</text>"
        )
    for mark in chart.marks:
        series = chart.scores[mark.line]
        colour = COLOURS[mark.line % len(COLOURS)]
        out.append(
            f'<circle class="mark" cx="{x_of(mark.x):.1f}" cy="{y_of(series[mark.x]):.1f}" r="4" '
            f'stroke="{colour}"><title>{escape(mark.text)}</title></circle>'
        )
    if chart.margin:
        out.append(_margin_panel(chart, x_of, plot_w))
    out.append("</svg>")
    return "".join(out)


def _margin_panel(chart: ScoreChart, x_of: Callable[[float], float], plot_w: float) -> str:
    """The expected final margin after every play, around a zero line, under the scores."""
    top = HEIGHT + 6
    height = MARGIN_HEIGHT - 24
    reach = max(1.0, *(abs(v) for _, v in chart.margin))
    values, base, per_y = _grid(-reach, reach, top, height)

    def y_of(v: float) -> float:
        return float(base - (v - values[0]) * per_y)

    zero = y_of(0)
    out = [
        '<g class="margin">',
        f'<line class="zero" x1="{LEFT}" x2="{LEFT + plot_w}" y1="{zero:.1f}" y2="{zero:.1f}"/>',
        f'<text x="{LEFT - 6}" y="{y_of(values[-1]) + 4:.1f}" text-anchor="end">+{_number(values[-1])}</text>',
        f'<text x="{LEFT - 6}" y="{y_of(values[0]) + 4:.1f}" text-anchor="end">{_number(values[0])}</text>',
        f'<text class="end" x="{LEFT + plot_w + 6}" y="{zero + 4:.1f}">{escape(chart.margin_label)}</text>',
    ]
    area = [f"{x_of(chart.margin[0][0]):.1f},{zero:.1f}"]
    area += [f"{x_of(x):.1f},{y_of(v):.1f}" for x, v in chart.margin]
    area.append(f"{x_of(chart.margin[-1][0]):.1f},{zero:.1f}")
    out.append(f'<polygon points="{" ".join(area)}"/></g>')
    return "".join(out)
