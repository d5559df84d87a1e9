"""Privacy by default: what the importer scrubs from every output string."""

from __future__ import annotations

import pytest

from skillbench.transcripts import Redactor


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("key sk-ant-api03-AbCdEfGhIjKlMnOpQrSt now", "key [SECRET] now"),
        ("export OPENAI=sk-proj-0123456789abcdefghij", "export OPENAI=[SECRET]"),
        ("token ghp_" + "a" * 36, "token [SECRET]"),
        ("aws AKIAABCDEFGHIJKLMNOP done", "aws [SECRET] done"),
        ("Authorization: Bearer abcdefghijklmnopqrstuvwx", "Authorization: [SECRET]"),
        ('{"api_key": "hunter2hunter2"}', '{"api_key": "[SECRET]"}'),
        ("password=swordfish1", "password=[SECRET]"),
        ("mail bob.smith+x@example.co.uk please", "mail [EMAIL] please"),
        ("see /home/alice/proj/a.py", "see ~/proj/a.py"),
        ("see /Users/bob/x", "see ~/x"),
        ("see C:\\Users\\carol\\repo", "see ~\\repo"),
        ("plain words stay", "plain words stay"),
    ],
)
def test_redacts(text: str, expected: str) -> None:
    assert Redactor()(text) == expected


def test_keep_paths_keeps_home_but_not_secrets() -> None:
    text = "/home/alice/x sk-ant-api03-AbCdEfGhIjKlMnOpQrSt alice@example.com"
    assert Redactor(keep_paths=True)(text) == "/home/alice/x [SECRET] [EMAIL]"
