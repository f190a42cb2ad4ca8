/// @brief Bindings of claim coverage and query types (`sufficient_context._core.claims`).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <cstddef>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "checker/term_statistics.hpp"
#include "checker/word_relations.hpp"
#include "claims/answer_coverage.hpp"
#include "claims/claim_config.hpp"
#include "claims/query_type.hpp"
#include "common/worker_pool.hpp"
#include "gil.hpp"
#include "overlapped_batch.hpp"
#include "str_utf8.hpp"
#include "text/utf8.hpp"

namespace py = pybind11;

namespace {

namespace c = sc::claims;
using sc::bindings::utf8_of;

py::object steal(PyObject* object) {
  if (object == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(object);
}

/// Chunk ids and texts of one check: str objects kept alive (and immutable) while the GIL is
/// released, and their UTF-8 views.
struct ChunkArgs {
  std::vector<py::object> ids;  // the caller's id str objects (or "S1".."Sn"), reused in results
  std::vector<py::object> keep;
  std::vector<c::ChunkInput> inputs;
};

/// check_claim and check_answer release the GIL from this many bytes of input on (the answer and
/// chunk_bytes): releasing and taking it back cost ~0.1 us, a few percent of a check of a few
/// hundred bytes, while such a check holds the GIL for microseconds (~15 us at 4 KB).
constexpr std::size_t kReleaseGilBytes = 4096;

/// What a check reads besides its answer, as bytes of text: the chunks' ids and texts, and
/// kBytesPerChunk per chunk, since every chunk costs the check its id and a pass with each
/// sentence, whatever its size (20,000 empty chunks against 200 sentences took 50 ms, with the
/// GIL held when only text counted).
constexpr std::size_t kBytesPerChunk = 256;
std::size_t chunk_bytes(const ChunkArgs& chunks) noexcept {
  std::size_t bytes = 0;
  for (const c::ChunkInput& chunk : chunks.inputs) {
    bytes += chunk.id.size() + chunk.text.size() + kBytesPerChunk;
  }
  return bytes;
}

/// "S<i + 1>", the id of the i-th chunk given without one. The first ones are made once and shared
/// (never freed, like interned strings): most checks have a few plain-str chunks.
py::object positional_id(std::size_t i) {
  static std::vector<PyObject*> made;
  constexpr std::size_t kShared = 256;
  if (i >= kShared) return steal(PyUnicode_FromFormat("S%zu", i + 1));
  while (made.size() <= i) {
    PyObject* id = PyUnicode_FromFormat("S%zu", made.size() + 1);
    if (id == nullptr) throw py::error_already_set();
    PyUnicode_InternInPlace(&id);
    made.push_back(id);
  }
  return py::reinterpret_borrow<py::object>(made[i]);
}

/// `ids` None: the chunks have the positional ids S1..Sn.
ChunkArgs chunk_args(const py::handle& ids, const py::handle& texts) {
  if (!PyList_Check(texts.ptr())) throw py::type_error("texts must be a list of str");
  const auto n = static_cast<std::size_t>(PyList_GET_SIZE(texts.ptr()));
  const bool positional = ids.is_none();
  if (!positional && !PyList_Check(ids.ptr())) throw py::type_error("ids must be a list of str");
  if (!positional && static_cast<std::size_t>(PyList_GET_SIZE(ids.ptr())) != n) {
    throw std::invalid_argument(
        "chunk ids and texts differ in length: " + std::to_string(PyList_GET_SIZE(ids.ptr())) +
        " ids, " + std::to_string(n) + " texts");
  }
  ChunkArgs out;
  out.ids.reserve(n);
  out.keep.reserve(n);
  out.inputs.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto at = static_cast<Py_ssize_t>(i);
    py::object id = positional ? positional_id(i)
                               : py::reinterpret_borrow<py::object>(PyList_GET_ITEM(ids.ptr(), at));
    py::object text = py::reinterpret_borrow<py::object>(PyList_GET_ITEM(texts.ptr(), at));
    out.inputs.push_back({utf8_of(id.ptr(), "chunk ids", i), utf8_of(text.ptr(), "chunks", i)});
    out.ids.push_back(std::move(id));
    out.keep.push_back(std::move(text));
  }
  return out;
}

bool is_slow_key(PyObject* key) {
  // The mapping keys that need the Python adaptation (chunks.py's _SLOW_KEYS), as a frozenset made
  // once (never freed, like interned strings): one hashed lookup per key.
  static PyObject* const slow = [] {
    PyObject* names = Py_BuildValue("(ssssss)", "summary", "embedding", "timestamp", "temperature",
                                    "metadata", "page_content");
    if (names == nullptr) throw py::error_already_set();
    PyObject* set = PyFrozenSet_New(names);
    Py_DECREF(names);
    if (set == nullptr) throw py::error_already_set();
    return set;
  }();
  if (!PyUnicode_CheckExact(key)) return false;
  const int found = PySet_Contains(slow, key);
  if (found < 0) throw py::error_already_set();
  return found == 1;
}

/// Whether a plain chunk's score passes the Python fast path's test (None, or a finite float or
/// int). An int too large for a float is left to that path, which raises OverflowError in order.
bool plain_score(PyObject* score) {
  if (score == nullptr || score == Py_None) return true;
  double value = 0.0;
  if (PyFloat_CheckExact(score)) {
    value = PyFloat_AS_DOUBLE(score);
  } else if (PyLong_CheckExact(score)) {
    value = PyLong_AsDouble(score);
    if (value == -1.0 && PyErr_Occurred()) {
      PyErr_Clear();
      return false;
    }
  } else {
    return false;
  }
  return std::isfinite(value);
}

enum ChunkKey : std::size_t { kContent, kId, kScore };

/// The interned "content", "id" and "score".
PyObject* chunk_key(ChunkKey key) {
  static PyObject* const keys[] = {PyUnicode_InternFromString("content"),
                                   PyUnicode_InternFromString("id"),
                                   PyUnicode_InternFromString("score")};
  if (keys[key] == nullptr) throw std::runtime_error("cannot make the chunk keys");
  return keys[key];
}

/// dict[key] (borrowed) or nullptr when absent.
PyObject* dict_item(PyObject* dict, ChunkKey key) {
  PyObject* value = PyDict_GetItemWithError(dict, chunk_key(key));
  if (value == nullptr && PyErr_Occurred()) throw py::error_already_set();
  return value;
}

/// The "content", "id" and "score" values of `dict` (borrowed, nullptr when absent) in one walk of
/// its entries, when every key is one of those interned strings itself (a dict literal's keys
/// are): no hashing or probing, which three lookups per chunk cost. False for any other key (the
/// caller then looks them up).
bool identity_items(PyObject* dict, PyObject*& content, PyObject*& id, PyObject*& score) {
  PyObject* const keys[] = {chunk_key(kContent), chunk_key(kId), chunk_key(kScore)};
  content = id = score = nullptr;
  Py_ssize_t at = 0;
  PyObject* key = nullptr;
  PyObject* value = nullptr;
  while (PyDict_Next(dict, &at, &key, &value)) {
    if (key == keys[kContent]) {
      content = value;
    } else if (key == keys[kId]) {
      id = value;
    } else if (key == keys[kScore]) {
      score = value;
    } else {
      return false;
    }
  }
  return true;
}

/// Whether the exact-str ids hold a repeat: pairwise for a few chunks (the common case), a set
/// beyond (the same equality a set of str uses).
bool has_duplicate(const std::vector<py::object>& ids) {
  constexpr std::size_t kPairwise = 8;
  if (ids.size() <= kPairwise) {
    for (std::size_t i = 1; i < ids.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        const int same = PyObject_RichCompareBool(ids[i].ptr(), ids[j].ptr(), Py_EQ);
        if (same < 0) throw py::error_already_set();
        if (same == 1) return true;
      }
    }
    return false;
  }
  const py::object seen = steal(PySet_New(nullptr));
  for (const py::object& id : ids) {
    const int known = PySet_Contains(seen.ptr(), id.ptr());
    if (known < 0) throw py::error_already_set();
    if (known == 1) return true;
    if (PySet_Add(seen.ptr(), id.ptr()) != 0) throw py::error_already_set();
  }
  return false;
}

/// chunks.plain_ids_and_contents in one C++ pass, into `out` (ids and contents, not yet encoded):
/// true when every chunk is a str or a plain {"content", "id"?, "score"?} dict and the ids are
/// unique, else false (the Python adaptation then validates and names the fault). `positional`:
/// every chunk is a str (ids S1..Sn).
bool read_plain(PyObject* chunks, ChunkArgs& out, bool& positional) {
  if (!PyList_CheckExact(chunks)) return false;
  const Py_ssize_t n = PyList_GET_SIZE(chunks);
  out.ids.reserve(static_cast<std::size_t>(n));
  out.keep.reserve(static_cast<std::size_t>(n));
  positional = true;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* chunk = PyList_GET_ITEM(chunks, i);
    PyObject* content = chunk;
    py::object id;
    if (PyDict_CheckExact(chunk)) {
      positional = false;
      PyObject* raw_id = nullptr;
      PyObject* score = nullptr;
      if (!identity_items(chunk, content, raw_id, score)) {
        content = dict_item(chunk, kContent);
        raw_id = dict_item(chunk, kId);
        score = dict_item(chunk, kScore);
      }
      if (content == nullptr || !PyUnicode_CheckExact(content)) return false;
      if (raw_id != nullptr && raw_id != Py_None) {
        if (!PyUnicode_CheckExact(raw_id)) return false;
        id = py::reinterpret_borrow<py::object>(raw_id);
      }
      if (!plain_score(score)) return false;
      // A dict holding only the keys read above has no slow key: most chunks, no scan.
      const Py_ssize_t read = 1 + (raw_id != nullptr ? 1 : 0) + (score != nullptr ? 1 : 0);
      if (PyDict_GET_SIZE(chunk) != read) {
        PyObject* key = nullptr;
        PyObject* value = nullptr;
        Py_ssize_t at = 0;
        while (PyDict_Next(chunk, &at, &key, &value)) {
          if (is_slow_key(key)) return false;
        }
      }
    } else if (!PyUnicode_CheckExact(chunk)) {
      return false;
    }
    out.ids.push_back(id ? std::move(id) : positional_id(static_cast<std::size_t>(i)));
    out.keep.push_back(py::reinterpret_borrow<py::object>(content));
  }
  return positional || !has_duplicate(out.ids);  // a repeat: the Python path raises, naming both
}

/// The UTF-8 views of `chunks`' ids and contents (UnicodeEncodeError for lone surrogates).
void encode(ChunkArgs& chunks) {
  chunks.inputs.reserve(chunks.ids.size());
  for (std::size_t i = 0; i < chunks.ids.size(); ++i) {
    chunks.inputs.push_back(
        {utf8_of(chunks.ids[i].ptr(), "chunk ids", i), utf8_of(chunks.keep[i].ptr(), "chunks", i)});
  }
}

/// (None, the list) when every chunk is a str, (ids, contents) when read_plain reads them, else
/// None.
py::object plain_chunks(PyObject* chunks) {
  ChunkArgs read;
  bool positional = false;
  if (!read_plain(chunks, read, positional)) return py::none();
  if (positional) return py::make_tuple(py::none(), py::reinterpret_borrow<py::object>(chunks));
  const auto n = static_cast<Py_ssize_t>(read.ids.size());
  py::list ids(n);
  py::list texts(n);
  for (Py_ssize_t i = 0; i < n; ++i) {
    const auto at = static_cast<std::size_t>(i);
    PyList_SET_ITEM(ids.ptr(), i, read.ids[at].release().ptr());
    PyList_SET_ITEM(texts.ptr(), i, read.keep[at].release().ptr());
  }
  return py::make_tuple(ids, texts);
}

/// plain_chunks of each entry: (ids per entry, contents per entry, indexes of the entries that need
/// the Python adaptation, their ids and contents left None).
py::tuple plain_chunk_lists(const py::list& entries) {
  const std::size_t n = entries.size();
  py::list ids(n);
  py::list texts(n);
  py::list slow;
  for (std::size_t i = 0; i < n; ++i) {
    const py::object plain =
        plain_chunks(PyList_GET_ITEM(entries.ptr(), static_cast<Py_ssize_t>(i)));
    if (plain.is_none()) {
      ids[i] = py::none();
      texts[i] = py::none();
      slow.append(i);
    } else {
      ids[i] = plain[py::int_(0)];
      texts[i] = plain[py::int_(1)];
    }
  }
  return py::make_tuple(ids, texts, slow);
}

py::object str_of(std::string_view utf8) {
  return steal(PyUnicode_DecodeUTF8(utf8.data(), static_cast<Py_ssize_t>(utf8.size()), "replace"));
}

py::object bool_of(bool value) {
  return py::reinterpret_borrow<py::object>(value ? Py_True : Py_False);
}

PyTypeObject* record_type(const py::object& type) {
  if (type.is_none()) return &PyTuple_Type;
  if (!PyType_Check(type.ptr()) ||
      !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(type.ptr()), &PyTuple_Type)) {
    throw py::type_error("claim_type must be tuple or a subclass of tuple");
  }
  return reinterpret_cast<PyTypeObject*>(type.ptr());
}

/// Stops the garbage collector tracking `tuple` (an exact tuple just built, of ids or citations)
/// when it holds no object the collector handles: nothing it holds can then be part of a cycle,
/// and a caller keeping thousands of results no longer has the collector walk them (CPython
/// untracks such tuples itself, but only once a collection reaches them). Records are not passed
/// here: their `overlaps` dict may later hold anything, and a cycle could run through it.
void untrack_if_atomic(PyObject* tuple) {
  const Py_ssize_t n = PyTuple_GET_SIZE(tuple);
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (PyObject_IS_GC(PyTuple_GET_ITEM(tuple, i))) return;
  }
  PyObject_GC_UnTrack(tuple);
}

py::object id_tuple(const ChunkArgs& chunks, const std::vector<std::size_t>& indexes) {
  py::object out = steal(PyTuple_New(static_cast<Py_ssize_t>(indexes.size())));
  for (std::size_t i = 0; i < indexes.size(); ++i) {
    PyTuple_SET_ITEM(out.ptr(), static_cast<Py_ssize_t>(i),
                     py::object(chunks.ids[indexes[i]]).release().ptr());
  }
  untrack_if_atomic(out.ptr());
  return out;
}

py::object view_tuple(const std::vector<std::string_view>& views) {
  py::object out = steal(PyTuple_New(static_cast<Py_ssize_t>(views.size())));
  for (std::size_t i = 0; i < views.size(); ++i) {
    PyTuple_SET_ITEM(out.ptr(), static_cast<Py_ssize_t>(i), str_of(views[i]).release().ptr());
  }
  untrack_if_atomic(out.ptr());
  return out;
}

/// (sentence, score, is_covered, is_meta, citations, covering_chunks, overlaps, threshold,
///  reason, start, end) as `type`, filled in place.
py::object claim_record(PyTypeObject* type, const c::ClaimResult& r, PyObject* text,
                        const sc::text::CodePointIndex& index, const ChunkArgs& chunks) {
  const std::size_t start = index(r.span.begin);
  const std::size_t end = index(r.span.end);
  py::object overlaps = steal(PyDict_New());
  for (const auto& [chunk, score] : r.overlaps) {
    py::object value = steal(PyFloat_FromDouble(score));
    if (PyDict_SetItem(overlaps.ptr(), chunks.ids[chunk].ptr(), value.ptr()) != 0) {
      throw py::error_already_set();
    }
  }
  constexpr Py_ssize_t kFields = 11;
  py::object record =
      steal(type == &PyTuple_Type ? PyTuple_New(kFields) : type->tp_alloc(type, kFields));
  Py_ssize_t at = 0;
  const auto put = [&record, &at](py::object item) {
    PyTuple_SET_ITEM(record.ptr(), at++, item.release().ptr());
  };
  put(steal(
      PyUnicode_Substring(text, static_cast<Py_ssize_t>(start), static_cast<Py_ssize_t>(end))));
  put(steal(PyFloat_FromDouble(r.score)));
  put(bool_of(r.is_covered));
  put(bool_of(r.is_meta));
  put(view_tuple(r.citations));
  put(id_tuple(chunks, r.covering));
  put(std::move(overlaps));
  put(steal(PyFloat_FromDouble(r.threshold)));
  put(str_of(c::reason_text(r, chunks.inputs)));
  put(steal(PyLong_FromSize_t(start)));
  put(steal(PyLong_FromSize_t(end)));
  // The record stays tracked: its overlaps dict may later hold anything.
  return record;
}

/// One claim record per sentence, in order, in a new list (`as_list`) or tuple.
py::object claim_records(PyTypeObject* type, const c::AnswerResult& r, PyObject* text,
                         std::string_view utf8, const ChunkArgs& chunks, bool as_list) {
  const sc::text::CodePointIndex index(utf8);
  const auto n = static_cast<Py_ssize_t>(r.claims.size());
  py::object out = steal(as_list ? PyList_New(n) : PyTuple_New(n));
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* record =
        claim_record(type, r.claims[static_cast<std::size_t>(i)], text, index, chunks)
            .release()
            .ptr();
    if (as_list) {
      PyList_SET_ITEM(out.ptr(), i, record);
    } else {
      PyTuple_SET_ITEM(out.ptr(), i, record);
    }
  }
  return out;
}

/// (claims, unknown_citations, missing_citations, covered_count, claim_count,
///  attribution_coverage, supported_ratio, is_grounded)
py::object answer_record(PyTypeObject* type, const c::AnswerResult& r, PyObject* text,
                         std::string_view utf8, const ChunkArgs& chunks) {
  return py::make_tuple(claim_records(type, r, text, utf8, chunks, true),
                        view_tuple(r.unknown_citations), id_tuple(chunks, r.missing_citations),
                        r.covered_count, r.claim_count, r.attribution_coverage, r.supported_ratio,
                        r.is_grounded);
}

/// The attribute names of an AnswerCoverage, made once (never freed, like interned strings).
enum AnswerField : std::size_t {
  kAnswer,
  kClaims,
  kCoveredCount,
  kAttributionCoverage,
  kSupportedRatio,
  kMissingCitations,
  kUnknownCitations,
  kIsGrounded,
  kMode,
  kUncovered,
  kPending,
  kAnswerFields
};

PyObject* answer_field(AnswerField field) {
  static PyObject* const* const names = [] {
    static const char* const text[kAnswerFields] = {"answer",
                                                    "claims",
                                                    "covered_count",
                                                    "attribution_coverage",
                                                    "supported_ratio",
                                                    "missing_citations",
                                                    "unknown_citations",
                                                    "is_grounded",
                                                    "mode",
                                                    "uncovered",
                                                    "_pending_claims"};
    static PyObject* made[kAnswerFields];
    for (std::size_t i = 0; i < kAnswerFields; ++i) {
      made[i] = PyUnicode_InternFromString(text[i]);
      if (made[i] == nullptr) throw py::error_already_set();
    }
    return made;
  }();
  return names[field];
}

py::object mode_str(c::Mode mode) {
  static PyObject* const names[2] = {PyUnicode_InternFromString("default"),
                                     PyUnicode_InternFromString("reference")};
  PyObject* name = names[mode == c::Mode::Default ? 0 : 1];
  if (name == nullptr) throw std::runtime_error("cannot make the mode names");
  return py::reinterpret_borrow<py::object>(name);
}

/// What an AnswerCoverage's claims are built from when first read: the core's result and the
/// objects its views and indexes refer to (the answer, whose UTF-8 the citations and most of the
/// reasons view, and the chunks' ids, which name them).
struct PendingClaims {
  c::AnswerResult result;
  py::object answer;
  ChunkArgs chunks;    // their ids only: a result kept unread must not keep every chunk text alive
  std::string quoted;  // the chunk numbers the reasons quote (Shortfall::instead), which view it
  py::object claim_type;
};

/// What `chunks` and `r` become in a pending result: the chunk ids, without the texts (a caller
/// keeping results unread once held every chunk's text alive), and the numbers `r`'s reasons quote
/// from those texts copied into `pending.quoted`, their views moved there.
std::unique_ptr<PendingClaims> pending_claims(c::AnswerResult&& r, PyObject* text,
                                              ChunkArgs&& chunks, PyTypeObject* claim_type) {
  auto pending = std::make_unique<PendingClaims>();
  pending->result = std::move(r);
  pending->answer = py::reinterpret_borrow<py::object>(text);
  pending->claim_type = py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(claim_type));
  // Taken over, not copied (no allocation); the texts are left to `chunks`, which drops them.
  pending->chunks.ids = std::move(chunks.ids);
  pending->chunks.inputs = std::move(chunks.inputs);
  for (c::ChunkInput& chunk : pending->chunks.inputs) chunk.text = {};
  std::size_t bytes = 0;
  for (const c::ClaimResult& claim : pending->result.claims) {
    for (const std::string_view number : claim.reason.shortfall.instead) bytes += number.size();
  }
  std::string& quoted = pending->quoted;
  quoted.reserve(bytes);  // never reallocated below: the views stay valid
  for (c::ClaimResult& claim : pending->result.claims) {
    for (std::string_view& number : claim.reason.shortfall.instead) {
      const std::size_t at = quoted.size();
      quoted.append(number);
      number = std::string_view(quoted).substr(at, number.size());
    }
  }
  return pending;
}

constexpr const char* kPendingName = "sufficient_context.PendingClaims";

void free_pending(PyObject* capsule) {
  // Takes the pointer back into RAII (the capsule owned it); the destructor runs with the GIL held.
  const std::unique_ptr<PendingClaims> owned(
      static_cast<PendingClaims*>(PyCapsule_GetPointer(capsule, kPendingName)));
}

/// The claims and uncovered tuples of `pending`, as answer_object once built them eagerly.
std::pair<py::object, py::object> claim_tuples(const PendingClaims& pending) {
  const ChunkArgs& chunks = pending.chunks;
  const c::AnswerResult& r = pending.result;
  const std::string_view utf8 = utf8_of(pending.answer.ptr(), "answer");
  py::object claims = claim_records(reinterpret_cast<PyTypeObject*>(pending.claim_type.ptr()), r,
                                    pending.answer.ptr(), utf8, chunks, false);
  Py_ssize_t uncovered_count = 0;
  for (const c::ClaimResult& claim : r.claims) uncovered_count += claim.is_covered ? 0 : 1;
  py::object uncovered = steal(PyTuple_New(uncovered_count));
  for (Py_ssize_t i = 0, at = 0; at < uncovered_count; ++i) {
    if (r.claims[static_cast<std::size_t>(i)].is_covered) continue;
    PyObject* claim = PyTuple_GET_ITEM(claims.ptr(), i);
    Py_INCREF(claim);
    PyTuple_SET_ITEM(uncovered.ptr(), at++, claim);
  }
  return {std::move(claims), std::move(uncovered)};
}

/// object.__setattr__(object, name, value), as the frozen dataclass's __init__ sets its fields: the
/// attributes go to the instance's inline values without materializing its __dict__.
void set_field(PyObject* object, AnswerField field, const py::object& value) {
  if (PyObject_GenericSetAttr(object, answer_field(field), value.ptr()) != 0) {
    throw py::error_already_set();
  }
}

/// object's own attribute `field` (no __getattr__), or an empty object when it has none.
py::object own_field(PyObject* object, AnswerField field) {
  PyObject* value = PyObject_GenericGetAttr(object, answer_field(field));
  if (value == nullptr) {
    if (!PyErr_ExceptionMatches(PyExc_AttributeError)) throw py::error_already_set();
    PyErr_Clear();
    return py::object();
  }
  return steal(value);
}

/// An `answer_type` (AnswerCoverage) built as object.__new__ and its attributes set: what the
/// frozen dataclass's __init__ would set, without a Python call per field. Its claims and
/// uncovered tuples are left to materialize_claims, on first read (AnswerCoverage.__getattr__):
/// most callers read the verdict, and the records were ~6% of a short check.
py::object answer_object(PyTypeObject* answer_type, PyTypeObject* claim_type,
                         const c::ClaimConfig& config, c::AnswerResult&& r, PyObject* text,
                         ChunkArgs&& chunks) {
  const py::object empty = steal(PyTuple_New(0));
  py::object out = steal(PyBaseObject_Type.tp_new(answer_type, empty.ptr(), nullptr));
  PyObject* const object = out.ptr();
  set_field(object, kAnswer, py::reinterpret_borrow<py::object>(text));
  set_field(object, kCoveredCount, steal(PyLong_FromSize_t(r.covered_count)));
  set_field(object, kAttributionCoverage, steal(PyFloat_FromDouble(r.attribution_coverage)));
  set_field(object, kSupportedRatio, steal(PyFloat_FromDouble(r.supported_ratio)));
  set_field(object, kMissingCitations, id_tuple(chunks, r.missing_citations));
  set_field(object, kUnknownCitations, view_tuple(r.unknown_citations));
  set_field(object, kIsGrounded, bool_of(r.is_grounded));
  set_field(object, kMode, mode_str(config.mode()));
  auto pending = pending_claims(std::move(r), text, std::move(chunks), claim_type);
  py::object capsule = steal(PyCapsule_New(pending.get(), kPendingName, free_pending));
  pending.release();  // the capsule owns it now (free_pending)
  set_field(object, kPending, capsule);
  return out;
}

/// Builds `answer`'s claims and uncovered tuples from its pending result (answer_object) and sets
/// them, once: two threads (or a finalizer) reading one result at once see the same tuples, those
/// of the first build to finish.
/// False when `answer` holds no pending result (built in Python, or already materialized).
bool materialize_claims(const py::object& answer) {
  PyObject* const object = answer.ptr();
  const py::object capsule = own_field(object, kPending);  // held while the tuples are built
  if (!capsule) return false;
  auto* pending = static_cast<PendingClaims*>(PyCapsule_GetPointer(capsule.ptr(), kPendingName));
  if (pending == nullptr) throw py::error_already_set();
  auto [claims, uncovered] = claim_tuples(*pending);
  // Building them allocates, so a collection may run finalizers or gc callbacks, and the
  // interpreter switch threads: another read of `answer` may have set them meanwhile. Those stay
  // (a result's claims and uncovered are built once, together); deleting the pending result twice
  // would raise AttributeError out of the read.
  if (!own_field(object, kPending)) return true;
  set_field(object, kClaims, claims);
  set_field(object, kUncovered, uncovered);
  if (PyObject_GenericSetAttr(object, answer_field(kPending), nullptr) != 0) {
    throw py::error_already_set();
  }
  return true;
}

PyTypeObject* answer_type_of(const py::object& type) {
  if (type.is_none()) return nullptr;
  if (!PyType_Check(type.ptr())) throw py::type_error("answer_type must be a class");
  return reinterpret_cast<PyTypeObject*>(type.ptr());
}

/// The record or, with an answer_type, the finished object.
py::object answer_result(PyTypeObject* answer_type, PyTypeObject* claim_type,
                         const c::ClaimConfig& config, c::AnswerResult&& r, PyObject* text,
                         std::string_view utf8, ChunkArgs&& chunks) {
  if (answer_type == nullptr) return answer_record(claim_type, r, text, utf8, chunks);
  return answer_object(answer_type, claim_type, config, std::move(r), text, std::move(chunks));
}

std::shared_ptr<c::ClaimConfig> make_config(double min_overlap, double multi_citation_factor,
                                            std::string_view mode,
                                            std::optional<std::vector<std::string>> stopwords,
                                            std::optional<std::vector<std::string>> meta_patterns,
                                            std::shared_ptr<sc::checker::TermStatistics> statistics,
                                            std::shared_ptr<sc::checker::WordRelations> relations,
                                            std::size_t max_sentences) {
  c::ClaimOptions options;
  options.max_sentences = max_sentences;
  options.min_overlap = min_overlap;
  options.multi_citation_factor = multi_citation_factor;
  options.mode = c::parse_mode(mode);
  options.stopwords = std::move(stopwords);
  options.meta_patterns = std::move(meta_patterns);
  return std::make_shared<c::ClaimConfig>(std::move(options), std::move(statistics),
                                          std::move(relations));
}

py::object check_claim(const c::ClaimConfig& config, const py::str& claim, const py::object& ids,
                       const py::object& texts, const py::object& claim_type) {
  PyTypeObject* type = record_type(claim_type);
  const std::string_view utf8 = utf8_of(claim.ptr(), "sentence");
  const ChunkArgs chunks = chunk_args(ids, texts);
  c::ClaimResult result;
  {
    const sc::bindings::ReleaseGil release(utf8.size() + chunk_bytes(chunks) >= kReleaseGilBytes);
    result = c::check_claim(config, utf8, chunks.inputs);
  }
  return claim_record(type, result, claim.ptr(), sc::text::CodePointIndex(utf8), chunks);
}

/// Scores `answer` (its UTF-8 `utf8`) against `chunks`, with the GIL released past a few KB of
/// text: the record, or the answer_class object.
py::object scored_answer(const c::ClaimConfig& config, PyTypeObject* type,
                         PyTypeObject* answer_class, const py::str& answer, std::string_view utf8,
                         ChunkArgs&& chunks) {
  c::AnswerResult result;
  {
    const sc::bindings::ReleaseGil release(utf8.size() + chunk_bytes(chunks) >= kReleaseGilBytes);
    result = c::check_answer(config, utf8, chunks.inputs);
  }
  return answer_result(answer_class, type, config, std::move(result), answer.ptr(), utf8,
                       std::move(chunks));
}

py::object check_answer(const c::ClaimConfig& config, const py::str& answer, const py::object& ids,
                        const py::object& texts, const py::object& claim_type,
                        const py::object& answer_type) {
  PyTypeObject* type = record_type(claim_type);
  PyTypeObject* answer_class = answer_type_of(answer_type);
  const std::string_view utf8 = utf8_of(answer.ptr(), "answer");
  return scored_answer(config, type, answer_class, answer, utf8, chunk_args(ids, texts));
}

/// check_answer straight from the caller's chunk list when read_plain reads it (no Python
/// adaptation, no intermediate lists), else None: the caller adapts the chunks and calls
/// check_answer, so every error stays the Python path's.
py::object check_answer_chunks(const c::ClaimConfig& config, const py::str& answer,
                               const py::handle& chunks, const py::object& claim_type,
                               const py::object& answer_type) {
  PyTypeObject* type = record_type(claim_type);
  PyTypeObject* answer_class = answer_type_of(answer_type);
  ChunkArgs args;
  bool positional = false;
  if (!read_plain(chunks.ptr(), args, positional)) return py::none();
  const std::string_view utf8 = utf8_of(answer.ptr(), "answer");
  encode(args);
  return scored_answer(config, type, answer_class, answer, utf8, std::move(args));
}

/// check_answer_chunks called without pybind11's dispatcher (~2% of a short check: overload
/// resolution and argument loaders): its five positional arguments read directly. Anything else
/// (keyword arguments too), a wrong type, and every C++ exception but a Python error already set
/// go to the bound function (`self`), which checks them, runs again and raises what pybind11
/// translates: no error path of its own.
PyObject* check_answer_chunks_fast(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                                   PyObject* kwnames) {
  if (kwnames == nullptr && nargs == 5 && PyUnicode_Check(args[1])) {
    try {
      const auto* config = py::handle(args[0]).cast<const c::ClaimConfig*>();
      if (config != nullptr) {
        return check_answer_chunks(*config, py::reinterpret_borrow<py::str>(args[1]), args[2],
                                   py::reinterpret_borrow<py::object>(args[3]),
                                   py::reinterpret_borrow<py::object>(args[4]))
            .release()
            .ptr();
      }
    } catch (py::error_already_set& e) {
      e.restore();
      return nullptr;
    } catch (...) {  // NOLINT(bugprone-empty-catch): the bound function raises it, translated
    }
  }
  return PyObject_Vectorcall(self, args, static_cast<std::size_t>(nargs), kwnames);
}

py::list check_answers(const c::ClaimConfig& config, const py::list& answers,
                       const py::list& ids_per_answer, const py::list& texts_per_answer,
                       const py::object& claim_type, std::size_t threads,
                       const py::object& answer_type) {
  PyTypeObject* type = record_type(claim_type);
  PyTypeObject* answer_class = answer_type_of(answer_type);
  if (ids_per_answer.size() != answers.size() || texts_per_answer.size() != answers.size()) {
    throw std::invalid_argument("chunks_per_answer must have one entry per answer: got " +
                                std::to_string(ids_per_answer.size()) + " for " +
                                std::to_string(answers.size()) + " answers");
  }
  std::vector<py::object> keep;
  std::vector<std::string_view> texts;
  std::vector<ChunkArgs> chunk_lists;
  std::vector<std::vector<c::ChunkInput>> inputs;
  keep.reserve(answers.size());
  texts.reserve(answers.size());
  chunk_lists.reserve(answers.size());
  inputs.reserve(answers.size());
  for (std::size_t i = 0; i < answers.size(); ++i) {
    py::object answer = answers[i];
    texts.push_back(utf8_of(answer.ptr(), "answers", i));
    keep.push_back(std::move(answer));
    chunk_lists.push_back(chunk_args(ids_per_answer[i], texts_per_answer[i]));
    inputs.push_back(chunk_lists.back().inputs);
  }
  if (answer_class != nullptr) {
    // The finished objects, built while the pool is still scoring; errors as c::check_answers'.
    std::size_t bytes = 0;
    for (std::size_t i = 0; i < texts.size(); ++i) {
      bytes += texts[i].size();
      for (const c::ChunkInput& chunk : inputs[i]) bytes += chunk.text.size();
    }
    const std::size_t n = texts.size();
    return sc::bindings::overlapped_batch<c::AnswerResult>(
        n, sc::threads_for(threads, n, bytes),
        [&](std::size_t i) {
          try {
            return c::check_answer(config, texts[i], inputs[i]);
          } catch (const std::invalid_argument& e) {
            throw std::invalid_argument("answers[" + std::to_string(i) + "]: " + e.what());
          } catch (const std::length_error& e) {
            throw std::length_error("answers[" + std::to_string(i) + "]: " + e.what());
          }
        },
        [&](std::size_t i, c::AnswerResult&& r) {
          return answer_object(answer_class, type, config, std::move(r), keep[i].ptr(),
                               std::move(chunk_lists[i]));
        });
  }
  std::vector<c::AnswerResult> results;
  {
    sc::bindings::ReleaseGil release;
    results = c::check_answers(config, texts, inputs, threads);
  }
  py::list out(results.size());
  for (std::size_t i = 0; i < results.size(); ++i) {
    out[i] = answer_record(type, results[i], keep[i].ptr(), texts[i], chunk_lists[i]);
  }
  return out;
}

std::vector<double> support_scores(const c::ClaimConfig& config, const py::str& claim,
                                   const py::list& texts) {
  const std::string_view utf8 = utf8_of(claim.ptr(), "sentence");
  std::vector<py::object> keep;
  const std::vector<std::string_view> views = sc::bindings::utf8_of_items(texts, "chunks", keep);
  sc::bindings::ReleaseGil release;
  return c::support_scores(config, utf8, views);
}

using TypeTuple = std::tuple<std::string, std::vector<std::string>, std::vector<std::string>>;

std::vector<TypeTuple> type_tuples(const std::vector<c::QueryTypeSpec>& specs) {
  std::vector<TypeTuple> out;
  for (const c::QueryTypeSpec& s : specs) {
    out.emplace_back(s.name, s.query_patterns, s.evidence_patterns);
  }
  return out;
}

}  // namespace

void sc::bindings::bind_claims(py::module_& m) {
  py::class_<c::ClaimConfig, std::shared_ptr<c::ClaimConfig>>(
      m, "ClaimConfig", "Validated, immutable configuration of a ClaimCoverage.")
      .def(py::init(&make_config), py::arg("min_overlap") = 0.3,
           py::arg("multi_citation_factor") = 0.7, py::arg("mode") = "default",
           py::arg("stopwords") = py::none(), py::arg("meta_patterns") = py::none(),
           py::arg("statistics") = py::none(), py::arg("relations") = py::none(),
           py::arg("max_sentences") = 0)
      .def_property_readonly("min_overlap", &c::ClaimConfig::min_overlap)
      .def_property_readonly("multi_citation_factor", &c::ClaimConfig::multi_citation_factor)
      // The held object itself (the checker binding's TermStatistics, read-only there), so Python
      // sees which table a config shares.
      .def_property_readonly(
          "statistics",
          [](const c::ClaimConfig& cfg) {
            return std::const_pointer_cast<sc::checker::TermStatistics>(cfg.shared_statistics());
          })
      .def_property_readonly(
          "mode", [](const c::ClaimConfig& cfg) { return std::string(c::mode_name(cfg.mode())); })
      .def_property_readonly("meta_patterns",
                             [](const c::ClaimConfig& cfg) { return cfg.meta().phrases(); })
      .def_property_readonly("stopwords", [](const c::ClaimConfig& cfg) {
        std::vector<std::string> out;
        for (const std::string_view w : cfg.stopwords().words()) out.emplace_back(w);
        return out;
      });

  m.def("default_meta_patterns", &c::default_meta_patterns, "The built-in meta phrases.");
  m.def("check_claim", &check_claim, py::arg("config"), py::arg("sentence"), py::arg("ids"),
        py::arg("texts"), py::arg("claim_type") = py::none(),
        "One claim against chunks (ids, texts): a claim_type record (sentence, score, is_covered, "
        "is_meta, citations, covering_chunks, overlaps, threshold, reason, start, end).");
  m.def("check_answer", &check_answer, py::arg("config"), py::arg("answer"), py::arg("ids"),
        py::arg("texts"), py::arg("claim_type") = py::none(), py::arg("answer_type") = py::none(),
        "(claims, unknown_citations, missing_citations, covered_count, claim_count, "
        "attribution_coverage, supported_ratio, is_grounded) of one answer; with answer_type, an "
        "answer_type object holding them (AnswerCoverage's fields). ids None: S1..Sn.");
  m.def("_check_answer_chunks", &check_answer_chunks, py::arg("config"), py::arg("answer"),
        py::arg("chunks"), py::arg("claim_type") = py::none(), py::arg("answer_type") = py::none(),
        "check_answer_chunks through pybind11 (argument checks, errors translated).");
  {
    // Never freed, like the module: the function object points at it.
    static PyMethodDef fast{
        "check_answer_chunks",
        reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&check_answer_chunks_fast)),
        METH_FASTCALL | METH_KEYWORDS,
        "check_answer_chunks(config, answer, chunks, claim_type, answer_type): check_answer on a "
        "chunk list plain_chunk_lists would read (str and plain dicts with unique ids), read in "
        "one pass; None for any other chunks (adapt them, then call check_answer)."};
    const py::object bound = m.attr("_check_answer_chunks");
    m.attr("check_answer_chunks") =
        steal(PyCFunction_NewEx(&fast, bound.ptr(), m.attr("__name__").ptr()));
  }
  m.def(
      "materialize_claims", &materialize_claims, py::arg("answer"),
      "Sets the claims and uncovered of an AnswerCoverage the core built from its pending result; "
      "False when it holds none.");
  m.def("check_answers", &check_answers, py::arg("config"), py::arg("answers"),
        py::arg("ids_per_answer"), py::arg("texts_per_answer"), py::arg("claim_type") = py::none(),
        py::arg("threads") = 0, py::arg("answer_type") = py::none(),
        "check_answer for each answer, in parallel, GIL released.");
  m.def(
      "plain_chunk_lists", &plain_chunk_lists, py::arg("chunks_per_answer"),
      "(ids per entry, contents per entry, indexes of entries to adapt in Python): each entry that "
      "is a list of str (ids None) or of str and plain {content, id?, score?} dicts with unique "
      "ids, read in one pass.");
  m.def("support_scores", &support_scores, py::arg("config"), py::arg("sentence"), py::arg("texts"),
        "The support score of `sentence` by each text (no citation logic).");

  py::class_<c::QueryTypeRules, std::shared_ptr<c::QueryTypeRules>>(
      m, "QueryTypeRules", "Query types as phrase data (immutable).")
      .def(py::init([](const std::vector<TypeTuple>& types, double min_term_fraction) {
             std::vector<c::QueryTypeSpec> specs;
             for (const auto& [name, query, evidence] : types)
               specs.push_back({name, query, evidence});
             return std::make_shared<c::QueryTypeRules>(std::move(specs), min_term_fraction);
           }),
           py::arg("types"), py::arg("min_term_fraction") = 0.5)
      .def_property_readonly("types",
                             [](const c::QueryTypeRules& r) { return type_tuples(r.types()); })
      .def_property_readonly("min_term_fraction", &c::QueryTypeRules::min_term_fraction)
      .def_static("default_types", []() { return type_tuples(c::QueryTypeRules::default_types()); })
      .def(
          "classify",
          [](const c::QueryTypeRules& rules, const py::str& query) {
            const std::string_view utf8 = utf8_of(query.ptr(), "query");
            sc::bindings::ReleaseGil release;
            return std::string(rules.classify(utf8));
          },
          py::arg("query"))
      .def(
          "evidence",
          [](const c::QueryTypeRules& rules, const py::str& query, const py::list& texts) {
            const std::string_view utf8 = utf8_of(query.ptr(), "query");
            std::vector<py::object> keep;
            const std::vector<std::string_view> views =
                sc::bindings::utf8_of_items(texts, "chunks", keep);
            c::EvidenceCheck r;
            {
              sc::bindings::ReleaseGil release;
              r = rules.evidence(utf8, views);
            }
            return py::make_tuple(r.query_type, r.is_sufficient, r.supporting, r.relevant,
                                  r.key_terms, r.reason);
          },
          py::arg("query"), py::arg("texts"),
          "(query_type, is_sufficient, supporting, relevant, key_terms, reason); chunk indexes.");
}
