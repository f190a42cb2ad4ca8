/// @brief `retrieval_decision`: scores read straight from a float ndarray, a list of numbers or
/// LlamaIndex `NodeWithScore` objects into the core, and the decision filled in the same C call.
/// Anything unusual returns None: the Python layer's general path then checks the input and raises
/// today's errors, so this path never has to reproduce them.
#include "gate_retrieval.hpp"

#include <pybind11/numpy.h>

#include <array>
#include <charconv>
#include <cstring>
#include <exception>
#include <initializer_list>
#include <new>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

#include "gate.hpp"
#include "gil.hpp"

namespace py = pybind11;

namespace {

namespace g = sc::gate;

// Below this many scores a core call takes well under a microsecond: releasing the GIL would cost
// more than it frees (the same bound as the array binding in gate.cpp).
constexpr std::size_t kReleaseGilFrom = 512;

// Interned once at import and deliberately never released: they must outlive every call, and a
// static py::object would be destroyed after the interpreter.
struct Names {
  PyObject* node;
  PyObject* id;
  PyObject* score;
  PyObject* outcome;
  PyObject* max_score;
  PyObject* passing_chunks;
  PyObject* min_score;
  PyObject* min_chunks;
  PyObject* weak_score;
  PyObject* chunk_count;
  PyObject* would_outcome;
  PyObject* gating_enabled;
  PyObject* getattribute;
  PyObject* outcomes[3];  // indexed by g::Outcome
  PyObject* empty_tuple;
};

PyObject* interned(const char* text) {
  PyObject* s = PyUnicode_InternFromString(text);
  if (s == nullptr) throw py::error_already_set();
  return s;
}

const Names& names() {
  static const Names n = [] {
    PyObject* empty = PyTuple_New(0);
    if (empty == nullptr) throw py::error_already_set();
    return Names{interned("node"),
                 interned("id_"),
                 interned("score"),
                 interned("outcome"),
                 interned("max_score"),
                 interned("passing_chunks"),
                 interned("min_score"),
                 interned("min_chunks"),
                 interned("weak_score"),
                 interned("chunk_count"),
                 interned("would_outcome"),
                 interned("gating_enabled"),
                 interned("__getattribute__"),
                 {interned("no_evidence"), interned("weak_evidence"), interned("normal")},
                 empty};
  }();
  return n;
}

py::object steal(PyObject* p) {
  if (p == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(p);
}

// A Python float or int of exactly those types. Bools, NumPy scalars and subclasses take the
// general path, which checks them and names the offender; so does an int too large for a double.
bool exact_number(PyObject* o, double& out) noexcept {
  if (PyFloat_CheckExact(o)) {
    out = PyFloat_AS_DOUBLE(o);
    return true;
  }
  if (!PyLong_CheckExact(o)) return false;
  out = PyLong_AsDouble(o);
  if (out == -1.0 && PyErr_Occurred() != nullptr) {
    PyErr_Clear();
    return false;
  }
  return true;
}

// The gate's parameters, with the objects the decision stores (float(min_score) etc., as the
// Python layer stored them).
struct Params {
  g::RetrievalConfig config;
  bool valid = false;  // whether the core accepts the values (NaN min_score etc. do not)
  py::object min_score;
  py::object min_chunks;
  py::object weak_score;
};

py::object as_float_object(PyObject* given, double value) {
  if (PyFloat_CheckExact(given)) return py::reinterpret_borrow<py::object>(given);
  return steal(PyFloat_FromDouble(value));
}

// Parameters of the plain types the core takes; none otherwise (the general path converts NumPy
// numbers and names wrong types). Values the core refuses (NaN, weak_score below min_score, ...)
// come back not `valid`: the general path raises their error, after any error the input has.
std::optional<Params> read_params(PyObject* min_score, PyObject* min_chunks, PyObject* weak_score) {
  Params p;
  if (!exact_number(min_score, p.config.min_score)) return std::nullopt;
  if (!PyLong_CheckExact(min_chunks)) return std::nullopt;
  int overflow = 0;
  const long long chunks = PyLong_AsLongLongAndOverflow(min_chunks, &overflow);
  if (overflow != 0 || chunks < 1 || chunks > INT32_MAX) return std::nullopt;
  p.config.min_chunks = static_cast<std::size_t>(chunks);
  if (weak_score != Py_None) {
    double weak = 0.0;
    if (!exact_number(weak_score, weak)) return std::nullopt;
    p.config.weak_score = weak;
  }
  try {
    g::validate(p.config);
    p.valid = true;
  } catch (const std::invalid_argument&) {
    p.valid = false;
  }
  p.min_score = as_float_object(min_score, p.config.min_score);
  p.min_chunks = py::reinterpret_borrow<py::object>(min_chunks);
  p.weak_score = weak_score == Py_None ? py::reinterpret_borrow<py::object>(Py_None)
                                       : as_float_object(weak_score, *p.config.weak_score);
  return p;
}

// The core's decision, or none when a score is NaN or infinite (the general path names it).
std::optional<g::RetrievalResult> decide(const double* scores, std::size_t n,
                                         const g::RetrievalConfig& config) {
  try {
    const sc::bindings::ReleaseGil release(n >= kReleaseGilFrom);
    return g::evaluate_retrieval(scores, n, config);
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
}

// object.__new__(cls) with its fields set straight in __dict__ (the dataclass is frozen). `reason`
// and `message` are left out: the class formats them from these fields when they are first read.
PyObject* make_decision(PyObject* cls, g::Outcome outcome, py::object max_score, py::object passing,
                        const Params& p, std::size_t n) {
  const Names& k = names();
  py::object decision =
      steal(PyBaseObject_Type.tp_new(reinterpret_cast<PyTypeObject*>(cls), k.empty_tuple, nullptr));
  PyObject* outcome_name = k.outcomes[static_cast<std::size_t>(outcome)];
  py::object count = steal(PyLong_FromSize_t(n));
  const std::pair<PyObject*, PyObject*> fields[] = {
      {k.outcome, outcome_name},          {k.max_score, max_score.ptr()},
      {k.passing_chunks, passing.ptr()},  {k.min_score, p.min_score.ptr()},
      {k.min_chunks, p.min_chunks.ptr()}, {k.weak_score, p.weak_score.ptr()},
      {k.chunk_count, count.ptr()},       {k.would_outcome, outcome_name},
      {k.gating_enabled, Py_True},
  };
  for (const auto& [key, value] : fields) {
    if (PyObject_GenericSetAttr(decision.ptr(), key, value) != 0) throw py::error_already_set();
  }
  return decision.release().ptr();
}

PyObject* make_decision(PyObject* cls, const g::RetrievalResult& result, py::object passing,
                        const Params& p, std::size_t n) {
  return make_decision(cls, result.outcome, steal(PyFloat_FromDouble(result.max_score)),
                       std::move(passing), p, n);
}

// "S1".."Sn" for bare scores, as the Python layer names them.
PyObject* positional_id(std::size_t index) {
  char text[24] = {'S'};
  const auto end = std::to_chars(text + 1, text + sizeof text, index + 1).ptr;
  const auto size = static_cast<Py_ssize_t>(end - text);
  PyObject* id = PyUnicode_New(size, 127);
  if (id == nullptr) throw py::error_already_set();
  std::memcpy(PyUnicode_1BYTE_DATA(id), text, static_cast<std::size_t>(size));
  return id;
}

PyObject* positional_decision(PyObject* cls, const double* scores, std::size_t n, const Params& p) {
  if (!p.valid) Py_RETURN_NONE;
  const auto result = decide(scores, n, p.config);
  if (!result) Py_RETURN_NONE;
  const auto count = static_cast<Py_ssize_t>(result->passing.size());
  py::object passing = steal(PyList_New(count));
  for (Py_ssize_t i = 0; i < count; ++i) {
    PyList_SET_ITEM(passing.ptr(), i, positional_id(result->passing[static_cast<std::size_t>(i)]));
  }
  return make_decision(cls, *result, std::move(passing), p, n);
}

// An exact 1-D ndarray of native, aligned float64 or float32; other arrays take the general path.
PyObject* array_decision(PyObject* cls, PyObject* array, const Params& p) {
  const auto& api = py::detail::npy_api::get();
  const auto* a = py::detail::array_proxy(array);
  const auto* descr = py::detail::array_descriptor_proxy(a->descr);
  const bool native = descr->byteorder == '=' || descr->byteorder == '|';
  const bool aligned = (a->flags & py::detail::npy_api::NPY_ARRAY_ALIGNED_) != 0;
  if (a->nd != 1 || !native || !aligned) Py_RETURN_NONE;
  const auto n = static_cast<std::size_t>(a->dimensions[0]);
  const auto stride = a->strides[0];
  if (descr->type_num == api.NPY_DOUBLE_ && stride == static_cast<py::ssize_t>(sizeof(double))) {
    return positional_decision(cls, reinterpret_cast<const double*>(a->data), n, p);
  }
  std::vector<double> scores(n);
  if (descr->type_num == api.NPY_DOUBLE_) {
    for (std::size_t i = 0; i < n; ++i) {
      scores[i] = *reinterpret_cast<const double*>(a->data + static_cast<py::ssize_t>(i) * stride);
    }
  } else if (descr->type_num == api.NPY_FLOAT_) {
    for (std::size_t i = 0; i < n; ++i) {
      scores[i] = *reinterpret_cast<const float*>(a->data + static_cast<py::ssize_t>(i) * stride);
    }
  } else {
    Py_RETURN_NONE;
  }
  return positional_decision(cls, scores.data(), n, p);
}

// A list or tuple of exact floats and ints: reading them runs no Python code.
PyObject* numbers_decision(PyObject* cls, PyObject* const* items, std::size_t n, const Params& p) {
  std::vector<double> scores(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (!exact_number(items[i], scores[i])) Py_RETURN_NONE;
  }
  return positional_decision(cls, scores.data(), n, p);
}

// Index pair (later, first) of the first id equal to an earlier one. The ids are exact str, so
// comparing them runs no Python code and cannot fail.
std::optional<std::pair<std::size_t, std::size_t>> first_duplicate(
    const std::vector<py::object>& ids, const std::vector<Py_hash_t>& hashes) {
  const std::size_t n = ids.size();
  if (n < 2) return std::nullopt;
  std::size_t capacity = 4;
  while (capacity < 2 * n) capacity *= 2;
  std::vector<std::size_t> slots(capacity, 0);  // index + 1 of the id there; 0 when empty
  for (std::size_t i = 0; i < n; ++i) {
    const Py_hash_t h = hashes[i];
    for (auto s = static_cast<std::size_t>(h) & (capacity - 1);; s = (s + 1) & (capacity - 1)) {
      if (slots[s] == 0) {
        slots[s] = i + 1;
        break;
      }
      const std::size_t j = slots[s] - 1;
      if (hashes[j] == h && PyUnicode_Compare(ids[j].ptr(), ids[i].ptr()) == 0) {
        return std::make_pair(i, j);
      }
    }
  }
  return std::nullopt;
}

// ValueError in the words of chunks.check_unique_ids, which the Python path raises for the same
// input.
PyObject* raise_duplicate(const std::vector<py::object>& ids, std::size_t later,
                          std::size_t first) {
  PyErr_Format(PyExc_ValueError,
               "chunks_or_scores[%zu].id %R duplicates chunks_or_scores[%zu].id: chunk ids must be "
               "unique",
               later, ids[later].ptr(), first);
  return nullptr;
}

// LlamaIndex is optional, so NodeWithScore is recognised by its class name, as before.
bool is_node_with_score(PyTypeObject* type) noexcept {
  return std::strcmp(type->tp_name, "NodeWithScore") == 0;
}

// A type's own namespace (borrowed as a new reference: from 3.12 a static type's tp_dict is NULL).
py::object type_dict(PyTypeObject* type) {
#if PY_VERSION_HEX >= 0x030C0000
  return steal(PyType_GetDict(type));
#else
  return py::reinterpret_borrow<py::object>(type->tp_dict);
#endif
}

// The first definition of `name` on the type's MRO, as attribute lookup finds it; None when no
// class defines it. Namespaces have str keys only, so the lookups run no Python code.
py::object lookup_on_type(PyTypeObject* type, PyObject* name) {
  PyObject* mro =
      type->tp_mro;  // every type has one once ready, as a type must be to have instances
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(mro); ++i) {
    const py::object dict = type_dict(reinterpret_cast<PyTypeObject*>(PyTuple_GET_ITEM(mro, i)));
    PyObject* value = PyDict_GetItemWithError(dict.ptr(), name);
    if (value != nullptr) return py::reinterpret_borrow<py::object>(value);
    if (PyErr_Occurred() != nullptr) throw py::error_already_set();
  }
  return py::none();
}

// Whether getattr(x, name) on instances of `type` returns x.__dict__[name] whenever that entry
// exists: attribute access is object's own (a __getattr__ runs only on a miss) and no class defines
// `name` as a data descriptor, which would win over the instance dict. Checked once per call, so
// reading a pydantic node is a dict lookup rather than a full getattr.
bool reads_instance_dict(PyTypeObject* type, std::initializer_list<PyObject*> fields) {
  const Names& k = names();
  if (type->tp_mro == nullptr) return false;
  if (type->tp_getattro != PyObject_GenericGetAttr) {
    const py::object own = lookup_on_type(type, k.getattribute);
    const py::object generic = lookup_on_type(&PyBaseObject_Type, k.getattribute);
    if (!own.is(generic)) return false;
  }
  for (PyObject* field : fields) {
    const py::object attribute = lookup_on_type(type, field);
    if (!attribute.is_none() && Py_TYPE(attribute.ptr())->tp_descr_set != nullptr) return false;
  }
  return true;
}

// An AttributeError means "no such attribute" to the caller; any other error propagates.
void clear_attribute_error() {
  if (!PyErr_ExceptionMatches(PyExc_AttributeError)) throw py::error_already_set();
  PyErr_Clear();
}

// getattr(obj, name) for each name, from obj.__dict__ when `from_dict` says that is where getattr
// would find them (one dict fetch for all); empty objects from the first that does not exist.
template <std::size_t N>
std::array<py::object, N> attributes(PyObject* obj, const std::array<PyObject*, N>& names,
                                     bool from_dict) {
  std::array<py::object, N> values;
  py::object dict;
  if (from_dict) {
    dict = py::reinterpret_steal<py::object>(PyObject_GenericGetDict(obj, nullptr));
    if (!dict) clear_attribute_error();  // no __dict__ at all
  }
  for (std::size_t i = 0; i < N; ++i) {
    if (dict) {
      PyObject* value = PyDict_GetItemWithError(dict.ptr(), names[i]);
      if (value != nullptr) {
        values[i] = py::reinterpret_borrow<py::object>(value);
        continue;
      }
      if (PyErr_Occurred() != nullptr) throw py::error_already_set();
    }
    PyObject* value = PyObject_GetAttr(obj, names[i]);  // a class attribute, a __getattr__, ...
    if (value == nullptr) {
      clear_attribute_error();
      break;  // the rest are not read, as the Python path stopped at the first missing one
    }
    values[i] = py::reinterpret_steal<py::object>(value);
  }
  return values;
}

// What the nodes hold: `node.id_` of each (strong references, for the passing list) and `score`
// read as a double on the way, with what the general path must see instead.
struct NodeFields {
  std::vector<py::object> ids;
  std::vector<Py_hash_t> hashes;  // of the ids, taken while each is in cache
  std::vector<double> scores;
  std::size_t unscored = 0;   // scores that are None
  bool other_scores = false;  // bools, NumPy numbers, str...: the general path decides
  bool overflow = false;      // an int score too large for a double: the general path names it
};

// Reads every node; none when an item is not a NodeWithScore, an attribute is missing or an id is
// not a str.
std::optional<NodeFields> read_nodes(PyObject* const* items, std::size_t n) {
  const Names& k = names();
  PyTypeObject* kind = Py_TYPE(items[0]);
  if (!is_node_with_score(kind)) return std::nullopt;
  const bool item_dict = reads_instance_dict(kind, {k.node, k.score});
  PyTypeObject* node_kind = nullptr;  // the last node class checked: usually all nodes share one
  bool node_dict = false;
  NodeFields fields;
  fields.ids.reserve(n);
  fields.hashes.resize(n);
  fields.scores.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    PyObject* item = items[i];
    if (Py_TYPE(item) != kind) return std::nullopt;
    const auto [node, score] = attributes<2>(item, {k.node, k.score}, item_dict);
    if (!node) return std::nullopt;
    if (Py_TYPE(node.ptr()) != node_kind) {
      node_kind = Py_TYPE(node.ptr());
      node_dict = reads_instance_dict(node_kind, {k.id});
    }
    auto [id] = attributes<1>(node.ptr(), {k.id}, node_dict);
    if (!id || !PyUnicode_CheckExact(id.ptr()) || !score) return std::nullopt;
    fields.hashes[i] = PyObject_Hash(id.ptr());  // a str's hash cannot fail
    fields.ids.push_back(std::move(id));
    if (PyFloat_CheckExact(score.ptr())) {
      fields.scores[i] = PyFloat_AS_DOUBLE(score.ptr());
    } else if (score.is_none()) {
      ++fields.unscored;
    } else if (!PyLong_CheckExact(score.ptr())) {
      fields.other_scores = true;
    } else if (!exact_number(score.ptr(), fields.scores[i])) {
      fields.overflow = true;
    }
  }
  return fields;
}

py::object id_list(const std::vector<py::object>& ids, const std::vector<std::size_t>& indexes) {
  py::object list = steal(PyList_New(static_cast<Py_ssize_t>(indexes.size())));
  for (std::size_t i = 0; i < indexes.size(); ++i) {
    PyList_SET_ITEM(list.ptr(), static_cast<Py_ssize_t>(i), ids[indexes[i]].inc_ref().ptr());
  }
  return list;
}

// The checks in the order the Python path made them: ids, duplicates, scores, then the parameters'
// values (unscored nodes never needed them).
PyObject* nodes_decision(PyObject* cls, PyObject* const* items, std::size_t n, const Params& p) {
  const auto fields = read_nodes(items, n);
  if (!fields) Py_RETURN_NONE;
  if (const auto dup = first_duplicate(fields->ids, fields->hashes)) {
    return raise_duplicate(fields->ids, dup->first, dup->second);
  }
  if (fields->unscored == n && p.valid) {  // no scores at all: only the count is gated
    std::vector<std::size_t> all(n);
    for (std::size_t i = 0; i < n; ++i) all[i] = i;
    const auto outcome = n >= p.config.min_chunks ? g::Outcome::kNormal : g::Outcome::kNoEvidence;
    return make_decision(cls, outcome, py::none(), id_list(fields->ids, all), p, n);
  }
  if (fields->unscored > 0 || fields->other_scores || fields->overflow || !p.valid) {
    Py_RETURN_NONE;  // the general path names the problem
  }
  const auto result = decide(fields->scores.data(), n, p.config);
  if (!result) Py_RETURN_NONE;
  return make_decision(cls, *result, id_list(fields->ids, result->passing), p, n);
}

PyObject* sequence_decision(PyObject* cls, PyObject* sequence, const Params& p) {
  const auto n = static_cast<std::size_t>(PySequence_Fast_GET_SIZE(sequence));
  PyObject* const* items = PySequence_Fast_ITEMS(sequence);
  if (n == 0 || PyFloat_CheckExact(items[0]) || PyLong_CheckExact(items[0])) {
    return numbers_decision(cls, items, n, p);
  }
  if (PyTuple_CheckExact(sequence)) return nodes_decision(cls, items, n, p);
  // Read from a snapshot, as the Python path read list(obj): a property may change the list.
  const py::object snapshot = steal(PyList_AsTuple(sequence));
  return nodes_decision(cls, PySequence_Fast_ITEMS(snapshot.ptr()), n, p);
}

PyObject* retrieval_decision(PyObject* /*module*/, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 5) {
    PyErr_Format(PyExc_TypeError, "retrieval_decision takes 5 positional arguments; got %zd",
                 nargs);
    return nullptr;
  }
  PyObject* cls = args[0];
  PyObject* obj = args[1];
  if (!PyType_Check(cls)) {
    PyErr_SetString(PyExc_TypeError, "retrieval_decision: cls must be a class");
    return nullptr;
  }
  try {
    const auto params = read_params(args[2], args[3], args[4]);
    if (!params) Py_RETURN_NONE;
    if (Py_TYPE(obj) == py::detail::npy_api::get().PyArray_Type_) {
      return array_decision(cls, obj, *params);
    }
    if (PyList_CheckExact(obj) || PyTuple_CheckExact(obj)) {
      return sequence_decision(cls, obj, *params);
    }
    Py_RETURN_NONE;
  } catch (py::error_already_set& error) {
    error.restore();
  } catch (const std::bad_alloc&) {
    PyErr_NoMemory();
  } catch (const std::exception& error) {
    PyErr_SetString(PyExc_RuntimeError, error.what());
  }
  return nullptr;
}

// Cast through a function type with no parameters, which GCC and Clang accept without a
// -Wcast-function-type warning: CPython calls it with the METH_FASTCALL signature.
PyMethodDef kMethods[] = {
    {"retrieval_decision",
     reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&retrieval_decision)),
     METH_FASTCALL,
     "retrieval_decision($module, cls, scores, min_score, min_chunks, weak_score, /)\n--\n\n"
     "The retrieval gate in one call: a `cls` instance with every field but reason and message, "
     "or None when the input needs the general path (its checks and errors)."},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace

void sc::bindings::add_retrieval_decision(py::module_& gate) {
  names();  // interned now, so no call pays for it
  if (PyModule_AddFunctions(gate.ptr(), kMethods) != 0) throw py::error_already_set();
}
