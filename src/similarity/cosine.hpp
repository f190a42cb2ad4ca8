/// @brief Cosine similarity of float32 vectors: pairs, one query x many rows, Q x N blocks.
#pragma once

#include <cstddef>
#include <string_view>

namespace sc::similarity {

// Contract shared by every function below.
// - Vectors are float32 of length d; a block of n rows is row-major and contiguous (row i starts at
//   rows + i * d). Pointers need float alignment only. `out` must not alias the inputs.
// - Inputs are assumed finite: the Python boundary checks them first (require_finite_*). A row
//   holding NaN or +-inf gives NaN for that row and a non-finite query gives NaN everywhere; that
//   is what makes the fused check of require_finite_rows possible, nothing else about them is
//   promised.
// - A zero vector (or d == 0) has cosine 0 with anything, never NaN. Results lie in [-1, 1].
// - Scale: every finite float32 input is handled, 1e30 or 1e-30 values included. The query is
//   rescaled by a power of two (exact) when its norm leaves [2^-32, 2^32]; a row whose squared norm
//   leaves [1e-30, FLT_MAX] in float (overflow to inf, or denormal products) is recomputed in
//   double.
// - Accuracy: the SIMD kernels accumulate in float lanes (4 accumulators x 8 or 16 lanes) over
//   blocks of at most 1024 elements and add the block sums in double; the serial kernel works in
//   double. A product meets at most ~41 float roundings, so the dot term errs by at most
//   41 * 2^-24 ~ 2.4e-6 and the row norm by half that: |error| < 4e-6 for any d in the worst case,
//   i.e. results equal NumPy's float64 cosine within 1e-5 (tested to d = 4096, 20000 in C++).
//   Measured on random data, d = 384..16384: <= 1.2e-7. cosine_matrix rounds the unit queries and
//   inverse norms to float and uses a float GEMM (Eigen): measured <= 8e-7 up to d = 16384.

/// Cosine similarity of a and b (length d).
float cosine(const float* a, const float* b, std::size_t d);

/// out[i] = cosine(query, rows[i]) for n rows. Reads each row once: dot product and squared norm
/// are accumulated in the same pass (the call is memory bound for large n).
void cosine_many(const float* query, const float* rows, std::size_t n, std::size_t d, float* out);

/// out[i] = L2 norm of rows[i], computed scale-safely (NaN for a row holding NaN or inf; +inf only
/// if the true norm exceeds FLT_MAX). Cache it for chunks scored against many queries.
void row_norms(const float* rows, std::size_t n, std::size_t d, float* out);

/// cosine_many with norms[i] = row_norms(rows[i]) precomputed: only the dot products are computed.
/// Rows whose cached norm is 0, non-finite or outside [1e-15, 1e19] take the exact double path.
void cosine_many_with_norms(const float* query, const float* rows, const float* norms,
                            std::size_t n, std::size_t d, float* out);

/// out[i * n + j] = cosine(queries[i], rows[j]): a Q x N row-major block. The queries are
/// normalised (a q x d copy), the dot products come from one Eigen GEMM on the rows in place (no
/// copy), and column j is divided by the norm of row j. q == 1 uses cosine_many.
void cosine_matrix(const float* queries, std::size_t q, const float* rows, std::size_t n,
                   std::size_t d, float* out);

// ---- Validation for the boundary: std::invalid_argument naming the argument, index and value.
// ----

/// Throws if data[0..d) holds NaN or inf: "query[17] is nan".
void require_finite_vector(const float* data, std::size_t d, std::string_view name);

/// Throws if the n x d block holds NaN or inf: "matrix[3, 17] is -inf". One pass at memory speed.
void require_finite_matrix(const float* data, std::size_t n, std::size_t d, std::string_view name);

/// The cheap form of require_finite_matrix after cosine_many / cosine_many_with_norms with a finite
/// query: a row gives NaN exactly when it holds NaN or inf, so only rows whose cosine is NaN are
/// scanned (n floats read on the happy path instead of n x d).
void require_finite_rows(const float* rows, std::size_t n, std::size_t d, const float* cosines,
                         std::string_view name);

// ---- Instruction-set dispatch (SimSIMD-style kernels, RapidFuzz-style override). ----

enum class SimdPath { kSerial, kAvx2, kAvx512 };

/// "serial", "avx2" or "avx512".
std::string_view simd_path_name(SimdPath path);

/// Inverse of simd_path_name; throws std::invalid_argument for anything else.
SimdPath parse_simd_path(std::string_view name);

/// Whether this CPU (and OS) can run the path: avx2 needs AVX2 + FMA, avx512 needs AVX-512F.
bool simd_path_supported(SimdPath path);

/// The path the functions above use: set_simd_path's choice if any, else the environment variable
/// SC_SIMD=serial|avx2|avx512 if set, else the best supported path. Resolved once, then cached.
/// Throws std::invalid_argument if SC_SIMD names an unknown or unsupported path.
SimdPath active_simd_path();

/// Forces a path process-wide (tests, benchmarks); throws std::invalid_argument if unsupported.
void set_simd_path(SimdPath path);

/// Drops set_simd_path's choice: back to SC_SIMD or the best supported path.
void reset_simd_path();

/// The same operations on an explicit path (tests pin each kernel with these).
void cosine_many_on(SimdPath path, const float* query, const float* rows, std::size_t n,
                    std::size_t d, float* out);
void row_norms_on(SimdPath path, const float* rows, std::size_t n, std::size_t d, float* out);
void cosine_many_with_norms_on(SimdPath path, const float* query, const float* rows,
                               const float* norms, std::size_t n, std::size_t d, float* out);

// ---- Per-instruction-set kernels (one translation unit each; called through the dispatcher). ----
// Preconditions the dispatcher guarantees: d > 0; the query is finite, non-zero, with
// q_norm = its L2 norm in [2^-32, 2^32]. Kernels never read past rows + n * d.
namespace kernels {

// Float sums are trusted only inside these ranges; outside, the row is recomputed in double. Below
// 1e-30 a squared norm may hold denormal products; above FLT_MAX it is inf. With |q| <= 2^32 and
// |row| <= 1e19 no dot product can overflow float.
inline constexpr double kMinSquaredNorm = 1e-30;
inline constexpr double kMinNorm = 1e-15;
inline constexpr double kMaxNorm = 1e19;

// cosine_f32_serial.cpp: double accumulation, exact up to rounding, scale-safe for any finite
// float.
void cosine_rows_f32_serial(const float* q, double q_norm, const float* rows, std::size_t n,
                            std::size_t d, float* out);
void norm_rows_f32_serial(const float* rows, std::size_t n, std::size_t d, float* out);
void cosine_rows_with_norms_f32_serial(const float* q, double q_norm, const float* rows,
                                       const float* norms, std::size_t n, std::size_t d,
                                       float* out);
// The double-precision row the SIMD kernels fall back to: NaN if the row is not finite, 0 for a
// zero row.
float cosine_row_f64(const float* q, double q_norm, const float* row, std::size_t d);
// Squared L2 norm in double (never overflows or underflows for float input); NaN/inf propagate.
double squared_norm_f64(const float* v, std::size_t d);

// cosine_f32_avx2.cpp (xsimd, fma3<avx2>), compiled with -mavx2 -mfma.
void cosine_rows_f32_avx2(const float* q, double q_norm, const float* rows, std::size_t n,
                          std::size_t d, float* out);
void norm_rows_f32_avx2(const float* rows, std::size_t n, std::size_t d, float* out);
void cosine_rows_with_norms_f32_avx2(const float* q, double q_norm, const float* rows,
                                     const float* norms, std::size_t n, std::size_t d, float* out);

// cosine_f32_avx512.cpp (AVX-512F intrinsics), compiled with -mavx512f.
void cosine_rows_f32_avx512(const float* q, double q_norm, const float* rows, std::size_t n,
                            std::size_t d, float* out);
void norm_rows_f32_avx512(const float* rows, std::size_t n, std::size_t d, float* out);
void cosine_rows_with_norms_f32_avx512(const float* q, double q_norm, const float* rows,
                                       const float* norms, std::size_t n, std::size_t d,
                                       float* out);

}  // namespace kernels
}  // namespace sc::similarity
