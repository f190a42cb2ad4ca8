"""Embedding adapters (duck-typed models) and embedding relevance in SufficientContextChecker."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from sufficient_context.checker import SufficientContextChecker
from sufficient_context.embeddings import EmbeddingAdapter, as_embedding_model

VECTORS = {"q": [1.0, 0.0, 0.0], "near": [3.0, 4.0, 0.0], "far": [0.0, 0.0, 1.0], "anti": [-1.0, 0.0, 0.0]}


def _vec(text: str) -> list[float]:
    return VECTORS.get(text, [0.0, 1.0, 0.0])


class SentenceTransformerLike:
    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def encode(self, texts: list[str]) -> np.ndarray:
        self.calls.append(list(texts))
        return np.array([_vec(t) for t in texts], dtype=np.float32)


class LangChainLike:
    def __init__(self) -> None:
        self.documents: list[list[str]] = []
        self.queries: list[str] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.documents.append(list(texts))
        return [_vec(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        self.queries.append(text)
        return _vec(text)


class LlamaIndexLike:
    def __init__(self) -> None:
        self.documents: list[list[str]] = []
        self.queries: list[str] = []

    def get_text_embedding_batch(self, texts: list[str], show_progress: bool = False) -> list[list[float]]:
        self.documents.append(list(texts))
        return [_vec(t) for t in texts]

    def get_query_embedding(self, query: str) -> list[float]:
        self.queries.append(query)
        return _vec(query)


class CallableModel:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, texts: list[str]) -> list[list[float]]:
        self.calls += 1
        return [_vec(t) for t in texts]


class TensorLike:  # what sentence-transformers returns with convert_to_tensor=True
    def __init__(self, array: np.ndarray) -> None:
        self._array = array

    def detach(self) -> TensorLike:
        return self

    def cpu(self) -> TensorLike:
        return self

    def numpy(self) -> np.ndarray:
        return self._array


def test_adapters_are_recognised_by_duck_typing() -> None:
    assert as_embedding_model(SentenceTransformerLike()).kind == "encode"
    assert as_embedding_model(LangChainLike()).kind == "langchain"
    assert as_embedding_model(LlamaIndexLike()).kind == "llamaindex"
    assert as_embedding_model(CallableModel()).kind == "callable"
    adapter = as_embedding_model(CallableModel())
    assert as_embedding_model(adapter) is adapter
    with pytest.raises(TypeError, match=r"embedding_model must have \.encode"):
        EmbeddingAdapter(object())
    with pytest.raises(TypeError, match=r"embedding_model must have \.encode"):
        SufficientContextChecker(42)


@pytest.mark.parametrize("scoring", ["default", "reference"])
def test_one_encode_call_per_check(scoring: str) -> None:
    model = SentenceTransformerLike()
    checker = SufficientContextChecker(model, scoring=scoring)
    r = checker.check_sufficiency("q", ["near", "far", {"content": "own", "embedding": [0.0, 0.0, 2.0]}])
    assert model.calls == [["q", "near", "far"]]  # the query and the chunks lacking an embedding, together
    assert r.relevance_source == "embedding"
    assert r.signals["relevance"] == pytest.approx(0.6, abs=1e-6)
    assert "High semantic relevance" not in " ".join(r.confidence_factors)


def test_langchain_and_llamaindex_use_their_query_methods() -> None:
    for model in (LangChainLike(), LlamaIndexLike()):
        r = SufficientContextChecker(model).check_sufficiency("q", ["near", "far"])
        assert model.queries == ["q"]
        assert model.documents == [["near", "far"]]
        assert r.signals["relevance"] == pytest.approx(0.6, abs=1e-6)


def test_query_embedding_and_own_embeddings_spare_the_model() -> None:
    model = CallableModel()
    checker = SufficientContextChecker(model)
    chunks = [{"content": "x", "embedding": [3.0, 4.0, 0.0]}]
    r = checker.check_sufficiency("ignored", chunks, query_embedding=[1.0, 0.0, 0.0])
    assert model.calls == 0
    assert r.signals["relevance"] == pytest.approx(0.6, abs=1e-6)
    checker.check_sufficiency("q", chunks)  # the query needs the model
    assert model.calls == 1


def test_relevance_is_clipped_in_default_and_not_in_reference() -> None:
    model = CallableModel()
    assert SufficientContextChecker(model).check_sufficiency("q", ["anti"]).signals["relevance"] == 0.0
    reference = SufficientContextChecker(model, scoring="reference").check_sufficiency("q", ["anti"])
    assert reference.signals["relevance"] == -1.0
    # "q" has no term of 3+ letters: coverage 1.0
    assert reference.score == 0.4 * 1.0 + 0.3 * -1.0 + 0.2 * ((4 / 1000 + 37 / 50) / 2) + 0.1 * 1.0


def test_high_semantic_relevance_factor() -> None:
    r = SufficientContextChecker(CallableModel()).check_sufficiency("q", ["q"])
    assert r.signals["relevance"] == pytest.approx(1.0, abs=1e-6)
    assert r.confidence_factors[-1] == "High semantic relevance (100%)"


def test_dimension_mismatch_names_the_chunk() -> None:
    checker = SufficientContextChecker(CallableModel())
    chunks = ["near", {"id": "doc-7", "content": "x", "embedding": [1.0, 2.0]}]
    with pytest.raises(ValueError, match=r"retrieved_contexts\[1\] \(id 'doc-7'\): its embedding has dimension 2 but "
                                         r"the query's has 3"):  # fmt: skip
        checker.check_sufficiency("q", chunks)
    with pytest.raises(ValueError, match=r"retrieved_contexts\[0\] \(id 'S1'\): the model's embedding has dimension 3"):
        SufficientContextChecker(CallableModel()).check_sufficiency("q", ["near"], query_embedding=[1.0, 0.0])


def test_nan_from_the_model_names_the_chunk() -> None:
    def model(texts: list[str]) -> list[list[float]]:
        return [[float("nan"), 0.0] if t == "bad" else [1.0, 0.0] for t in texts]

    checker = SufficientContextChecker(model)
    with pytest.raises(ValueError, match=r"retrieved_contexts\[2\] \(id 'S3'\): the embedding model returned NaN"):
        checker.check_sufficiency("q", ["a", "b", "bad"])
    with pytest.raises(ValueError, match="returned NaN or inf for the query"):
        checker.check_sufficiency("bad", ["a"])
    with pytest.raises(ValueError, match=r"query_embedding\[1\] is inf"):
        checker.check_sufficiency("q", ["a"], query_embedding=[1.0, float("inf")])
    with pytest.raises(ValueError, match=r"retrieved_contexts\[0\].embedding\[0\] is nan"):
        checker.check_sufficiency("q", [{"content": "a", "embedding": [float("nan"), 1.0]}])


def test_missing_model_or_query_embedding() -> None:
    checker = SufficientContextChecker()
    # Chunk embeddings with nothing to embed the query (a vector store's nodes): relevance stays lexical.
    with_vectors = checker.check_sufficiency("q a", [{"content": "a", "embedding": [1.0, 0.0]}])
    assert with_vectors.relevance_source == "lexical"
    assert with_vectors.to_dict() | {"elapsed_ms": 0} == checker.check_sufficiency("q a", ["a"]).to_dict() | {
        "elapsed_ms": 0
    }
    with pytest.raises(ValueError, match=r"retrieved_contexts\[1\] \(id 'S2'\) has no embedding and there is no "
                                         "embedding_model"):  # fmt: skip
        checker.check_sufficiency("q", [{"content": "a", "embedding": [1.0, 0.0]}, "b"], query_embedding=[1.0, 0.0])
    assert checker.check_sufficiency("q", [], query_embedding=[1.0]).score == 0.0


def test_model_returning_the_wrong_shape() -> None:
    checker = SufficientContextChecker(lambda texts: [[1.0, 0.0]])
    with pytest.raises(ValueError, match=r"returned shape \(1, 2\) for 2 text\(s\)"):
        checker.check_sufficiency("q", ["a"])


def test_tensor_outputs_are_converted() -> None:
    class TensorModel:
        def encode(self, texts: list[str]) -> TensorLike:
            return TensorLike(np.array([_vec(t) for t in texts], dtype=np.float32))

    r = SufficientContextChecker(TensorModel()).check_sufficiency("q", ["near"])
    assert r.signals["relevance"] == pytest.approx(0.6, abs=1e-6)


def test_batch_encodes_once_per_query_and_equals_sequential() -> None:
    model = SentenceTransformerLike()
    checker = SufficientContextChecker(model)
    queries = ["q", "near", "far"]
    contexts: list[list[Any]] = [["near", "far"], ["q"], [{"content": "x", "embedding": [0.0, 0.0, 1.0]}]]
    batch = checker.check_batch(queries, contexts)
    assert model.calls == [["q", "near", "far"], ["near", "q"], ["far"]]
    for q, c, got in zip(queries, contexts, batch):
        assert got == checker.check_sufficiency(q, c)


def test_require_embeddings() -> None:
    with pytest.raises(ValueError, match="require_embeddings=True needs an embedding_model"):
        SufficientContextChecker(require_embeddings=True)
    assert SufficientContextChecker(CallableModel(), require_embeddings=True).require_embeddings


def test_a_callable_of_one_text_works_like_a_batch_encoder() -> None:
    calls: list[object] = []

    def one(text: str) -> list[float]:  # fails on a list: text.lower()
        calls.append(text)
        return _vec(text.lower())

    def batch(texts: list[str]) -> np.ndarray:
        return np.array([_vec(t.lower()) for t in texts])

    chunks = [{"id": "a", "content": "Cheating is punished with prison."}, {"id": "b", "content": "Rain in Paris."}]
    query = "punishment for cheating"
    single = SufficientContextChecker(embedding_model=one)
    want = SufficientContextChecker(embedding_model=batch).check_sufficiency(query, chunks)
    got = single.check_sufficiency(query, chunks)
    assert got.score == want.score
    assert got.signals == want.signals
    first = len(calls)  # one probing call with the list (it failed), then one call per text
    assert first == 1 + 3
    single.check_sufficiency(query, chunks)
    assert len(calls) == first + 3  # decided once: no probing call any more

    def returns_one_vector_for_a_list(texts: object) -> list[float]:
        return _vec(str(texts))

    adapter = as_embedding_model(returns_one_vector_for_a_list)
    assert adapter.embed("q", ["a b", "c"])[1].shape == (2, len(_vec("x")))

    def ragged(text: str) -> list[float]:
        return [1.0] * len(text)

    with pytest.raises(ValueError, match="vectors of different lengths"):
        as_embedding_model(ragged).embed("query", ["a", "bb"])
