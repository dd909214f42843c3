// One NCCL collective over a CommunicatorSet (nccl_collective.hpp).
#include "nccl_collective.hpp"

#include <algorithm>
#include <vector>

#include "gpusizer/kernels/nccl_ranks.hpp"
#include "host/numeric.hpp"

namespace gpusizer::kernels::cuda {
namespace {

// Send value of element i on rank r: a small integer, so sums over ranks are exact in fp32.
float send_value(int rank, std::size_t i) {
  return static_cast<float>((rank * 131 + i * 7) % 1024 + 1);
}

}  // namespace

CollectiveWorkload::CollectiveWorkload(const CommunicatorSet& comms, const CollectiveCase& c)
    : comms_(comms), case_(c) {
  if (c.dtype != Dtype::f32) throw Unsupported("collectives are implemented for fp32 only");
  const auto n = static_cast<std::size_t>(comms.ranks());
  const std::size_t unit = 4 * n;
  bytes_ = c.bytes / unit * unit;
  if (bytes_ == 0) throw Unsupported("message smaller than 4 bytes x ranks");
  const std::size_t elems = bytes_ / 4;
  switch (c.op) {
    case Collective::all_reduce:
    case Collective::broadcast:
      send_elems_ = recv_elems_ = elems;
      break;
    case Collective::all_gather:
      send_elems_ = elems / n;
      recv_elems_ = elems;
      break;
    case Collective::reduce_scatter:
      send_elems_ = elems;
      recv_elems_ = elems / n;
      break;
    case Collective::all_to_all:
      send_elems_ = recv_elems_ = elems;
      break;
  }
  for (int l = 0; l < comms.local_count(); ++l) {
    DeviceScope s(comms.device(l));
    Rank r;
    r.stream = Stream::create();
    r.start = Event::create();
    r.end = Event::create();
    r.send = DeviceBuffer(send_elems_ * 4);
    r.recv = DeviceBuffer(recv_elems_ * 4);
    std::vector<float> host(send_elems_);
    for (std::size_t i = 0; i < send_elems_; ++i) host[i] = send_value(comms.rank(l), i);
    GPUSIZER_CUDA_CALL(
        cudaMemcpy(r.send.get(), host.data(), send_elems_ * 4, cudaMemcpyHostToDevice));
    GPUSIZER_CUDA_CALL(cudaMemset(r.recv.get(), 0xff, recv_elems_ * 4));  // poison (NaN)
    GPUSIZER_CUDA_CALL(cudaDeviceSynchronize());
    ranks_.push_back(std::move(r));
  }
}

double CollectiveWorkload::run(std::size_t repeats) {
  Rank& first = ranks_.front();
  {
    DeviceScope s(comms_.device(0));
    GPUSIZER_CUDA_CALL(cudaEventRecord(first.start.get(), first.stream.get()));
  }
  for (std::size_t l = 1; l < ranks_.size(); ++l) {
    DeviceScope s(comms_.device(static_cast<int>(l)));
    GPUSIZER_CUDA_CALL(cudaStreamWaitEvent(ranks_[l].stream.get(), first.start.get(), 0));
  }
  for (std::size_t r = 0; r < repeats; ++r) {
    GPUSIZER_NCCL_CALL(ncclGroupStart());
    for (std::size_t l = 0; l < ranks_.size(); ++l) enqueue(static_cast<int>(l));
    comms_.end_group();
  }
  for (std::size_t l = 1; l < ranks_.size(); ++l) {
    DeviceScope s(comms_.device(static_cast<int>(l)));
    GPUSIZER_CUDA_CALL(cudaEventRecord(ranks_[l].end.get(), ranks_[l].stream.get()));
  }
  // The first stream waits for the others; its end event closes the whole.
  DeviceScope s(comms_.device(0));
  for (std::size_t l = 1; l < ranks_.size(); ++l)
    GPUSIZER_CUDA_CALL(cudaStreamWaitEvent(first.stream.get(), ranks_[l].end.get(), 0));
  GPUSIZER_CUDA_CALL(cudaEventRecord(first.end.get(), first.stream.get()));
  comms_.wait_for(comms_.device(0), first.end.get());
  float ms = 0;
  GPUSIZER_CUDA_CALL(cudaEventElapsedTime(&ms, first.start.get(), first.end.get()));
  return static_cast<double>(ms) * 1e-3;
}

Verification CollectiveWorkload::verify() {
  const std::size_t wrong = wrong_elements();
  Verification v;
  v.method = "every received element vs its exact value (integer-valued fp32 inputs)";
  v.status = wrong == 0 ? VerificationStatus::passed : VerificationStatus::failed;
  v.detail = std::to_string(wrong) + " wrong elements";
  return v;
}

std::size_t CollectiveWorkload::wrong_elements() {
  const auto n = static_cast<std::size_t>(comms_.ranks());
  std::size_t wrong = 0;
  std::vector<float> got(recv_elems_), want(recv_elems_);
  for (std::size_t l = 0; l < ranks_.size(); ++l) {
    DeviceScope s(comms_.device(static_cast<int>(l)));
    GPUSIZER_CUDA_CALL(cudaDeviceSynchronize());
    GPUSIZER_CUDA_CALL(
        cudaMemcpy(got.data(), ranks_[l].recv.get(), recv_elems_ * 4, cudaMemcpyDeviceToHost));
    const int me = comms_.rank(static_cast<int>(l));
    for (std::size_t i = 0; i < recv_elems_; ++i) want[i] = expected(me, i, n);
    wrong += count_mismatches(got, want);
  }
  return wrong;
}

WorkAmount CollectiveWorkload::work_per_op() const {
  WorkAmount w{static_cast<double>(bytes_), 0,
               "bytes = S as nccl-tests defines it for " + to_string(case_.op) + "; algbw = S/t",
               RateMetric::bandwidth};
  w.bus_bandwidth_factor = busbw_factor(case_.op, comms_.ranks());
  return w;
}

std::map<std::string, std::string> CollectiveWorkload::details() const {
  return {{"library", "NCCL " + nccl_version()},
          {"ranks", std::to_string(comms_.ranks())},
          {"busbw_factor", std::to_string(busbw_factor(case_.op, comms_.ranks()))}};
}

float CollectiveWorkload::expected(int me, std::size_t i, std::size_t n) const {
  const auto ranks = static_cast<int>(n);
  switch (case_.op) {
    case Collective::all_reduce: {
      float sum = 0;
      for (int r = 0; r < ranks; ++r) sum += send_value(r, i);
      return sum;
    }
    case Collective::broadcast:
      return send_value(0, i);
    case Collective::all_gather:
      return send_value(static_cast<int>(i / send_elems_), i % send_elems_);
    case Collective::reduce_scatter: {
      float sum = 0;
      for (int r = 0; r < ranks; ++r)
        sum += send_value(r, static_cast<std::size_t>(me) * recv_elems_ + i);
      return sum;
    }
    case Collective::all_to_all: {
      const std::size_t per_peer = send_elems_ / n;
      const auto from = static_cast<int>(i / per_peer);
      return send_value(from, static_cast<std::size_t>(me) * per_peer + i % per_peer);
    }
  }
  return 0;
}

void CollectiveWorkload::enqueue(int l) {
  const Rank& r = ranks_[static_cast<std::size_t>(l)];
  const ncclComm_t comm = comms_.comm(l);
  cudaStream_t st = r.stream.get();
  const auto n = static_cast<std::size_t>(comms_.ranks());
  switch (case_.op) {
    case Collective::all_reduce:
      GPUSIZER_NCCL_CALL(
          ncclAllReduce(r.send.get(), r.recv.get(), send_elems_, ncclFloat, ncclSum, comm, st));
      break;
    case Collective::broadcast:
      GPUSIZER_NCCL_CALL(
          ncclBroadcast(r.send.get(), r.recv.get(), send_elems_, ncclFloat, 0, comm, st));
      break;
    case Collective::all_gather:
      GPUSIZER_NCCL_CALL(
          ncclAllGather(r.send.get(), r.recv.get(), send_elems_, ncclFloat, comm, st));
      break;
    case Collective::reduce_scatter:
      GPUSIZER_NCCL_CALL(
          ncclReduceScatter(r.send.get(), r.recv.get(), recv_elems_, ncclFloat, ncclSum, comm, st));
      break;
    case Collective::all_to_all: {
      const std::size_t per_peer = send_elems_ / n;
      for (std::size_t peer = 0; peer < n; ++peer) {
        GPUSIZER_NCCL_CALL(ncclSend(r.send.as<float>() + peer * per_peer, per_peer, ncclFloat,
                                    static_cast<int>(peer), comm, st));
        GPUSIZER_NCCL_CALL(ncclRecv(r.recv.as<float>() + peer * per_peer, per_peer, ncclFloat,
                                    static_cast<int>(peer), comm, st));
      }
      break;
    }
  }
}

}  // namespace gpusizer::kernels::cuda
