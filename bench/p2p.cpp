// P2P family (multi-GPU, CUDA): the copy matrix between every ordered pair of GPUs, with copy
// engine and SM copies, read (the destination pulls) and write (the source pushes), as
// nvbandwidth does; plus every GPU to/from the host at once (the aggregate host link). A copy of
// N bytes counts N. A pair without peer access still gets its cases: make() throws Unsupported
// with the reason, so the matrix shows which pairs could not run and why.
#include "gpusizer/bench/case_id.hpp"
#include "gpusizer/bench/suite.hpp"
#include "gpusizer/kernels/multi_gpu.hpp"

namespace gpusizer::bench {
namespace {

const PerSuite<std::size_t> kP2pBytes{
    .tiny = {1 * MiB},
    .quick = {256 * MiB},
    .standard = {16 * MiB, 256 * MiB},
    .full = {1 * MiB, 16 * MiB, 256 * MiB, 1 * GiB},
};

const PerSuite<std::size_t> kHostBytesPerGpu{
    .tiny = {1 * MiB},
    .quick = {256 * MiB},
    .standard = {256 * MiB},
    .full = {64 * MiB, 512 * MiB},
};

}  // namespace

void add_p2p_cases(const SuiteContext& ctx, CaseList& out) {
  kernels::MultiGpu* mg = ctx.discovery->multi_gpu.get();
  if (mg == nullptr) return;  // the runner records Discovery::multi_gpu_unavailable_reason
  const auto ids = mg->target_ids();
  using kernels::P2pDirection;
  using kernels::P2pMethod;
  for (std::size_t bytes : kP2pBytes.pick(ctx)) {
    for (P2pMethod method : {P2pMethod::copy_engine, P2pMethod::sm}) {
      for (P2pDirection dir : {P2pDirection::write, P2pDirection::read}) {
        for (int src = 0; src < mg->gpu_count(); ++src) {
          for (int dst = 0; dst < mg->gpu_count(); ++dst) {
            if (src == dst) continue;
            BenchCase c;
            c.family = Family::p2p;
            c.operation = "p2p_" + kernels::to_string(method) + "_" + kernels::to_string(dir);
            const auto& s = ids[static_cast<std::size_t>(src)];
            const auto& d = ids[static_cast<std::size_t>(dst)];
            c.targets = {s, d};
            c.parameters = {{"bytes", bytes},
                            {"src", s},
                            {"dst", d},
                            {"byte_rule", "a copy of N bytes counts N"}};
            c.id = make_id(to_string(c.family), c.operation, c.targets,
                           {{"bytes", std::to_string(bytes)}});
            c.priority = (method == P2pMethod::copy_engine && dir == P2pDirection::write) ? 1 : 2;
            c.estimated_seconds = 1;
            kernels::P2pCase pc{src, dst, method, dir, bytes};
            c.make = [mg, pc] { return mg->p2p_copy(pc); };
            out.push_back(std::move(c));
          }
        }
      }
    }
  }
  for (std::size_t bytes : kHostBytesPerGpu.pick(ctx)) {
    for (bool to_device : {true, false}) {
      BenchCase c;
      c.family = Family::p2p;
      c.operation = to_device ? "host_to_all" : "all_to_host";
      c.targets = ids;
      c.parameters = {{"bytes_per_gpu", bytes},
                      {"gpus", mg->gpu_count()},
                      {"byte_rule", "N per GPU x GPUs, all at once"}};
      c.id =
          make_id(to_string(c.family), c.operation, c.targets, {{"bytes", std::to_string(bytes)}});
      c.priority = 1;
      c.estimated_seconds = 1;
      kernels::AllHostCase hc{to_device, bytes};
      c.make = [mg, hc] { return mg->all_to_host(hc); };
      out.push_back(std::move(c));
    }
  }
}

}  // namespace gpusizer::bench
