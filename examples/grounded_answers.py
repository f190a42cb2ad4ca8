"""Three questions over the package's sample legal corpus, answered by the grounded pipeline with no model and no key.

    python examples/grounded_answers.py

One is answered, one is answered with a caveat (the context covers it only in part), one is declined (the chunks never
say whether cheating is bailable). Pass ``generate=`` to ``answer`` to use a real model instead of the built-in
extractive answerer: any ``(system_prompt, user_prompt) -> str`` callable, a LangChain chat model or a LlamaIndex LLM.
"""

from __future__ import annotations

import sufficient_context as sc
from sufficient_context._samples import SAMPLE_CHUNKS

# What a retriever returns: the chunks with their similarity scores.
RETRIEVED = [dict(chunk, score=score) for chunk, score in zip(SAMPLE_CHUNKS, (0.83, 0.61, 0.22))]

QUESTIONS = (
    "What is the punishment for cheating under Section 420 of the Indian Penal Code?",
    "How is cheating defined and punished?",
    "Is cheating under Section 420 bailable?",
)


def main() -> None:
    answerer = sc.GroundedAnswerer()  # retrieval gate 0.20 x 2 chunks, decline on insufficient context
    for question in QUESTIONS:
        result = answerer.answer(question, RETRIEVED)
        print(f"Q: {question}")
        print(f"[{result.status}] confidence {result.confidence:.2f}, sufficiency "
              f"{result.sufficiency['level'] if result.sufficiency else '-'}")  # fmt: skip
        print(result.text)
        print()


if __name__ == "__main__":
    main()
