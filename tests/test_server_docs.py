"""
The protocol's page documents every message, each with an example that is a message of its type.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from persian_rummy.server import ERROR_CODES
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
