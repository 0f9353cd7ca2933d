"""
The protocol's page documents every message, each with an example that is a message of its type.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from persian_rummy.cli._serve_command import configure
from persian_rummy.server import ERROR_CODES
from persian_rummy.server._limits import limit_fields
from persian_rummy.server._messages import CLIENT_MESSAGES, SERVER_MESSAGES

PAGE = (Path(__file__).parents[1] / "docs" / "server.md").read_text(encoding="utf-8")
#: Each message's heading, and the first JSON example after it.
EXAMPLES = dict(re.findall(r"^#### `([a-z-]+)`\n.*?```json\n(.*?)```", PAGE, flags=re.MULTILINE | re.DOTALL))


class TestTheProtocolPage:
    """docs/server.md, message by message."""

    def test_every_message_has_its_section(self) -> None:
        assert sorted((*CLIENT_MESSAGES, *SERVER_MESSAGES)) == sorted(EXAMPLES)

    @pytest.mark.parametrize("kind", [*CLIENT_MESSAGES, *SERVER_MESSAGES])
    def test_each_example_is_a_message_of_its_type(self, kind: str) -> None:
        assert kind == json.loads(EXAMPLES[kind])["type"]

    def test_every_error_code_is_explained(self) -> None:
        codes = PAGE[PAGE.index("The codes:") :].split("####")[0]
        assert [code for code in ERROR_CODES if f"`{code}`" not in codes] == []
        assert json.loads(EXAMPLES["error"])["code"] in ERROR_CODES


class TestTheLimits:
    """Every limit of the server is documented, with its default, as the option that sets it."""

    def test_every_limit_has_its_row(self) -> None:
        rows = dict(re.findall(r"^\| `--([a-z-]+)` \| ([0-9,.]+) \|", PAGE, flags=re.MULTILINE))
        expected = {field.name.replace("_", "-"): f"{field.default:,g}" for field in limit_fields()}
        assert {name: value.replace(",", "") for name, value in rows.items()} == {
            name: value.replace(",", "") for name, value in expected.items()
        }

    def test_every_limit_is_an_option_of_serve(self) -> None:
        parser = argparse.ArgumentParser()
        configure(parser)
        defaults = vars(parser.parse_args([]))
        assert {field.name: field.default for field in limit_fields()} == {
            field.name: defaults[field.name] for field in limit_fields()
        }
