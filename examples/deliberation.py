"""A scripted three-expert deliberation (no model) through every path of the deliberation monitor.

    python examples/deliberation.py

An architect, an SRE and a product lead discuss "Should we move our order service to an event-driven design?".
The script runs four sessions of the same discussion, one per way the user's choice can go:

1. the user answers the experts' clarification questions, partly ("not sure"), so the session is in limited context
   mode; in round 1 most contributions talk about missing context (over 50%), so the monitor emits
   ``context_insufficient``; the user gives more context (``provide_more``) and the experts answer;
2. the user chooses ``continue``: the best-effort prompt is injected, the experts research twice without finding
   anything new, and the research-loop guard forces the discussion on to a synthesis with its Assumptions &
   Limitations section;
3. the user chooses ``end``: the deliberation stops;
4. the user does not choose: after the timeout (two minutes on an injected clock, no real waiting) the monitor
   continues on its own.

Replace the scripted lines with your model's output: the monitor needs only the text of each contribution.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from sufficient_context.deliberation import (
    ContextInsufficiencyMonitor,
    DeliberationState,
    ResearchLoopGuard,
    assumptions_and_limitations,
    is_partial_answer,
)

PROBLEM = "Should we move our order service to an event-driven design?"

#: The questions the experts ask before round 1, and the user's answers (two of them partial).
CLARIFICATIONS = (
    ("What is the peak order rate, in orders per second?", "About 300 at peak."),
    ("What is your budget for the migration, and what is the deadline?", "Not sure yet."),
    ("Which downstream systems consume order events, and how do they consume them today?", "billing"),
)

#: Round 1: two of three contributions are about what the experts do not know.
ROUND_1 = (
    (
        "Architect",
        "It depends on how many services consume the orders. Without knowing that, I can't assess the "
        "benefit. Do the consumers need events in order?",
    ),
    ("SRE", "We need to know the current failure rate before recommending anything. What breaks today?"),
    ("Product", "Customers complain about slow order confirmation, so latency matters more than cost."),
)

#: Round 2 once the user gave more context.
ROUND_2_INFORMED = (
    ("Architect", "With five consumers and per-customer ordering, use Kafka keyed by customer id."),
    ("SRE", "Run three brokers with a replication factor of 3; that survives one broker failure."),
    ("Product", "Ship it behind a feature flag for 5% of orders first."),
)

#: Round 2 in limited context mode (after the best-effort prompt).
ROUND_2_BEST_EFFORT = (
    ("Architect", "Assumption: fewer than ten consumers. I recommend an outbox table plus Kafka."),
    ("SRE", "Assumption: today's failures are timeouts. Start with a managed Kafka tier to keep on-call small."),
    ("Product", "Given the 300 orders per second, a phased rollout over two sprints is realistic."),
)

USER_CONTEXT = "Five services consume orders; billing and shipping need them in order per customer. We lose ~1% of "
USER_CONTEXT += "orders to timeouts today."


class ScriptedClock:
    """A clock the script moves by hand, so the two-minute timeout passes without waiting."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def say(text: str = "") -> None:
    print(text)


def clarify(state: DeliberationState) -> None:
    say("[path] partial answers")
    for question, answer in CLARIFICATIONS:
        state.add_question(question)
        verdict = state.record_answer(question, answer)
        note = f"partial: {verdict.reason}" if verdict else "complete"
        say(f"  user, asked {question!r}: {answer!r} ({note})")
    say(f"  limited context mode: {state.limited_context_mode}")


def round_1(monitor: ContextInsufficiencyMonitor) -> dict[str, object] | None:
    say("Round 1")
    event = None
    for expert, text in ROUND_1:
        score = monitor.score(text)
        say(f"  {expert}: {text}")
        say(f"    meta score {score.score:.2f}{' (meta-discussion)' if score else ''}")
        emitted = monitor.record(1, expert, text)
        event = emitted or event
    if event is not None:
        data = event["data"]
        assert isinstance(data, dict)
        say(
            f"[path] meta-discussion over 50%: {data['meta_contributions']} of {data['contributions']} "
            f"contributions -> event {event['event']!r}, choices {data['choices']}"
        )
        say("  questions for the user:")
        for question in data["questions"]:
            say(f"    - {question}")
    return event


def round_2(monitor: ContextInsufficiencyMonitor, script: Sequence[tuple[str, str]]) -> None:
    say("Round 2" + (" (best-effort prompt injected)" if monitor.best_effort_prompt else ""))
    for expert, text in script:
        monitor.record(2, expert, text)
        say(f"  {expert}: {text}")


def synthesis(monitor: ContextInsufficiencyMonitor, recommendation: str) -> None:
    say("[path] synthesis")
    say(f"  Recommendation: {recommendation}")
    section = assumptions_and_limitations(monitor.state)
    say("  " + section.replace("\n", "\n  ").rstrip())


def session(choice: str | None) -> ContextInsufficiencyMonitor:
    """One scripted deliberation; `choice` is the user's answer to the event (None: the user never answers)."""
    clock = ScriptedClock()
    # min_contributions=3: judge round 1 once all three experts have spoken, not after the first.
    monitor = ContextInsufficiencyMonitor(threshold=0.5, rounds=(1, 2), timeout=120.0, clock=clock, min_contributions=3)
    say(f"=== Session: {choice or 'no answer (timeout)'} ===")
    say(f"Problem: {PROBLEM}")
    clarify(monitor.state)
    if round_1(monitor) is None:
        raise RuntimeError("the scripted round 1 should have triggered the event")
    if choice is None:
        clock.now += 90.0
        say(f"  90 s later: {monitor.poll()} (seconds left: {monitor.seconds_left():.0f})")
        clock.now += 31.0
        resolved = monitor.poll()
        assert resolved is not None
        say(
            f"[path] timeout: after {monitor.timeout:.0f} s the monitor chose {resolved['data']['choice']!r} "
            f"(automatic={resolved['data']['automatic']})"
        )
    else:
        resolved = monitor.resolve(choice, USER_CONTEXT if choice == "provide_more" else None)
        say(f"[path] choice: {choice}")
        if choice == "provide_more":
            say(f"  user: {USER_CONTEXT}")
    if monitor.ended:
        say("  The deliberation ends here, at the user's request; no synthesis.")
        return monitor
    if monitor.best_effort_prompt:
        say(f"  prompt for the experts: {monitor.best_effort_prompt[:80]}...")
        research(monitor)
        for expert, text in ROUND_2_BEST_EFFORT:
            if text.startswith("Assumption: "):
                monitor.state.add_assumption(f"{expert}: {text.split('. ')[0].removeprefix('Assumption: ')}")
        round_2(monitor, ROUND_2_BEST_EFFORT)
        synthesis(monitor, "an outbox table plus managed Kafka, rolled out in phases")
    else:
        round_2(monitor, ROUND_2_INFORMED)
        synthesis(monitor, "Kafka keyed by customer id, three brokers, behind a 5% feature flag")
    return monitor


def research(monitor: ContextInsufficiencyMonitor) -> None:
    guard = ResearchLoopGuard(max_consecutive=2, state=monitor.state)
    for step, finding in enumerate(("no public numbers on the order volume", "no new facts in the wiki"), 1):
        force = guard.record(improved=False)
        say(f"  research step {step}: {finding} (without improvement: {guard.count})")
        if force:
            say(f"[path] research-loop guard: {guard.count} steps without improvement -> force the discussion on")
            return


def main(argv: Sequence[str] | None = None) -> int:
    del argv
    for choice in ("provide_more", "continue", "end", None):
        session(choice)
        say()
    # The check the user's answers go through, on its own:
    say(f"is_partial_answer('Do you use Kafka?', 'yes') -> {is_partial_answer('Do you use Kafka?', 'yes')}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
