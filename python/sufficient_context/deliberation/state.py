"""DeliberationState: what the monitor knows about one deliberation, serialisable to JSON and back."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from .answers import PartialAnswer, is_partial_answer
from .patterns import CHOICES, PARTIAL_ANSWER_PATTERNS

__all__ = ["DeliberationState"]

_BOOLS = ("limited_context_mode", "context_insufficient_emitted", "best_effort_prompt_injected", "automatic_choice")
_COUNTS = ("consecutive_research_without_improvement", "meta_discussion_count", "total_contributions_count")
_LISTS = ("questions", "assumptions", "user_context")


@dataclass
class DeliberationState:
    """The original design's seven fields, plus what the synthesis needs.

    - `limited_context_mode`: the experts work without the context they asked for (an answer was partial, or the
      user continued without more context);
    - `context_insufficient_emitted`: the ``context_insufficient`` event went out (once per deliberation);
    - `user_context_choice`: ``"provide_more"``, ``"continue"``, ``"end"`` or None;
    - `best_effort_prompt_injected`: BEST_EFFORT_PROMPT is part of the experts' prompts;
    - `consecutive_research_without_improvement`: research steps in a row that found nothing new;
    - `meta_discussion_count` / `total_contributions_count`: contributions scored meta / all contributions;
    - `questions`: the experts' questions still unanswered, in order, each once;
    - `assumptions`: the assumptions the experts took in their place;
    - `user_context`: the extra context the user gave;
    - `automatic_choice`: the choice was made by the timeout, not by the user.
    """

    limited_context_mode: bool = False
    context_insufficient_emitted: bool = False
    user_context_choice: str | None = None
    best_effort_prompt_injected: bool = False
    consecutive_research_without_improvement: int = 0
    meta_discussion_count: int = 0
    total_contributions_count: int = 0
    questions: list[str] = field(default_factory=list)
    assumptions: list[str] = field(default_factory=list)
    user_context: list[str] = field(default_factory=list)
    automatic_choice: bool = False

    def add_question(self, question: str) -> None:
        """Adds an unanswered question (once)."""
        if not isinstance(question, str):
            raise TypeError(f"question must be str; got {type(question).__name__}")
        if question.strip() and question not in self.questions:
            self.questions.append(question)

    def _add_questions(self, questions: tuple[str, ...]) -> None:
        """add_question for each, with one set of the questions held: a contribution asking 50,000 questions looked
        each up in the list, minutes of work."""
        held = set(self.questions)
        for question in questions:
            if question.strip() and question not in held:
                held.add(question)
                self.questions.append(question)

    def add_assumption(self, assumption: str) -> None:
        """Adds an assumption the experts took (once); blank text is refused."""
        if not isinstance(assumption, str):
            raise TypeError(f"assumption must be str; got {type(assumption).__name__}")
        if not assumption.strip():
            raise ValueError("assumption must not be blank")
        if assumption not in self.assumptions:
            self.assumptions.append(assumption)

    def record_answer(
        self, question: str, answer: str, *, patterns: tuple[str, ...] | list[str] = PARTIAL_ANSWER_PATTERNS
    ) -> PartialAnswer:
        """Records the user's answer to a clarification question. A partial answer sets `limited_context_mode` and
        keeps the question among the unanswered ones; a complete one removes it from them and keeps the answer in
        `user_context` as ``"<question> <answer>"``."""
        verdict = is_partial_answer(question, answer, patterns=patterns)
        # The questions are held stripped (as extracted): "What is the budget? " from a form is the same question.
        asked = question.strip()
        if verdict.partial:
            self.limited_context_mode = True
            self.add_question(asked)
        else:
            if asked in self.questions:
                self.questions.remove(asked)
            self.user_context.append(f"{asked} {answer.strip()}")
        return verdict

    def to_dict(self) -> dict[str, Any]:
        """A plain dict (lists copied), ready for json.dumps."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Any) -> DeliberationState:
        """The state of a dict from to_dict(); missing keys take their defaults. TypeError / ValueError name the
        key."""
        if not isinstance(data, dict):
            raise TypeError(f"data must be a dict; got {type(data).__name__}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known, key=str)
        if unknown:
            raise ValueError(f"data has unknown key {unknown[0]!r}; known: {', '.join(sorted(known))}")
        for key in _BOOLS:
            if key in data and not isinstance(data[key], bool):
                raise TypeError(f"data[{key!r}] must be bool; got {type(data[key]).__name__}")
        for key in _COUNTS:
            if key in data:
                value = data[key]
                if isinstance(value, bool) or not isinstance(value, int):
                    raise TypeError(f"data[{key!r}] must be int; got {type(value).__name__}")
                if value < 0:
                    raise ValueError(f"data[{key!r}] must be >= 0; got {value}")
        for key in _LISTS:
            if key in data:
                value = data[key]
                if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                    raise TypeError(f"data[{key!r}] must be a list of str")
        choice = data.get("user_context_choice")
        if choice is not None and choice not in CHOICES:
            raise ValueError(f"data['user_context_choice'] must be one of {', '.join(CHOICES)} or None; got {choice!r}")
        copied: dict[str, Any] = {k: list(v) if isinstance(v, list) else v for k, v in data.items()}
        return cls(**copied)

    def to_json(self) -> str:
        """JSON of to_dict()."""
        return json.dumps(self.to_dict(), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str | bytes) -> DeliberationState:
        """The state of to_json() output; ValueError for text that is not a JSON object."""
        if not isinstance(text, (str, bytes)):
            raise TypeError(f"text must be str or bytes; got {type(text).__name__}")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(f"text is not JSON: {error}") from None
        return cls.from_dict(data)
