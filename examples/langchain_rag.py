"""An offline RAG chain in LangChain, guarded by sufficient-context: no API key, no network, no model download.

    pip install 'sufficient-context[langchain]'
    python examples/langchain_rag.py

An in-memory vector store holds three statute paragraphs (the package's sample corpus). A guard retriever checks what
retrieval found before any model is called; the grounded answering pipeline, as a Runnable, prompts a (fake) chat
model with the paragraphs labelled S1..Sn and removes the sentences of its answer that they do not support; an LCEL
chain does the same with ``claim_validator``. The off-topic question is refused before the model is called. Swap the
toy embeddings and the fake model for real ones (``OpenAIEmbeddings``, ``ChatOpenAI``, ...) and nothing else changes.
"""

from __future__ import annotations

import re
import zlib

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.retrievers import BaseRetriever
from langchain_core.vectorstores import InMemoryVectorStore

import sufficient_context as sc
from sufficient_context._samples import SAMPLE_CHUNKS
from sufficient_context.integrations.langchain import (
    GroundedAnswererRunnable,
    SufficiencyCallbackHandler,
    SufficiencyGuardRetriever,
    claim_validator,
)

QUESTION = "What is the punishment for cheating under Section 420 of the Indian Penal Code?"
OFF_TOPIC = "What is the capital of France?"
# What the "model" answers: one sentence the statute states, one it does not (it never mentions bail).
MODEL_ANSWER = (
    "Cheating under Section 420 is punishable with imprisonment of up to seven years and a fine [S1]. "
    "The offence is bailable [S1]."
)


class BagOfWordsEmbeddings(Embeddings):
    """A toy embedding: hashed counts of the content words (plus a constant, so no vector is zero)."""

    def __init__(self, size: int = 1024) -> None:
        self.size = size

    def _vector(self, text: str) -> list[float]:
        vector = [0.0] * self.size + [0.1]
        for word in re.findall(r"[a-z0-9]+", text.lower()):
            if word not in sc.STOPWORDS:
                vector[zlib.crc32(word.encode()) % self.size] += 1.0
        return vector

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._vector(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vector(text)


class ScoredRetriever(BaseRetriever):
    """The store's top-k with each cosine in ``metadata["score"]`` (a plain ``as_retriever()`` drops the scores)."""

    store: InMemoryVectorStore
    k: int = 3

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        found = self.store.similarity_search_with_score(query, k=self.k)
        return [doc.model_copy(update={"metadata": {**doc.metadata, "score": score}}) for doc, score in found]


def main() -> None:
    store = InMemoryVectorStore(BagOfWordsEmbeddings())
    store.add_documents(
        [Document(page_content=str(c["content"]), metadata=dict(c["metadata"]), id=str(c["id"])) for c in SAMPLE_CHUNKS]
    )
    # Refuse (return no documents) when the context cannot answer, or fewer than 2 documents reach cosine 0.1.
    guard = SufficiencyGuardRetriever(
        retriever=ScoredRetriever(store=store), on_insufficient="return_refusal", gate_min_score=0.1
    )
    model = GenericFakeChatModel(messages=iter([MODEL_ANSWER, MODEL_ANSWER]))
    monitor = SufficiencyCallbackHandler()
    config = {"callbacks": [monitor]}

    # 1. The whole pipeline as one Runnable: retrieve (guarded), prompt, generate, validate, cite.
    rag = GroundedAnswererRunnable(sc.GroundedAnswerer(min_score=0.1), retriever=guard, llm=model)  # same gate
    result = rag.invoke(QUESTION, config=config)
    print(f"Q: {QUESTION}")
    print(f"[{result.status}] sufficiency {guard.last_result.level.value if guard.last_result else '-'}")
    print(result.text)
    print("Removed as unsupported:", "; ".join(result.removed_sentences) or "nothing")
    print()

    # 2. The same check in a hand-written LCEL chain: prompt | model | claim_validator.
    documents = guard.invoke(QUESTION)
    prompt = ChatPromptTemplate.from_messages(
        [("system", "Answer from the context only, citing [S1]..[Sn].\n\n{context}"), ("human", "{question}")]
    )
    labelled = [doc.model_copy(update={"id": f"S{i}"}) for i, doc in enumerate(documents, start=1)]
    chain = prompt | model | claim_validator(documents=labelled)
    validated = chain.invoke({"context": sc.format_context(labelled), "question": QUESTION}, config=config)
    print(f"LCEL chain, validated answer: {validated}")
    print()

    # 3. Off topic: the guard refuses, so the model is never called.
    refused = rag.invoke(OFF_TOPIC, config=config)
    print(f"Q: {OFF_TOPIC}")
    print(f"[{refused.status}] {refused.answer}")
    if guard.last_refusal is not None:
        print(f"Refused by the guard: {guard.last_refusal}")
    print()
    print("Retrievals checked:", monitor.stats.get_stats()["total_checks"], "| monitor errors:", len(monitor.errors))


if __name__ == "__main__":
    main()
