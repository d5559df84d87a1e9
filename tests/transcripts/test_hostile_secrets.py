"""A corpus of secrets pasted into sessions: none survives an import of either agent, and
nothing a log carries reaches the terminal raw."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_hostile_import import ESC, _claude_turn, _cli, _codex_turn

from skillbench.transcripts import Redactor, import_logs

pytestmark = pytest.mark.timeout(60)

AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
PEM_BODY = "MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM"
SECRETS: list[tuple[str, str]] = [
    ("DB_PASSWORD=Tr0ub4dor&3 psql -h db", "Tr0ub4dor"),
    ("export OPENAI_API_KEY=abc123def456 && run", "abc123def456"),
    ("MY_SERVICE_API_KEY=zzTopSecret42", "zzTopSecret42"),
    ("HF_TOKEN=hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567", "hf_AbCdEfGhIjKlMnOpQrStUvWxYz"),
    (f"aws_secret_access_key = {AWS_SECRET}", AWS_SECRET),
    (f"AWS_SECRET_ACCESS_KEY={AWS_SECRET}", AWS_SECRET),
    ("temporary id ASIAQWERTYUIOPASDFGH expires", "ASIAQWERTYUIOPASDFGH"),
    (f"-----BEGIN RSA PRIVATE KEY-----\n{PEM_BODY}\n-----END RSA PRIVATE KEY-----", PEM_BODY),
    (
        f"-----BEGIN OPENSSH PRIVATE KEY-----\n{PEM_BODY}\n-----END OPENSSH PRIVATE KEY-----",
        PEM_BODY,
    ),
    (f"key cut short: -----BEGIN PRIVATE KEY-----\n{PEM_BODY}", PEM_BODY),
    ('payload {\\"password\\": \\"s3cr3t-pw\\"} sent', "s3cr3t-pw"),
    ("GET /cb?access_token%3Dq1w2e3r4t5y6&x=1", "q1w2e3r4t5y6"),
    ("header=Authorization%3A%20Bearer%20eyAbCdEfGhIjKlMnOpQr", "eyAbCdEfGhIjKlMnOpQr"),
    ("post to https://hooks.slack.com/services/T0A1B2C3/B0D4E5F6/XyZ123abc456", "XyZ123abc456"),
    ("stripe sk_live_51HxYzAbCdEfGhIjKlMn", "sk_live_51HxYzAbCdEfGhIjKlMn"),
    ("curl -H 'Authorization: Basic dXNlcjpodW50ZXIy'", "dXNlcjpodW50ZXIy"),
    ("mysql -u root --password hunter2 db", "hunter2"),
    ("tool --api-key=k3y --token tok9", "k3y"),
    (
        "login redirect_uri=https%3A%2F%2Fapp.example.com%2Fcb%3Ftoken%3Dq9w8e7r6t5y4%26s%3D1",
        "q9w8e7r6t5y4",
    ),
    ("psql --db-password Xy7pQ2wL9 -h db", "Xy7pQ2wL9"),
    ("deploy --aws.secret-key AbCd1234EfGh now", "AbCd1234EfGh"),
]


@pytest.mark.parametrize(("text", "secret"), SECRETS, ids=[s for _, s in SECRETS])
@pytest.mark.parametrize("agent", ["claude-code", "codex"])
def test_no_secret_is_written(tmp_path: Path, agent: str, text: str, secret: str) -> None:
    log = tmp_path / "s.jsonl"
    line = _claude_turn(text) if agent == "claude-code" else _codex_turn(text)
    log.write_text(line + "\n", encoding="utf-8")
    summary = import_logs(agent, [log], tmp_path / "out")  # type: ignore[arg-type]
    assert summary.requests == 1
    for path in (tmp_path / "out").iterdir():
        assert secret not in path.read_text(encoding="utf-8"), path.name
    assert "[SECRET]" in (tmp_path / "out" / "requests.jsonl").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "text",
    [
        "the password: see the wiki",
        "set max_tokens=1000 and tokenizer=bert",
        "I forgot my password and my token",
        "use basic auth for this",
    ],
)
def test_prose_about_secrets_is_kept(text: str) -> None:
    assert Redactor()(text) == text


def test_home_folders_leave_diagnostics(tmp_path: Path) -> None:
    log = tmp_path / "home" / "bob" / "broken.jsonl"
    log.parent.mkdir(parents=True)
    log.write_text('{"type": "user", cut\n', encoding="utf-8")
    import_logs("claude-code", [log], tmp_path / "out")
    diagnostics = (tmp_path / "out" / "diagnostics.txt").read_text(encoding="utf-8")
    assert "broken.jsonl:1: skipped" in diagnostics and "/home/bob" not in diagnostics


def test_escapes_in_a_log_name_are_not_printed_raw(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / f"evil{ESC}]0;owned{ESC}\\{ESC}[2J.jsonl"
    log.write_text("not json\n", encoding="utf-8")
    code, out, err = _cli(["import", "claude-code", str(log), "-o", str(tmp_path / "o")], capsys)
    assert code == 1 and "evil\\x1b]0;owned" in err and ESC not in err + out


def test_escapes_in_listings_are_not_printed_raw(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from transcript_helpers import FIXTURES

    record = {
        "session": f"s{ESC}[2J",
        "initial": True,
        "names": [f"ghost{ESC}[31m"],
        "content": f"- ghost{ESC}[31m: x\n{ESC}]8;;http://evil{ESC}\\",
        "log": f"log{ESC}[1A.jsonl",
    }
    listings = tmp_path / "listings.jsonl"
    listings.write_text(json.dumps(record) + "\n", encoding="utf-8")
    code, out, err = _cli(
        ["fidelity", str(FIXTURES / "skills"), "--listings", str(listings)], capsys
    )
    assert code == 100 and "not in the catalog: ghost\\x1b[31m" in out
    assert ESC not in out + err
