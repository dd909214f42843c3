// Collectives family (NCCL): every collective over a message-size sweep across all GPUs of the
// machine. algbw = S / t and busbw = algbw x factor follow nccl-tests (doc/PERFORMANCE.md).
#include "gpusizer/bench/case_id.hpp"
#include "gpusizer/bench/nccl_groups.hpp"
#include "gpusizer/bench/suite.hpp"

namespace gpusizer::bench {
namespace {

const PerSuite<std::size_t> kMessageBytes{
    .tiny = {1 * MiB},
    .quick = {1 * MiB, 64 * MiB, 1 * GiB},
    .standard = {64 * KiB, 1 * MiB, 16 * MiB, 64 * MiB, 256 * MiB, 1 * GiB},
    .full = {8 * KiB, 64 * KiB, 1 * MiB, 16 * MiB, 64 * MiB, 256 * MiB, 1 * GiB, 4 * GiB},
};

}  // namespace

const std::vector<std::size_t>& collective_message_bytes(const SuiteContext& ctx) {
  return kMessageBytes.pick(ctx);
}

void add_collective_cases(const SuiteContext& ctx, CaseList& out) {
  kernels::CollectiveGroup* group = ctx.discovery->collectives.get();
  if (group == nullptr) return;  // the runner records Discovery::collectives_unavailable_reason
  using kernels::Collective;
  for (Collective op : {Collective::all_reduce, Collective::all_gather, Collective::reduce_scatter,
                        Collective::broadcast, Collective::all_to_all}) {
    for (std::size_t bytes : kMessageBytes.pick(ctx)) {
      BenchCase c;
      c.family = Family::collectives;
      c.operation = kernels::to_string(op);
      c.targets = group->target_ids();
      c.parameters = {{"bytes", bytes},
                      {"ranks", group->ranks()},
                      {"dtype", "fp32"},
                      {"busbw_factor", kernels::busbw_factor(op, group->ranks())}};
      c.id =
          make_id(to_string(c.family), c.operation, c.targets, {{"bytes", std::to_string(bytes)}});
      c.priority = (op == Collective::all_reduce && bytes >= 1 * GiB) ? 0 : 1;
      c.estimated_seconds = 1;
      kernels::CollectiveCase cc{op, bytes, kernels::Dtype::f32};
      c.make = [group, cc] { return group->collective(cc); };
      out.push_back(std::move(c));
    }
  }
}

}  // namespace gpusizer::bench
