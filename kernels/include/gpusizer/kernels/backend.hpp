// The backend interface: one implementation per kind of target (the CPU, each CUDA GPU or MIG
// slice). Benchmark bodies in bench/ are written once against it. A factory that cannot serve a
// case on this target throws gpusizer::Unsupported with the reason; the benchmark is then recorded
// as skipped with that reason, never silently dropped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpusizer/error.hpp"
#include "gpusizer/kernels/workload.hpp"
#include "gpusizer/report.hpp"

namespace gpusizer::kernels {

enum class Dtype { f64, f32, tf32, f16, bf16, fp8_e4m3, int8 };
std::string to_string(Dtype d);
Dtype dtype_from_string(const std::string& s);  // throws InputError
std::size_t dtype_bytes(Dtype d);               // storage size of one element (tf32 = 4)

// STREAM-style kernels (BabelStream names and byte weights).
enum class StreamOp { copy, mul, add, triad, dot, fill };
std::string to_string(StreamOp op);
// Arrays of each kernel that are read plus written: copy 2, mul 2, add 3, triad 3, dot 2, fill 1.
int stream_weight(StreamOp op);

struct StreamCase {
  StreamOp op = StreamOp::triad;
  std::size_t array_bytes = 0;  // size of ONE array; elements = array_bytes / sizeof(double)
};

// Plain copies. A copy of N bytes counts N bytes (nvbandwidth's convention; the record says so).
enum class CopyKind {
  host_to_host,      // CPU memcpy (CPU backend)
  host_to_device,    // H2D
  device_to_host,    // D2H
  device_to_device,  // D2D within one device
  bidirectional,     // H2D and D2H at once, counted as both directions' bytes
};
std::string to_string(CopyKind k);
enum class HostMemory { pinned, pageable };
std::string to_string(HostMemory m);

struct CopyCase {
  CopyKind kind = CopyKind::host_to_host;
  HostMemory host_memory = HostMemory::pinned;
  std::size_t bytes = 0;
};

struct GemmCase {
  std::int64_t m = 0, n = 0, k = 0;
  Dtype dtype = Dtype::f32;
  std::string shape_name;  // "square", "decode", "large_k", ...
  // GPU backends: minimum seconds of back-to-back runs before sampling, so the clocks have left
  // idle and settled under the power limit (a GPU idles at a few hundred MHz; the first 0.1 s of
  // a heavy GEMM runs faster than the rest, before the power cap pulls the clock down).
  double warm_up_seconds = 0;
};

// storage -> host ring buffer -> consumer (CPU: checksum; GPU: cudaMemcpyAsync to device).
struct IoCase {
  std::string directory;  // where the benchmark creates its file
  std::size_t file_bytes = 0;
  std::size_t chunk_bytes = 0;
  int depth = 4;           // buffers in flight
  bool to_device = false;  // GPU backends: drain into device memory
};

class Backend {
 public:
  virtual ~Backend() = default;
  Backend() = default;
  Backend(const Backend&) = delete;
  Backend& operator=(const Backend&) = delete;

  // The target this backend runs on, as it appears in the report.
  virtual const Target& target() const = 0;

  // Makes the device's context exist now and keeps it for the backend's lifetime (a CUDA device
  // draws more power with a context open than without). The runner calls it before measuring
  // idle power, so the idle baseline is the state every benchmark starts from. Throws on failure.
  virtual void open_context() {}

  virtual std::unique_ptr<Workload> stream(const StreamCase& c) = 0;
  virtual std::unique_ptr<Workload> copy(const CopyCase& c) = 0;
  virtual std::unique_ptr<Workload> gemm(const GemmCase& c) = 0;
  virtual std::unique_ptr<Workload> io_pipeline(const IoCase& c) = 0;

  // Copy kinds that make sense on this target (the CPU has host_to_host only).
  virtual std::vector<CopyKind> copy_kinds() const = 0;
  // Dtypes this target can multiply (an unsupported one is still listed by the suite, and the
  // gemm() factory throws Unsupported with the reason).
  virtual std::vector<Dtype> gemm_dtypes() const = 0;
};

// What the CUDA backend offers on every GPU, here (CUDA-free) so that a stand-in for a GPU
// backend lists exactly what the real one does.
inline std::vector<CopyKind> gpu_copy_kinds() {
  return {CopyKind::host_to_device, CopyKind::device_to_host, CopyKind::device_to_device,
          CopyKind::bidirectional};
}
inline std::vector<Dtype> gpu_gemm_dtypes() {
  return {Dtype::f64,  Dtype::f32,      Dtype::tf32, Dtype::f16,
          Dtype::bf16, Dtype::fp8_e4m3, Dtype::int8};
}

}  // namespace gpusizer::kernels
