"""LlamaIndex, end to end and offline: an index over the sample legal corpus, the sufficiency postprocessor, the
grounded query engine (one question answered, an off-topic one refused) and the two evaluators in a BatchEvalRunner.

    pip install 'sufficient-context[llamaindex]'
    python examples/llamaindex_rag.py

No model, no key, no network: the vectors come from a small fixed "topic" embedding defined below, and the grounded
engine uses the package's extractive answerer. With a real stack, pass your embedding model to the index and
``llm=your_llm`` to ``GroundedQueryEngine``; nothing else changes.
"""

from __future__ import annotations

import re

from llama_index.core import Settings, VectorStoreIndex
from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.evaluation import BatchEvalRunner
from llama_index.core.llms import MockLLM
from llama_index.core.schema import TextNode

from sufficient_context._samples import (
    SAMPLE_ANSWER,
    SAMPLE_CHUNKS,
    SAMPLE_OFF_TOPIC_QUERY,
    SAMPLE_QUERY,
    SAMPLE_UNANSWERED_QUERY,
)
from sufficient_context.integrations.llamaindex import (
    ClaimCoverageEvaluator,
    GroundedQueryEngine,
    SufficiencyEvaluator,
    SufficiencyPostprocessor,
)

# One dimension per topic; a text's vector counts the words starting with one of the topic's stems, plus a small
# constant so that no vector is zero. Deterministic stand-in for a real embedding model.
TOPICS = (
    ("cheat", "deceiv", "dishonest", "fraud"),
    ("punish", "imprison", "fine", "penal", "penalty"),
    ("section", "420", "415", "code"),
    ("police", "offence", "cognizable", "information", "officer"),
)
_WORD = re.compile(r"[a-z0-9]+")


class TopicEmbedding(BaseEmbedding):
    """Fixed vectors for the example: ``[count of topic-1 words, ..., count of topic-4 words, 0.1]``."""

    def _vector(self, text: str) -> list[float]:
        words = _WORD.findall(text.lower())
        return [float(sum(w.startswith(stems) for w in words)) for stems in TOPICS] + [0.1]

    def _get_query_embedding(self, query: str) -> list[float]:
        return self._vector(query)

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._vector(query)

    def _get_text_embedding(self, text: str) -> list[float]:
        return self._vector(text)


def main() -> None:
    embed_model = TopicEmbedding()
    # Set both globals, so that nothing can fall back to a remote default model (everything below also passes them).
    Settings.llm = MockLLM()
    Settings.embed_model = embed_model

    nodes = [TextNode(text=str(c["content"]), id_=str(c["id"]), metadata=dict(c["metadata"])) for c in SAMPLE_CHUNKS]
    index = VectorStoreIndex(nodes, embed_model=embed_model)
    retriever = index.as_retriever(similarity_top_k=3)

    print("== SufficiencyPostprocessor (retrieval gate 0.20 x 2, then the sufficiency check)")
    postprocessor = SufficiencyPostprocessor(min_score=0.20, min_chunks=2)
    for question in (SAMPLE_QUERY, SAMPLE_UNANSWERED_QUERY, SAMPLE_OFF_TOPIC_QUERY):
        retrieved = retriever.retrieve(question)
        kept = postprocessor.postprocess_nodes(retrieved, query_str=question)
        scores = ", ".join(f"{n.node.node_id} {n.score:.2f}" for n in retrieved)
        print(f"Q: {question}\n   retrieved: {scores}")
        if postprocessor.last_refused:
            refusal = kept[0].node
            print(f"   refused ({refusal.metadata['status']}): {refusal.get_content()}")
        else:
            verdict = kept[0].node.metadata["sufficiency"]
            ids = ", ".join(n.node.node_id for n in kept)
            print(f"   kept {ids}: {verdict['level']} (score {verdict['score']:.2f})")

    print("\n== GroundedQueryEngine (extractive answerer; pass llm=... to use a model)")
    engine = GroundedQueryEngine(retriever)
    questions = [SAMPLE_QUERY, SAMPLE_OFF_TOPIC_QUERY]
    responses = [engine.query(question) for question in questions]
    for question, response in zip(questions, responses):
        assert response.metadata is not None
        print(f"Q: {question}\n[{response.metadata['status']}] {response.response}")
        for i, source in enumerate(response.source_nodes, start=1):
            print(f"   [S{i}] {source.node.node_id} (score {source.score:.2f})")

    print("\n== Evaluators in a BatchEvalRunner")
    runner = BatchEvalRunner({"sufficiency": SufficiencyEvaluator(), "claims": ClaimCoverageEvaluator()}, workers=2)
    results = runner.evaluate_responses(queries=questions, responses=responses)
    for name, evaluations in results.items():
        for question, evaluation in zip(questions, evaluations):
            verdict = "pass" if evaluation.passing else "FAIL"
            print(f"{name:<11} {verdict} score {evaluation.score:.2f}  {question}\n   {evaluation.feedback}")

    print("\n== ClaimCoverageEvaluator on an answer with an unsupported sentence")
    evaluation = ClaimCoverageEvaluator().evaluate(query=SAMPLE_QUERY, response=SAMPLE_ANSWER, contexts=nodes)
    print(f"{'pass' if evaluation.passing else 'FAIL'} score {evaluation.score:.2f}\n{evaluation.feedback}")


if __name__ == "__main__":
    main()
