"""Proposers: where candidate descriptions come from.

A proposer sees one ``ProposalRequest``: the skill, the rivals it is confused with and
requests from the train split only. What it was shown is kept (``Proposal.prompt``) and
saved by tune, so a run can prove that no test request reached it.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

from skillbench._errors import SkillbenchError
from skillbench._registry import Registry
from skillbench.catalog import Skill
from skillbench.selectors import SelectorEnv, words
from skillbench.types import JsonObject

BODY_EXCERPT_CHARS = 1500
"""How much of the skill body a model proposer sees."""
EXAMPLES_SHOWN = 8
"""Train requests of each kind (missed, wrongly taken) put in a prompt."""
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


class ProposerStopped(SkillbenchError):
    """The proposer's spend cap was reached: tune stops and keeps what it found."""


@dataclass(frozen=True)
class Rival:
    """A skill the tuned one is confused with, on the train split.

    Attributes:
        lost_to: train decisions that expected the tuned skill and chose this one.
        took_from: train decisions that expected this one and chose the tuned skill.
    """

    name: str
    description: str
    lost_to: int
    took_from: int


@dataclass(frozen=True)
class ProposalRequest:
    """Everything a proposer may use for one skill (train evidence only).

    Attributes:
        skill: the skill with its current description.
        rivals: the skills it is confused with, most confused first.
        missed: texts of train requests expecting the skill that went elsewhere.
        wrongly_taken: texts of train requests that chose the skill but should not have.
        max_chars: the longest description every profile of the run shows uncut.
        n: how many candidates to return.
        document_frequency: word → how many skills of the catalog use it (name, description
            or body); lets a proposer tell distinguishing words from common ones.
        catalog_size: the number of skills those counts are over.
    """

    skill: Skill
    rivals: tuple[Rival, ...]
    missed: tuple[str, ...]
    wrongly_taken: tuple[str, ...]
    max_chars: int
    n: int = 3
    document_frequency: Mapping[str, int] = field(default_factory=dict)
    catalog_size: int = 1

    def prompt(self) -> str:
        """The task as text: what a model proposer is sent and what tune saves."""
        s = self.skill
        parts = [
            f"Skill name: {s.name}",
            f"Current description: {s.description}",
            f"Skill instructions (excerpt):\n{s.read_body()[:BODY_EXCERPT_CHARS]}",
        ]
        if self.rivals:
            parts.append(
                "Skills it is confused with:\n"
                + "\n".join(
                    f"- {r.name}: {r.description} (took {r.lost_to} of its requests, "
                    f"lost {r.took_from} to it)"
                    for r in self.rivals
                )
            )
        if self.missed:
            parts.append(
                f"Requests that should have used {s.name} but did not:\n"
                + "\n".join(f"- {t}" for t in self.missed[:EXAMPLES_SHOWN])
            )
        if self.wrongly_taken:
            parts.append(
                f"Requests that used {s.name} but should not have:\n"
                + "\n".join(f"- {t}" for t in self.wrongly_taken[:EXAMPLES_SHOWN])
            )
        parts.append(
            f"Write {self.n} alternative descriptions for {s.name}, each at most "
            f"{self.max_chars} characters, one line each, that make the requests above go to "
            'the right skill. Answer with JSON only: {"descriptions": ["...", "..."]}'
        )
        return "\n\n".join(parts)


class Proposal(NamedTuple):
    """Candidates for one request, with what the proposer was shown and answered."""

    candidates: tuple[str, ...]
    prompt: JsonObject
    answer: str | None = None


class Proposer(Protocol):
    """Turns a ``ProposalRequest`` into candidate descriptions."""

    @property
    def name(self) -> str: ...

    def propose(self, request: ProposalRequest) -> Proposal: ...


ProposerFactory = Callable[[JsonObject, SelectorEnv], Proposer]
"""Builds a proposer from its options (model params) and the selectors' environment."""
PROPOSERS: Registry[ProposerFactory] = Registry("proposer")


def _terms(text: str) -> list[str]:
    return [w for w in words(text) if len(w) > 2 and not w.isdigit()]


_MARKUP = re.compile(r"^\s*(?:#+|[-*+]|\d+[.)])\s+")
_EMPHASIS = re.compile(r"\*\*|__")
_CODE = re.compile(r"[`{}$|<>\\]|\s--?\w")
SENTENCE_WORDS = (5, 40)
"""Shortest and longest body sentence (in words) worth quoting in a description."""


def body_sentences(body: str) -> list[str]:
    """The prose sentences of a skill body, one line each: headings, list markers and
    code fences dropped, lines that look like code or commands left out."""
    out: list[str] = []
    fenced = False
    paragraph: list[str] = []
    for line in [*body.splitlines(), ""]:
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        text = _EMPHASIS.sub("", _MARKUP.sub("", line)).strip()
        if fenced or not text or line.lstrip().startswith("#"):
            out.extend(_prose(" ".join(paragraph)))
            paragraph = []
            continue
        if _MARKUP.match(line):
            out.extend(_prose(" ".join(paragraph)))
            paragraph = []
        paragraph.append(text)
    return out


def _prose(text: str) -> list[str]:
    low, high = SENTENCE_WORDS
    found = []
    for sentence in _SENTENCE.split(text.strip()):
        sentence = sentence.strip()
        if not sentence or _CODE.search(sentence) or not low <= len(sentence.split()) <= high:
            continue
        sentence = sentence[0].upper() + sentence[1:]
        found.append(sentence if sentence[-1] in ".!?" else sentence + ".")
    return found


def _joined(base: str, sentences: list[str], limit: int) -> str | None:
    """``base`` followed by ``sentences``, when it fits ``limit`` characters."""
    text = " ".join([base.rstrip(), *sentences]).strip()
    return text if len(text) <= limit else None


@dataclass(frozen=True)
class OfflineProposer:
    """A baseline proposer: rewrites without a model by quoting the skill's own body.

    Distinguishing terms are words of the skill's name and body that its description lacks,
    no rival's description uses and at most ``common`` of the catalog's other skills use,
    ranked by how many missed train requests contain them, then by body frequency times
    inverse document frequency. Each prose sentence of the body scores the ranks of the
    terms it carries; candidates are the description followed by the best sentence, by the
    two best, and (when the description has sentences built on rival-owned words: words a
    rival's description has and this body never uses) the description without them followed
    by the best sentence. It writes no new text: a sentence its author wrote, not a list of
    keywords, is what a person would keep. Every candidate fits ``max_chars``.
    """

    name: str = "offline"
    common: float = 0.2
    terms: int = 6

    def propose(self, request: ProposalRequest) -> Proposal:
        s = request.skill
        own = set(_terms(s.description))
        rival_words = {w for r in request.rivals for w in _terms(r.description)}
        text = s.read_body()
        body = Counter(_terms(f"{s.name} {text}"))
        evidence = Counter(w for t in request.missed for w in set(_terms(t)))
        df, n = request.document_frequency, max(request.catalog_size, 1)

        def idf(w: str) -> float:
            return math.log((n + 1) / (df.get(w, 0) + 1))

        ranked = sorted(
            (
                w
                for w in body
                if w not in own
                and w not in rival_words
                and df.get(w, 1) - 1 <= self.common * (n - 1)
            ),
            key=lambda w: (-evidence[w], -body[w] * idf(w), w),
        )[: self.terms]
        weight = {w: len(ranked) - i for i, w in enumerate(ranked)}
        scored = [
            (sum(weight.get(w, 0) for w in set(_terms(sentence))), i, sentence)
            for i, sentence in enumerate(body_sentences(text))
        ]
        best = [text for score, _, text in sorted(scored, key=lambda t: (-t[0], t[1])) if score]
        owned = {w for w in own & rival_words if w not in body}
        sentences = _SENTENCE.split(s.description)
        kept = [x for x in sentences if not owned.intersection(_terms(x))]
        narrowed = " ".join(kept) if kept and len(kept) < len(sentences) else None
        found = [
            _joined(s.description, best[:1], request.max_chars),
            _joined(s.description, best[:2], request.max_chars),
        ]
        if narrowed is not None:
            found.append(_joined(narrowed, best[:1], request.max_chars) or narrowed)
        unique = [c for c in dict.fromkeys(found) if c and c != s.description]
        inputs: JsonObject = {
            "proposer": self.name,
            "task": request.prompt(),
            "terms": list(ranked),
            "sentences": list(best[:2]),
            "rival_owned": list(sorted(owned)),
        }
        return Proposal(tuple(unique[: request.n]), inputs)


@PROPOSERS.register("offline")
def _offline(options: JsonObject, env: SelectorEnv) -> Proposer:
    """The offline proposer takes no options (``env`` is unused: it calls nothing)."""
    if options:
        raise SkillbenchError(f"the offline proposer takes no options, got {sorted(options)}")
    return OfflineProposer()


def make_proposer(spec: str, model_options: JsonObject, env: SelectorEnv) -> Proposer:
    """``offline``, or a litellm model string with the ``litellm`` selector's params.

    Raises:
        SkillbenchError: bad model params (unknown key, bad value).
    """
    if spec == "offline":
        return PROPOSERS.get("offline")(model_options, env)
    return PROPOSERS.get("litellm")({"model": spec, **model_options}, env)
