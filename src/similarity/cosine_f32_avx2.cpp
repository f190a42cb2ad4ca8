// AVX2 + FMA cosine kernels written with xsimd 8 (batch<float, fma3<avx2>>). Only this file is
// compiled with -mavx2 -mfma (cmake/simd_kernels.cmake); the dispatcher calls it after checking the
// CPU. Everything here has internal linkage or a kernel's name, so no inline function compiled with
// AVX2 can be picked by the linker for portable code (hence __builtin_isfinite, not std::isfinite,
// whose out-of-line copy an -O0 build would share with portable files).
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "similarity/cosine.hpp"

#if defined(__AVX2__) && defined(__FMA__)
#include <xsimd/xsimd.hpp>
#endif

namespace sc::similarity::kernels {

#if defined(__AVX2__) && defined(__FMA__)
namespace {

using Arch = xsimd::fma3<xsimd::avx2>;
using Batch = xsimd::batch<float, Arch>;
constexpr std::size_t kLanes = Batch::size;  // 8
constexpr std::size_t kStep = 4 * kLanes;    // four accumulators per sum hide the FMA latency
// Float partial sums cover at most this many elements before they are added in double: bounds the
// float rounding error independently of d (see cosine.hpp). A multiple of kStep.
constexpr std::size_t kBlock = 1024;
static_assert(kBlock % kStep == 0, "blocks must hold whole unrolled steps");

// Rows are streamed from memory: asking for the lines 8 KiB ahead (one prefetch per 64-byte line)
// measured 0-19% faster than the hardware prefetcher alone, most at 1k-10k rows of d = 384-1536
// (AMD EPYC); 512 B ahead was 20% slower. Past a row's end it fetches the next rows; past the
// matrix a prefetch is only a hint and never faults.
constexpr std::uintptr_t kPrefetchBytes = 8192;
constexpr std::size_t kLineFloats = 64 / sizeof(float);
static_assert(kStep == 2 * kLineFloats, "one prefetch per cache line of the step");

void prefetch_ahead(const float* p) {
  // Integer arithmetic: the address may lie past the row block, where a pointer may not point.
  __builtin_prefetch(
      reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(p) + kPrefetchBytes));
}

struct Sums {
  double dot = 0.0;
  double squared_norm = 0.0;
};

// One pass over row r: each loaded row vector feeds the dot product and/or the squared norm.
// Rows are read with unaligned loads from their first element. Peeling a scalar head up to a
// cache-line boundary (as before) put a serial chain of dependent adds in front of every row:
// measured 2x slower at d = 768 on NumPy's 16-byte-aligned buffers (AMD EPYC), while split lines
// cost little. The tail (< 8 elements) is scalar: nothing past the row is touched.
template <bool kDot, bool kNorm>
Sums accumulate(const float* q, const float* r, std::size_t d) {
  std::size_t i = 0;
  Sums sums;
  do {  // d > 0: at least one block
    const std::size_t end = d - i < kBlock ? d : i + kBlock;
    Batch d0(0.0F), d1(0.0F), d2(0.0F), d3(0.0F);
    Batch n0(0.0F), n1(0.0F), n2(0.0F), n3(0.0F);
    for (; i + kStep <= end; i += kStep) {
      prefetch_ahead(r + i);
      prefetch_ahead(r + i + kLineFloats);
      const Batch r0 = Batch::load_unaligned(r + i);
      const Batch r1 = Batch::load_unaligned(r + i + kLanes);
      const Batch r2 = Batch::load_unaligned(r + i + 2 * kLanes);
      const Batch r3 = Batch::load_unaligned(r + i + 3 * kLanes);
      if constexpr (kDot) {
        d0 = xsimd::fma(Batch::load_unaligned(q + i), r0, d0);
        d1 = xsimd::fma(Batch::load_unaligned(q + i + kLanes), r1, d1);
        d2 = xsimd::fma(Batch::load_unaligned(q + i + 2 * kLanes), r2, d2);
        d3 = xsimd::fma(Batch::load_unaligned(q + i + 3 * kLanes), r3, d3);
      }
      if constexpr (kNorm) {
        n0 = xsimd::fma(r0, r0, n0);
        n1 = xsimd::fma(r1, r1, n1);
        n2 = xsimd::fma(r2, r2, n2);
        n3 = xsimd::fma(r3, r3, n3);
      }
    }
    for (; i + kLanes <= end; i += kLanes) {
      const Batch r0 = Batch::load_unaligned(r + i);
      if constexpr (kDot) d1 = xsimd::fma(Batch::load_unaligned(q + i), r0, d1);
      if constexpr (kNorm) n1 = xsimd::fma(r0, r0, n1);
    }
    float dot = 0.0F;
    float rr = 0.0F;
    for (; i < end; ++i) {  // tail shorter than one vector
      if constexpr (kDot) dot += q[i] * r[i];
      if constexpr (kNorm) rr += r[i] * r[i];
    }
    if constexpr (kDot) dot += xsimd::hadd((d0 + d1) + (d2 + d3));
    if constexpr (kNorm) rr += xsimd::hadd((n0 + n1) + (n2 + n3));
    sums.dot += dot;
    sums.squared_norm += rr;
  } while (i < d);
  return sums;
}

float clamp_cosine(double c) {
  if (c > 1.0) return 1.0F;
  if (c < -1.0) return -1.0F;
  return static_cast<float>(c);
}

}  // namespace

void cosine_rows_f32_avx2(const float* q, double q_norm, const float* rows, std::size_t n,
                          std::size_t d, float* out) {
  for (std::size_t i = 0; i < n; ++i) {
    const float* row = rows + i * d;
    const Sums s = accumulate<true, true>(q, row, d);
    // The negated test also sends NaN to the exact path, which returns NaN for non-finite rows.
    if (s.squared_norm >= kMinSquaredNorm && __builtin_isfinite(s.squared_norm) &&
        __builtin_isfinite(s.dot)) {
      out[i] = clamp_cosine(s.dot / (q_norm * std::sqrt(s.squared_norm)));
    } else {
      out[i] = cosine_row_f64(q, q_norm, row, d);
    }
  }
}

void norm_rows_f32_avx2(const float* rows, std::size_t n, std::size_t d, float* out) {
  for (std::size_t i = 0; i < n; ++i) {
    const float* row = rows + i * d;
    const double rr = accumulate<false, true>(nullptr, row, d).squared_norm;
    if (rr >= kMinSquaredNorm && __builtin_isfinite(rr)) {
      out[i] = static_cast<float>(std::sqrt(rr));
    } else {
      const double exact = squared_norm_f64(row, d);
      out[i] =
          __builtin_isfinite(exact) ? static_cast<float>(std::sqrt(exact)) : __builtin_nanf("");
    }
  }
}

void cosine_rows_with_norms_f32_avx2(const float* q, double q_norm, const float* rows,
                                     const float* norms, std::size_t n, std::size_t d, float* out) {
  for (std::size_t i = 0; i < n; ++i) {
    const float* row = rows + i * d;
    const double norm = norms[i];
    if (norm >= kMinNorm && norm <= kMaxNorm) {
      const double dot = accumulate<true, false>(q, row, d).dot;
      if (__builtin_isfinite(dot)) {
        out[i] = clamp_cosine(dot / (q_norm * norm));
        continue;
      }
    }
    out[i] = cosine_row_f64(q, q_norm, row, d);
  }
}

#else  // Not an x86 build: never dispatched to (simd_path_supported is false), kept for linking.

void cosine_rows_f32_avx2(const float* q, double q_norm, const float* rows, std::size_t n,
                          std::size_t d, float* out) {
  cosine_rows_f32_serial(q, q_norm, rows, n, d, out);
}
void norm_rows_f32_avx2(const float* rows, std::size_t n, std::size_t d, float* out) {
  norm_rows_f32_serial(rows, n, d, out);
}
void cosine_rows_with_norms_f32_avx2(const float* q, double q_norm, const float* rows,
                                     const float* norms, std::size_t n, std::size_t d, float* out) {
  cosine_rows_with_norms_f32_serial(q, q_norm, rows, norms, n, d, out);
}

#endif

}  // namespace sc::similarity::kernels
