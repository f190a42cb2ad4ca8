// Q x N cosine block: normalised queries times the rows (one Eigen GEMM on the caller's memory),
// then each column divided by its row's norm. Rows are never copied: for a large corpus an
// N x d normalised copy would cost more than the product itself.
#include <Eigen/Core>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "similarity/cosine.hpp"

namespace sc::similarity {
namespace {

using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

float clamp_cosine(float c) {
  if (c > 1.0F) return 1.0F;
  if (c < -1.0F) return -1.0F;
  return c;  // NaN (non-finite query or row) passes through
}

}  // namespace

void cosine_matrix(const float* queries, std::size_t q, const float* rows, std::size_t n,
                   std::size_t d, float* out) {
  if (q == 0 || n == 0) return;
  if (q == 1) {  // one query: the memory-bound kernel reads each row once, no packing
    cosine_many(queries, rows, n, d, out);
    return;
  }
  const auto qi = static_cast<Eigen::Index>(q);
  const auto ni = static_cast<Eigen::Index>(n);
  const auto di = static_cast<Eigen::Index>(d);
  Eigen::Map<RowMajor> result(out, qi, ni);
  if (d == 0) {
    result.setZero();
    return;
  }

  // Unit queries, scaled in double from an exact double norm (so 1e30 or 1e-30 entries are fine).
  // A zero query stays zero (cosine 0); a non-finite one becomes NaN.
  std::vector<double> query_norms(q);
  RowMajor unit(qi, di);
  for (std::size_t i = 0; i < q; ++i) {
    const float* query = queries + i * d;
    const double norm = std::sqrt(kernels::squared_norm_f64(query, d));
    query_norms[i] = norm;
    const auto row = static_cast<Eigen::Index>(i);
    if (!std::isfinite(norm)) {
      unit.row(row).setConstant(std::numeric_limits<float>::quiet_NaN());
    } else if (norm == 0.0) {
      unit.row(row).setZero();
    } else {
      for (std::size_t k = 0; k < d; ++k) {
        unit(row, static_cast<Eigen::Index>(k)) = static_cast<float>(query[k] / norm);
      }
    }
  }

  std::vector<float> norms(n);
  row_norms(rows, n, d, norms.data());
  const Eigen::Map<const RowMajor> corpus(rows, ni, di);
  result.noalias() = unit * corpus.transpose();

  // Column scaling, row by row of the output (contiguous). A row whose norm leaves the range where
  // the float product is trustworthy (zero, tiny, huge, non-finite) is recomputed exactly.
  std::vector<float> inverse(n);
  std::vector<std::size_t> exact_columns;
  for (std::size_t j = 0; j < n; ++j) {
    const double norm = norms[j];
    if (norm >= kernels::kMinNorm && norm <= kernels::kMaxNorm) {
      inverse[j] = static_cast<float>(1.0 / norm);
    } else {
      inverse[j] = 0.0F;
      exact_columns.push_back(j);
    }
  }
  for (std::size_t i = 0; i < q; ++i) {
    float* out_row = out + i * n;
    for (std::size_t j = 0; j < n; ++j) out_row[j] = clamp_cosine(out_row[j] * inverse[j]);
    for (const std::size_t j : exact_columns) {
      out_row[j] = kernels::cosine_row_f64(queries + i * d, query_norms[i], rows + j * d, d);
    }
  }
}

}  // namespace sc::similarity
