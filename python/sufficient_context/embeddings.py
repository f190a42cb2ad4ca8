"""Embedding model adapters: one interface over the models users already have, recognised by duck typing.

Recognised, in this order (no library is imported):

- LangChain ``Embeddings``: ``embed_documents(texts)`` and ``embed_query(text)``;
- LlamaIndex ``BaseEmbedding``: ``get_text_embedding_batch(texts)`` and ``get_query_embedding(text)``;
- sentence-transformers style: ``encode(texts)`` returning a 2-D array;
- a plain callable ``texts -> 2-D array``, or ``text -> 1-D vector`` (one text at a time: recognised on the first
  call, when given a list it fails or returns one vector, and then called once per text).

LangChain and LlamaIndex models embed the query with their query method (asymmetric models embed queries and
documents differently), so a check makes at most one document call and one query call. The other two get the
query and the documents in one call.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Callable

from ._args import real_array

if TYPE_CHECKING:  # NumPy is imported when a model is used
    import numpy as np
    from numpy.typing import NDArray

    _Array = NDArray[np.float64]

__all__ = ["EmbeddingAdapter", "as_embedding_model"]


class EmbeddingAdapter:
    """A uniform view of an embedding model.

    Parameters
    ----------
    model : object
        Any of the recognised model kinds (see the module docstring).
    """

    __slots__ = ("_documents", "_query", "_single", "kind", "model")

    def __init__(self, model: Any) -> None:
        self.model = model
        self._single: bool | None = None  # callable kind: takes one text at a time (decided on the first call)
        self._query: Callable[[str], Any] | None = None
        self._documents: Callable[[list[str]], Any]
        if callable(getattr(model, "embed_documents", None)) and callable(getattr(model, "embed_query", None)):
            self.kind = "langchain"
            self._documents, self._query = model.embed_documents, model.embed_query
        elif callable(getattr(model, "get_text_embedding_batch", None)) and callable(
            getattr(model, "get_query_embedding", None)
        ):
            self.kind = "llamaindex"
            self._documents, self._query = model.get_text_embedding_batch, model.get_query_embedding
        elif callable(getattr(model, "encode", None)):
            self.kind = "encode"
            self._documents = model.encode
        elif callable(model):
            self.kind = "callable"
            self._documents = model
        else:
            raise TypeError(
                "embedding_model must have .encode(texts) (sentence-transformers), embed_documents/embed_query "
                "(LangChain), get_text_embedding_batch/get_query_embedding (LlamaIndex), or be a callable "
                f"texts -> 2-D array; got {type(model).__name__}"
            )

    def __repr__(self) -> str:
        return f"EmbeddingAdapter({self.model!r}, kind={self.kind!r})"

    def embed(self, query: str | None, texts: Sequence[str]) -> tuple[_Array | None, _Array]:
        """Embed `query` (unless None) and `texts` with as few model calls as the model kind allows.

        Returns
        -------
        (query vector of shape (d,) or None, matrix of shape (len(texts), d))
            As float64. Raises ValueError when the model returns the wrong number of vectors or a non-2-D result;
            NaN and dimension checks are the caller's (it knows which chunk a row belongs to).
        """
        import numpy as np

        texts = list(texts)
        if self._query is None:  # one call for everything
            batch = ([query] if query is not None else []) + texts
            if not batch:
                return None, np.zeros((0, 0))
            matrix = self._callable_matrix(batch) if self.kind == "callable" else None
            if matrix is None:
                matrix = _as_matrix(self._documents(batch), len(batch), self.kind)
            if query is None:
                return None, matrix
            return matrix[0], matrix[1:]
        qvec = None
        if query is not None:
            qvec = _as_vector(self._query(query), self.kind)
        if not texts:
            return qvec, np.zeros((0, qvec.shape[0] if qvec is not None else 0))
        return qvec, _as_matrix(self._documents(texts), len(texts), self.kind)

    def _callable_matrix(self, batch: list[str]) -> _Array:
        """A plain callable's vectors: one call with the list, or one call per text for a function of one text."""
        import numpy as np

        if self._single is not True:
            try:
                array = _as_array(self._documents(batch), self.kind)
            except (TypeError, AttributeError, ValueError):
                if self._single is False:  # known to take lists: the error is the model's own
                    raise
                array = None
            if array is not None and array.ndim == 2 and array.shape[0] == len(batch) and array.shape[1] > 0:
                self._single = False
                return array
            if self._single is False or (array is not None and array.ndim != 1):
                return _as_matrix(array, len(batch), self.kind)  # raises, naming the shape
        one_text: Callable[[Any], Any] = self._documents
        rows = [_as_vector(one_text(text), self.kind) for text in batch]
        if len({row.shape[0] for row in rows}) > 1:
            raise ValueError(f"the embedding model ({self.kind}) returned vectors of different lengths")
        self._single = True
        return np.stack(rows)


def as_embedding_model(model: Any) -> EmbeddingAdapter:
    """Return `model` wrapped in an `EmbeddingAdapter` (an adapter is returned as is); TypeError if unrecognised."""
    return model if isinstance(model, EmbeddingAdapter) else EmbeddingAdapter(model)


def _as_array(value: Any, kind: str) -> NDArray[Any]:
    import numpy as np

    if hasattr(value, "detach") and hasattr(value, "cpu"):  # a torch tensor (encode without convert_to_numpy)
        value = value.detach().cpu().numpy()
    try:
        return real_array(value, np.float64, f"the embedding model's output ({kind})")
    except TypeError as exc:
        raise ValueError(str(exc)) from None


def _as_matrix(value: Any, rows: int, kind: str) -> _Array:
    array = _as_array(value, kind)
    if array.ndim != 2 or array.shape[0] != rows or array.shape[1] == 0:
        raise ValueError(
            f"the embedding model ({kind}) returned shape {array.shape} for {rows} text(s); "
            f"expected ({rows}, d) with d >= 1"
        )
    return array


def _as_vector(value: Any, kind: str) -> _Array:
    array = _as_array(value, kind)
    if array.ndim == 2 and array.shape[0] == 1:
        array = array[0]
    if array.ndim != 1 or array.shape[0] == 0:
        raise ValueError(f"the embedding model ({kind}) returned shape {array.shape} for the query; expected (d,)")
    return array
