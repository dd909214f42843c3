// Memory family: plain copies (memcpy on the CPU; H2D/D2H pinned and pageable, D2D and
// bidirectional on GPUs) and the STREAM kernels, written once for every backend.
#include <algorithm>

#include "gpusizer/bench/case_id.hpp"
#include "gpusizer/bench/suite.hpp"

namespace gpusizer::bench {
namespace {

using kernels::CopyCase;
using kernels::CopyKind;
using kernels::HostMemory;
using kernels::StreamCase;
using kernels::StreamOp;

// Bytes of ONE STREAM array. Far beyond any last-level cache (CPU: up to ~0.5 GiB L3 on big
// sockets; GPU: 50-126 MiB L2), and below-L2 sizes in the full sweep to show the cache ceiling.
const PerSuite<std::size_t> kStreamArrayBytes{
    .tiny = {1 * MiB},
    .quick = {256 * MiB},
    .standard = {32 * MiB, 256 * MiB, 1 * GiB},
    .full = {4 * MiB, 32 * MiB, 256 * MiB, 1 * GiB, 4 * GiB},
};

// GPUs in the quick suite: 1 GiB, where the gap between back-to-back operations (about 1-2 us)
// costs under 0.5 % even at HBM3e speeds (a 256 MiB D2D copy takes about 0.13 ms on an H200, so
// the gap cost it 1 %: measured on the first H200 run); the same size PyTorch's reference uses.
constexpr std::size_t kGpuQuickBytes = 1 * GiB;

const PerSuite<std::size_t> kCopyBytes{
    .tiny = {1 * MiB},
    .quick = {256 * MiB},
    .standard = {4 * MiB, 64 * MiB, 256 * MiB, 1 * GiB},
    .full = {64 * KiB, 4 * MiB, 64 * MiB, 256 * MiB, 1 * GiB, 4 * GiB},
};

bool is_gpu(const kernels::Backend& b) {
  return b.target().kind != TargetKind::cpu;
}

}  // namespace

void add_memory_cases(const SuiteContext& ctx, CaseList& out) {
  for (auto& backend_ptr : ctx.discovery->backends) {
    kernels::Backend* backend = backend_ptr.get();
    const std::string target = backend->target().id;
    const std::uint64_t memory = backend->target().memory_bytes;

    for (CopyKind kind : backend->copy_kinds()) {
      std::vector<HostMemory> host_kinds{HostMemory::pinned};
      if (kind == CopyKind::host_to_device || kind == CopyKind::device_to_host) {
        host_kinds.push_back(HostMemory::pageable);
      }
      for (HostMemory hm : host_kinds) {
        for (std::size_t bytes : is_gpu(*backend) && ctx.suite == Suite::quick && !ctx.tiny
                                     ? std::vector<std::size_t>{kGpuQuickBytes}
                                     : kCopyBytes.pick(ctx)) {
          // Copies need source and destination; leave room for everything else.
          if (memory != 0 && 3 * bytes > memory) continue;
          std::string op = kernels::to_string(kind);
          if (kind == CopyKind::host_to_device || kind == CopyKind::device_to_host ||
              kind == CopyKind::bidirectional) {
            op += "_" + kernels::to_string(hm);
          }
          BenchCase c;
          c.family = Family::memory;
          c.operation = op;
          c.targets = {target};
          c.parameters = {{"bytes", bytes}};
          if (kind != CopyKind::host_to_host && kind != CopyKind::device_to_device) {
            c.parameters["host_memory"] = kernels::to_string(hm);
          }
          c.id = make_id(to_string(c.family), c.operation, c.targets,
                         {{"bytes", std::to_string(bytes)}});
          const bool headline =
              (kind == CopyKind::host_to_host || kind == CopyKind::host_to_device ||
               kind == CopyKind::device_to_device) &&
              hm == HostMemory::pinned;
          c.priority = headline ? 0 : 1;
          c.estimated_seconds = is_gpu(*backend) ? 0.5 : 1.5;
          CopyCase cc{kind, hm, bytes};
          c.make = [backend, cc] { return backend->copy(cc); };
          out.push_back(std::move(c));
        }
      }
    }

    for (StreamOp op : {StreamOp::triad, StreamOp::copy, StreamOp::mul, StreamOp::add,
                        StreamOp::dot, StreamOp::fill}) {
      for (std::size_t bytes : is_gpu(*backend) && ctx.suite == Suite::quick && !ctx.tiny
                                   ? std::vector<std::size_t>{kGpuQuickBytes}
                                   : kStreamArrayBytes.pick(ctx)) {
        if (memory != 0 && 4 * bytes > memory) continue;  // three arrays plus headroom
        BenchCase c;
        c.family = Family::memory;
        c.operation = kernels::to_string(op);
        c.targets = {target};
        c.parameters = {
            {"array_bytes", bytes}, {"element", "fp64"}, {"weight", kernels::stream_weight(op)}};
        c.id = make_id(to_string(c.family), c.operation, c.targets,
                       {{"bytes", std::to_string(bytes)}});
        c.priority = op == StreamOp::triad ? 0 : 1;
        c.estimated_seconds = is_gpu(*backend) ? 0.5 : 2;
        StreamCase sc{op, bytes};
        c.make = [backend, sc] { return backend->stream(sc); };
        out.push_back(std::move(c));
      }
    }
  }
}

}  // namespace gpusizer::bench
