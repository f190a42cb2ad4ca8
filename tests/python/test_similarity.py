"""Python surface of the cosine kernels: NumPy float64 as the oracle, every SIMD path pinned."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from sufficient_context import similarity as sim
from sufficient_context._core import similarity as core

ALL_PATHS = ("serial", "avx2", "avx512")
SUPPORTED = tuple(core._supported_simd_paths())


def reference(query: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """Cosine in float64 of the float32-rounded inputs (what the kernels receive); 0 for zero rows."""
    q = np.asarray(query, dtype=np.float32).astype(np.float64)
    m = np.asarray(matrix, dtype=np.float32).astype(np.float64).reshape(-1, q.shape[0])
    norms = np.linalg.norm(m, axis=1) * np.linalg.norm(q)
    dots = m @ q
    out = np.zeros(m.shape[0])
    nonzero = norms > 0
    out[nonzero] = dots[nonzero] / norms[nonzero]
    return out


def exactly(message: str) -> str:
    """A `match` pattern accepting this message and nothing else."""
    return f"^{re.escape(message)}$"


@pytest.fixture
def pinned() -> Iterator[None]:
    """Restore the default kernel after a test that forces one."""
    yield
    core._set_simd_path(None)


# ---- Hypothesis properties ----

finite32 = st.floats(min_value=-1e4, max_value=1e4, allow_nan=False, width=32)


@st.composite
def query_and_matrix(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray]:
    d = draw(st.integers(1, 130))
    n = draw(st.integers(0, 12))
    query = draw(hnp.arrays(np.float32, (d,), elements=finite32))
    matrix = draw(hnp.arrays(np.float32, (n, d), elements=finite32))
    return query, matrix


def layouts(matrix: np.ndarray) -> list[object]:
    """The same values as C-contiguous float32, float64, Fortran order, a strided view and a list."""
    wide = np.zeros((matrix.shape[0], 2 * matrix.shape[1]), dtype=np.float32)
    wide[:, ::2] = matrix
    return [
        matrix,
        matrix.astype(np.float64),
        np.asfortranarray(matrix),
        wide[:, ::2],
        matrix.tolist(),
    ]


@settings(max_examples=150, deadline=None)
@given(query_and_matrix())
def test_cosine_many_matches_numpy_float64_in_every_layout(data: tuple[np.ndarray, np.ndarray]) -> None:
    query, matrix = data
    want = reference(query, matrix)
    for m in layouts(matrix):
        got = sim.cosine_many(query, m)
        assert got.dtype == np.float32
        assert got.shape == (matrix.shape[0],)
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-5)
        assert np.all(np.abs(got) <= 1.0)


@settings(max_examples=150, deadline=None)
@given(query_and_matrix())
def test_cosine_is_symmetric_and_bounded(data: tuple[np.ndarray, np.ndarray]) -> None:
    query, matrix = data
    for row in matrix:
        ab = sim.cosine(query, row)
        ba = sim.cosine(row, query.tolist())
        assert isinstance(ab, float)
        assert -1.0 <= ab <= 1.0
        assert ab == pytest.approx(ba, abs=1e-6)
        assert ab == pytest.approx(reference(query, row[None])[0], abs=1e-5)


@settings(max_examples=60, deadline=None)
@given(query_and_matrix(), st.integers(1, 5))
def test_cosine_matrix_equals_rows_of_cosine_many(data: tuple[np.ndarray, np.ndarray], q: int) -> None:
    query, matrix = data
    rng = np.random.default_rng(q)
    queries = np.vstack([query, rng.normal(size=(q - 1, query.shape[0])).astype(np.float32)])
    got = sim.cosine_matrix(queries, matrix)
    assert got.shape == (q, matrix.shape[0])
    assert got.dtype == np.float32
    for i in range(q):
        np.testing.assert_allclose(got[i], reference(queries[i], matrix), rtol=0, atol=1e-5)


# ---- Long vectors and every kernel ----


@pytest.mark.parametrize("path", SUPPORTED)
@pytest.mark.parametrize("d", [1, 7, 8, 17, 64, 384, 1536, 4096])
def test_each_kernel_matches_numpy(path: str, d: int, pinned: None) -> None:
    rng = np.random.default_rng(d)
    matrix = rng.normal(0.2, 1.0, size=(50, d)).astype(np.float32)
    query = rng.normal(0.2, 1.0, size=d).astype(np.float32)
    core._set_simd_path(path)
    assert sim.simd_path() == path
    np.testing.assert_allclose(sim.cosine_many(query, matrix), reference(query, matrix), rtol=0, atol=1e-5)
    np.testing.assert_allclose(
        sim.cosine_matrix(matrix[:3], matrix), [reference(r, matrix) for r in matrix[:3]], rtol=0, atol=1e-5
    )


@pytest.mark.parametrize("path", SUPPORTED)
def test_every_length_to_67_and_every_row_start_on_each_kernel(path: str, pinned: None) -> None:
    # Lengths around the unrolled steps (8, 16, 32, 64 floats) and their scalar or masked tails. With an odd d the
    # 17 rows start at every float offset of a cache line; the shifted copy starts one float past NumPy's alignment.
    rng = np.random.default_rng(21)
    core._set_simd_path(path)
    for d in range(1, 68):
        matrix = rng.normal(0.1, 1.0, size=(17, d)).astype(np.float32)
        query = rng.normal(0.1, 1.0, size=d).astype(np.float32)
        want = reference(query, matrix)
        shifted = np.empty(17 * d + 1, dtype=np.float32)[1:].reshape(17, d)
        shifted[...] = matrix
        for m in (matrix, shifted):
            np.testing.assert_allclose(sim.cosine_many(query, m), want, rtol=0, atol=1e-5, err_msg=f"d={d}")
            np.testing.assert_allclose(sim.cosine_matrix(m[:2], m)[1], reference(matrix[1], matrix), atol=1e-5)
        bad = matrix.copy()
        bad[5, d - 1] = np.nan  # in the tail, wherever the tail starts
        with pytest.raises(ValueError, match=exactly(f"matrix[5, {d - 1}] is nan: inputs must be finite")):
            sim.cosine_many(query, bad)


LENGTHS_SCRIPT = """
import numpy as np
from sufficient_context import similarity as sim
rng = np.random.default_rng(8)
print(sim.simd_path())
for d in range(1, 68):
    m = rng.normal(size=(9, d)).astype(np.float32)
    print(",".join(repr(float(x)) for x in sim.cosine_many(m[0], m)))
"""


def test_environment_variable_pins_each_path_for_lengths_to_67() -> None:
    rng = np.random.default_rng(8)
    matrices = [rng.normal(size=(9, d)).astype(np.float32) for d in range(1, 68)]
    for path in SUPPORTED:
        proc = subprocess.run(
            [sys.executable, "-c", LENGTHS_SCRIPT],
            env=dict(os.environ, SC_SIMD=path),
            capture_output=True,
            text=True,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr
        name, *lines = proc.stdout.split()
        assert name == path
        assert len(lines) == len(matrices)
        for m, line in zip(matrices, lines):
            got = [float(v) for v in line.split(",")]
            np.testing.assert_allclose(got, reference(m[0], m), rtol=0, atol=1e-5, err_msg=f"{path} d={m.shape[1]}")


def test_unsupported_or_unknown_path_is_rejected(pinned: None) -> None:
    with pytest.raises(ValueError, match="unknown SIMD path 'sse4': expected serial, avx2 or avx512"):
        core._set_simd_path("sse4")
    assert "serial" in SUPPORTED
    assert set(SUPPORTED) <= set(ALL_PATHS)


SUBPROCESS_SCRIPT = """
import numpy as np
from sufficient_context import similarity as sim
rng = np.random.default_rng(5)
m = rng.normal(size=(20, 300)).astype(np.float32)
print(sim.simd_path())
print(",".join(repr(float(x)) for x in sim.cosine_many(m[0], m)))
"""


def run_with_simd(value: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, SC_SIMD=value)
    return subprocess.run(
        [sys.executable, "-c", SUBPROCESS_SCRIPT], env=env, capture_output=True, text=True, check=False
    )


def test_environment_variable_pins_each_path() -> None:
    # The choice is made once per process, so each path gets a fresh interpreter.
    rng = np.random.default_rng(5)
    m = rng.normal(size=(20, 300)).astype(np.float32)
    want = reference(m[0], m)
    for path in SUPPORTED:
        proc = run_with_simd(path)
        assert proc.returncode == 0, proc.stderr
        name, values = proc.stdout.split()
        assert name == path
        np.testing.assert_allclose([float(v) for v in values.split(",")], want, rtol=0, atol=1e-5)


def test_bad_environment_variable_fails_loudly() -> None:
    proc = run_with_simd("neon")
    assert proc.returncode != 0
    assert "ValueError: SC_SIMD='neon' is not one of serial, avx2, avx512" in proc.stderr


# ---- Exact values and edge cases ----


@pytest.mark.parametrize("d", [1, 5, 384])
def test_zero_vectors_give_zero_not_nan(d: int) -> None:
    zero = np.zeros(d, dtype=np.float32)
    ones = np.ones(d, dtype=np.float32)
    assert sim.cosine(zero, ones) == 0.0
    assert sim.cosine(zero, zero) == 0.0
    assert sim.cosine_many(ones, np.vstack([zero, ones])).tolist() == [0.0, pytest.approx(1.0, abs=1e-6)]
    assert sim.cosine_matrix(np.vstack([zero, ones]), np.vstack([zero, ones]))[0].tolist() == [0.0, 0.0]


def test_identical_opposite_orthogonal() -> None:
    v = np.random.default_rng(1).normal(size=384).astype(np.float32)
    assert sim.cosine(v, v) == pytest.approx(1.0, abs=1e-6)
    assert sim.cosine(v, -2 * v) == pytest.approx(-1.0, abs=1e-6)
    assert sim.cosine([1, 0, 0], [0, 3, 0]) == 0.0
    assert sim.cosine([1, 1], [1, -1]) == 0.0


def test_integer_bool_and_list_inputs_are_converted() -> None:
    assert sim.cosine(np.arange(1, 4), np.arange(1, 4, dtype=np.int8)) == pytest.approx(1.0, abs=1e-6)
    assert sim.cosine([True, False], [1, 0]) == pytest.approx(1.0)
    got = sim.cosine_many([3, 4], [[3, 4], [4, -3], [0, 0]])
    np.testing.assert_allclose(got, [1.0, 0.0, 0.0], atol=1e-7)
    got = sim.cosine_matrix([[1, 0]], [[2, 0], [0, 2]])
    assert got.tolist() == [[1.0, 0.0]]


def test_float32_buffer_at_odd_byte_offset() -> None:
    values = np.random.default_rng(6).normal(size=(3, 16)).astype(np.float32)
    odd = np.frombuffer(b"\0" + values.tobytes(), dtype=np.float32, offset=1).reshape(3, 16)
    assert not odd.flags.aligned
    np.testing.assert_allclose(sim.cosine_many(odd[0], odd), reference(values[0], values), atol=1e-6)
    np.testing.assert_allclose(sim.cosine_matrix(odd, odd)[2], reference(values[2], values), atol=1e-6)
    assert sim.cosine(odd[1], values[1]) == pytest.approx(1.0, abs=1e-6)


def test_large_and_tiny_magnitudes() -> None:
    rng = np.random.default_rng(2)
    base = rng.normal(size=(4, 64))
    for scale in (1e30, 1e-30, 3e37):
        m = (base * scale).astype(np.float32)
        assert np.all(np.isfinite(m))
        np.testing.assert_allclose(sim.cosine_many(m[0], m), reference(m[0], m), rtol=0, atol=1e-5)
        np.testing.assert_allclose(sim.cosine_matrix(m[:2], m)[1], reference(m[1], m), rtol=0, atol=1e-5)


def test_empty_matrix_and_empty_query_batch() -> None:
    out = sim.cosine_many(np.ones(384, dtype=np.float32), np.empty((0, 384), dtype=np.float32))
    assert out.shape == (0,)
    assert out.dtype == np.float32
    assert sim.cosine_matrix(np.empty((0, 8)), np.ones((3, 8))).shape == (0, 3)
    assert sim.cosine_matrix(np.ones((2, 8)), np.empty((0, 8))).shape == (2, 0)
    # An empty list is "no rows" (or "no queries"), as a list of rows would be.
    assert sim.cosine_many([1.0, 2.0], []).shape == (0,)
    assert sim.cosine_matrix([[1.0, 2.0]], []).shape == (1, 0)
    assert sim.cosine_matrix([], [[1.0, 2.0]]).shape == (0, 1)


def test_megabyte_matrix_matches_numpy() -> None:
    rng = np.random.default_rng(3)
    matrix = rng.normal(size=(1500, 384)).astype(np.float32)  # 2.3 MB
    np.testing.assert_allclose(sim.cosine_many(matrix[7], matrix), reference(matrix[7], matrix), atol=1e-5)


def test_concurrent_calls_from_threads_agree() -> None:
    rng = np.random.default_rng(4)
    matrix = rng.normal(size=(3000, 384)).astype(np.float32)
    queries = rng.normal(size=(8, 384)).astype(np.float32)
    want = [sim.cosine_many(q, matrix) for q in queries]
    got: list[np.ndarray | None] = [None] * len(queries)

    def work(i: int) -> None:
        for _ in range(5):
            got[i] = sim.cosine_many(queries[i], matrix)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(queries))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for g, w in zip(got, want):
        assert g is not None
        np.testing.assert_array_equal(g, w)


# ---- Errors ----


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda m: sim.cosine_many(m[0], m), r"^matrix\[3, 17\] is nan: inputs must be finite$"),
        (lambda m: sim.cosine_many(m[3], m[:2]), r"^query\[17\] is nan: inputs must be finite$"),
        (lambda m: sim.cosine(m[0], m[3]), r"^b\[17\] is nan: inputs must be finite$"),
        (lambda m: sim.cosine(m[3], m[0]), r"^a\[17\] is nan: inputs must be finite$"),
        (lambda m: sim.cosine_matrix(m[:2], m), r"^matrix\[3, 17\] is nan: inputs must be finite$"),
        (lambda m: sim.cosine_matrix(m[2:], m[:2]), r"^queries\[1, 17\] is nan: inputs must be finite$"),
    ],
)
def test_nan_is_rejected_naming_argument_and_index(call: object, message: str) -> None:
    matrix = np.ones((6, 32), dtype=np.float32)
    matrix[3, 17] = np.nan
    with pytest.raises(ValueError, match=message):
        call(matrix)  # type: ignore[operator]


def test_inf_and_values_beyond_float32_are_rejected() -> None:
    matrix = np.ones((5, 8))
    matrix[4, 0] = -np.inf
    with pytest.raises(ValueError, match=r"^matrix\[4, 0\] is -inf"):
        sim.cosine_many(np.ones(8), matrix)
    matrix[4, 0] = 1e300  # finite in float64, beyond float32: named with its value (the cast would call it inf)
    with pytest.raises(ValueError, match=r"^matrix\[4, 0\] is 1e\+300: beyond float32's range"):
        sim.cosine_many(np.ones(8), matrix)
    with pytest.raises(ValueError, match=r"^query\[2\] is inf"):
        sim.cosine_many([1, 1, np.inf], np.ones((2, 3)))


@pytest.mark.parametrize(
    ("query", "matrix", "message"),
    [
        (
            np.ones(384),
            np.ones(384),
            "matrix must be a 2-D float32 array of shape (n, 384); got (384,): pass matrix.reshape(1, -1)",
        ),
        (
            np.ones(384),
            np.ones((10, 383)),
            "matrix must be a 2-D float32 array of shape (n, 384); got (10, 383): "
            "its rows must have the length of query (384)",
        ),
        (
            np.ones(4),
            np.ones((2, 3, 4)),
            "matrix must be a 2-D float32 array of shape (n, 4); got (2, 3, 4): pass matrix.reshape(-1, 4)",
        ),
        (
            np.ones((1, 384)),
            np.ones((2, 384)),
            "query must be a 1-D float32 array of shape (d,); got (1, 384): pass query.reshape(-1)",
        ),
        (
            np.ones((5, 384)),
            np.ones((2, 384)),
            "query must be a 1-D float32 array of shape (d,); got (5, 384): "
            "for several queries use cosine_matrix(queries, matrix)",
        ),
        (
            3.0,
            np.ones((2, 1)),
            "query must be a 1-D float32 array of shape (d,); got (): pass a vector, e.g. np.atleast_1d(query)",
        ),
        (np.ones(0), np.ones((2, 0)), "query must not be empty; got shape (0,)"),
    ],
)
def test_cosine_many_shape_errors_say_how_to_fix(query: object, matrix: object, message: str) -> None:
    with pytest.raises(ValueError, match=exactly(message)):
        sim.cosine_many(query, matrix)  # type: ignore[arg-type]


def test_cosine_and_cosine_matrix_shape_errors() -> None:
    with pytest.raises(
        ValueError,
        match=exactly("b must be a 1-D float32 array of shape (3,); got (4,): a and b must have the same length"),
    ):
        sim.cosine(np.ones(3), np.ones(4))
    with pytest.raises(
        ValueError,
        match=exactly(
            "a must be a 1-D float32 array of shape (d,); got (3, 2): pass one vector; for many use cosine_many"
        ),
    ):
        sim.cosine(np.ones((3, 2)), np.ones(2))
    with pytest.raises(
        ValueError,
        match=exactly(
            "queries must be a 2-D float32 array of shape (q, d); got (8,): "
            "pass queries.reshape(1, -1), or use cosine_many(query, matrix)"
        ),
    ):
        sim.cosine_matrix(np.ones(8), np.ones((3, 8)))
    with pytest.raises(
        ValueError,
        match=exactly(
            "matrix must be a 2-D float32 array of shape (n, 8); got (3, 7): "
            "its rows must have the length of the queries (8)"
        ),
    ):
        sim.cosine_matrix(np.ones((2, 8)), np.ones((3, 7)))
    with pytest.raises(ValueError, match=r"^queries must have at least one column; got shape \(2, 0\)$"):
        sim.cosine_matrix(np.ones((2, 0)), np.ones((3, 0)))


def test_non_numeric_input_is_a_type_error_naming_the_argument() -> None:
    with pytest.raises(TypeError, match=r"^query must be an array of real numbers; got <U1 values$"):
        sim.cosine_many(["a", "b"], [[1.0, 2.0]])  # type: ignore[list-item]
    # what a cast would silently change: the imaginary part, strings read as numbers
    with pytest.raises(TypeError, match=r"^a must be an array of real numbers; got complex128 values$"):
        sim.cosine(np.array([1 + 1j, 2.0]), [1.0, 0.0])
    with pytest.raises(TypeError, match=r"^matrix must be an array of real numbers; got <U3 values$"):
        sim.cosine_matrix([[1.0, 0.0]], [["1.0", "0.0"]])
    with pytest.raises(TypeError, match=r"^b must be an array of real numbers; got object values$"):
        sim.cosine([1.0, 0.0], [10**400, 1])


def test_public_surface() -> None:
    assert sim.__all__ == ["cosine", "cosine_many", "cosine_matrix", "simd_path"]
    assert sim.simd_path() in SUPPORTED
