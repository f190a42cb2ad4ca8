/// @brief fixed2: a double as printf's "%.2f" prints it, without printf.
#pragma once

#include <string>

namespace sc {

/// `value` as glibc's "%.2f" (and Python's f"{value:.2f}") prints it: the exact binary value
/// rounded half to even. Reasons print scores and thresholds this way on every check.
std::string fixed2(double value);

}  // namespace sc
