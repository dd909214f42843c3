// I/O pipeline family: storage -> host ring buffer -> consumer (the CPU checksums; a GPU copies
// into device memory), sweeping chunk size and depth so the user sees which stage binds.
#include "gpusizer/bench/case_id.hpp"
#include "gpusizer/bench/suite.hpp"

namespace gpusizer::bench {
namespace {

struct IoShape {
  std::size_t file_bytes, chunk_bytes;
  int depth;
  bool headline = false;
};

const PerSuite<IoShape> kIoShapes{
    .tiny = {{4 * MiB, 1 * MiB, 2}},
    .quick = {{256 * MiB, 4 * MiB, 4, true}},
    .standard = {{1 * GiB, 1 * MiB, 4},
                 {1 * GiB, 4 * MiB, 4, true},
                 {1 * GiB, 16 * MiB, 4},
                 {1 * GiB, 4 * MiB, 1},
                 {1 * GiB, 4 * MiB, 8}},
    .full = {{4 * GiB, 256 * KiB, 8},
             {4 * GiB, 1 * MiB, 4},
             {4 * GiB, 4 * MiB, 4, true},
             {4 * GiB, 16 * MiB, 4},
             {4 * GiB, 64 * MiB, 4},
             {4 * GiB, 4 * MiB, 1},
             {4 * GiB, 4 * MiB, 16}},
};

}  // namespace

void add_io_cases(const SuiteContext& ctx, CaseList& out) {
  for (auto& backend_ptr : ctx.discovery->backends) {
    kernels::Backend* backend = backend_ptr.get();
    const std::string target = backend->target().id;
    const bool to_device = backend->target().kind != TargetKind::cpu;
    for (const IoShape& s : kIoShapes.pick(ctx)) {
      BenchCase c;
      c.family = Family::io;
      c.operation = to_device ? "storage_to_device" : "storage_to_host";
      c.targets = {target};
      c.parameters = {{"file_bytes", s.file_bytes},
                      {"chunk_bytes", s.chunk_bytes},
                      {"depth", s.depth},
                      {"directory", ctx.io_directory}};
      c.id = make_id(to_string(c.family), c.operation, c.targets,
                     {{"file", std::to_string(s.file_bytes)},
                      {"chunk", std::to_string(s.chunk_bytes)},
                      {"depth", std::to_string(s.depth)}});
      c.priority = s.headline ? 1 : 2;
      c.estimated_seconds = 3;
      kernels::IoCase ic{ctx.io_directory, s.file_bytes, s.chunk_bytes, s.depth, to_device};
      c.make = [backend, ic] { return backend->io_pipeline(ic); };
      out.push_back(std::move(c));
    }
  }
}

}  // namespace gpusizer::bench
