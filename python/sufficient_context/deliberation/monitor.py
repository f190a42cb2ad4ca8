"""ContextInsufficiencyMonitor (the ``context_insufficient`` event and the user's choice) and ResearchLoopGuard."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from .._args import as_float
from .detector import MetaScore, _patterns, _text, _threshold, analyze
from .patterns import ANSWER_CUE_PATTERNS, BEST_EFFORT_PROMPT, CHOICES, INSUFFICIENT_CONTEXT_PATTERNS
from .state import DeliberationState

__all__ = ["ContextInsufficiencyMonitor", "ResearchLoopGuard"]


def _count(value: Any, name: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be int; got {type(value).__name__}")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}; got {value}")
    return value


class ContextInsufficiencyMonitor:
    """Watches the contributions of a deliberation and asks the user once when the experts lack context.

    ``record(round, expert, text)`` scores each contribution (:func:`is_context_insufficient_discussion`). When more
    than `threshold` of the contributions of the monitored `rounds` so far are meta-discussion (and at least
    `min_contributions` were made), it returns the ``context_insufficient`` event, once per monitor. The user then
    picks a choice with ``resolve``; ``poll`` continues automatically once `timeout` seconds have passed on `clock`.
    Thread-safe: a server may record, poll and resolve from different threads.
    """

    def __init__(
        self,
        threshold: float = 0.5,
        rounds: Iterable[int] = (1, 2),
        *,
        timeout: float = 120.0,
        clock: Callable[[], float] = time.monotonic,
        state: DeliberationState | None = None,
        patterns: Iterable[str] = INSUFFICIENT_CONTEXT_PATTERNS,
        answer_cues: Iterable[str] = ANSWER_CUE_PATTERNS,
        contribution_threshold: float = 0.5,
        min_contributions: int = 1,
    ) -> None:
        self.threshold = _threshold(threshold)
        if isinstance(rounds, (str, bytes)) or not isinstance(rounds, Iterable):
            raise TypeError(f"rounds must be an iterable of int; got {type(rounds).__name__}")
        self.rounds = frozenset(_count(r, f"rounds[{i}]", 0) for i, r in enumerate(rounds))
        if not self.rounds:
            raise ValueError("rounds must name at least one round")
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
            raise TypeError(f"timeout must be a number of seconds; got {type(timeout).__name__}")
        # as_float: an int past 1e308 is a ValueError naming timeout, not a bare OverflowError from isfinite.
        if not (math.isfinite(as_float(timeout, "timeout")) and timeout > 0):
            raise ValueError(f"timeout must be a finite number of seconds > 0; got {timeout!r}")
        self.timeout = float(timeout)
        if not callable(clock):
            raise TypeError(f"clock must be callable; got {type(clock).__name__}")
        self._clock = clock
        if state is not None and not isinstance(state, DeliberationState):
            raise TypeError(f"state must be a DeliberationState; got {type(state).__name__}")
        self.state = state if state is not None else DeliberationState()
        self.patterns = _patterns(patterns, "patterns")
        self.answer_cues = _patterns(answer_cues, "answer_cues")
        self.contribution_threshold = _threshold(contribution_threshold, "contribution_threshold")
        self.min_contributions = _count(min_contributions, "min_contributions", 1)
        self._lock = threading.Lock()
        self._monitored = 0
        self._monitored_meta = 0
        self._event: dict[str, Any] | None = None
        self._emitted_at: float | None = None
        self._ended = False

    def score(self, text: str) -> MetaScore:
        """The MetaScore of one contribution with this monitor's lists (records nothing)."""
        return analyze(
            _text(text, "text"),
            patterns=self.patterns,
            answer_cues=self.answer_cues,
            threshold=self.contribution_threshold,
        )

    def record(self, round: int, expert: str, text: str) -> dict[str, Any] | None:
        """Records one contribution; returns the ``context_insufficient`` event the one time it triggers, else None.

        RuntimeError after the user ended the deliberation. TypeError / ValueError name `round`, `expert`, `text`.
        """
        number = _count(round, "round", 0)
        if not isinstance(expert, str):
            raise TypeError(f"expert must be str; got {type(expert).__name__}")
        scored = self.score(text)
        with self._lock:
            if self._ended:
                raise RuntimeError("the deliberation was ended by the user: no more contributions are recorded")
            state = self.state
            state.total_contributions_count += 1
            if scored.is_meta:
                state.meta_discussion_count += 1
            state._add_questions(scored.questions)
            if number not in self.rounds:
                return None
            self._monitored += 1
            self._monitored_meta += scored.is_meta
            ratio = self._monitored_meta / self._monitored
            if self._event is not None or state.context_insufficient_emitted:
                return None
            if self._monitored < self.min_contributions or ratio <= self.threshold:
                return None
            state.context_insufficient_emitted = True
            self._emitted_at = self._clock()
            self._event = {
                "event": "context_insufficient",
                "data": {
                    "round": number,
                    "meta_ratio": ratio,
                    "meta_contributions": self._monitored_meta,
                    "contributions": self._monitored,
                    "questions": list(state.questions),
                    "choices": list(CHOICES),
                    "timeout_seconds": self.timeout,
                },
            }
            return self._event

    @property
    def event(self) -> dict[str, Any] | None:
        """The event record() returned, or None before it triggered."""
        return self._event

    @property
    def pending(self) -> bool:
        """The event went out and the user has not chosen yet."""
        return self._event is not None and self.state.user_context_choice is None

    def seconds_left(self) -> float | None:
        """Seconds until the automatic ``continue`` (0.0 once due); None when nothing is pending."""
        with self._lock:
            return self._seconds_left()

    def _seconds_left(self) -> float | None:
        if not self.pending or self._emitted_at is None:
            return None
        return max(0.0, self.timeout - (self._clock() - self._emitted_at))

    def resolve(self, choice: str, context: str | None = None) -> dict[str, Any]:
        """Applies the user's choice and returns the ``context_choice`` event.

        - ``provide_more``: `context` (non-blank) is added to ``state.user_context`` and the open questions count as
          answered;
        - ``continue``: limited context mode, and BEST_EFFORT_PROMPT is to be injected;
        - ``end``: the deliberation ends (record() refuses more contributions).

        `context` is read only with ``provide_more``. ValueError names `choice` or `context`; RuntimeError when no
        event is pending.
        """
        return self._resolve(choice, context, automatic=False)

    def poll(self) -> dict[str, Any] | None:
        """Continues automatically when the event is pending and the timeout has passed: returns that
        ``context_choice`` event (automatic=True), else None."""
        with self._lock:
            left = self._seconds_left()
        if left is None or left > 0.0:
            return None
        try:
            return self._resolve("continue", None, automatic=True)
        except RuntimeError:  # the user chose in between
            return None

    def _resolve(self, choice: str, context: str | None, *, automatic: bool) -> dict[str, Any]:
        if not isinstance(choice, str):
            raise TypeError(f"choice must be str; got {type(choice).__name__}")
        if choice not in CHOICES:
            raise ValueError(f"choice must be one of {', '.join(CHOICES)}; got {choice!r}")
        if choice == "provide_more":
            if not isinstance(context, str):
                raise ValueError(
                    f"context must be the user's extra context (a non-empty str) with provide_more; got {context!r}"
                )
            if not context.strip():
                raise ValueError("context must not be blank with provide_more")
        with self._lock:
            if not self.pending:
                if self._event is None:
                    raise RuntimeError("no context_insufficient event is pending: record() has not emitted one")
                raise RuntimeError(
                    f"the context_insufficient event was already resolved ({self.state.user_context_choice!r})"
                )
            state = self.state
            state.user_context_choice = choice
            state.automatic_choice = automatic
            if choice == "provide_more":
                assert context is not None
                state.user_context.append(context.strip())
                state.questions.clear()
            elif choice == "continue":
                state.limited_context_mode = True
                state.best_effort_prompt_injected = True
            else:
                self._ended = True
            return {
                "event": "context_choice",
                "data": {
                    "choice": choice,
                    "automatic": automatic,
                    "prompt": BEST_EFFORT_PROMPT if choice == "continue" else None,
                    "state": state.to_dict(),
                },
            }

    @property
    def ended(self) -> bool:
        """The user chose ``end``."""
        return self._ended

    @property
    def best_effort_prompt(self) -> str | None:
        """BEST_EFFORT_PROMPT once the deliberation continues in limited context mode, else None."""
        return BEST_EFFORT_PROMPT if self.state.best_effort_prompt_injected else None


class ResearchLoopGuard:
    """Counts research steps in a row that did not improve the context; says when to force the discussion on.

    ``record(improved)`` returns True once `max_consecutive` steps in a row found nothing (and on every further such
    step); an improving step resets the count. With a `state`, its ``consecutive_research_without_improvement``
    follows the count.
    """

    def __init__(self, max_consecutive: int = 2, *, state: DeliberationState | None = None) -> None:
        self.max_consecutive = _count(max_consecutive, "max_consecutive", 1)
        if state is not None and not isinstance(state, DeliberationState):
            raise TypeError(f"state must be a DeliberationState; got {type(state).__name__}")
        self.state = state
        self._count = state.consecutive_research_without_improvement if state is not None else 0

    @property
    def count(self) -> int:
        """Research steps in a row without improvement."""
        return self._count

    def record(self, improved: bool) -> bool:
        """Records one research step; True: stop researching and force the discussion on."""
        if not isinstance(improved, bool):
            raise TypeError(f"improved must be bool; got {type(improved).__name__}")
        self._set(0 if improved else self._count + 1)
        return self._count >= self.max_consecutive

    def reset(self) -> None:
        """Starts counting again (e.g. after the user gave more context)."""
        self._set(0)

    def _set(self, value: int) -> None:
        self._count = value
        if self.state is not None:
            self.state.consecutive_research_without_improvement = value
