"""Charts drawn on the server as SVG: nothing loaded from another host, nothing to install."""

from __future__ import annotations

from markupsafe import Markup, escape

# Distinct on paper and for the common colour blindnesses (Okabe and Ito's palette).
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#8C6D1F")
WIDTH, HEIGHT = 400, 220
LEFT, RIGHT, TOP, BOTTOM = 64, 10, 10, 10


def _nice_top(value: int) -> int:
    """A round number at or above ``value`` for the top of the axis."""
    if value <= 0:
        return 1
    step = 10 ** (len(str(value)) - 1)
    for factor in (1, 2, 2.5, 5, 10):
        top = int(step * factor)
        if top >= value:
            return top
    return value


def worth_chart(points: list[tuple[int, dict[str, int]]], players: list[tuple[str, str]], label: str, money) -> Markup:
    """Each player's worth (a line each) from the start of play to now, as an inline SVG.

    ``points`` is [(version, {player id: worth})] where worth changed, as
    ``services.worth_points`` gives them (at most ``CHART_POINTS`` after the start, however long
    the game); the lines step from one point to the next, evenly spaced.
    ``players`` is [(id, name)] in seat order, ``label`` the chart's accessible name, ``money``
    formats an amount for the axis.
    """
    # Before the start nobody holds anything: the chart begins when the game does.
    shown = [values for _, values in points if any(values.values())] or [{pid: 0 for pid, _ in players}]
    steps = len(shown)  # each worth holds for one step, the last one too
    top = _nice_top(max((w for values in shown for w in values.values()), default=0))
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(step: int) -> float:
        return LEFT + plot_w * step / steps

    def y(value: int) -> float:
        return TOP + plot_h * (1 - max(value, 0) / top)

    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(label)}" '
        f'xmlns="http://www.w3.org/2000/svg"><title>{escape(label)}</title>'
    ]
    for i in range(5):
        value = top * i // 4
        parts.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(value):.1f}" y2="{y(value):.1f}" '
            f'stroke="#d9d4c7" stroke-width="1"/>'
        )
        parts.append(
            f'<text x="{LEFT - 6}" y="{y(value) + 4:.1f}" text-anchor="end" font-size="13" '
            f'fill="#444">{escape(money(value))}</text>'
        )
    for i, (pid, name) in enumerate(players):
        colour = PALETTE[i % len(PALETTE)]
        line = []
        for step, values in enumerate(shown):
            value = values.get(pid, 0)
            if step:  # a step: the worth holds until the next change
                line.append(f"{x(step):.1f},{y(shown[step - 1].get(pid, 0)):.1f}")
            line.append(f"{x(step):.1f},{y(value):.1f}")
        line.append(f"{x(steps):.1f},{y(shown[-1].get(pid, 0)):.1f}")
        parts.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="3" stroke-linejoin="round" '
            f'points="{" ".join(line)}"><title>{escape(name)}</title></polyline>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))
