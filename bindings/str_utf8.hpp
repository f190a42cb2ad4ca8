/// @brief The UTF-8 of a Python str as a view, without copying, for every binding that reads text.
#pragma once

#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sc::bindings {

/// CPython caches a str's UTF-8 in the object, so the view lives as long as the argument and stays
/// immutable while the GIL is released (a bytearray would not). A str with lone surrogates has no
/// UTF-8: that raises UnicodeEncodeError, which the Python layer handles by replacing them.
/// `name` (and `index`, for an item of a list argument) names the argument in the TypeError.
inline std::string_view utf8_of(PyObject* text, const char* name, std::size_t index = SIZE_MAX) {
  if (!PyUnicode_Check(text)) {
    std::string where = name;
    if (index != SIZE_MAX) where += "[" + std::to_string(index) + "]";
    throw pybind11::type_error(where + " must be str; got " + Py_TYPE(text)->tp_name);
  }
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(text, &size);
  if (data == nullptr) throw pybind11::error_already_set();
  return {data, static_cast<std::size_t>(size)};
}

/// utf8_of every item of the list argument `items`, named `name` in errors. `keep` takes a
/// reference to each item: the list alone would not keep them alive while the GIL is released
/// (another thread may drop them from it), and the views read their UTF-8.
inline std::vector<std::string_view> utf8_of_items(const pybind11::list& items, const char* name,
                                                   std::vector<pybind11::object>& keep) {
  std::vector<std::string_view> views;
  views.reserve(items.size());
  keep.reserve(keep.size() + items.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    pybind11::object item = items[i];
    views.push_back(utf8_of(item.ptr(), name, i));
    keep.push_back(std::move(item));
  }
  return views;
}

}  // namespace sc::bindings
