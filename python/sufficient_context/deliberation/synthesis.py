"""The "Assumptions & Limitations" section of a synthesis made in limited context mode."""

from __future__ import annotations

from .state import DeliberationState

__all__ = ["assumptions_and_limitations"]

_WHY = {
    "continue": "the user chose to continue without giving more context",
    "end": "the user ended the deliberation",
}
_PARTIAL = "some of the user's answers were partial"
_TIMEOUT = "the user did not choose in time, so the experts continued without more context"


def _line(text: str) -> str:
    # One bullet per item: a newline inside an item would break the Markdown list.
    return "- " + " ".join(text.split())


def assumptions_and_limitations(state: DeliberationState) -> str:
    """The Markdown section ``## Assumptions & Limitations`` for a synthesis: why the context was limited, the
    experts' unanswered questions, the assumptions taken in their place, and the context the user gave."""
    if not isinstance(state, DeliberationState):
        raise TypeError(f"state must be a DeliberationState; got {type(state).__name__}")
    lines = ["## Assumptions & Limitations", ""]
    if state.limited_context_mode:
        reason = _TIMEOUT if state.automatic_choice else _WHY.get(state.user_context_choice or "", _PARTIAL)
        lines.append(
            f"This synthesis was made in limited context mode ({reason}): it is a best-effort "
            "answer, and the points below may change it."
        )
    elif state.questions:  # no event fired (or not yet), but questions are open: not "the context they asked for"
        lines.append(
            "This synthesis was made before every question the experts asked was answered: the open ones are below."
        )
    else:
        lines.append("This synthesis was made with the context the experts asked for.")
    lines += ["", "### Unanswered questions", ""]
    lines += [_line(q) for q in state.questions] or ["- None."]
    lines += ["", "### Assumptions", ""]
    lines += [_line(a) for a in state.assumptions] or ["- None stated."]
    if state.user_context:
        lines += ["", "### Context provided by the user", ""]
        lines += [_line(c) for c in state.user_context]
    return "\n".join(lines) + "\n"
