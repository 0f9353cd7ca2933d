"""
The README's Development section: every command in it runs as written, or is listed here with why not.

The commands are read from its ``console`` blocks (one a line, ``&&`` joining several) and from its
inline code that starts with ``python3 -m``.  A command added to the README fails
`TestDevelopmentCommands.test_every_command_is_run_or_listed_as_skipped` until it is run below or
listed in `SKIPPED` with its reason.
"""

# Assertions put the expected value first: assert expected == actual.

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import persian_rummy
from tests.test_noxfile import DEFAULT_SESSIONS, load_noxfile, run_nox

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

#: The commands of the Development section that the tests do not run, and why.
SKIPPED = {
    "git clone https://github.com/persian-rummy/persian-rummy.git": "needs the network; the tests run in a clone",
    "cd persian-rummy": "the tests run in the clone's folder",
    "python3 -m pip install .": "installs into the Python that runs the tests, which has the package installed",
    "python3 -m pip install nox uv": "installs the tools; the tests' dependency group has nox",
    "python3 -m nox": "the whole run of the default sessions, several minutes",
    "python3 -m nox -s tests-loaded": "the first Python's tests beside brute force, as CI runs them: minutes",
}
#: The virtual environment, made and entered: run in a folder of the test's own.
ENVIRONMENT = ("python3 -m venv .venv", ". .venv/bin/activate")
#: The demo, after the install: run from the console script the package installs.
DEMO = "persian-rummy demo --seed 1"
#: The tests on one Python with pytest's arguments: run as the ``tests`` session runs pytest.
ONE_PYTHON = "python3 -m nox -s tests-3.11 -- -x -k turn"


def development_section() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("\n## Development\n")
    end = text.find("\n## ", start + 1)
    return text[start : None if end == -1 else end]


def commands(section: str) -> list[str]:
    """
    The commands of *section*: each line of its console blocks split at ``&&``, and its inline ``python3 -m`` code.
    """
    found: list[str] = []
    for block in re.findall(r"```console\n(.*?)```", section, flags=re.DOTALL):
        for line in block.splitlines():
            found.extend(part.strip() for part in line.split("&&") if part.strip())
    prose = re.sub(r"```.*?```", "", section, flags=re.DOTALL)
    found.extend(re.findall(r"`(python3 -m [^`]+)`", prose))
    return found


def child_environment() -> dict[str, str]:
    """
    This process's environment without pytest's, Hypothesis's and coverage's variables, importing the package
    from where this run imports it.
    """
    env = {name: value for name, value in os.environ.items() if not name.startswith(("PYTEST_", "HYPOTHESIS_", "COV_"))}
    env["PYTHONPATH"] = str(Path(persian_rummy.__file__).resolve().parents[1])
    return env


class TestDevelopmentCommands:
    """
    The README's Development section: its examples all run (the commands that take under a minute),
    and the others are listed with the reason they are not run here.
    """

    def test_every_command_is_run_or_listed_as_skipped(self) -> None:
        assert sorted([*SKIPPED, *ENVIRONMENT, DEMO, ONE_PYTHON]) == sorted(commands(development_section()))

    @pytest.mark.once
    @pytest.mark.skipif(os.name != "posix", reason="the README's activation is that of a POSIX shell")
    def test_the_virtual_environment(self, tmp_path: Path) -> None:
        """
        The two commands, in a shell, make the environment and enter it: its Python is the one that answers
        to ``python3`` then, and it has pip.
        """
        make, enter = ENVIRONMENT
        python = make.replace("python3", shlex.quote(sys.executable), 1)
        script = f"{python} && {enter} && python3 -c 'import sys; print(sys.prefix)' && python3 -m pip --version"
        env = {name: value for name, value in child_environment().items() if name not in {"VIRTUAL_ENV", "PYTHONPATH"}}
        shell = ["/bin/sh", "-c", script]
        done = subprocess.run(shell, capture_output=True, cwd=tmp_path, env=env, text=True, check=False)  # noqa: S603
        lines = done.stdout.splitlines()
        assert (0, str(tmp_path / ".venv")) == (done.returncode, lines[0] if lines else done.stderr)
        assert lines[1].startswith("pip ")

    def test_the_demo_from_the_installed_command(self) -> None:
        script = shutil.which("persian-rummy", path=str(Path(sys.executable).parent))
        if script is None:
            pytest.skip("the package is not installed in this Python, so there is no persian-rummy command")
        env = child_environment()
        shown = subprocess.run([script, *DEMO.split()[1:]], capture_output=True, check=True, text=True, env=env)  # noqa: S603
        module = [sys.executable, "-m", "persian_rummy", *DEMO.split()[1:]]
        expected = subprocess.run(module, capture_output=True, check=True, text=True, env=env)  # noqa: S603
        assert (expected.stdout, "") == (shown.stdout, shown.stderr)
        assert "" != shown.stdout

    def test_the_arguments_after_the_separator_choose_a_part_without_the_coverage_threshold(self) -> None:
        noxfile = load_noxfile()
        posargs = ONE_PYTHON.split(" -- ", 1)[1].split()
        assert ["-x", "-k", "turn"] == posargs
        assert [
            "--numprocesses=auto",
            "--dist=worksteal",
            "-m",
            "not heavy",
            "--cov",
            "--cov-branch",
            "--cov-report=term-missing:skip-covered",
            "--cov-fail-under=0",
            "-x",
            "-k",
            "turn",
        ] == noxfile.tests_arguments(first=True, posargs=posargs, coverage=True)
        assert [
            "--numprocesses=auto",
            "--dist=worksteal",
            "-m",
            "not heavy",
            "-x",
            "-k",
            "turn",
        ] == noxfile.tests_arguments(first=True, posargs=posargs, coverage=False)
        whole = noxfile.tests_arguments(first=True, posargs=[], coverage=True)
        assert ["--numprocesses=auto", "--dist=worksteal", "-m", "not heavy", "--cov", "--cov-branch"] == whole[:6]
        assert [] == [argument for argument in whole if argument.startswith("--cov-fail-under")]
        later = noxfile.tests_arguments(first=False, posargs=[], coverage=False)
        assert ["--numprocesses=auto", "--dist=worksteal", "-m", "not heavy and not once"] == later

    def test_the_example_is_a_session_of_the_plain_run(self, tmp_path: Path) -> None:
        """
        ``python3 -m nox`` runs the sessions the README lists, and the example's session is the first of them.
        """
        listed = run_nox("--list", "--json", cwd=tmp_path)
        sessions = [row["session"] for row in json.loads(listed.stdout)]
        assert (DEFAULT_SESSIONS, "tests-3.11") == (sessions, ONE_PYTHON.split()[4])

    @pytest.mark.skipif(
        os.environ.get("PERSIAN_RUMMY_TEST_BUILD", "source") != "source",
        reason="the README's example measures the coverage of this checkout's sources",
    )
    @pytest.mark.once
    def test_a_part_reports_its_coverage_and_passes(self, tmp_path: Path) -> None:
        """
        The example's pytest command where coverage is measured (on CI, or asked for), on one small file and one
        process instead of a worker per core: a part of the suite, far below the 95% that the whole run
        requires, passes with the report.
        """
        noxfile = load_noxfile()
        part = [*ONE_PYTHON.split(" -- ", 1)[1].split(), "tests/test_turn_order.py"]
        arguments = noxfile.tests_arguments(first=True, posargs=part, coverage=True)
        arguments[arguments.index("--numprocesses=auto")] = "--numprocesses=0"
        env = {**child_environment(), "COVERAGE_FILE": str(tmp_path / ".coverage")}
        command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *arguments]
        done = subprocess.run(command, capture_output=True, cwd=ROOT, text=True, env=env, check=False)  # noqa: S603
        total = next(line for line in done.stdout.splitlines() if line.startswith("TOTAL"))
        assert (0, True) == (done.returncode, int(total.split()[-1].rstrip("%")) < 95), done.stdout[-3000:]
        assert " passed" in done.stdout.strip().splitlines()[-1]
