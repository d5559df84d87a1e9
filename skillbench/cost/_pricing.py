"""Dollar prices per token from litellm's offline cost map."""

from __future__ import annotations

from dataclasses import dataclass

from skillbench._errors import SkillbenchError, suggest


@dataclass(frozen=True, slots=True)
class Pricing:
    """US dollars per token for one model.

    Attributes:
        model: the cost-map key the prices come from.
        input: uncached input token.
        output: output token.
        cache_read: input token served from the prompt cache; ``None`` when the map has no
            cache price, which disables cached pricing for this model.
        cache_write: input token written to the cache; the plain input price when the map has
            none (OpenAI caches automatically at no surcharge).
    """

    model: str
    input: float
    output: float
    cache_read: float | None = None
    cache_write: float | None = None

    @property
    def cached(self) -> bool:
        """Whether cached pricing applies."""
        return self.cache_read is not None

    def carried(self, tokens: int, turns: int, *, cache: bool) -> float:
        """Dollars for ``tokens`` that enter the context and are re-sent on ``turns - 1`` turns.

        Without the cache every turn pays the input price; with it the first turn writes the
        tokens to the cache and the later turns read them.
        """
        if turns <= 0 or tokens <= 0:
            return 0.0
        if not cache or self.cache_read is None:
            return tokens * turns * self.input
        write = self.input if self.cache_write is None else self.cache_write
        return tokens * write + tokens * (turns - 1) * self.cache_read


def pricing_for(model: str) -> Pricing:
    """Prices for ``model`` from litellm's bundled cost map (a provider prefix may be dropped).

    Raises:
        SkillbenchError: the map has no input/output price for the model.
    """
    from skillbench.tokens import cost_map

    table = cost_map()
    for key in (model, model.split("/", 1)[-1]):
        entry = table.get(key)
        if entry and "input_cost_per_token" in entry and "output_cost_per_token" in entry:
            return Pricing(
                model=key,
                input=float(entry["input_cost_per_token"]),
                output=float(entry["output_cost_per_token"]),
                cache_read=_optional(entry.get("cache_read_input_token_cost")),
                cache_write=_optional(entry.get("cache_creation_input_token_cost")),
            )
    raise SkillbenchError(
        f"no token prices for model {model!r} in litellm's cost map{suggest(model, table)}"
    )


def _optional(value: object) -> float | None:
    return None if value is None else float(value)  # type: ignore[arg-type]
