"""The memory kept between calls: one byte budget shared by every thread's caches.

Each thread that runs a check keeps caches between calls. Default scoring keeps a cache of the words it has analysed
(folding, stop words, stems), so text it has seen before costs one hash probe; the extractive answerer's choice of
sentences reads words through the same cache. Claim coverage (``ClaimCoverage``) keeps a workspace: its word memos
(claim and chunk tokens -> keys, weights, related words), key tables, chunk profiles and scratch. Together all of these
hold at most the budget (256 MiB unless set) plus, while checks run, what those checks are adding. A check that ends
over budget empties the caches of idle threads, then this thread's other cache, then the one it used. Emptying a cache
costs speed on the next check, never a different result. Per-check scratch space above 8 MiB, and a claim workspace
grown past 8 MiB, are given back when the check ends. See docs/bad-input.md ("Resource limits").
"""

from __future__ import annotations

from typing import TypedDict

from ._args import int_in_range
from ._core import checker as _core

__all__ = ["CacheUsage", "cache_usage", "set_cache_budget"]

_MAX_BUDGET = 2**63 - 1


class CacheUsage(TypedDict):
    budget_bytes: int
    held_bytes: int
    threads: int


def set_cache_budget(bytes: int) -> None:
    """Set the bytes that all threads' caches may hold together (0: keep nothing between calls)."""
    _core.set_cache_budget(int_in_range(bytes, "bytes", minimum=0, maximum=_MAX_BUDGET))


def cache_usage() -> CacheUsage:
    """The budget, the bytes the caches hold now (as of each cache's last check) and the threads holding one.

    ``threads`` counts the live threads that have run a check of either kind, or chosen an extractive answer's
    sentences (so hold a cache, perhaps emptied); a thread holding both a word cache and a claim workspace counts
    once.
    """
    usage = _core.cache_usage()
    return CacheUsage(budget_bytes=usage["budget_bytes"], held_bytes=usage["held_bytes"], threads=usage["threads"])
