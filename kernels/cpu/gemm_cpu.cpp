#include "gemm_cpu.hpp"

#include <cblas.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include "pattern.hpp"

namespace gpusizer::kernels::cpu {
namespace {

constexpr std::size_t kAlignBytes = 64;
constexpr std::uint64_t kInputSeed = 0x5EED0123456789ULL;
constexpr std::uint64_t kSampleSeed = 0xC0FFEEULL;

// Uniform in [-1, 1) from the top 53 bits of a xorshift word.
double uniform_pm1(PatternGenerator& gen) {
  const double unit = static_cast<double>(gen.next_word() >> 11) * 0x1.0p-53;
  return 2.0 * unit - 1.0;
}

template <typename T>
void gemm_call(const GemmCase& c, const T* a, const T* b, T* out) {
  const auto m = static_cast<blasint>(c.m);
  const auto n = static_cast<blasint>(c.n);
  const auto k = static_cast<blasint>(c.k);
  if constexpr (std::is_same_v<T, float>) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k, b, n, 0.0f, out, n);
  } else {
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, a, k, b, n, 0.0, out, n);
  }
}

}  // namespace

double inner_product_error_bound(std::int64_t k, double unit_roundoff) {
  const double ku = static_cast<double>(k) * unit_roundoff;
  if (ku >= 1.0) return std::numeric_limits<double>::infinity();
  return ku / (1.0 - ku);
}

GemmCpu::GemmCpu(const GemmCase& c, int openblas_threads) : case_(c) {
  if (c.dtype != Dtype::f32 && c.dtype != Dtype::f64) {
    throw Unsupported("OpenBLAS backend multiplies fp32 and fp64 only; " + to_string(c.dtype) +
                      " needs a GPU");
  }
  if (c.m <= 0 || c.n <= 0 || c.k <= 0) {
    throw InputError("gemm: m, n and k must be positive (got " + std::to_string(c.m) + ", " +
                     std::to_string(c.n) + ", " + std::to_string(c.k) + ")");
  }
  const auto max_index = static_cast<std::int64_t>(std::numeric_limits<blasint>::max());
  if (c.m > max_index || c.n > max_index || c.k > max_index || c.m * c.k > max_index ||
      c.k * c.n > max_index || c.m * c.n > max_index) {
    throw Unsupported("gemm: " + std::to_string(c.m) + "x" + std::to_string(c.n) + "x" +
                      std::to_string(c.k) + " exceeds OpenBLAS's index type on this build");
  }
  openblas_set_num_threads(openblas_threads);
  if (c.dtype == Dtype::f32) {
    init<float>();
  } else {
    init<double>();
  }
}

template <typename T>
void GemmCpu::init() {
  const auto m = static_cast<std::size_t>(case_.m);
  const auto n = static_cast<std::size_t>(case_.n);
  const auto k = static_cast<std::size_t>(case_.k);
  a_ = AlignedBuffer(m * k * sizeof(T), kAlignBytes);
  b_ = AlignedBuffer(k * n * sizeof(T), kAlignBytes);
  c_ = AlignedBuffer(m * n * sizeof(T), kAlignBytes);
  PatternGenerator gen(kInputSeed);
  T* a = a_.as<T>();
  T* b = b_.as<T>();
  T* out = c_.as<T>();
  for (std::size_t i = 0; i < m * k; ++i) a[i] = static_cast<T>(uniform_pm1(gen));
  for (std::size_t i = 0; i < k * n; ++i) b[i] = static_cast<T>(uniform_pm1(gen));
  // Poison: an entry the multiplication never writes stays NaN and fails verification.
  for (std::size_t i = 0; i < m * n; ++i) out[i] = std::numeric_limits<T>::quiet_NaN();
}

double GemmCpu::run(std::size_t repeats) {
  const auto start = std::chrono::steady_clock::now();
  if (case_.dtype == Dtype::f32) {
    for (std::size_t r = 0; r < repeats; ++r)
      gemm_call<float>(case_, a_.as<float>(), b_.as<float>(), c_.as<float>());
  } else {
    for (std::size_t r = 0; r < repeats; ++r)
      gemm_call<double>(case_, a_.as<double>(), b_.as<double>(), c_.as<double>());
  }
  const auto stop = std::chrono::steady_clock::now();
  count_runs(repeats);
  return std::chrono::duration<double>(stop - start).count();
}

double GemmCpu::unit_roundoff() const {
  const double epsilon = case_.dtype == Dtype::f32
                             ? static_cast<double>(std::numeric_limits<float>::epsilon())
                             : std::numeric_limits<double>::epsilon();
  return epsilon / 2;
}

double GemmCpu::tolerance() const {
  const double u_ref = static_cast<double>(std::numeric_limits<long double>::epsilon() / 2);
  // Error of the tested product plus error of the long double reference, both rigorous.
  return inner_product_error_bound(case_.k, unit_roundoff()) +
         inner_product_error_bound(case_.k, u_ref);
}

std::string GemmCpu::verification_method() const {
  char buf[400];
  std::snprintf(buf, sizeof buf,
                "%zu random entries plus the 4 corners recomputed in long double; accepted when "
                "|c - ref| <= gamma_k * sum_k |a_ik * b_kj| with gamma_k = k*u/(1-k*u), u = %.3g "
                "(%s unit roundoff), k = %lld: tol = %.3g",
                kGemmSampleEntries, unit_roundoff(), to_string(case_.dtype).c_str(),
                static_cast<long long>(case_.k), tolerance());
  return buf;
}

template <typename T>
void GemmCpu::check(Verification& v) const {
  const double tol = tolerance();
  char buf[400];
  const auto m = static_cast<std::size_t>(case_.m);
  const auto n = static_cast<std::size_t>(case_.n);
  const auto k = static_cast<std::size_t>(case_.k);
  std::vector<std::pair<std::size_t, std::size_t>> sample = {
      {0, 0}, {0, n - 1}, {m - 1, 0}, {m - 1, n - 1}};
  PatternGenerator pick(kSampleSeed);
  for (std::size_t s = 0; s < kGemmSampleEntries; ++s) {
    const std::size_t i = pick.next_word() % m;  // sequenced: i before j
    const std::size_t j = pick.next_word() % n;
    sample.emplace_back(i, j);
  }
  const T* a = a_.as<const T>();
  const T* b = b_.as<const T>();
  const T* out = c_.as<const T>();
  std::size_t bad = 0;
  double worst_scaled = 0;  // max |c - ref| / sum|a b|
  double worst_rel = 0;     // max |c - ref| / |ref|
  std::size_t first_i = 0, first_j = 0;
  double first_c = 0, first_ref = 0;
  for (auto [i, j] : sample) {
    long double ref = 0, abs_sum = 0;
    for (std::size_t p = 0; p < k; ++p) {
      const long double term = static_cast<long double>(a[i * k + p]) * b[p * n + j];
      ref += term;
      abs_sum += std::fabs(term);
    }
    const double c = static_cast<double>(out[i * n + j]);
    const double err = static_cast<double>(std::fabs(static_cast<long double>(c) - ref));
    const double scale = static_cast<double>(abs_sum);
    const bool ok = err <= tol * scale;  // false for NaN
    if (!ok && bad++ == 0) {
      first_i = i;
      first_j = j;
      first_c = c;
      first_ref = static_cast<double>(ref);
    }
    if (scale > 0) worst_scaled = std::max(worst_scaled, err / scale);
    if (ref != 0) worst_rel = std::max(worst_rel, err / std::fabs(static_cast<double>(ref)));
  }
  if (bad == 0) {
    v.status = VerificationStatus::passed;
    std::snprintf(buf, sizeof buf,
                  "%zu entries within bound; max |c-ref|/sum|a*b| = %.3g (tol %.3g); max relative "
                  "error |c-ref|/|ref| = %.3g",
                  sample.size(), worst_scaled, tol, worst_rel);
  } else {
    v.status = VerificationStatus::failed;
    std::snprintf(buf, sizeof buf,
                  "%zu of %zu entries outside bound; e.g. C[%zu][%zu] = %.9g, reference %.9g; "
                  "max relative error %.3g",
                  bad, sample.size(), first_i, first_j, first_c, first_ref, worst_rel);
  }
  v.detail = buf;
}

void GemmCpu::check_output(Verification& v) const {
  if (case_.dtype == Dtype::f32) {
    check<float>(v);
  } else {
    check<double>(v);
  }
}

WorkAmount GemmCpu::work_per_op() const {
  WorkAmount w;
  w.flops = 2.0 * static_cast<double>(case_.m) * static_cast<double>(case_.n) *
            static_cast<double>(case_.k);
  w.rule = "FLOP = 2*M*N*K = 2*" + std::to_string(case_.m) + "*" + std::to_string(case_.n) + "*" +
           std::to_string(case_.k) + " (one multiply and one add per term)";
  w.rate_metric = RateMetric::throughput;
  return w;
}

std::map<std::string, std::string> GemmCpu::details() const {
  return {{"library", "OpenBLAS"},
          {"function", case_.dtype == Dtype::f32 ? "cblas_sgemm" : "cblas_dgemm"},
          {"layout", "row-major, C = A * B, no transpose, alpha = 1, beta = 0"},
          {"openblas_threads", std::to_string(openblas_get_num_threads())},
          {"openblas_core", openblas_get_corename()},
          {"openblas_config", openblas_get_config()},
          {"inputs", "uniform in [-1, 1) from xorshift64, fixed seed; C poisoned with NaN"}};
}

void GemmCpu::corrupt_output_for_test() {
  if (case_.dtype == Dtype::f32) {
    c_.as<float>()[0] += 1.0f;
  } else {
    c_.as<double>()[0] += 1.0;
  }
}

}  // namespace gpusizer::kernels::cpu
