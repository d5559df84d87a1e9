"""Build datasets/devtools/requests.jsonl from the hand-written requests_raw.jsonl.

Assigns ids in file order and a timeline (skillbench.dataset.assign_timeline: 60 days, sessions,
turns, drifting topics), then writes the requests in time order. Deterministic for the seed.

    python datasets/devtools/_source/build_requests.py
"""

from __future__ import annotations

import json
from pathlib import Path

from skillbench.dataset import LabelledRequest, assign_timeline

HERE = Path(__file__).resolve().parent
SEED = 20261130


def main() -> None:
    raw = [json.loads(line) for line in (HERE / "requests_raw.jsonl").read_text().splitlines()]
    requests = [
        LabelledRequest(
            id=f"dt-{i:04d}",
            text=r["text"],
            expected=tuple(
                [r["expected"]] if isinstance(r["expected"], str) else r["expected"] or []
            ),
            tags=tuple(r["tags"]),
            args=r.get("args"),
            extra={"topic": r["topic"]},
        )
        for i, r in enumerate(raw, start=1)
    ]
    timed = sorted(assign_timeline(requests, seed=SEED, days=60), key=lambda r: (r.at, r.id))
    with (HERE.parent / "requests.jsonl").open("w", encoding="utf-8") as out:
        for r in timed:
            assert r.at is not None
            expected: str | list[str] | None = (
                None
                if not r.expected
                else r.expected[0]
                if len(r.expected) == 1
                else list(r.expected)
            )
            row = {
                "id": r.id,
                "text": r.text,
                "expected": expected,
                "at": r.at.isoformat().replace("+00:00", "Z"),
                "session": r.session,
                "turn": r.turn,
                "tags": list(r.tags),
                "topic": r.extra["topic"],
            }
            if r.args:
                row["args"] = r.args
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"wrote {len(timed)} requests")


if __name__ == "__main__":
    main()
