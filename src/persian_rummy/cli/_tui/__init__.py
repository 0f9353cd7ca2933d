"""
The full-screen game of ``persian-rummy play``, with Textual (the ``cli`` extra): `play` runs it.

Importing the package imports Textual, so ``persian_rummy.cli._play_command`` imports it only
when it is to play on the full screen, and plays in the line mode when Textual is missing.
"""

from ._app import PlayApp, play

__all__ = ["PlayApp", "play"]
