// GEMM through cuBLASLt, TN layout for every dtype (fp8 requires it): D(m x n) = op(A)^T... in
// column-major terms A is stored k x m (lda = k, transposed), B k x n (ldb = k), D m x n (ldd = m).
// Inputs are drawn from values exactly representable in the input dtype, derived from a hash of
// (matrix, index), so the host reference recomputes any entry without keeping the matrices.
#include <cublasLt.h>
#include <cuda_runtime.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <memory>
#include <span>
#include <vector>

#include "gpu_timer.hpp"
#include "host/gemm_model.hpp"
#include "host/numeric.hpp"
#include "workloads.hpp"

namespace gpusizer::kernels::cuda {
namespace {

constexpr std::size_t kWorkspaceBytes = 32u << 20;
constexpr double kCapSecondsPerOp = 2.0;
constexpr int kSamples = 256;

template <typename T, cublasStatus_t (*Destroy)(T)>
struct LtDeleter {
  void operator()(T h) const {
    if (h) Destroy(h);
  }
};
template <typename T, cublasStatus_t (*Destroy)(T)>
using LtPtr = std::unique_ptr<std::remove_pointer_t<T>, LtDeleter<T, Destroy>>;
using LtHandle = LtPtr<cublasLtHandle_t, cublasLtDestroy>;
using LtMatmulDesc = LtPtr<cublasLtMatmulDesc_t, cublasLtMatmulDescDestroy>;
using LtLayout = LtPtr<cublasLtMatrixLayout_t, cublasLtMatrixLayoutDestroy>;
using LtPreference = LtPtr<cublasLtMatmulPreference_t, cublasLtMatmulPreferenceDestroy>;

std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// Input value for (matrix seed, linear index), exactly representable in the dtype; never zero.
double input_value(Dtype d, std::uint64_t seed, std::size_t i) {
  const std::uint64_t h = mix(seed * 0x100000001B3ULL + i);
  switch (d) {
    case Dtype::f64:
      return static_cast<double>(h >> 11) * 0x1p-53 * 2.0 - 1.0 + 0x1p-60;
    case Dtype::f32:
    case Dtype::tf32:
      return static_cast<double>(
          static_cast<float>(static_cast<double>(h >> 40) * 0x1p-24 * 2.0 - 1.0 + 0x1p-30));
    case Dtype::f16:
    case Dtype::bf16:
    case Dtype::fp8_e4m3: {
      const double mag = 0.25 * static_cast<double>((h >> 8) % 4 + 1);  // 0.25 .. 1
      return (h & 1) ? -mag : mag;
    }
    case Dtype::int8: {
      const double mag = static_cast<double>((h >> 8) % 8 + 1);  // 1 .. 8
      return (h & 1) ? -mag : mag;
    }
  }
  return 1;
}

struct Types {
  cublasComputeType_t compute;
  cudaDataType_t scale, ab, cd;
  std::size_t ab_bytes, cd_bytes;
  const char* description;
};

Types types_for(Dtype d) {
  switch (d) {
    case Dtype::f64:
      return {CUBLAS_COMPUTE_64F,         CUDA_R_64F, CUDA_R_64F, CUDA_R_64F, 8, 8,
              "fp64 in/out, fp64 compute"};
    case Dtype::f32:
      return {CUBLAS_COMPUTE_32F,         CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, 4, 4,
              "fp32 in/out, fp32 compute"};
    case Dtype::tf32:
      return {CUBLAS_COMPUTE_32F_FAST_TF32,
              CUDA_R_32F,
              CUDA_R_32F,
              CUDA_R_32F,
              4,
              4,
              "fp32 in/out, CUBLAS_COMPUTE_32F_FAST_TF32"};
    case Dtype::f16:
      return {CUBLAS_COMPUTE_32F,
              CUDA_R_32F,
              CUDA_R_16F,
              CUDA_R_16F,
              2,
              2,
              "fp16 in/out, fp32 accumulate"};
    case Dtype::bf16:
      return {CUBLAS_COMPUTE_32F,
              CUDA_R_32F,
              CUDA_R_16BF,
              CUDA_R_16BF,
              2,
              2,
              "bf16 in/out, fp32 accumulate"};
    case Dtype::fp8_e4m3:
      return {CUBLAS_COMPUTE_32F,
              CUDA_R_32F,
              CUDA_R_8F_E4M3,
              CUDA_R_16BF,
              1,
              2,
              "fp8 e4m3 in, bf16 out, fp32 accumulate, unit scales"};
    case Dtype::int8:
      return {CUBLAS_COMPUTE_32I,
              CUDA_R_32I,
              CUDA_R_8I,
              CUDA_R_32I,
              1,
              4,
              "int8 in, int32 out/accumulate"};
  }
  throw Unsupported("unknown dtype");
}

void encode(Dtype d, double v, std::uint8_t* out) {
  switch (d) {
    case Dtype::f64:
      std::memcpy(out, &v, 8);
      return;
    case Dtype::f32:
    case Dtype::tf32: {
      const auto f = static_cast<float>(v);
      std::memcpy(out, &f, 4);
      return;
    }
    case Dtype::f16: {
      const auto b = encode_fp16(static_cast<float>(v));
      std::memcpy(out, &b, 2);
      return;
    }
    case Dtype::bf16: {
      const auto b = encode_bf16(static_cast<float>(v));
      std::memcpy(out, &b, 2);
      return;
    }
    case Dtype::fp8_e4m3:
      *out = encode_fp8_e4m3(static_cast<float>(v));
      return;
    case Dtype::int8:
      *out = static_cast<std::uint8_t>(static_cast<std::int8_t>(v));
      return;
  }
}

double decode_output(Dtype d, const std::uint8_t* p) {
  switch (d) {
    case Dtype::f64: {
      double v;
      std::memcpy(&v, p, 8);
      return v;
    }
    case Dtype::f32:
    case Dtype::tf32: {
      float v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case Dtype::f16: {
      std::uint16_t b;
      std::memcpy(&b, p, 2);
      return decode_fp16(b);
    }
    case Dtype::bf16:
    case Dtype::fp8_e4m3: {
      std::uint16_t b;
      std::memcpy(&b, p, 2);
      return decode_bf16(b);
    }
    case Dtype::int8: {
      std::int32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
  }
  return 0;
}

class GemmWorkload final : public Workload, public CorruptibleOutput {
 public:
  GemmWorkload(const DeviceFacts& d, const GemmCase& c)
      : facts_(d), case_(c), types_(types_for(c.dtype)) {
    if (c.m <= 0 || c.n <= 0 || c.k <= 0) throw InputError("GEMM sizes must be positive");
    if (auto why = gemm_unsupported_reason(c.dtype, d.cc_major, d.cc_minor); !why.empty())
      throw Unsupported(why);
    peak_ = datasheet_gemm_peak(d.name, c.dtype);
    const double seconds = estimated_gemm_seconds(d.name, c.dtype, d.cc_major, d.cc_minor,
                                                  d.sm_count, d.sm_clock_hz, c.m, c.n, c.k);
    if (seconds > kCapSecondsPerOp)
      throw Unsupported("would take at least ~" +
                        std::to_string(static_cast<int>(std::ceil(seconds))) +
                        " s per operation on this GPU, over the " +
                        std::to_string(static_cast<int>(kCapSecondsPerOp)) + " s cap");
    const auto mm = static_cast<std::size_t>(c.m), nn = static_cast<std::size_t>(c.n),
               kk = static_cast<std::size_t>(c.k);
    a_bytes_ = mm * kk * types_.ab_bytes;
    b_bytes_ = kk * nn * types_.ab_bytes;
    d_bytes_ = mm * nn * types_.cd_bytes;
    DeviceScope scope(d.index);
    std::size_t free_bytes = 0, total = 0;
    GPUSIZER_CUDA_CALL(cudaMemGetInfo(&free_bytes, &total));
    const std::size_t need = a_bytes_ + b_bytes_ + d_bytes_ + kWorkspaceBytes + d.l2_bytes;
    if (need > free_bytes * 9 / 10)
      throw Unsupported("needs " + std::to_string(need >> 20) + " MiB of device memory, " +
                        std::to_string(free_bytes >> 20) + " MiB free");
    cold_ = a_bytes_ + b_bytes_ + d_bytes_ < 4 * d.l2_bytes;
    timer_ = std::make_unique<GpuTimer>(d.index, cold_ ? d.l2_bytes : 0);
    a_ = DeviceBuffer(a_bytes_);
    b_ = DeviceBuffer(b_bytes_);
    d_ = DeviceBuffer(d_bytes_);
    workspace_ = DeviceBuffer(kWorkspaceBytes);
    upload(a_, kSeedA, mm * kk);
    upload(b_, kSeedB, kk * nn);
    GPUSIZER_CUDA_CALL(cudaMemset(d_.get(), 0xff, d_bytes_));  // poison (NaN / -1)
    setup_cublaslt();
    // cudaMemset may return before it is done; the timer stream does not wait on the null stream.
    GPUSIZER_CUDA_CALL(cudaDeviceSynchronize());
  }

  double run(std::size_t repeats) override {
    DeviceScope scope(facts_.index);
    auto op = [this](cudaStream_t s) { matmul(s); };
    return cold_ ? timer_->time_cold(repeats, op) : timer_->time_hot(repeats, op);
  }

  void warm_up() override {
    DeviceScope scope(facts_.index);
    matmul(timer_->stream());
    GPUSIZER_CUDA_CALL(cudaStreamSynchronize(timer_->stream()));
  }

  VerificationResult verify() override {
    DeviceScope scope(facts_.index);
    GPUSIZER_CUDA_CALL(cudaStreamSynchronize(timer_->stream()));
    std::vector<double> got, ref;
    std::size_t poisoned = 0;
    const auto mm = static_cast<std::size_t>(case_.m), kk = static_cast<std::size_t>(case_.k);
    for (int s = 0; s < kSamples; ++s) {
      const std::size_t i = s == 0 ? 0 : mix(7000 + static_cast<std::uint64_t>(s)) % mm;
      const std::size_t j =
          s == 0 ? 0
                 : mix(9000 + static_cast<std::uint64_t>(s)) % static_cast<std::size_t>(case_.n);
      std::uint8_t raw[8] = {};
      GPUSIZER_CUDA_CALL(cudaMemcpy(raw, d_.as<std::uint8_t>() + (j * mm + i) * types_.cd_bytes,
                                    types_.cd_bytes, cudaMemcpyDeviceToHost));
      double sum = 0;
      for (std::size_t l = 0; l < kk; ++l)
        sum += input_value(case_.dtype, kSeedA, i * kk + l) *
               input_value(case_.dtype, kSeedB, j * kk + l);
      const double value = decode_output(case_.dtype, raw);
      // int32 -1 is all 0xFF bytes too: only an entry that is also wrong counts as unwritten.
      poisoned += still_poisoned(std::span<const std::uint8_t>(raw, types_.cd_bytes), value, sum);
      got.push_back(value);
      ref.push_back(sum);
    }
    const double err = relative_error_by_norm(got, ref);
    const double tol = gemm_tolerance(case_.dtype, case_.k);
    VerificationResult v;
    v.method =
        std::to_string(kSamples) +
        " sampled entries vs a float64 host reference, ||D-ref||/||ref|| <= " + format_double(tol) +
        "; output poisoned (0xFF) before the run";
    v.status = (err <= tol && poisoned == 0) ? "passed" : "failed";
    v.detail = "relative error by norm " + format_double(err) +
               ", poisoned (unwritten) sampled entries " + std::to_string(poisoned);
    return v;
  }

  void corrupt_output_for_test() override {
    DeviceScope scope(facts_.index);
    GPUSIZER_CUDA_CALL(cudaStreamSynchronize(timer_->stream()));
    std::uint8_t top = 0;
    auto* p = d_.as<std::uint8_t>() + types_.cd_bytes - 1;  // entry (0,0), most significant byte
    GPUSIZER_CUDA_CALL(cudaMemcpy(&top, p, 1, cudaMemcpyDeviceToHost));
    top ^= 0x40;
    GPUSIZER_CUDA_CALL(cudaMemcpy(p, &top, 1, cudaMemcpyHostToDevice));
  }

  WorkAmount work_per_op() const override {
    WorkAmount w;
    w.flops = gemm_flops(case_.m, case_.n, case_.k);
    w.bytes = static_cast<double>(a_bytes_ + b_bytes_ + d_bytes_);
    w.rule = "FLOP = 2 x M x N x K" +
             std::string(case_.dtype == Dtype::int8 ? " (integer operations)" : "");
    w.rate_metric = "throughput";
    return w;
  }
  std::string timer() const override { return "cuda_events"; }
  std::string mode() const override { return cold_ ? "cold" : "hot"; }
  std::map<std::string, std::string> details() const override { return details_; }
  double peak_rate() const override { return peak_.flops_per_second; }
  std::string peak_source() const override { return peak_.source; }

 private:
  static constexpr std::uint64_t kSeedA = 11, kSeedB = 23;

  static std::string format_double(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
  }

  void upload(const DeviceBuffer& dst, std::uint64_t seed, std::size_t count) {
    constexpr std::size_t kChunk = 1 << 20;
    std::vector<std::uint8_t> host(kChunk * types_.ab_bytes);
    for (std::size_t start = 0; start < count; start += kChunk) {
      const std::size_t n = std::min(kChunk, count - start);
      for (std::size_t i = 0; i < n; ++i)
        encode(case_.dtype, input_value(case_.dtype, seed, start + i),
               host.data() + i * types_.ab_bytes);
      GPUSIZER_CUDA_CALL(cudaMemcpy(dst.as<std::uint8_t>() + start * types_.ab_bytes, host.data(),
                                    n * types_.ab_bytes, cudaMemcpyHostToDevice));
    }
  }

  void setup_cublaslt() {
    cublasLtHandle_t h = nullptr;
    GPUSIZER_CUBLAS_CALL(cublasLtCreate(&h));
    handle_.reset(h);
    cublasLtMatmulDesc_t desc = nullptr;
    GPUSIZER_CUBLAS_CALL(cublasLtMatmulDescCreate(&desc, types_.compute, types_.scale));
    desc_.reset(desc);
    const cublasOperation_t transa = CUBLAS_OP_T, transb = CUBLAS_OP_N;
    GPUSIZER_CUBLAS_CALL(
        cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &transa, sizeof transa));
    GPUSIZER_CUBLAS_CALL(
        cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &transb, sizeof transb));
    const auto m = static_cast<std::uint64_t>(case_.m), n = static_cast<std::uint64_t>(case_.n),
               k = static_cast<std::uint64_t>(case_.k);
    cublasLtMatrixLayout_t la = nullptr, lb = nullptr, ld = nullptr;
    GPUSIZER_CUBLAS_CALL(
        cublasLtMatrixLayoutCreate(&la, types_.ab, k, m, static_cast<std::int64_t>(k)));
    layout_a_.reset(la);
    GPUSIZER_CUBLAS_CALL(
        cublasLtMatrixLayoutCreate(&lb, types_.ab, k, n, static_cast<std::int64_t>(k)));
    layout_b_.reset(lb);
    GPUSIZER_CUBLAS_CALL(
        cublasLtMatrixLayoutCreate(&ld, types_.cd, m, n, static_cast<std::int64_t>(m)));
    layout_d_.reset(ld);
    cublasLtMatmulPreference_t pref = nullptr;
    GPUSIZER_CUBLAS_CALL(cublasLtMatmulPreferenceCreate(&pref));
    preference_.reset(pref);
    const std::size_t ws = kWorkspaceBytes;
    GPUSIZER_CUBLAS_CALL(cublasLtMatmulPreferenceSetAttribute(
        pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws));
    int found = 0;
    const cublasStatus_t st =
        cublasLtMatmulAlgoGetHeuristic(h, desc, la, lb, ld, ld, pref, 1, &heuristic_, &found);
    // No algorithm is a fact about this GPU and shape (fp8 and int8 kernels want 16-byte-aligned
    // leading dimensions: a decode GEMM with M = 1 has none), recorded as skipped with the reason.
    if (st == CUBLAS_STATUS_NOT_SUPPORTED || st == CUBLAS_STATUS_INVALID_VALUE ||
        (st == CUBLAS_STATUS_SUCCESS && (found == 0 || heuristic_.state != CUBLAS_STATUS_SUCCESS)))
      throw Unsupported(
          "cuBLASLt offers no algorithm for " + to_string(case_.dtype) + " " +
          std::to_string(case_.m) + "x" + std::to_string(case_.n) + "x" + std::to_string(case_.k) +
          " (TN) on this GPU (cublasLtMatmulAlgoGetHeuristic: " +
          cublasLtGetStatusName(st == CUBLAS_STATUS_SUCCESS && found > 0 ? heuristic_.state : st) +
          (st == CUBLAS_STATUS_SUCCESS && found == 0 ? ", 0 results" : "") +
          (case_.dtype == Dtype::fp8_e4m3 || case_.dtype == Dtype::int8
               ? "; fp8/int8 kernels need 16-byte-aligned leading dimensions, here K and M"
               : "") +
          ")");
    GPUSIZER_CUBLAS_CALL(st);
    details_["library"] = "cuBLASLt " + std::to_string(cublasLtGetVersion());
    details_["types"] = types_.description;
    details_["layout"] = "TN (A transposed, column-major)";
    details_["algorithm_choice"] = "cublasLtMatmulAlgoGetHeuristic, first result";
    details_["workspace_bytes"] = std::to_string(kWorkspaceBytes);
    details_["heuristic_waves"] = format_double(static_cast<double>(heuristic_.wavesCount));
    for (auto [name, attr] : {std::pair{"algo_id", CUBLASLT_ALGO_CONFIG_ID},
                              std::pair{"tile_id", CUBLASLT_ALGO_CONFIG_TILE_ID},
                              std::pair{"stages_id", CUBLASLT_ALGO_CONFIG_STAGES_ID}}) {
      std::uint32_t v = 0;
      std::size_t written = 0;
      if (cublasLtMatmulAlgoConfigGetAttribute(&heuristic_.algo, attr, &v, sizeof v, &written) ==
          CUBLAS_STATUS_SUCCESS)
        details_[name] = std::to_string(v);
    }
    details_["l2_flush"] = cold_ ? "yes (cold: working set under 4x L2)" : "no (hot: back-to-back)";
  }

  void matmul(cudaStream_t s) {
    const double alpha_d = 1, beta_d = 0;
    const float alpha_f = 1, beta_f = 0;
    const std::int32_t alpha_i = 1, beta_i = 0;
    const void* alpha = types_.scale == CUDA_R_64F   ? static_cast<const void*>(&alpha_d)
                        : types_.scale == CUDA_R_32I ? static_cast<const void*>(&alpha_i)
                                                     : static_cast<const void*>(&alpha_f);
    const void* beta = types_.scale == CUDA_R_64F   ? static_cast<const void*>(&beta_d)
                       : types_.scale == CUDA_R_32I ? static_cast<const void*>(&beta_i)
                                                    : static_cast<const void*>(&beta_f);
    GPUSIZER_CUBLAS_CALL(cublasLtMatmul(handle_.get(), desc_.get(), alpha, a_.get(),
                                        layout_a_.get(), b_.get(), layout_b_.get(), beta, d_.get(),
                                        layout_d_.get(), d_.get(), layout_d_.get(),
                                        &heuristic_.algo, workspace_.get(), kWorkspaceBytes, s));
  }

  DeviceFacts facts_;
  GemmCase case_;
  Types types_;
  PeakRate peak_;
  bool cold_ = false;
  std::size_t a_bytes_ = 0, b_bytes_ = 0, d_bytes_ = 0;
  std::unique_ptr<GpuTimer> timer_;
  DeviceBuffer a_, b_, d_, workspace_;
  LtHandle handle_;
  LtMatmulDesc desc_;
  LtLayout layout_a_, layout_b_, layout_d_;
  LtPreference preference_;
  cublasLtMatmulHeuristicResult_t heuristic_{};
  std::map<std::string, std::string> details_;
};

}  // namespace

std::unique_ptr<Workload> make_gemm_workload(const DeviceFacts& d, const GemmCase& c) {
  return std::make_unique<GemmWorkload>(d, c);
}

}  // namespace gpusizer::kernels::cuda
