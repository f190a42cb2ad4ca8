// Public entry points of cosine.hpp: picks the kernel for this CPU once, prepares the query (norm,
// zero and scale handling) and calls the kernel; plus the finiteness checks the boundary runs.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "common/quoted.hpp"
#include "similarity/cosine.hpp"

namespace sc::similarity {
namespace {

// ---- CPU support and the cached choice ----

bool cpu_has(SimdPath path) {
#if defined(__x86_64__) || defined(__i386__)
  // __builtin_cpu_supports also checks that the OS saves the wider registers (XGETBV).
  switch (path) {
    case SimdPath::kSerial:
      return true;
    case SimdPath::kAvx2:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case SimdPath::kAvx512:
      return __builtin_cpu_supports("avx512f");
  }
  return false;
#else
  return path == SimdPath::kSerial;
#endif
}

SimdPath best_supported() {
  if (cpu_has(SimdPath::kAvx512)) return SimdPath::kAvx512;
  if (cpu_has(SimdPath::kAvx2)) return SimdPath::kAvx2;
  return SimdPath::kSerial;
}

// SC_SIMD resolved once per process (getenv and cpuid per call would cost more than a small
// cosine); a bad value is remembered as an error and reported on every call, never ignored.
struct EnvironmentChoice {
  SimdPath path = SimdPath::kSerial;
  std::string error;
};

EnvironmentChoice resolve_environment() {
  EnvironmentChoice choice;
  const char* env = std::getenv("SC_SIMD");
  if (env == nullptr || *env == '\0') {
    choice.path = best_supported();
    return choice;
  }
  try {
    choice.path = parse_simd_path(env);
  } catch (const std::invalid_argument&) {
    choice.error = "SC_SIMD=" + quoted(env) + " is not one of serial, avx2, avx512";
    return choice;
  }
  if (!simd_path_supported(choice.path)) {
    choice.error = "SC_SIMD=" + std::string(env) + " but this CPU does not support it; use " +
                   std::string(simd_path_name(best_supported())) + " or unset SC_SIMD";
  }
  return choice;
}

const EnvironmentChoice& environment_choice() {
  static const EnvironmentChoice choice = resolve_environment();  // thread-safe initialisation
  return choice;
}

constexpr int kNoOverride = -1;
std::atomic<int> g_override{kNoOverride};

void require_supported(SimdPath path) {
  if (!simd_path_supported(path)) {
    throw std::invalid_argument("SIMD path " + std::string(simd_path_name(path)) +
                                " is not supported by this CPU");
  }
}

// ---- Query preparation ----

enum class QueryState { kUsable, kZero, kNonFinite };

// What the kernels require of a query: finite, non-zero, norm in [2^-32, 2^32]. Out of that range
// the query is multiplied by a power of two into a copy: exact, and cosine does not change.
class PreparedQuery {
 public:
  PreparedQuery(const float* query, std::size_t d) : original_(query) {
    const double rr = kernels::squared_norm_f64(query, d);
    if (!std::isfinite(rr)) {
      state_ = QueryState::kNonFinite;
      return;
    }
    if (rr == 0.0) {
      state_ = QueryState::kZero;
      return;
    }
    norm_ = std::sqrt(rr);
    constexpr double kLow = 0x1p-32;
    constexpr double kHigh = 0x1p32;
    if (norm_ < kLow || norm_ > kHigh) {
      const int exponent = std::ilogb(norm_);
      scaled_.resize(d);
      for (std::size_t i = 0; i < d; ++i) scaled_[i] = std::ldexp(query[i], -exponent);
      norm_ = std::sqrt(kernels::squared_norm_f64(scaled_.data(), d));
    }
  }

  QueryState state() const { return state_; }
  const float* data() const { return scaled_.empty() ? original_ : scaled_.data(); }
  double norm() const { return norm_; }

 private:
  const float* original_;
  std::vector<float> scaled_;
  double norm_ = 0.0;
  QueryState state_ = QueryState::kUsable;
};

// Fills `out` for the cases no kernel sees; returns the query when a kernel has work to do.
std::optional<PreparedQuery> prepare(const float* query, std::size_t n, std::size_t d, float* out) {
  if (n == 0) return std::nullopt;
  if (d == 0) {
    std::fill(out, out + n, 0.0F);
    return std::nullopt;
  }
  PreparedQuery prepared(query, d);
  switch (prepared.state()) {
    case QueryState::kNonFinite:
      std::fill(out, out + n, std::numeric_limits<float>::quiet_NaN());
      return std::nullopt;
    case QueryState::kZero:
      std::fill(out, out + n, 0.0F);
      return std::nullopt;
    case QueryState::kUsable:
      break;
  }
  return prepared;
}

// ---- Finiteness scan ----

// An exponent of all ones means NaN or inf. Integer arithmetic (no fast-math needed) that the
// compiler vectorises: (exponent bits + one exponent unit) carries into bit 31 only for all ones.
bool block_has_non_finite(const float* data, std::size_t count) {
  std::uint32_t flags = 0;
  for (std::size_t i = 0; i < count; ++i) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, data + i, sizeof bits);
    flags |= (bits & 0x7F800000U) + 0x00800000U;
  }
  return (flags & 0x80000000U) != 0;
}

// Index of the first NaN or inf in data[0..count), or count.
std::size_t first_non_finite(const float* data, std::size_t count) {
  constexpr std::size_t kScanBlock = 4096;
  for (std::size_t start = 0; start < count; start += kScanBlock) {
    const std::size_t len = std::min(kScanBlock, count - start);
    if (!block_has_non_finite(data + start, len)) continue;
    for (std::size_t i = start; i < start + len; ++i) {
      if (!std::isfinite(data[i])) return i;
    }
  }
  return count;
}

std::string describe(float value) {
  if (std::isnan(value)) return "nan";
  return value > 0 ? "inf" : "-inf";
}

[[noreturn]] void throw_non_finite_matrix(const float* data, std::size_t index, std::size_t d,
                                          std::string_view name) {
  throw std::invalid_argument(std::string(name) + "[" + std::to_string(index / d) + ", " +
                              std::to_string(index % d) + "] is " + describe(data[index]) +
                              ": inputs must be finite");
}

}  // namespace

// ---- Dispatch API ----

std::string_view simd_path_name(SimdPath path) {
  switch (path) {
    case SimdPath::kSerial:
      return "serial";
    case SimdPath::kAvx2:
      return "avx2";
    case SimdPath::kAvx512:
      return "avx512";
  }
  return "serial";
}

SimdPath parse_simd_path(std::string_view name) {
  for (const SimdPath path : {SimdPath::kSerial, SimdPath::kAvx2, SimdPath::kAvx512}) {
    if (name == simd_path_name(path)) return path;
  }
  throw std::invalid_argument("unknown SIMD path " + quoted(name) +
                              ": expected serial, avx2 or avx512");
}

bool simd_path_supported(SimdPath path) {
  static const bool avx2 = cpu_has(SimdPath::kAvx2);
  static const bool avx512 = cpu_has(SimdPath::kAvx512);
  switch (path) {
    case SimdPath::kSerial:
      return true;
    case SimdPath::kAvx2:
      return avx2;
    case SimdPath::kAvx512:
      return avx512;
  }
  return false;
}

SimdPath active_simd_path() {
  const int forced = g_override.load(std::memory_order_relaxed);
  if (forced != kNoOverride) return static_cast<SimdPath>(forced);
  const EnvironmentChoice& choice = environment_choice();
  if (!choice.error.empty()) throw std::invalid_argument(choice.error);
  return choice.path;
}

void set_simd_path(SimdPath path) {
  require_supported(path);
  g_override.store(static_cast<int>(path), std::memory_order_relaxed);
}

void reset_simd_path() { g_override.store(kNoOverride, std::memory_order_relaxed); }

// ---- Entry points on an explicit path ----

void cosine_many_on(SimdPath path, const float* query, const float* rows, std::size_t n,
                    std::size_t d, float* out) {
  require_supported(path);
  const std::optional<PreparedQuery> q = prepare(query, n, d, out);
  if (!q) return;
  switch (path) {
    case SimdPath::kSerial:
      kernels::cosine_rows_f32_serial(q->data(), q->norm(), rows, n, d, out);
      return;
    case SimdPath::kAvx2:
      kernels::cosine_rows_f32_avx2(q->data(), q->norm(), rows, n, d, out);
      return;
    case SimdPath::kAvx512:
      kernels::cosine_rows_f32_avx512(q->data(), q->norm(), rows, n, d, out);
      return;
  }
}

void row_norms_on(SimdPath path, const float* rows, std::size_t n, std::size_t d, float* out) {
  require_supported(path);
  if (n == 0) return;
  if (d == 0) {
    std::fill(out, out + n, 0.0F);
    return;
  }
  switch (path) {
    case SimdPath::kSerial:
      kernels::norm_rows_f32_serial(rows, n, d, out);
      return;
    case SimdPath::kAvx2:
      kernels::norm_rows_f32_avx2(rows, n, d, out);
      return;
    case SimdPath::kAvx512:
      kernels::norm_rows_f32_avx512(rows, n, d, out);
      return;
  }
}

void cosine_many_with_norms_on(SimdPath path, const float* query, const float* rows,
                               const float* norms, std::size_t n, std::size_t d, float* out) {
  require_supported(path);
  const std::optional<PreparedQuery> q = prepare(query, n, d, out);
  if (!q) return;
  switch (path) {
    case SimdPath::kSerial:
      kernels::cosine_rows_with_norms_f32_serial(q->data(), q->norm(), rows, norms, n, d, out);
      return;
    case SimdPath::kAvx2:
      kernels::cosine_rows_with_norms_f32_avx2(q->data(), q->norm(), rows, norms, n, d, out);
      return;
    case SimdPath::kAvx512:
      kernels::cosine_rows_with_norms_f32_avx512(q->data(), q->norm(), rows, norms, n, d, out);
      return;
  }
}

// ---- Entry points on the active path ----

float cosine(const float* a, const float* b, std::size_t d) {
  float out = 0.0F;
  cosine_many_on(active_simd_path(), a, b, 1, d, &out);
  return out;
}

void cosine_many(const float* query, const float* rows, std::size_t n, std::size_t d, float* out) {
  cosine_many_on(active_simd_path(), query, rows, n, d, out);
}

void row_norms(const float* rows, std::size_t n, std::size_t d, float* out) {
  row_norms_on(active_simd_path(), rows, n, d, out);
}

void cosine_many_with_norms(const float* query, const float* rows, const float* norms,
                            std::size_t n, std::size_t d, float* out) {
  cosine_many_with_norms_on(active_simd_path(), query, rows, norms, n, d, out);
}

// ---- Validation ----

void require_finite_vector(const float* data, std::size_t d, std::string_view name) {
  const std::size_t bad = first_non_finite(data, d);
  if (bad == d) return;
  throw std::invalid_argument(std::string(name) + "[" + std::to_string(bad) + "] is " +
                              describe(data[bad]) + ": inputs must be finite");
}

void require_finite_matrix(const float* data, std::size_t n, std::size_t d, std::string_view name) {
  const std::size_t count = n * d;
  const std::size_t bad = first_non_finite(data, count);
  if (bad != count) throw_non_finite_matrix(data, bad, d, name);
}

void require_finite_rows(const float* rows, std::size_t n, std::size_t d, const float* cosines,
                         std::string_view name) {
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isnan(cosines[i])) continue;
    const float* row = rows + i * d;
    const std::size_t bad = first_non_finite(row, d);
    if (bad != d) throw_non_finite_matrix(rows, i * d + bad, d, name);
  }
}

}  // namespace sc::similarity
