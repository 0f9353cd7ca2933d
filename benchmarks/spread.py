"""
A figure measured over repeats: its median and its range.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Spread:
    """
    The median and the range of a figure over the repeats.
    """

    median: float
    min: float
    max: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Spread:
        return cls(statistics.median(values), min(values), max(values))

    def text(self, fmt: str) -> str:
        return f"{self.median:{fmt}}  [{self.min:{fmt}} - {self.max:{fmt}}]"
