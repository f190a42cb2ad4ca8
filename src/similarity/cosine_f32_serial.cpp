// Portable cosine kernels: double accumulation, the reference every SIMD path is tested against and
// the exact path the SIMD kernels fall back to for rows outside the safe float range.
#include <cmath>
#include <cstddef>
#include <limits>

#include "similarity/cosine.hpp"

namespace sc::similarity::kernels {
namespace {

struct DotNorm {
  double dot;
  double squared_norm;
};

// Four independent accumulators hide the add latency; a float x float product is exact in double,
// so the only rounding is in the sums (relative 1e-16).
DotNorm dot_and_norm_f64(const float* q, const float* r, std::size_t d) {
  double dot[4] = {0.0, 0.0, 0.0, 0.0};
  double rr[4] = {0.0, 0.0, 0.0, 0.0};
  std::size_t i = 0;
  for (; i + 4 <= d; i += 4) {
    for (std::size_t k = 0; k < 4; ++k) {
      const double x = r[i + k];
      dot[k] += static_cast<double>(q[i + k]) * x;
      rr[k] += x * x;
    }
  }
  for (; i < d; ++i) {
    const double x = r[i];
    dot[0] += static_cast<double>(q[i]) * x;
    rr[0] += x * x;
  }
  return {(dot[0] + dot[1]) + (dot[2] + dot[3]), (rr[0] + rr[1]) + (rr[2] + rr[3])};
}

double dot_f64(const float* q, const float* r, std::size_t d) {
  double dot[4] = {0.0, 0.0, 0.0, 0.0};
  std::size_t i = 0;
  for (; i + 4 <= d; i += 4) {
    for (std::size_t k = 0; k < 4; ++k) {
      dot[k] += static_cast<double>(q[i + k]) * static_cast<double>(r[i + k]);
    }
  }
  for (; i < d; ++i) dot[0] += static_cast<double>(q[i]) * static_cast<double>(r[i]);
  return (dot[0] + dot[1]) + (dot[2] + dot[3]);
}

// Rounding can push |cos| a hair past 1 for (anti)parallel vectors; the true value never is.
float clamp_cosine(double c) {
  if (c > 1.0) return 1.0F;
  if (c < -1.0) return -1.0F;
  return static_cast<float>(c);
}

float finish(double dot, double row_norm, double q_norm) {
  if (!std::isfinite(dot) || !std::isfinite(row_norm))
    return std::numeric_limits<float>::quiet_NaN();
  if (row_norm == 0.0 || q_norm == 0.0) return 0.0F;
  return clamp_cosine(dot / (q_norm * row_norm));
}

}  // namespace

double squared_norm_f64(const float* v, std::size_t d) {
  double rr[4] = {0.0, 0.0, 0.0, 0.0};
  std::size_t i = 0;
  for (; i + 4 <= d; i += 4) {
    for (std::size_t k = 0; k < 4; ++k) {
      const double x = v[i + k];
      rr[k] += x * x;
    }
  }
  for (; i < d; ++i) {
    const double x = v[i];
    rr[0] += x * x;
  }
  return (rr[0] + rr[1]) + (rr[2] + rr[3]);
}

float cosine_row_f64(const float* q, double q_norm, const float* row, std::size_t d) {
  const DotNorm s = dot_and_norm_f64(q, row, d);
  return finish(s.dot, std::sqrt(s.squared_norm), q_norm);
}

void cosine_rows_f32_serial(const float* q, double q_norm, const float* rows, std::size_t n,
                            std::size_t d, float* out) {
  for (std::size_t i = 0; i < n; ++i) out[i] = cosine_row_f64(q, q_norm, rows + i * d, d);
}

void norm_rows_f32_serial(const float* rows, std::size_t n, std::size_t d, float* out) {
  for (std::size_t i = 0; i < n; ++i) {
    const double rr = squared_norm_f64(rows + i * d, d);
    // NaN (not inf) for a row holding inf too: "non-finite row -> NaN" on every path.
    out[i] = std::isfinite(rr) ? static_cast<float>(std::sqrt(rr))
                               : std::numeric_limits<float>::quiet_NaN();
  }
}

void cosine_rows_with_norms_f32_serial(const float* q, double q_norm, const float* rows,
                                       const float* norms, std::size_t n, std::size_t d,
                                       float* out) {
  for (std::size_t i = 0; i < n; ++i) {
    const float* row = rows + i * d;
    const double norm = norms[i];
    if (std::isfinite(norm) && norm > 0.0) {
      out[i] = finish(dot_f64(q, row, d), norm, q_norm);
    } else {
      out[i] = cosine_row_f64(q, q_norm, row, d);  // zero or non-finite row: let the data decide
    }
  }
}

}  // namespace sc::similarity::kernels
