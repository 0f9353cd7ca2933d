"""
The pictures of the documentation, drawn by the library itself.

``python docs/make_pictures.py`` writes them to ``docs/_static/pictures``; the tests check that
the files there are what this script draws (``tests/test_pictures.py``), so a change to the
pictures shows in the files, and in review.
"""

# ruff: noqa: INP001 - a script of the documentation, not a package

from __future__ import annotations

import random
from pathlib import Path

from persian_rummy import FULL_DECK, Deal, TableMeld, apply, new_game, observe, parse_position
from persian_rummy.pictures import render_svg

#: Where the pictures are written.
FOLDER = Path(__file__).resolve().parent / "_static" / "pictures"

#: East must play the 9♥ it took from the discard pile with the K♣ and the 4♦ above it (R15).
TAKEN = (
    "- 1/N play E 2d5d9dKdAs/Kc4d7d3h9hThJh2s/2c7cAc6d5h6s7s/8c9c3d8d2h4sKsX4 TcJcJd4h6h7h8hKhAh5s 3sTdAd "
    "S:QcQdQs+E:Qh,W:3c4c5c+N:6c,N:X1X2X3,E:8s9sTsJs 9h Kc4d9h -/Kc4d9h/-/- 0 - -"
)
#: The end of the first deal of ``persian-rummy demo --seed 3``: South went out.
DEAL_OVER = (
    "- 1/N deal_over - 4cKc3d4d7hX3/3c5c6h9sX4/-/Qc8hTsX2 - X1 W:8d9dTd+N:QdKd+E:6d+S:5d7dJd,S:2h3h4h+N:5h,"
    "W:7c8c9c+S:6cJc+W:Tc,W:QsKsAs+N:Js,N:4s5s6s+S:7s8s+W:3s,N:2c2d2s,E:AcAdAh,N:ThJhQh+E:9hKh - - "
    "KcX3/5c9sX4/-/Qc8hTs 0 S 148.0.25.48:169.0.0.91:S"
)


def _dealt() -> str:
    """
    A deal by North of a deck shuffled with a fixed seed, as South sees it.
    """
    deck = tuple(random.Random(22).sample(FULL_DECK, len(FULL_DECK)))  # noqa: S311 - a fixed example
    return render_svg(observe(apply(new_game(), Deal(0, deck)), 2))


def pictures() -> dict[str, str]:
    """
    Every picture of the documentation, by its file name.
    """
    return {
        "ranks.svg": render_svg("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As"),
        "jokers.svg": render_svg("X1 X2 X3 X4"),
        "deal.svg": _dealt(),
        "set.svg": render_svg(TableMeld(0, "7c 7d 7s")),
        "run.svg": render_svg(TableMeld(1, "Js Qs Ks As")),
        "joker-set.svg": render_svg(TableMeld(2, "X1 X2 X3")),
        "layoff.svg": render_svg(TableMeld(1, "5h 6h 7h").with_layoff(2, "4h").with_layoff(3, "8h 9h")),
        "taken.svg": render_svg(parse_position(TAKEN)),
        "four-at-once.svg": render_svg(TableMeld(0, "Kc Kd Kh Ks")),
        "four-later.svg": render_svg(TableMeld(0, "Qc Qd Qs").with_layoff(2, "Qh")),
        "deal-over.svg": render_svg(parse_position(DEAL_OVER)),
    }


def main() -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name, picture in pictures().items():
        (FOLDER / name).write_text(picture + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
