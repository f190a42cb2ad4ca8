#include "checker/embedding_relevance.hpp"

#include <algorithm>
#include <cmath>
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
  q32.assign(query, query + d);
  rows32.assign(rows, rows + n * d);
  out.resize(n);
  // Doubles beyond float range would become inf: reject them rather than score them.
  similarity::require_finite_vector(q32.data(), d, "query_embedding");
  similarity::require_finite_matrix(rows32.data(), n, d, "chunk_embeddings");
  similarity::cosine_many(q32.data(), rows32.data(), n, d, out.data());
  const double best = static_cast<double>(*std::max_element(out.begin(), out.end()));
  release_if_over(q32);
  release_if_over(rows32);
  release_if_over(out);
  return best;
}

}  // namespace sc::checker
