"""
Positions written out, below `persian_rummy.state`, whose values show themselves with them.

* `persian_rummy._render.text`: positions, rules and melds written as text (a state's ``repr``).
* `persian_rummy._render.scene`: what a picture of a state or a view shows, as text and in SVG.
"""
