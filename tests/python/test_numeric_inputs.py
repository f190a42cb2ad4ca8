"""Numbers and arrays as NumPy users pass them: magnitudes float32 cannot hold, NumPy scalars, NaT."""

from __future__ import annotations

import array
import subprocess
import sys
import textwrap
from datetime import datetime, timezone
from typing import Any

import numpy as np
import pytest

import sufficient_context as sc
from sufficient_context import _core
from sufficient_context.similarity import cosine_many

QUERY = "What is the punishment for cheating?"
TEXT = "Whoever cheats shall be punished with imprisonment up to seven years."


def _cosine64(a: Any, b: Any) -> float:
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    a, b = a / np.max(np.abs(a)), b / np.max(np.abs(b))
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


@pytest.mark.parametrize("scale", [1e-50, 1e-200, 1e-320, 1e-40])
def test_float64_rows_that_float32_would_flush_to_zero_keep_their_cosine(scale: float) -> None:
    # The float32 cast turned [1e-50, 2e-50] into zeros: a cosine of 0.0 where float64 says 1.0.
    a, b = np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.0, 2.5])
    expected = _cosine64(a, b)
    tiny = a * scale
    assert sc.similarity.cosine(tiny, b) == pytest.approx(expected, abs=1e-5)
    assert sc.similarity.cosine(list(tiny), array.array("d", b * scale)) == pytest.approx(expected, abs=1e-5)
    rows = np.stack([b * scale, b, -b * 1e-300])
    assert sc.similarity.cosine_many(tiny, rows) == pytest.approx([expected, expected, -expected], abs=1e-5)
    assert sc.similarity.cosine_matrix(tiny[None, :], rows)[0] == pytest.approx(
        [expected, expected, -expected], abs=1e-5
    )
    # the checker's embedding relevance: a query_embedding and a model's output, both float64
    checker = sc.SufficientContextChecker()
    chunk = {"content": TEXT, "embedding": b}
    result = checker.check_sufficiency(QUERY, [chunk], query_embedding=tiny)
    assert result.relevance_source == "embedding"
    assert result.signals["relevance"] == pytest.approx(expected, abs=1e-5)
    model = sc.SufficientContextChecker(embedding_model=lambda texts: np.tile(tiny, (len(texts), 1)))
    assert model.check_sufficiency(QUERY, [TEXT]).signals["relevance"] == pytest.approx(1.0, abs=1e-5)


def test_values_beyond_float32_are_named_with_their_value_and_a_chunk_cannot_store_a_vanishing_one() -> None:
    with pytest.raises(ValueError, match=r"a\[1\] is 1e\+300: beyond float32's range"):
        sc.similarity.cosine([1.0, 1e300], [1.0, 1.0])
    with pytest.raises(ValueError, match=r"matrix\[1, 0\] is -1e\+39: beyond float32's range"):
        sc.similarity.cosine_many([1.0, 1.0], [[1.0, 1.0], [-1e39, 1.0]])
    with pytest.raises(ValueError, match=r"a\[0\] is 1e\+4000: beyond float32's range"):
        sc.similarity.cosine(np.array([np.longdouble(10) ** 4000, 1.0], dtype=np.longdouble), [1.0, 1.0])
    with pytest.raises(ValueError, match=r"query_embedding\[2\] is 1e\+300: beyond float32's range"):
        sc.SufficientContextChecker().check_sufficiency(
            QUERY, [{"content": TEXT, "embedding": [1.0, 2.0, 3.0]}], query_embedding=[1.0, 2.0, 1e300]
        )
    # A Chunk stores float32: a value it would make inf, or a vector it would make 0 (a cosine of 0), is refused.
    with pytest.raises(ValueError, match=r"chunks\[0\]\.embedding\[1\] is 1e\+300: beyond float32's range"):
        sc.as_chunks([{"content": TEXT, "embedding": [1.0, 1e300]}])
    with pytest.raises(ValueError, match=r"Chunk\.embedding is too small for float32.*largest magnitude is 2e-50"):
        sc.Chunk(TEXT, embedding=np.array([1e-50, -2e-50]))
    # float32 input, subnormal included, is stored as given
    stored = sc.Chunk(TEXT, embedding=np.array([1e-45, 0.0], dtype=np.float32)).embedding
    assert stored is not None
    assert stored[0] == np.float32(1e-45)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: sc.EvidenceSufficiencyGate().evaluate({"a": np.True_, "b": 0.4}), TypeError, r"\['a'\] must be"),
        (lambda: sc.EvidenceSufficiencyGate().evaluate({"a": 10**400, "b": 1}), ValueError, r"\['a'\] must be fin"),
        (lambda: sc.evaluate_retrieval([{"content": "x", "score": np.True_}]), TypeError, r"\[0\]\.score must be"),
        (lambda: sc.Chunk("x", temperature=np.bool_(False)), TypeError, r"Chunk\.temperature must be a number"),
    ],
)
def test_numpy_bools_are_not_numbers_and_huge_int_weights_are_named(call: Any, error: type, message: str) -> None:
    # np.True_ was read as 1.0 (a flag taken for a full attention weight or a score); 10**400 a bare OverflowError
    with pytest.raises(error, match=message):
        call()


class _NaT(datetime):
    """pandas.NaT's behaviour: a datetime that has no point in time."""

    def timestamp(self) -> float:
        raise ValueError("NaTType does not support timestamp")


def test_numpy_posix_seconds_are_timestamps_and_a_datetime_without_a_time_is_named() -> None:
    checker = sc.SufficientContextChecker()
    now = datetime(2024, 6, 1, tzinfo=timezone.utc)
    expected = checker.check_sufficiency(QUERY, [{"content": TEXT, "timestamp": 1714521600}], now=now)
    for seconds in (np.int64(1714521600), np.uint32(1714521600), np.float32(1714521600), np.float64(1714521600)):
        chunk = sc.Chunk(TEXT, timestamp=seconds)
        assert chunk.timestamp == datetime(2024, 5, 1, tzinfo=timezone.utc)
        got = checker.check_sufficiency(QUERY, [{"content": TEXT, "timestamp": seconds}], now=now)
        assert got.signals["recency"] == expected.signals["recency"] > 0
    with pytest.raises(TypeError, match=r"Chunk\.timestamp must be"):
        sc.Chunk(TEXT, timestamp=np.bool_(True))
    nat = _NaT(2000, 1, 1)
    with pytest.raises(ValueError, match=r"chunks\[0\]\.timestamp is not a point in time"):
        sc.as_chunks([{"content": TEXT, "timestamp": nat}])
    with pytest.raises(ValueError, match=r"now is not a point in time"):
        checker.check_sufficiency(QUERY, [{"content": TEXT, "timestamp": 1714521600}], now=nat)


@pytest.mark.parametrize(
    "value",
    [
        [0.25, -1.5, 3.0],
        (0.25, -0.0, float("nan"), float("inf")),
        [[0.5, 1.5], [2.5, -3.5], [1e-300, 1e300]],
        [(0.5, 1.5), [2.5, 3.5]],  # rows of either kind, as NumPy reads them
        [[0.5]],
    ],
)
def test_lists_of_floats_are_read_in_c_as_numpy_reads_them(value: Any) -> None:
    fast = _core.similarity.float_rows(value)
    assert fast is not None
    expected = np.asarray(value)
    assert fast.dtype == expected.dtype == np.float64
    assert fast.shape == expected.shape
    np.testing.assert_array_equal(fast, expected)
    assert np.signbit(fast).tolist() == np.signbit(expected).tolist()  # -0.0 stays -0.0


@pytest.mark.parametrize(
    "value",
    [
        [],
        [[]],
        [1, 2.0],  # an int: NumPy's to read
        [2.0, 1],
        [[0.5, 1.5], [2.5]],  # ragged: NumPy names it
        [[0.5], 0.5],
        [[[0.5]]],
        [True, 0.5],
        [np.float64(0.5)],  # a float subclass
        [np.float32(0.5)],
        ["0.5"],
        "0.5",
        np.array([0.5]),
        {0.5: 1},
    ],
)
def test_anything_else_is_left_to_numpy(value: Any) -> None:
    assert _core.similarity.float_rows(value) is None


def test_a_finalizer_changing_the_list_while_it_is_read_does_not_crash() -> None:
    # Allocating the array collected garbage, and a finalizer that grew the list freed the items float_rows was
    # about to read: a segmentation fault (run apart, so that it fails the test, not the session).
    code = textwrap.dedent(
        """
        import gc
        import numpy as np
        from sufficient_context._args import real_array
        rows = [[0.5, 1.5]] * 4
        class Cycle:
            def __del__(self):
                rows[:] = [[2.5, 3.5]] * 100_000
        gc.set_threshold(1, 1, 1)
        for _ in range(200):
            cycle = Cycle()
            cycle.me = cycle
            del cycle
            got = real_array(rows, np.float64, "embeddings")
            assert got.shape in {(4, 2), (100_000, 2)}, got.shape
            assert got[0].tolist() in ([0.5, 1.5], [2.5, 3.5]), got[0]
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_embeddings_given_as_lists_are_checked_as_before() -> None:
    # The fast reader only reads: every refusal of real_array still names the argument.
    with pytest.raises(TypeError, match=r"matrix must be an array of real numbers; got <U3 values"):
        cosine_many([0.5, 0.5], [["0.5", "0.5"]])
    with pytest.raises(TypeError, match="matrix must be an array of real numbers"):
        cosine_many([0.5, 0.5], [[0.5, 0.5], [0.5]])
    with pytest.raises(ValueError, match=r"matrix\[1, 0\] is 1e\+300: beyond float32's range"):
        cosine_many([0.5, 0.5], [[0.5, 0.5], [1e300, 0.5]])
    np.testing.assert_allclose(cosine_many([1.0, 0.0], [[1e-300, 0.0], [0.0, 2.0]]), [1.0, 0.0])
