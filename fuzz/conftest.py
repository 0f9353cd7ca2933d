"""
The fuzz session's options, and its report: the inputs each target tried, summed over the
pytest-xdist workers, and their total.

Options (after ``--`` with nox: ``nox -s fuzz -- --inputs 500000 --seed 7``):

``--inputs N``
    Inputs to try in all, shared among the targets by their weights.  By default
    ``$PERSIAN_RUMMY_FUZZ_INPUTS``, or 25,000.
``--seed N``
    The seed of every target; by default a new one each run, printed in the report.
``--time-limit SECONDS``
    The longest one call to the library may take (1 s by default).
"""

from __future__ import annotations

import os
import secrets
from typing import Any

import pytest
from attrs import frozen

DEFAULT_INPUTS = 25_000


@frozen
class Options:
    """
    The budget of the session, its seed and the time limit of one call.
    """

    inputs: int
    seed: int
    time_limit: float


OPTIONS = pytest.StashKey[Options]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("fuzz", "fuzzing of the readers of text and data")
    group.addoption("--inputs", type=int, default=None, help="inputs to try in all (default: 25,000)")
    group.addoption("--seed", type=int, default=None, help="the seed of every target (default: a new one)")
    group.addoption("--time-limit", type=float, default=1.0, help="seconds one call may take (default: 1)")


def pytest_configure(config: pytest.Config) -> None:
    inputs = config.getoption("inputs") or int(os.environ.get("PERSIAN_RUMMY_FUZZ_INPUTS", DEFAULT_INPUTS))
    workerinput: dict[str, Any] | None = getattr(config, "workerinput", None)
    if workerinput is not None:
        # A pytest-xdist worker takes the seed the controller chose, so that every worker uses one.
        seed = int(workerinput["fuzz_seed"])
    else:
        seed = config.getoption("seed")
        seed = secrets.randbelow(2**32) if seed is None else seed
        config.pluginmanager.register(Report(), "fuzz-report")
    config.stash[OPTIONS] = Options(inputs, seed, config.getoption("time_limit"))


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    node.workerinput["fuzz_seed"] = node.config.stash[OPTIONS].seed


@pytest.fixture
def fuzz_options(pytestconfig: pytest.Config) -> Options:
    return pytestconfig.stash[OPTIONS]


class Report:
    """
    Gathers each target's tally from the reports of its test, made here or in a worker, and prints
    them with their total at the end of the session.
    """

    def __init__(self) -> None:
        self.tallies: dict[str, dict[str, Any]] = {}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        for name, value in report.user_properties:
            if name == "fuzz" and report.when == "call" and isinstance(value, dict):
                self.tallies[report.nodeid] = value

    def pytest_terminal_summary(self, terminalreporter: Any, config: pytest.Config) -> None:
        options = config.stash[OPTIONS]
        write = terminalreporter.write_line
        terminalreporter.section("fuzz")
        write(f"{'target':<28}{'inputs':>10}{'calls':>12}{'returned':>11}  {'slowest':>9}  refused")
        for nodeid, tally in sorted(self.tallies.items()):
            refused = ", ".join(f"{name} {count:,}" for name, count in sorted(tally["refused"].items()))
            write(
                f"{nodeid.rpartition('[')[2].rstrip(']'):<28}{tally['inputs']:>10,}{tally['calls']:>12,}"
                f"{tally['returned']:>11,}  {tally['slowest']:>8.3f}s  {refused}"
            )
        inputs = sum(tally["inputs"] for tally in self.tallies.values())
        calls = sum(tally["calls"] for tally in self.tallies.values())
        failures = len(terminalreporter.stats.get("failed", [])) + len(terminalreporter.stats.get("error", []))
        write(
            f"seed {options.seed}; to repeat this run: nox -s fuzz -- --seed {options.seed} --inputs {options.inputs}"
        )
        write(
            f"fuzz: {inputs:,} inputs ({calls:,} calls; budget {options.inputs:,}), "
            f"{failures} failure{'s' * (failures != 1)}"
        )
