"""Token and cost accounting of a judge, per call and in total.

Prices are per 1000 tokens, in US dollars, as providers list them; a local server is free
(the default). Tokens are what the server reports in ``usage``; a server that reports
nothing counts as 0 tokens and in ``unreported_usage``.

>>> total = JudgeUsage(price_per_1k_input_usd=0.15, price_per_1k_output_usd=0.6)
>>> total.add_completion(prompt_tokens=2000, completion_tokens=500)
>>> total.add_completion(prompt_tokens=1000, completion_tokens=None)
>>> (total.calls, total.prompt_tokens, total.completion_tokens, total.unreported_usage)
(2, 3000, 500, 1)
>>> round(total.cost_usd, 6)
0.75
>>> sorted(total.as_dict())[:4]
['calls', 'completion_tokens', 'cost_usd', 'failures']
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["JudgeUsage", "cost_usd"]


def cost_usd(
    prompt_tokens: int,
    completion_tokens: int,
    price_per_1k_input_usd: float,
    price_per_1k_output_usd: float,
) -> float:
    """What ``prompt_tokens`` in and ``completion_tokens`` out cost.

    >>> cost_usd(1000, 1000, 0.5, 1.5)
    2.0
    """
    return (
        prompt_tokens * price_per_1k_input_usd + completion_tokens * price_per_1k_output_usd
    ) / 1000.0


@dataclass
class JudgeUsage:
    """Running totals of one :class:`~monitor.evaluation.judge.client.JudgeClient`.

    ``requests`` counts every HTTP attempt; ``calls`` the completions received (2xx);
    ``retries`` the attempts repeated after a connect error, a timeout, a 5xx or a 429;
    ``repairs`` the corrective messages sent after a reply that was not the JSON asked for;
    ``failures`` the judgements given up (a :class:`JudgeError`).
    """

    price_per_1k_input_usd: float = 0.0
    price_per_1k_output_usd: float = 0.0
    requests: int = 0
    calls: int = 0
    retries: int = 0
    repairs: int = 0
    failures: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    unreported_usage: int = 0

    def add_completion(self, prompt_tokens: int | None, completion_tokens: int | None) -> None:
        """Count one completion received, with the tokens the server reported."""
        self.calls += 1
        if prompt_tokens is None or completion_tokens is None:
            self.unreported_usage += 1
        self.prompt_tokens += prompt_tokens or 0
        self.completion_tokens += completion_tokens or 0

    @property
    def cost_usd(self) -> float:
        return cost_usd(
            self.prompt_tokens,
            self.completion_tokens,
            self.price_per_1k_input_usd,
            self.price_per_1k_output_usd,
        )

    def as_dict(self) -> dict[str, float | int]:
        """Everything, plus ``cost_usd``: the ``cost`` file of an iteration."""
        return {
            "requests": self.requests,
            "calls": self.calls,
            "retries": self.retries,
            "repairs": self.repairs,
            "failures": self.failures,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "unreported_usage": self.unreported_usage,
            "price_per_1k_input_usd": self.price_per_1k_input_usd,
            "price_per_1k_output_usd": self.price_per_1k_output_usd,
            "cost_usd": self.cost_usd,
        }
