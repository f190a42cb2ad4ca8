// Cosine kernels: every SIMD path against the serial path and a double-precision reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <functional>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "similarity/cosine.hpp"

namespace {

namespace sim = sc::similarity;
using sim::SimdPath;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();
// Documented bound (cosine.hpp) is ~2.4e-6 for the kernels; the API promises 1e-5.
constexpr double kKernelTolerance = 3e-6;
constexpr double kApiTolerance = 1e-5;

const std::vector<SimdPath> kAllPaths = {SimdPath::kSerial, SimdPath::kAvx2, SimdPath::kAvx512};

std::vector<SimdPath> supported_paths() {
  std::vector<SimdPath> paths;
  for (const SimdPath p : kAllPaths) {
    if (sim::simd_path_supported(p)) paths.push_back(p);
  }
  return paths;
}

// Straightforward double-precision cosine (products of floats are exact in double).
double reference_cosine(const float* a, const float* b, std::size_t d) {
  double dot = 0.0;
  double aa = 0.0;
  double bb = 0.0;
  for (std::size_t i = 0; i < d; ++i) {
    dot += static_cast<double>(a[i]) * b[i];
    aa += static_cast<double>(a[i]) * a[i];
    bb += static_cast<double>(b[i]) * b[i];
  }
  if (aa == 0.0 || bb == 0.0) return 0.0;
  return dot / (std::sqrt(aa) * std::sqrt(bb));
}

double reference_norm(const float* v, std::size_t d) {
  double rr = 0.0;
  for (std::size_t i = 0; i < d; ++i) rr += static_cast<double>(v[i]) * v[i];
  return std::sqrt(rr);
}

std::vector<float> random_floats(std::size_t count, unsigned seed, float mean = 0.0F) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> dist(mean, 1.0F);
  std::vector<float> v(count);
  for (float& x : v) x = dist(gen);
  return v;
}

std::vector<float> run_many(SimdPath path, const float* query, const float* rows, std::size_t n,
                            std::size_t d) {
  std::vector<float> out(n, -7.0F);
  sim::cosine_many_on(path, query, rows, n, d, out.data());
  return out;
}

std::string label(SimdPath path, std::size_t d) {
  return std::string(sim::simd_path_name(path)) + " d=" + std::to_string(d);
}

std::vector<std::size_t> test_dims() {
  std::vector<std::size_t> dims;
  for (std::size_t d = 1; d <= 67; ++d) dims.push_back(d);
  for (const std::size_t d : {127, 128, 129, 384, 1000, 1023, 1024, 1025, 1536, 2049, 4096}) {
    dims.push_back(d);
  }
  return dims;
}

// ---- Dispatch ----

TEST(CosineDispatch, NamesRoundTrip) {
  for (const SimdPath p : kAllPaths) EXPECT_EQ(sim::parse_simd_path(sim::simd_path_name(p)), p);
  EXPECT_EQ(sim::simd_path_name(SimdPath::kAvx512), "avx512");
  EXPECT_THROW(sim::parse_simd_path("sse9"), std::invalid_argument);
  EXPECT_THROW(sim::parse_simd_path(""), std::invalid_argument);
  EXPECT_THROW(sim::parse_simd_path("AVX2"), std::invalid_argument);
}

TEST(CosineDispatch, SerialAlwaysSupportedAndForcingWorks) {
  EXPECT_TRUE(sim::simd_path_supported(SimdPath::kSerial));
  for (const SimdPath p : kAllPaths) {
    if (sim::simd_path_supported(p)) {
      sim::set_simd_path(p);
      EXPECT_EQ(sim::active_simd_path(), p);
    } else {
      EXPECT_THROW(sim::set_simd_path(p), std::invalid_argument);
      std::vector<float> out(1);
      const float v[1] = {1.0F};
      EXPECT_THROW(sim::cosine_many_on(p, v, v, 1, 1, out.data()), std::invalid_argument);
    }
  }
  sim::reset_simd_path();
  // The default is SC_SIMD's choice when the test runs with it set, else the best supported path.
  const char* env = std::getenv("SC_SIMD");
  const SimdPath best = sim::simd_path_supported(SimdPath::kAvx512) ? SimdPath::kAvx512
                        : sim::simd_path_supported(SimdPath::kAvx2) ? SimdPath::kAvx2
                                                                    : SimdPath::kSerial;
  const SimdPath expected = env != nullptr && *env != '\0' ? sim::parse_simd_path(env) : best;
  EXPECT_EQ(sim::active_simd_path(), expected);
}

TEST(CosineDispatch, ForcedPathIsTheOneUsed) {
  // Paths round differently in the last bits (float lanes vs double), so cosine() under a forced
  // path must equal that path's kernel bit for bit, and the paths must not all agree.
  constexpr std::size_t kDim = 1536;
  constexpr unsigned kPairs = 20;
  std::size_t differing = 0;
  for (unsigned seed = 0; seed < kPairs; ++seed) {
    const auto a = random_floats(kDim, 1000 + seed);
    const auto b = random_floats(kDim, 2000 + seed, 0.1F);
    std::vector<float> per_path;
    for (const SimdPath p : supported_paths()) {
      sim::set_simd_path(p);
      const float via_api = sim::cosine(a.data(), b.data(), kDim);
      EXPECT_EQ(via_api, run_many(p, a.data(), b.data(), 1, kDim)[0]) << label(p, kDim);
      per_path.push_back(via_api);
    }
    if (std::adjacent_find(per_path.begin(), per_path.end(), std::not_equal_to<>()) !=
        per_path.end()) {
      ++differing;
    }
  }
  sim::reset_simd_path();
  if (supported_paths().size() > 1) {
    EXPECT_GT(differing, 0U);
  }
}

// ---- Kernels against the reference ----

TEST(CosineKernels, EveryPathMatchesReferenceAndSerialForAllDims) {
  constexpr std::size_t kRows = 5;
  for (const std::size_t d : test_dims()) {
    const auto query = random_floats(d, 10 + static_cast<unsigned>(d));
    const auto rows = random_floats(kRows * d, 20 + static_cast<unsigned>(d));
    const auto serial = run_many(SimdPath::kSerial, query.data(), rows.data(), kRows, d);
    for (const SimdPath p : supported_paths()) {
      const auto got = run_many(p, query.data(), rows.data(), kRows, d);
      for (std::size_t i = 0; i < kRows; ++i) {
        const double want = reference_cosine(query.data(), rows.data() + i * d, d);
        EXPECT_NEAR(got[i], want, kKernelTolerance) << label(p, d) << " row " << i;
        EXPECT_NEAR(got[i], serial[i], kKernelTolerance) << label(p, d) << " row " << i;
      }
    }
  }
}

TEST(CosineKernels, PositiveDataLongVectorsStayWithinBound) {
  // All-positive data is where float sums drift most (no cancellation, large partial sums).
  constexpr std::size_t kRows = 4;
  for (const std::size_t d : {std::size_t{4096}, std::size_t{8192}, std::size_t{20000}}) {
    std::mt19937 gen(7);
    std::uniform_real_distribution<float> dist(0.0F, 1.0F);
    std::vector<float> query(d);
    std::vector<float> rows(kRows * d);
    for (float& x : query) x = dist(gen);
    for (float& x : rows) x = dist(gen);
    for (const SimdPath p : supported_paths()) {
      const auto got = run_many(p, query.data(), rows.data(), kRows, d);
      for (std::size_t i = 0; i < kRows; ++i) {
        EXPECT_NEAR(got[i], reference_cosine(query.data(), rows.data() + i * d, d),
                    kKernelTolerance)
            << label(p, d);
      }
    }
  }
}

TEST(CosineKernels, UnalignedStartsAndTails) {
  // Offset both pointers by one float (4 bytes) so no load is 32- or 64-byte aligned.
  constexpr std::size_t kRows = 3;
  for (const std::size_t d : test_dims()) {
    const auto qbuf = random_floats(d + 1, 30 + static_cast<unsigned>(d));
    const auto rbuf = random_floats(kRows * d + 1, 40 + static_cast<unsigned>(d));
    const float* query = qbuf.data() + 1;
    const float* rows = rbuf.data() + 1;
    for (const SimdPath p : supported_paths()) {
      const auto got = run_many(p, query, rows, kRows, d);
      for (std::size_t i = 0; i < kRows; ++i) {
        EXPECT_NEAR(got[i], reference_cosine(query, rows + i * d, d), kKernelTolerance)
            << label(p, d);
      }
    }
  }
}

TEST(CosineKernels, ManyRowsMatchSerial) {
  constexpr std::size_t kRows = 3000;
  constexpr std::size_t kDim = 384;
  const auto query = random_floats(kDim, 50, 0.3F);
  const auto rows = random_floats(kRows * kDim, 51, 0.3F);
  const auto serial = run_many(SimdPath::kSerial, query.data(), rows.data(), kRows, kDim);
  for (const SimdPath p : supported_paths()) {
    const auto got = run_many(p, query.data(), rows.data(), kRows, kDim);
    double worst = 0.0;
    for (std::size_t i = 0; i < kRows; ++i) {
      worst = std::max(worst, std::abs(static_cast<double>(got[i]) - serial[i]));
    }
    EXPECT_LT(worst, kKernelTolerance) << label(p, kDim);
  }
}

// ---- Exact values and edge cases ----

TEST(CosineEdges, IdenticalOppositeOrthogonal) {
  for (const std::size_t d :
       {std::size_t{1}, std::size_t{7}, std::size_t{384}, std::size_t{1537}}) {
    const auto a = random_floats(d, 60);
    std::vector<float> neg(a);
    for (float& x : neg) x = -x;
    std::vector<float> scaled(a);
    for (float& x : scaled) x *= 3.5F;
    for (const SimdPath p : supported_paths()) {
      EXPECT_NEAR(run_many(p, a.data(), a.data(), 1, d)[0], 1.0, 1e-6) << label(p, d);
      EXPECT_NEAR(run_many(p, a.data(), scaled.data(), 1, d)[0], 1.0, 1e-6) << label(p, d);
      EXPECT_NEAR(run_many(p, a.data(), neg.data(), 1, d)[0], -1.0, 1e-6) << label(p, d);
    }
  }
  // Orthogonal: disjoint supports, and (1, 1, ...) against (1, -1, ...) pairs.
  for (const std::size_t d : {std::size_t{2}, std::size_t{16}, std::size_t{385}}) {
    std::vector<float> e1(d, 0.0F);
    std::vector<float> e2(d, 0.0F);
    e1[0] = 2.0F;
    e2[d - 1] = -5.0F;
    std::vector<float> plus(d, 1.0F);
    std::vector<float> alternating(d, 1.0F);
    for (std::size_t i = 1; i < d; i += 2) alternating[i] = -1.0F;
    if (d % 2 == 1) alternating[d - 1] = 0.0F;
    for (const SimdPath p : supported_paths()) {
      EXPECT_EQ(run_many(p, e1.data(), e2.data(), 1, d)[0], 0.0F) << label(p, d);
      EXPECT_NEAR(run_many(p, plus.data(), alternating.data(), 1, d)[0], 0.0, 1e-7) << label(p, d);
    }
  }
}

TEST(CosineEdges, ResultsNeverLeaveMinusOneToOne) {
  // Parallel vectors whose float sums round up: the clamp keeps |cos| <= 1 exactly.
  for (const SimdPath p : supported_paths()) {
    for (unsigned seed = 0; seed < 50; ++seed) {
      const std::size_t d = 1 + seed * 37;
      const auto a = random_floats(d, 100 + seed);
      std::vector<float> b(a);
      for (float& x : b) x *= 0.1F;
      const float c = run_many(p, a.data(), b.data(), 1, d)[0];
      EXPECT_LE(c, 1.0F) << label(p, d);
      EXPECT_GE(c, 0.999999F) << label(p, d);
    }
  }
}

TEST(CosineEdges, ZeroVectorsGiveZeroNotNaN) {
  for (const std::size_t d : {std::size_t{1}, std::size_t{9}, std::size_t{384}}) {
    const std::vector<float> zero(d, 0.0F);
    const auto a = random_floats(d, 70);
    std::vector<float> rows(a);
    rows.insert(rows.end(), zero.begin(), zero.end());  // row 0 random, row 1 zero
    for (const SimdPath p : supported_paths()) {
      const auto with_zero_row = run_many(p, a.data(), rows.data(), 2, d);
      EXPECT_NEAR(with_zero_row[0], 1.0, 1e-6);
      EXPECT_EQ(with_zero_row[1], 0.0F) << label(p, d);
      const auto zero_query = run_many(p, zero.data(), rows.data(), 2, d);
      EXPECT_EQ(zero_query[0], 0.0F) << label(p, d);
      EXPECT_EQ(zero_query[1], 0.0F) << label(p, d);
    }
  }
  sim::reset_simd_path();
  const float z[3] = {0.0F, 0.0F, 0.0F};
  EXPECT_EQ(sim::cosine(z, z, 3), 0.0F);
}

TEST(CosineEdges, LargeAndTinyMagnitudesAreScaleSafe) {
  // Squares of 1e30 overflow float and squares of 1e-30 underflow it; results must still be exact.
  constexpr std::size_t kDim = 100;
  const auto base_q = random_floats(kDim, 80);
  const auto base_r = random_floats(3 * kDim, 81);
  for (const float scale_q : {1e30F, 1e-30F, 1.0F, 1e-40F}) {
    for (const float scale_r : {1e30F, 1e-30F, 1.0F, 3e38F}) {
      std::vector<float> q(base_q);
      std::vector<float> r(base_r);
      for (float& x : q) x *= scale_q;
      constexpr float kMax = std::numeric_limits<float>::max();
      for (float& x : r) x = std::clamp(x * scale_r, -kMax, kMax);  // 3e38 * x saturates
      for (const SimdPath p : supported_paths()) {
        const auto got = run_many(p, q.data(), r.data(), 3, kDim);
        for (std::size_t i = 0; i < 3; ++i) {
          const double want = reference_cosine(q.data(), r.data() + i * kDim, kDim);
          ASSERT_TRUE(std::isfinite(got[i]));
          // 1e-40 is denormal: its few significant bits shift the true cosine, which the
          // reference sees too; tolerance stays at the kernel bound.
          EXPECT_NEAR(got[i], want, kKernelTolerance)
              << label(p, kDim) << " scale_q=" << scale_q << " scale_r=" << scale_r;
        }
      }
    }
  }
}

TEST(CosineEdges, MaxFloatRowsDoNotOverflow) {
  constexpr std::size_t kDim = 64;
  const std::vector<float> huge(kDim, std::numeric_limits<float>::max());
  std::vector<float> mixed(kDim, std::numeric_limits<float>::max());
  for (std::size_t i = 0; i < kDim; i += 2) mixed[i] = -mixed[i];
  for (const SimdPath p : supported_paths()) {
    EXPECT_NEAR(run_many(p, huge.data(), huge.data(), 1, kDim)[0], 1.0, 1e-6) << label(p, kDim);
    EXPECT_NEAR(run_many(p, huge.data(), mixed.data(), 1, kDim)[0], 0.0, 1e-6) << label(p, kDim);
  }
}

TEST(CosineEdges, NoRowsWritesNothingAndEmptyDimGivesZero) {
  const float q[2] = {1.0F, 2.0F};
  for (const SimdPath p : supported_paths()) {
    float sentinel = -7.0F;
    sim::cosine_many_on(p, q, nullptr, 0, 2, &sentinel);
    EXPECT_EQ(sentinel, -7.0F);
    sim::row_norms_on(p, nullptr, 0, 2, &sentinel);
    EXPECT_EQ(sentinel, -7.0F);
    std::vector<float> out(3, -7.0F);
    sim::cosine_many_on(p, q, q, 3, 0, out.data());
    EXPECT_EQ(out, std::vector<float>(3, 0.0F));
  }
  float sentinel = -7.0F;
  sim::cosine_matrix(q, 1, nullptr, 0, 2, &sentinel);
  sim::cosine_matrix(q, 0, q, 1, 2, &sentinel);
  EXPECT_EQ(sentinel, -7.0F);
}

TEST(CosineEdges, NonFiniteRowsGiveNaNOnEveryPath) {
  constexpr std::size_t kDim = 37;
  const auto q = random_floats(kDim, 90);
  auto rows = random_floats(4 * kDim, 91);
  rows[1 * kDim + 5] = kNaN;
  rows[2 * kDim + 36] = kInf;
  rows[3 * kDim + 0] = -kInf;
  for (const SimdPath p : supported_paths()) {
    const auto got = run_many(p, q.data(), rows.data(), 4, kDim);
    EXPECT_TRUE(std::isfinite(got[0])) << label(p, kDim);
    for (std::size_t i = 1; i < 4; ++i) EXPECT_TRUE(std::isnan(got[i])) << label(p, kDim) << i;
    std::vector<float> bad_q(q);
    bad_q[3] = kInf;
    for (const float c : run_many(p, bad_q.data(), rows.data(), 4, kDim))
      EXPECT_TRUE(std::isnan(c));
  }
}

// ---- Norms, cached norms ----

TEST(CosineNorms, RowNormsMatchReferenceOnEveryPath) {
  for (const std::size_t d : test_dims()) {
    const auto rows = random_floats(3 * d, 200 + static_cast<unsigned>(d));
    for (const SimdPath p : supported_paths()) {
      std::vector<float> norms(3);
      sim::row_norms_on(p, rows.data(), 3, d, norms.data());
      for (std::size_t i = 0; i < 3; ++i) {
        double rr = 0.0;
        for (std::size_t k = 0; k < d; ++k)
          rr += static_cast<double>(rows[i * d + k]) * rows[i * d + k];
        EXPECT_NEAR(norms[i], std::sqrt(rr), 3e-6 * std::sqrt(rr)) << label(p, d);
      }
    }
  }
  // Scale-safe: 1e30 entries, zero row, non-finite row.
  std::vector<float> rows = {1e30F, 1e30F, 0.0F, 0.0F, 1.0F, kNaN};
  for (const SimdPath p : supported_paths()) {
    std::vector<float> norms(3);
    sim::row_norms_on(p, rows.data(), 3, 2, norms.data());
    EXPECT_NEAR(norms[0], 1e30 * std::sqrt(2.0), 1e24);
    EXPECT_EQ(norms[1], 0.0F);
    EXPECT_TRUE(std::isnan(norms[2]));
  }
}

TEST(CosineNorms, CachedNormsGiveTheSameCosines) {
  constexpr std::size_t kRows = 50;
  for (const std::size_t d : {std::size_t{3}, std::size_t{384}, std::size_t{1536}}) {
    const auto q = random_floats(d, 300);
    auto rows = random_floats(kRows * d, 301);
    for (std::size_t k = 0; k < d; ++k) rows[7 * d + k] = 0.0F;     // zero row
    for (std::size_t k = 0; k < d; ++k) rows[8 * d + k] *= 1e30F;   // needs the exact path
    for (std::size_t k = 0; k < d; ++k) rows[9 * d + k] *= 1e-30F;  // needs the exact path
    for (const SimdPath p : supported_paths()) {
      std::vector<float> norms(kRows);
      sim::row_norms_on(p, rows.data(), kRows, d, norms.data());
      std::vector<float> got(kRows);
      sim::cosine_many_with_norms_on(p, q.data(), rows.data(), norms.data(), kRows, d, got.data());
      for (std::size_t i = 0; i < kRows; ++i) {
        EXPECT_NEAR(got[i], reference_cosine(q.data(), rows.data() + i * d, d), kKernelTolerance)
            << label(p, d) << " row " << i;
      }
      EXPECT_EQ(got[7], 0.0F);
    }
  }
}

// ---- Row starts and lengths around the unrolled step ----

// A row may start anywhere in a cache line (AVX2 reads it from there, AVX-512 peels a masked head)
// and end anywhere in an unrolled step (32 floats on AVX2, 64 on AVX-512). With an odd d the 17
// rows of a block start at every float offset modulo 64 bytes; the block itself is shifted by a
// few floats too. All three kernel forms are checked.
TEST(CosineKernels, EveryRowStartAndLengthAroundTheUnrolledStep) {
  constexpr std::size_t kRows = 17;
  std::vector<std::size_t> dims;
  for (std::size_t d = 1; d <= 67; ++d) dims.push_back(d);
  for (const std::size_t d : {95, 96, 97, 127, 128, 129, 383, 384, 385, 1023, 1024, 1025, 1087}) {
    dims.push_back(d);
  }
  for (const std::size_t d : dims) {
    for (const std::size_t shift : {0, 1, 3, 4, 15}) {
      const auto seed = static_cast<unsigned>(d * 31 + shift);
      const auto qbuf = random_floats(d + shift, 60 + seed);
      const auto rbuf = random_floats(kRows * d + shift, 70 + seed, 0.2F);
      const float* q = qbuf.data() + shift;
      const float* rows = rbuf.data() + shift;
      for (const SimdPath p : supported_paths()) {
        const auto got = run_many(p, q, rows, kRows, d);
        std::vector<float> norms(kRows);
        std::vector<float> cached(kRows);
        sim::row_norms_on(p, rows, kRows, d, norms.data());
        sim::cosine_many_with_norms_on(p, q, rows, norms.data(), kRows, d, cached.data());
        for (std::size_t i = 0; i < kRows; ++i) {
          const float* row = rows + i * d;
          const double want = reference_cosine(q, row, d);
          const double norm = reference_norm(row, d);
          EXPECT_NEAR(got[i], want, kKernelTolerance) << label(p, d) << " shift " << shift;
          EXPECT_NEAR(cached[i], want, kKernelTolerance) << label(p, d) << " shift " << shift;
          EXPECT_NEAR(norms[i], norm, 3e-6 * norm) << label(p, d) << " shift " << shift;
        }
      }
    }
  }
}

TEST(CosineEdges, NonFiniteAnywhereInTheRowGivesNaNInEveryForm) {
  // Head of the first vector, the unrolled body, the single-vector loop and the scalar tail.
  for (const std::size_t d : {7, 8, 9, 31, 32, 33, 40, 63, 64, 65, 71, 1025}) {
    for (const std::size_t pos : {std::size_t{0}, d / 2, std::min<std::size_t>(d - 1, 32), d - 1}) {
      for (const float bad : {kNaN, kInf, -kInf}) {
        const auto q = random_floats(d, 500 + static_cast<unsigned>(d));
        auto rows = random_floats(3 * d, 600 + static_cast<unsigned>(d));
        rows[d + pos] = bad;
        for (const SimdPath p : supported_paths()) {
          const auto got = run_many(p, q.data(), rows.data(), 3, d);
          std::vector<float> norms(3);
          std::vector<float> cached(3);
          sim::row_norms_on(p, rows.data(), 3, d, norms.data());
          sim::cosine_many_with_norms_on(p, q.data(), rows.data(), norms.data(), 3, d,
                                         cached.data());
          const std::string where = label(p, d) + " pos " + std::to_string(pos);
          EXPECT_TRUE(std::isnan(got[1])) << where;
          EXPECT_TRUE(std::isnan(norms[1])) << where;
          EXPECT_TRUE(std::isnan(cached[1])) << where;
          for (const std::size_t i : {std::size_t{0}, std::size_t{2}}) {
            EXPECT_TRUE(std::isfinite(got[i])) << where;
            EXPECT_TRUE(std::isfinite(cached[i])) << where;
          }
        }
      }
    }
  }
}

// ---- Q x N matrix ----

TEST(CosineMatrix, EqualsRepeatedCosineMany) {
  struct Shape {
    std::size_t q, n, d;
  };
  for (const Shape s : {Shape{3, 37, 67}, Shape{5, 200, 384}, Shape{4, 64, 1536},
                        Shape{2, 20, 4096}, Shape{1, 10, 384}, Shape{7, 1, 5}}) {
    const auto queries = random_floats(s.q * s.d, 400 + static_cast<unsigned>(s.d));
    const auto rows = random_floats(s.n * s.d, 401 + static_cast<unsigned>(s.d));
    std::vector<float> block(s.q * s.n, -7.0F);
    sim::cosine_matrix(queries.data(), s.q, rows.data(), s.n, s.d, block.data());
    for (std::size_t i = 0; i < s.q; ++i) {
      std::vector<float> many(s.n);
      sim::cosine_many(queries.data() + i * s.d, rows.data(), s.n, s.d, many.data());
      for (std::size_t j = 0; j < s.n; ++j) {
        const double want = reference_cosine(queries.data() + i * s.d, rows.data() + j * s.d, s.d);
        EXPECT_NEAR(block[i * s.n + j], many[j], kApiTolerance) << s.q << "x" << s.n << "x" << s.d;
        EXPECT_NEAR(block[i * s.n + j], want, kApiTolerance) << s.q << "x" << s.n << "x" << s.d;
      }
    }
  }
}

TEST(CosineMatrix, ZeroHugeTinyAndNonFiniteRowsAndQueries) {
  constexpr std::size_t kDim = 20;
  constexpr std::size_t kQ = 4;
  constexpr std::size_t kN = 6;
  auto queries = random_floats(kQ * kDim, 500);
  auto rows = random_floats(kN * kDim, 501);
  for (std::size_t k = 0; k < kDim; ++k) {
    queries[1 * kDim + k] = 0.0F;    // zero query
    queries[2 * kDim + k] *= 1e30F;  // huge query
    rows[0 * kDim + k] = 0.0F;       // zero row
    rows[1 * kDim + k] *= 1e30F;     // huge row
    rows[2 * kDim + k] *= 1e-30F;    // tiny row
  }
  rows[3 * kDim + 4] = kNaN;
  queries[3 * kDim + 19] = -kInf;
  std::vector<float> block(kQ * kN);
  sim::cosine_matrix(queries.data(), kQ, rows.data(), kN, kDim, block.data());
  for (std::size_t i = 0; i < kQ; ++i) {
    for (std::size_t j = 0; j < kN; ++j) {
      const float got = block[i * kN + j];
      if (i == 3 || j == 3) {
        EXPECT_TRUE(std::isnan(got)) << i << "," << j;
      } else if (i == 1 || j == 0) {
        EXPECT_EQ(got, 0.0F) << i << "," << j;
      } else {
        EXPECT_NEAR(got, reference_cosine(queries.data() + i * kDim, rows.data() + j * kDim, kDim),
                    kApiTolerance)
            << i << "," << j;
      }
    }
  }
}

// ---- Validation messages ----

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "<no exception>";
}

TEST(CosineValidation, MessagesNameArgumentIndexAndValue) {
  std::vector<float> v(100, 1.0F);
  EXPECT_EQ(message_of([&] { sim::require_finite_vector(v.data(), v.size(), "query"); }),
            "<no exception>");
  v[17] = kNaN;
  v[50] = kInf;
  EXPECT_EQ(message_of([&] { sim::require_finite_vector(v.data(), v.size(), "query"); }),
            "query[17] is nan: inputs must be finite");
  v[17] = 0.0F;
  EXPECT_EQ(message_of([&] { sim::require_finite_vector(v.data(), v.size(), "b"); }),
            "b[50] is inf: inputs must be finite");
  // 10 x 10 matrix: flat index 50 is [5, 0]; put an earlier -inf at [3, 7].
  v[37] = -kInf;
  EXPECT_EQ(message_of([&] { sim::require_finite_matrix(v.data(), 10, 10, "matrix"); }),
            "matrix[3, 7] is -inf: inputs must be finite");
}

TEST(CosineValidation, LargeMatrixScanFindsTheLastElement) {
  // Beyond the scanner's 4096-element blocks; the bad value sits in the very last slot.
  constexpr std::size_t kRows = 3000;
  constexpr std::size_t kDim = 384;
  std::vector<float> m = random_floats(kRows * kDim, 600);
  EXPECT_EQ(message_of([&] { sim::require_finite_matrix(m.data(), kRows, kDim, "matrix"); }),
            "<no exception>");
  m.back() = kNaN;
  EXPECT_EQ(message_of([&] { sim::require_finite_matrix(m.data(), kRows, kDim, "matrix"); }),
            "matrix[2999, 383] is nan: inputs must be finite");
}

TEST(CosineValidation, FusedRowCheckUsesTheCosines) {
  constexpr std::size_t kDim = 50;
  const auto q = random_floats(kDim, 700);
  auto rows = random_floats(6 * kDim, 701);
  for (const SimdPath p : supported_paths()) {
    auto clean = run_many(p, q.data(), rows.data(), 6, kDim);
    EXPECT_EQ(
        message_of([&] { sim::require_finite_rows(rows.data(), 6, kDim, clean.data(), "m"); }),
        "<no exception>");
  }
  rows[4 * kDim + 17] = kNaN;
  rows[5 * kDim + 2] = -kInf;
  for (const SimdPath p : supported_paths()) {
    auto got = run_many(p, q.data(), rows.data(), 6, kDim);
    EXPECT_EQ(
        message_of([&] { sim::require_finite_rows(rows.data(), 6, kDim, got.data(), "matrix"); }),
        "matrix[4, 17] is nan: inputs must be finite")
        << sim::simd_path_name(p);
  }
}

}  // namespace
