// AVX-512F cosine kernels. Only this file is compiled with -mavx512f (cmake/simd_kernels.cmake);
// the dispatcher calls it after checking the CPU. Written with intrinsics rather than xsimd 8.1,
// whose avx512f batch has no fused multiply-add and whose reduction goes through avx2 template
// instantiations that the AVX2 translation unit would also emit (the linker could then pick a copy
// compiled with AVX-512 for the AVX2 path). Everything here has internal linkage or a kernel's
// name (hence __builtin_isfinite, not std::isfinite, whose out-of-line -O0 copy would be shared).
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "similarity/cosine.hpp"

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace sc::similarity::kernels {

#if defined(__AVX512F__)
namespace {

constexpr std::size_t kLanes = 16;
constexpr std::size_t kAlignment = 64;     // bytes: one cache line, one zmm register
constexpr std::size_t kStep = 4 * kLanes;  // four accumulators per sum hide the FMA latency
// Float partial sums cover at most this many elements before they are added in double: bounds the
// float rounding error independently of d (see cosine.hpp). A multiple of kStep.
constexpr std::size_t kBlock = 1024;
static_assert(kBlock % kStep == 0, "blocks must hold whole unrolled steps");

// Rows are streamed from memory: asking for each line 8 KiB ahead measured faster than the hardware
// prefetcher alone, as on the AVX2 path (see cosine_f32_avx2.cpp). Past a row's end it fetches the
// next rows; past the matrix a prefetch is only a hint and never faults.
constexpr std::uintptr_t kPrefetchBytes = 8192;

void prefetch_ahead(const float* p) {
  // Integer arithmetic: the address may lie past the row block, where a pointer may not point.
  __builtin_prefetch(
      reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(p) + kPrefetchBytes));
}

// Horizontal sum. Full-mask "maskz" forms compile to the plain instructions; the unmasked
// intrinsics (and _mm512_reduce_add_ps) start from _mm*_undefined_*, on which GCC 12 reports
// maybe-uninitialized (GCC bug 105593), and warnings are errors here.
float reduce_add(__m512 v) {
  constexpr __mmask16 kAll = 0xFFFF;
  __m512 t = _mm512_add_ps(v, _mm512_maskz_shuffle_f32x4(kAll, v, v, _MM_SHUFFLE(1, 0, 3, 2)));
  t = _mm512_add_ps(t, _mm512_maskz_shuffle_f32x4(kAll, t, t, _MM_SHUFFLE(2, 3, 0, 1)));
  __m128 x = _mm512_maskz_extractf32x4_ps(0xF, t, 0);
  x = _mm_add_ps(x, _mm_movehl_ps(x, x));
  x = _mm_add_ss(x, _mm_shuffle_ps(x, x, 1));
  return _mm_cvtss_f32(x);
}

struct Sums {
  double dot = 0.0;
  double squared_norm = 0.0;
};

// One pass over row r: each loaded row vector feeds the dot product and/or the squared norm.
// A masked head of < 16 elements first brings r to a 64-byte boundary, so the streamed row never
// splits a cache line (NumPy's buffers are only 16-byte aligned); q is small and stays in L1.
// The tail (< 16 elements) is one masked load too: nothing past the row is touched.
template <bool kDot, bool kNorm>
Sums accumulate(const float* q, const float* r, std::size_t d) {
  const std::size_t misalignment = reinterpret_cast<std::uintptr_t>(r) % kAlignment;
  std::size_t i = misalignment == 0 ? 0 : (kAlignment - misalignment) / sizeof(float);
  if (i > d) i = d;
  const __m512 zero = _mm512_setzero_ps();
  __m512 carry_dot = zero;  // the head, folded into the first block
  __m512 carry_norm = zero;
  if (i > 0) {
    const auto mask = static_cast<__mmask16>((1U << i) - 1U);
    const __m512 r0 = _mm512_maskz_loadu_ps(mask, r);
    if constexpr (kDot) carry_dot = _mm512_mul_ps(_mm512_maskz_loadu_ps(mask, q), r0);
    if constexpr (kNorm) carry_norm = _mm512_mul_ps(r0, r0);
  }
  Sums sums;
  do {  // at least once, so a head-only row is still reduced
    const std::size_t end = d - i < kBlock ? d : i + kBlock;
    __m512 d0 = carry_dot, d1 = zero, d2 = zero, d3 = zero;
    __m512 n0 = carry_norm, n1 = zero, n2 = zero, n3 = zero;
    carry_dot = zero;
    carry_norm = zero;
    for (; i + kStep <= end; i += kStep) {
      for (std::size_t line = 0; line < kStep; line += kLanes) prefetch_ahead(r + i + line);
      const __m512 r0 = _mm512_loadu_ps(r + i);
      const __m512 r1 = _mm512_loadu_ps(r + i + kLanes);
      const __m512 r2 = _mm512_loadu_ps(r + i + 2 * kLanes);
      const __m512 r3 = _mm512_loadu_ps(r + i + 3 * kLanes);
      if constexpr (kDot) {
        d0 = _mm512_fmadd_ps(_mm512_loadu_ps(q + i), r0, d0);
        d1 = _mm512_fmadd_ps(_mm512_loadu_ps(q + i + kLanes), r1, d1);
        d2 = _mm512_fmadd_ps(_mm512_loadu_ps(q + i + 2 * kLanes), r2, d2);
        d3 = _mm512_fmadd_ps(_mm512_loadu_ps(q + i + 3 * kLanes), r3, d3);
      }
      if constexpr (kNorm) {
        n0 = _mm512_fmadd_ps(r0, r0, n0);
        n1 = _mm512_fmadd_ps(r1, r1, n1);
        n2 = _mm512_fmadd_ps(r2, r2, n2);
        n3 = _mm512_fmadd_ps(r3, r3, n3);
      }
    }
    for (; i + kLanes <= end; i += kLanes) {
      const __m512 r0 = _mm512_loadu_ps(r + i);
      if constexpr (kDot) d1 = _mm512_fmadd_ps(_mm512_loadu_ps(q + i), r0, d1);
      if constexpr (kNorm) n1 = _mm512_fmadd_ps(r0, r0, n1);
    }
    if (i < end) {
      const auto mask = static_cast<__mmask16>((1U << (end - i)) - 1U);
      const __m512 r0 = _mm512_maskz_loadu_ps(mask, r + i);
      if constexpr (kDot) d2 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(mask, q + i), r0, d2);
      if constexpr (kNorm) n2 = _mm512_fmadd_ps(r0, r0, n2);
      i = end;
    }
    if constexpr (kDot) {
      sums.dot += reduce_add(_mm512_add_ps(_mm512_add_ps(d0, d1), _mm512_add_ps(d2, d3)));
    }
    if constexpr (kNorm) {
      sums.squared_norm += reduce_add(_mm512_add_ps(_mm512_add_ps(n0, n1), _mm512_add_ps(n2, n3)));
    }
  } while (i < d);
  return sums;
}

float clamp_cosine(double c) {
  if (c > 1.0) return 1.0F;
  if (c < -1.0) return -1.0F;
  return static_cast<float>(c);
}

}  // namespace

void cosine_rows_f32_avx512(const float* q, double q_norm, const float* rows, std::size_t n,
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

void norm_rows_f32_avx512(const float* rows, std::size_t n, std::size_t d, float* out) {
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

void cosine_rows_with_norms_f32_avx512(const float* q, double q_norm, const float* rows,
                                       const float* norms, std::size_t n, std::size_t d,
                                       float* out) {
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

void cosine_rows_f32_avx512(const float* q, double q_norm, const float* rows, std::size_t n,
                            std::size_t d, float* out) {
  cosine_rows_f32_serial(q, q_norm, rows, n, d, out);
}
void norm_rows_f32_avx512(const float* rows, std::size_t n, std::size_t d, float* out) {
  norm_rows_f32_serial(rows, n, d, out);
}
void cosine_rows_with_norms_f32_avx512(const float* q, double q_norm, const float* rows,
                                       const float* norms, std::size_t n, std::size_t d,
                                       float* out) {
  cosine_rows_with_norms_f32_serial(q, q_norm, rows, norms, n, d, out);
}

#endif

}  // namespace sc::similarity::kernels
