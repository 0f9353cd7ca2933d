"""
The page *How to play* (``/how-to-play``), served by the table server itself, so that a server on a
network with no way out still teaches its game: how to play on the table page, the rules in short,
what each card scores and how the open points are played, each in one line.

The page is made once, from the library's own summaries (`persian_rummy.wording.RULE_SUMMARIES`) and
the default rules' card values, every text escaped; nothing in a request goes into it.
"""

from __future__ import annotations

import html
from functools import cache
from typing import Final

from ..rules import Rules
from ..wording import RULE_SUMMARIES

#: The full rules, with their worked examples, in the project's documentation.
RULES_PAGE: Final = "https://persian-rummy.readthedocs.io/en/latest/rules.html"

#: The rules page's parts, each with the first and the last number of its rules.
_PARTS: Final = (
    ("Setting up", 1, 8),
    ("Melds", 9, 12),
    ("A turn", 13, 22),
    ("Scoring", 23, 26),
    ("The game", 27, 29),
)

#: What a person does on the table page, step by step.
_ON_THE_PAGE: Final = (
    (
        "Your hand is at the bottom of the window. When it is your turn, click the stock to draw its top "
        "card, or a card of the discard pile to take it with every card above it."
    ),
    (
        "Click cards of your hand to select them: Meld lays them down as a new meld; with one card selected, "
        "Discard ends your turn; to lay off, select the cards and click the meld on the table."
    ),
    (
        "With the stock empty, Pass instead of drawing. A line under the buttons says why one of them is "
        "disabled, and hovering over a card shows what it scores."
    ),
    (
        "At the end of a deal every hand is shown with the deal's score; the next deal comes when every "
        "person has pressed Next deal. At the end of the game, Rematch plays again at the same seats."
    ),
)

#: The card values of `CardValues` as the page names them, in rank order.
_VALUES: Final = (
    ("2", "two"),
    ("3", "three"),
    ("4", "four"),
    ("5", "five"),
    ("6", "six"),
    ("7", "seven"),
    ("8", "eight"),
    ("9", "nine"),
    ("10", "ten"),
    ("Jack", "jack"),
    ("Queen", "queen"),
    ("King", "king"),
    ("Ace", "ace"),
    ("Joker", "joker"),
)


def _rule(rule: str) -> str:
    anchor = html.escape(f"{RULES_PAGE}#{rule.lower()}", quote=True)
    summary = html.escape(RULE_SUMMARIES[rule])
    return f'<li><a href="{anchor}" target="_blank" rel="noopener noreferrer">{rule}</a>: {summary}</li>'


def _values() -> str:
    values = Rules().card_values
    rows = "".join(
        f'<tr><th scope="row">{label}</th><td>{int(getattr(values, name))}</td></tr>' for label, name in _VALUES
    )
    head = '<tr><th scope="col">Card</th><th scope="col">Points</th></tr>'
    return f'<table class="guide-values"><thead>{head}</thead><tbody>{rows}</tbody></table>'


@cache
def how_to_play() -> bytes:
    """
    The page *How to play*, as the server sends it.
    """
    steps = "".join(f"<li>{html.escape(step)}</li>" for step in _ON_THE_PAGE)
    parts = "".join(
        f"<h3>{html.escape(title)}</h3><ul>{''.join(_rule(f'R{number}') for number in range(first, last + 1))}</ul>"
        for title, first, last in _PARTS
    )
    open_points = "".join(_rule(rule) for rule in RULE_SUMMARIES if rule.startswith("A"))
    page = f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>How to play · Persian Rummy</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/static/css/table.css">
</head>
<body class="guide-page">
  <nav class="bar"><a href="/">Persian Rummy · tables</a></nav>
  <main class="guide" id="guide">
    <h1>How to play Persian Rummy</h1>
    <p>Four players in two teams, North and South against East and West, partners sitting opposite.
    Each deal, a team scores the cards it melds, less the cards left in its hands; after two deals the
    team with more points wins.</p>
    <h2 id="on-the-page">On the table page</h2>
    <ol>{steps}</ol>
    <h2 id="rules">The rules in short</h2>
    {parts}
    <h2 id="card-values">What each card scores (R23)</h2>
    {_values()}
    <p>A table may score otherwise: its page shows what each card scores when you hover over it.</p>
    <h2 id="open-points">How this server plays the open points</h2>
    <p>Where the rules leave a point open, this is how it is played, unless a table's rules say otherwise.</p>
    <ul>{open_points}</ul>
    <p>The rules in full, with worked examples of the scoring:
    <a href="{html.escape(RULES_PAGE, quote=True)}" target="_blank" rel="noopener noreferrer">the rules page</a>.</p>
  </main>
</body>
</html>
"""
    return page.encode("utf-8")
