// Vocabulary shared by every backend: names, byte weights, collective bus factors.
#include <array>

#include "gpusizer/kernels/collectives.hpp"

namespace gpusizer::kernels {

std::string to_string(Dtype d) {
  switch (d) {
    case Dtype::f64:
      return "fp64";
    case Dtype::f32:
      return "fp32";
    case Dtype::tf32:
      return "tf32";
    case Dtype::f16:
      return "fp16";
    case Dtype::bf16:
      return "bf16";
    case Dtype::fp8_e4m3:
      return "fp8_e4m3";
    case Dtype::int8:
      return "int8";
  }
  return "unknown";
}

Dtype dtype_from_string(const std::string& s) {
  for (Dtype d : {Dtype::f64, Dtype::f32, Dtype::tf32, Dtype::f16, Dtype::bf16, Dtype::fp8_e4m3,
                  Dtype::int8}) {
    if (to_string(d) == s) return d;
  }
  throw InputError("unknown dtype \"" + s +
                   "\" (expected one of fp64, fp32, tf32, fp16, bf16, fp8_e4m3, int8)");
}

std::size_t dtype_bytes(Dtype d) {
  switch (d) {
    case Dtype::f64:
      return 8;
    case Dtype::f32:
    case Dtype::tf32:
      return 4;
    case Dtype::f16:
    case Dtype::bf16:
      return 2;
    case Dtype::fp8_e4m3:
    case Dtype::int8:
      return 1;
  }
  return 0;
}

std::string to_string(StreamOp op) {
  switch (op) {
    case StreamOp::copy:
      return "stream_copy";
    case StreamOp::mul:
      return "stream_mul";
    case StreamOp::add:
      return "stream_add";
    case StreamOp::triad:
      return "stream_triad";
    case StreamOp::dot:
      return "stream_dot";
    case StreamOp::fill:
      return "stream_fill";
  }
  return "unknown";
}

int stream_weight(StreamOp op) {
  switch (op) {
    case StreamOp::copy:
    case StreamOp::mul:
    case StreamOp::dot:
      return 2;
    case StreamOp::add:
    case StreamOp::triad:
      return 3;
    case StreamOp::fill:
      return 1;
  }
  return 0;
}

std::string to_string(CopyKind k) {
  switch (k) {
    case CopyKind::host_to_host:
      return "memcpy";
    case CopyKind::host_to_device:
      return "h2d";
    case CopyKind::device_to_host:
      return "d2h";
    case CopyKind::device_to_device:
      return "d2d";
    case CopyKind::bidirectional:
      return "bidirectional";
  }
  return "unknown";
}

std::string to_string(HostMemory m) {
  return m == HostMemory::pinned ? "pinned" : "pageable";
}

std::string to_string(Collective c) {
  switch (c) {
    case Collective::all_reduce:
      return "all_reduce";
    case Collective::all_gather:
      return "all_gather";
    case Collective::reduce_scatter:
      return "reduce_scatter";
    case Collective::broadcast:
      return "broadcast";
    case Collective::all_to_all:
      return "all_to_all";
  }
  return "unknown";
}

double busbw_factor(Collective c, int ranks) {
  const double n = ranks;
  switch (c) {
    case Collective::all_reduce:
      return 2.0 * (n - 1) / n;
    case Collective::all_gather:
    case Collective::reduce_scatter:
    case Collective::all_to_all:
      return (n - 1) / n;
    case Collective::broadcast:
      return 1.0;
  }
  return 0;
}

}  // namespace gpusizer::kernels

#include "gpusizer/kernels/multi_gpu.hpp"

namespace gpusizer::kernels {

std::string to_string(P2pMethod m) {
  return m == P2pMethod::copy_engine ? "ce" : "sm";
}
std::string to_string(P2pDirection d) {
  return d == P2pDirection::read ? "read" : "write";
}

}  // namespace gpusizer::kernels
