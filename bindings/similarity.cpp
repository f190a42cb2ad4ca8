// sufficient_context._core.similarity: cosine kernels. Shape checks with a fix in the message, one
// conversion at most per argument, GIL released around the core, outputs filled in place.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "gil.hpp"
#include "similarity/cosine.hpp"

namespace py = pybind11;
namespace sim = sc::similarity;

namespace sc::bindings {
namespace {

// forcecast: a C-contiguous float32 array passes through untouched (zero copy); anything else
// (float64, int, bool, a non-contiguous view, a nested list) is converted once to a new float32
// array. Values beyond float32's range become inf in that conversion and are then rejected.
using FloatArray = py::array_t<float, py::array::c_style | py::array::forcecast>;

// NumPy allows float32 arrays at any byte offset (np.frombuffer(buf, offset=1)) and forcecast
// passes them through; C++ reads floats at float alignment, so such an array is copied once.
FloatArray float_aligned(const FloatArray& a) {
  if (reinterpret_cast<std::uintptr_t>(a.data()) % alignof(float) == 0) return a;
  FloatArray copy(std::vector<py::ssize_t>(a.shape(), a.shape() + a.ndim()));
  std::memcpy(copy.mutable_data(), a.data(), static_cast<std::size_t>(a.nbytes()));
  return copy;
}

// Calls shorter than this many input elements (~1 us) keep the GIL: releasing costs more.
constexpr std::size_t kReleaseGilFrom = 1U << 13;

std::string shape_of(const FloatArray& a) {
  std::string s = "(";
  for (py::ssize_t i = 0; i < a.ndim(); ++i) {
    if (i > 0) s += ", ";
    s += std::to_string(a.shape(i));
  }
  if (a.ndim() == 1) s += ",";
  return s + ")";
}

[[noreturn]] void bad_shape(const std::string& name, const std::string& expected,
                            const FloatArray& got, const std::string& fix) {
  throw std::invalid_argument(name + " must be a " + expected + "; got " + shape_of(got) + ": " +
                              fix);
}

// A 1-D non-empty vector; returns its length.
std::size_t require_vector(const FloatArray& v, const std::string& name,
                           const std::string& several_hint) {
  const std::string expected = "1-D float32 array of shape (d,)";
  if (v.ndim() == 0)
    bad_shape(name, expected, v, "pass a vector, e.g. np.atleast_1d(" + name + ")");
  if (v.ndim() == 2 && v.shape(0) > 1) bad_shape(name, expected, v, several_hint);
  if (v.ndim() != 1) bad_shape(name, expected, v, "pass " + name + ".reshape(-1)");
  if (v.shape(0) == 0) {
    throw std::invalid_argument(name + " must not be empty; got shape (0,)");
  }
  return static_cast<std::size_t>(v.shape(0));
}

// A 2-D block of rows of length d (d known from the other argument); returns the row count.
std::size_t require_rows(const FloatArray& m, const std::string& name, std::size_t d,
                         const std::string& d_source) {
  const std::string ds = std::to_string(d);
  const std::string expected = "2-D float32 array of shape (n, " + ds + ")";
  if (m.ndim() == 1 && m.shape(0) == 0) return 0;  // [] : no rows, as a list of rows would say
  if (m.ndim() == 1) bad_shape(name, expected, m, "pass " + name + ".reshape(1, -1)");
  if (m.ndim() != 2) bad_shape(name, expected, m, "pass " + name + ".reshape(-1, " + ds + ")");
  if (static_cast<std::size_t>(m.shape(1)) != d) {
    bad_shape(name, expected, m, "its rows must have the length of " + d_source + " (" + ds + ")");
  }
  return static_cast<std::size_t>(m.shape(0));
}

float cosine(const FloatArray& a_in, const FloatArray& b_in) {
  const FloatArray a = float_aligned(a_in);
  const FloatArray b = float_aligned(b_in);
  const std::size_t d = require_vector(a, "a", "pass one vector; for many use cosine_many");
  const std::size_t db = require_vector(b, "b", "pass one vector; for many use cosine_many");
  if (db != d) {
    throw std::invalid_argument("b must be a 1-D float32 array of shape (" + std::to_string(d) +
                                ",); got " + shape_of(b) + ": a and b must have the same length");
  }
  std::optional<sc::bindings::ReleaseGil> release;
  if (d >= kReleaseGilFrom) release.emplace();
  sim::require_finite_vector(a.data(), d, "a");
  sim::require_finite_vector(b.data(), d, "b");
  return sim::cosine(a.data(), b.data(), d);
}

py::array_t<float> cosine_many(const FloatArray& query_in, const FloatArray& matrix_in) {
  const FloatArray query = float_aligned(query_in);
  const FloatArray matrix = float_aligned(matrix_in);
  const std::size_t d =
      require_vector(query, "query", "for several queries use cosine_matrix(queries, matrix)");
  const std::size_t n = require_rows(matrix, "matrix", d, "query");
  sim::require_finite_vector(query.data(), d, "query");
  py::array_t<float> out(static_cast<py::ssize_t>(n));
  float* result = out.mutable_data();
  {
    std::optional<sc::bindings::ReleaseGil> release;
    if (n * d >= kReleaseGilFrom) release.emplace();
    sim::cosine_many(query.data(), matrix.data(), n, d, result);
    // The kernels give NaN exactly for rows holding NaN or inf: only those rows are scanned.
    sim::require_finite_rows(matrix.data(), n, d, result, "matrix");
  }
  return out;
}

py::array_t<float> cosine_matrix(const FloatArray& queries_in, const FloatArray& matrix_in) {
  const FloatArray queries = float_aligned(queries_in);
  const FloatArray matrix = float_aligned(matrix_in);
  if (queries.ndim() == 1 && queries.shape(0) == 0) {  // [] : no queries, whatever the rows
    const py::ssize_t n = matrix.ndim() == 2 ? matrix.shape(0) : 0;
    return py::array_t<float>(std::vector<py::ssize_t>{0, n});
  }
  if (queries.ndim() != 2) {
    bad_shape("queries", "2-D float32 array of shape (q, d)", queries,
              queries.ndim() == 1 ? "pass queries.reshape(1, -1), or use cosine_many(query, matrix)"
                                  : "pass a 2-D array of stacked query vectors");
  }
  const auto q = static_cast<std::size_t>(queries.shape(0));
  const auto d = static_cast<std::size_t>(queries.shape(1));
  if (d == 0) {
    throw std::invalid_argument("queries must have at least one column; got shape " +
                                shape_of(queries));
  }
  const std::size_t n = require_rows(matrix, "matrix", d, "the queries");
  py::array_t<float> out({static_cast<py::ssize_t>(q), static_cast<py::ssize_t>(n)});
  float* result = out.mutable_data();
  {
    std::optional<sc::bindings::ReleaseGil> release;
    if ((q + n) * d >= kReleaseGilFrom) release.emplace();
    sim::require_finite_matrix(queries.data(), q, d, "queries");
    sim::require_finite_matrix(matrix.data(), n, d, "matrix");
    sim::cosine_matrix(queries.data(), q, matrix.data(), n, d, result);
  }
  return out;
}

// The items of a list or tuple (borrowed), or nullptr for anything else.
PyObject* const* sequence_items(PyObject* o, Py_ssize_t& n) noexcept {
  if (PyList_CheckExact(o)) {
    n = PyList_GET_SIZE(o);
    return reinterpret_cast<PyListObject*>(o)->ob_item;
  }
  if (PyTuple_CheckExact(o)) {
    n = PyTuple_GET_SIZE(o);
    return &PyTuple_GET_ITEM(o, 0);
  }
  return nullptr;
}

// Copies `n` items that are all exact Python floats into `out`; false at the first other item.
bool copy_floats(PyObject* const* items, Py_ssize_t n, double* out) noexcept {
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (!PyFloat_CheckExact(items[i])) return false;
    out[i] = PyFloat_AS_DOUBLE(items[i]);
  }
  return true;
}

// A non-empty list (or tuple) of Python floats as a (d,) float64 array, or of such lists of one
// length as an (n, d) one: what numpy.asarray makes of it, without its per-item type discovery
// (most of an embeddings wrapper's time: every model returns lists of floats). None for anything
// else (ints, NumPy scalars, ragged or empty rows...): the caller asks NumPy, which reads or names
// it.
py::object float_rows(const py::handle& value) {
  Py_ssize_t n = 0;
  PyObject* const* rows = sequence_items(value.ptr(), n);
  if (rows == nullptr || n == 0) return py::none();
  const bool flat = PyFloat_CheckExact(rows[0]);
  Py_ssize_t d = 0;
  if (!flat && (sequence_items(rows[0], d) == nullptr || d == 0)) return py::none();
  // Allocating the array may collect garbage, and a finalizer may change `value` (a list's items
  // moved or freed): its items are read after it, when no Python code can run until the copy ends.
  py::array_t<double> out = flat ? py::array_t<double>(n) : py::array_t<double>({n, d});
  double* data = out.mutable_data();
  Py_ssize_t now = 0;
  rows = sequence_items(value.ptr(), now);
  if (now != n) return py::none();
  if (flat) {
    if (!copy_floats(rows, n, data)) return py::none();
    return std::move(out);
  }
  for (Py_ssize_t i = 0; i < n; ++i) {
    Py_ssize_t length = 0;
    PyObject* const* items = sequence_items(rows[i], length);
    if (items == nullptr || length != d || !copy_floats(items, d, data + i * d)) return py::none();
  }
  return std::move(out);
}

}  // namespace

void bind_similarity(py::module_& m) {
  m.def("cosine", &cosine, py::arg("a"), py::arg("b"),
        "Cosine similarity of two 1-D vectors (converted to float32). 0.0 if either is zero.");
  m.def("cosine_many", &cosine_many, py::arg("query"), py::arg("matrix"),
        "Cosine of a (d,) query with each row of an (n, d) matrix: float32 array of shape (n,).");
  m.def("cosine_matrix", &cosine_matrix, py::arg("queries"), py::arg("matrix"),
        "Cosine of each row of a (q, d) array with each row of an (n, d) matrix: shape (q, n).");
  m.def("float_rows", &float_rows, py::arg("value"),
        "A list of floats as a float64 (d,) array, a list of such lists of one length as (n, d); "
        "None for anything else.");
  m.def(
      "simd_path", [] { return std::string(sim::simd_path_name(sim::active_simd_path())); },
      "The kernel in use: 'serial', 'avx2' or 'avx512' (SC_SIMD overrides the CPU's best).");
  m.def(
      "_supported_simd_paths",
      [] {
        std::vector<std::string> names;
        for (const auto p :
             {sim::SimdPath::kSerial, sim::SimdPath::kAvx2, sim::SimdPath::kAvx512}) {
          if (sim::simd_path_supported(p)) names.emplace_back(sim::simd_path_name(p));
        }
        return names;
      },
      "Private: the kernels this CPU can run.");
  m.def(
      "_set_simd_path",
      [](const std::optional<std::string>& name) {
        if (name) {
          sim::set_simd_path(sim::parse_simd_path(*name));
        } else {
          sim::reset_simd_path();
        }
      },
      py::arg("name"), "Private (tests): force a kernel process-wide; None restores the default.");
}

}  // namespace sc::bindings
