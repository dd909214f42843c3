// GEMM family: a square sweep plus shapes typical of transformer inference and training, for every
// dtype the backend lists (a dtype the device lacks is recorded as skipped with the reason).
#include "gpusizer/bench/case_id.hpp"
#include "gpusizer/bench/suite.hpp"

namespace gpusizer::bench {
namespace {

struct Shape {
  std::string name;
  std::int64_t m, n, k;
  bool headline = false;
};

Shape square(std::int64_t s, bool headline = false) {
  return {"square", s, s, s, headline};
}

// GPU shapes. decode: a batch of 16 tokens through a 8192-wide projection (skinny M);
// prefill/training: 4096 tokens through an MLP up-projection (8192 -> 28672, Llama-70B-like);
// large_k: a reduction-heavy shape (K = 65536).
const PerSuite<Shape> kGpuShapes{
    .tiny = {square(256)},
    .quick = {square(4096), square(8192, true), {"decode", 16, 8192, 8192}},
    .standard = {square(1024),
                 square(2048),
                 square(4096),
                 square(8192, true),
                 square(16384),
                 {"decode", 16, 8192, 8192},
                 {"decode", 128, 8192, 8192},
                 {"mlp_up", 4096, 28672, 8192},
                 {"large_k", 2048, 2048, 65536}},
    .full = {square(512),
             square(1024),
             square(2048),
             square(4096),
             square(8192, true),
             square(16384),
             {"decode", 1, 8192, 8192},
             {"decode", 16, 8192, 8192},
             {"decode", 128, 8192, 8192},
             {"mlp_up", 4096, 28672, 8192},
             {"mlp_down", 4096, 8192, 28672},
             {"large_k", 2048, 2048, 65536}},
};

const PerSuite<Shape> kCpuShapes{
    .tiny = {square(64)},
    .quick = {square(1024), square(2048, true)},
    .standard =
        {square(512), square(1024), square(2048, true), square(4096), {"decode", 16, 4096, 4096}},
    .full = {square(512),
             square(1024),
             square(2048, true),
             square(4096),
             square(8192),
             {"decode", 16, 4096, 4096}},
};

}  // namespace

void add_gemm_cases(const SuiteContext& ctx, CaseList& out) {
  for (auto& backend_ptr : ctx.discovery->backends) {
    kernels::Backend* backend = backend_ptr.get();
    const std::string target = backend->target().id;
    const bool gpu = backend->target().kind != TargetKind::cpu;
    const auto& shapes = (gpu ? kGpuShapes : kCpuShapes).pick(ctx);
    for (kernels::Dtype dtype : backend->gemm_dtypes()) {
      for (const Shape& s : shapes) {
        const std::string dt = kernels::to_string(dtype);
        BenchCase c;
        c.family = Family::gemm;
        c.operation = dt;
        c.targets = {target};
        c.parameters = {{"m", s.m}, {"n", s.n}, {"k", s.k}, {"dtype", dt}, {"shape", s.name}};
        c.id = make_id(to_string(c.family), c.operation, c.targets,
                       {{"", s.name},
                        {"m", std::to_string(s.m)},
                        {"n", std::to_string(s.n)},
                        {"k", std::to_string(s.k)}});
        c.priority = s.headline ? 0 : 1;
        c.estimated_seconds = gpu ? 1 : 3;
        // Headline cases are pre-heated 1 s (the figure a reader quotes is the sustained one);
        // the others 0.2 s, enough to bring the clocks back after the previous case's setup.
        kernels::GemmCase gc{s.m, s.n, s.k, dtype, s.name, gpu ? (s.headline ? 1.0 : 0.2) : 0.0};
        c.make = [backend, gc] { return backend->gemm(gc); };
        out.push_back(std::move(c));
      }
    }
  }
}

}  // namespace gpusizer::bench
