"""A reproducer folder: the minimal catalog, the command that shows the difference, the diff."""

from __future__ import annotations

import shlex
from pathlib import Path

from skillbench.agents import AgentFidelity, bin_variable
from skillbench.fuzz._types import FuzzCatalog


def fidelity_command(agent: str, catalog: FuzzCatalog, sources: list[str]) -> str:
    """The ``skillbench fidelity`` command line that shows the difference again."""
    parts = ["skillbench", "fidelity", "--agent", agent]
    for key, value in sorted(catalog.env.items()):
        parts += ["--env", f"{key}={value}"]
    for name, count in sorted(catalog.usage.items()):
        parts += ["--usage", f"{name}={count}"]
    return shlex.join([*parts, *sources])


def write_reproducer(
    folder: Path, catalog: FuzzCatalog, fidelity: AgentFidelity, executable: str, tries: int
) -> Path:
    """Write ``catalog`` under ``folder/catalog`` with README.md (the command), diff.txt,
    recorded.txt (what the agent sent) and rendered.txt (skillbench's render)."""
    folder.mkdir(parents=True, exist_ok=True)
    specs = catalog.write(folder / "catalog")
    sources = [f"{s.kind}={Path(s.path).relative_to(folder)}" for s in specs]
    command = fidelity_command(fidelity.agent, catalog, sources)
    variable = bin_variable(fidelity.agent, fidelity.version)
    diff = "\n".join(fidelity.lines) + "\n"
    (folder / "diff.txt").write_text(diff, encoding="utf-8")
    (folder / "recorded.txt").write_text(fidelity.listing, encoding="utf-8")
    (folder / "rendered.txt").write_text(fidelity.rendered, encoding="utf-8")
    shapes = ", ".join(catalog.shapes) or "none (the empty catalog)"
    readme = (
        f"# {fidelity.agent} {fidelity.version}: {catalog.label}\n\n"
        f"Shapes: {shapes}. {catalog.skill_files} skill file(s) after {tries} shrinking "
        f"capture(s); first difference at byte {fidelity.first_difference}.\n\n"
        f"From this folder, with {fidelity.agent} {fidelity.version} installed "
        f"(or `{variable}` pointing at it, here {executable}):\n\n"
        f"    {command}\n\n"
        "`diff.txt`: the differing lines (- the agent, + skillbench); `recorded.txt` and "
        "`rendered.txt` the two listings.\n"
    )
    (folder / "README.md").write_text(readme, encoding="utf-8")
    return folder
