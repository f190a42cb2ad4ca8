#include "checker/embedding_relevance.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/trim.hpp"
#include "similarity/cosine.hpp"

namespace sc::checker {
namespace {

void require_finite(const double* data, std::size_t n, std::size_t d, bool matrix) {
  for (std::size_t i = 0; i < n * d; ++i) {
    if (std::isfinite(data[i])) continue;
    const std::string where =
        matrix ? "chunk_embeddings[" + std::to_string(i / d) + ", " + std::to_string(i % d) + "]"
               : "query_embedding[" + std::to_string(i) + "]";
    throw std::invalid_argument(where + " is " + std::to_string(data[i]) +
                                ": embeddings must be finite");
  }
}

// Below this a row's largest value would lose bits (or all of them) in float: 1e-50 would become 0.
constexpr double kTinyRowPeak = 0x1p-100;

// Rows of doubles as floats, the precision the kernels compute in. Doubles beyond float's range
// would become inf: they are rejected, naming the value, rather than scored. A row whose values
// would underflow float is first scaled by a power of two (exact; its cosines do not change).
void to_float_rows(const double* data, std::size_t n, std::size_t d, float* out, bool matrix) {
  for (std::size_t r = 0; r < n; ++r) {
    const double* row = data + r * d;
    double peak = 0.0;
    for (std::size_t j = 0; j < d; ++j) peak = std::max(peak, std::fabs(row[j]));
    if (peak > static_cast<double>(std::numeric_limits<float>::max())) {
      const std::size_t j = static_cast<std::size_t>(
          std::find_if(row, row + d,
                       [](double v) {
                         return std::fabs(v) >
                                static_cast<double>(std::numeric_limits<float>::max());
                       }) -
          row);
      const std::size_t i = r * d + j;
      const std::string where =
          matrix ? "chunk_embeddings[" + std::to_string(i / d) + ", " + std::to_string(i % d) + "]"
                 : "query_embedding[" + std::to_string(i) + "]";
      char value[32];  // the shortest form that reads back as the same double: 1e+300
      char* end = std::to_chars(value, value + sizeof value, row[j]).ptr;
      throw std::invalid_argument(
          where + " is " + std::string(value, end) +
          ": beyond float32's range (3.4e38), in which cosines are computed");
    }
    // ldexp on each value: the factor itself overflows a double for a subnormal peak
    float* to = out + r * d;
    if (peak > 0.0 && peak < kTinyRowPeak) {
      const int shift = -std::ilogb(peak);
      for (std::size_t j = 0; j < d; ++j) to[j] = static_cast<float>(std::ldexp(row[j], shift));
    } else {  // ordinary rows: a plain cast (an ldexp call per value cost more than the cosines)
      for (std::size_t j = 0; j < d; ++j) to[j] = static_cast<float>(row[j]);
    }
  }
}

void require_shape(std::size_t n, std::size_t d) {
  if (n == 0 || d == 0) {
    throw std::invalid_argument("embeddings need at least one chunk and one dimension; got " +
                                std::to_string(n) + " x " + std::to_string(d));
  }
}

}  // namespace

double max_cosine_reference(const double* query, const double* rows, std::size_t n, std::size_t d) {
  require_shape(n, d);
  require_finite(query, 1, d, false);
  require_finite(rows, n, d, true);
  double q_sq = 0.0;
  for (std::size_t j = 0; j < d; ++j) q_sq += query[j] * query[j];
  const double q_norm = std::sqrt(q_sq);
  double best = -INFINITY;
  for (std::size_t i = 0; i < n; ++i) {
    const double* row = rows + i * d;
    double dot = 0.0;
    double r_sq = 0.0;
    for (std::size_t j = 0; j < d; ++j) dot += query[j] * row[j];
    for (std::size_t j = 0; j < d; ++j) r_sq += row[j] * row[j];
    const double r_norm = std::sqrt(r_sq);
    const double cos = (q_norm == 0.0 || r_norm == 0.0) ? 0.0 : dot / (q_norm * r_norm);
    best = std::max(best, cos);
  }
  return best;
}

double max_cosine_engine(const double* query, const double* rows, std::size_t n, std::size_t d) {
  require_shape(n, d);
  require_finite(query, 1, d, false);
  require_finite(rows, n, d, true);
  thread_local std::vector<float> q32;
  thread_local std::vector<float> rows32;
  thread_local std::vector<float> out;
  q32.resize(d);
  rows32.resize(n * d);
  out.resize(n);
  to_float_rows(query, 1, d, q32.data(), false);
  to_float_rows(rows, n, d, rows32.data(), true);
  similarity::cosine_many(q32.data(), rows32.data(), n, d, out.data());
  const double best = static_cast<double>(*std::max_element(out.begin(), out.end()));
  release_if_over(q32);
  release_if_over(rows32);
  release_if_over(out);
  return best;
}

}  // namespace sc::checker
