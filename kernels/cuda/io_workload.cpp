// Storage -> pinned host -> GPU pipeline. The file is the shared IoTestFile (unlinked at once,
// fsync'ed and dropped from the page cache after writing). A reader thread fills `depth` pinned
// buffers (O_DIRECT where the filesystem allows it, else buffered reads with the page cache
// dropped before each pass); the calling thread drains them with cudaMemcpyAsync into a device
// ring. Timed with the steady clock (storage is host work). warm_up() measures each stage alone:
// storage-only (from a dropped cache) and H2D-only ceilings, so the record shows which stage
// binds. GPUDirect Storage (cuFile) is not built: this toolkit has no libcufile.
#include <cuda_runtime.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "gpusizer/kernels/io_file.hpp"
#include "host/numeric.hpp"
#include "raii.hpp"
#include "workloads.hpp"

namespace gpusizer::kernels::cuda {
namespace {

constexpr std::uint64_t kSeed = 0x5EED;
constexpr std::size_t kAlign = 4096;

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

class IoWorkload final : public Workload, public CorruptibleOutput {
 public:
  IoWorkload(const DeviceFacts& d, const IoCase& c) : facts_(d), case_(c) {
    if (!c.to_device)
      throw Unsupported("the CUDA backend runs the I/O pipeline into device memory only");
    if (c.file_bytes == 0 || c.chunk_bytes == 0 || c.depth < 1)
      throw InputError("I/O case needs file_bytes, chunk_bytes > 0 and depth >= 1");
    chunks_ = (c.file_bytes + c.chunk_bytes - 1) / c.chunk_bytes;
    const bool aligned = c.chunk_bytes % kAlign == 0 && c.file_bytes % kAlign == 0;
    IoFileOptions options;
    options.name_prefix = "gpusizer-io-gpu" + std::to_string(d.index) + "-";
    options.try_direct = aligned;
    options.direct_alignment = kAlign;
    file_ = std::make_unique<IoTestFile>(
        c.directory, c.file_bytes,
        [](unsigned char* data, std::size_t n, std::size_t offset) {
          fill_pattern(std::span<std::uint8_t>(data, n), kSeed, offset);
        },
        options);
    direct_ = file_->direct_fd() >= 0;
    io_mode_ = direct_ ? "O_DIRECT"
                       : (aligned ? "buffered + fadvise(DONTNEED) (" + file_->direct_note() + ")"
                                  : std::string("buffered + fadvise(DONTNEED) (sizes not 4 KiB-"
                                                "aligned)"));
    DeviceScope scope(d.index);
    stream_ = Stream::create();
    const auto depth = static_cast<std::size_t>(c.depth);
    for (std::size_t i = 0; i < depth; ++i) {
      pinned_.push_back(PinnedBuffer::allocate(c.chunk_bytes));
      start_.push_back(Event::create());
      done_.push_back(Event::create());
    }
    ring_ = DeviceBuffer(depth * c.chunk_bytes);
    // O_DIRECT also needs aligned buffers; cudaHostAlloc does not promise 4 KiB alignment.
    for (const auto& p : pinned_) {
      if (direct_ && reinterpret_cast<std::uintptr_t>(p.get()) % kAlign != 0) {
        direct_ = false;
        io_mode_ = "buffered + fadvise(DONTNEED) (pinned buffers not 4 KiB-aligned for O_DIRECT)";
      }
    }
  }

  void warm_up() override {
    DeviceScope scope(facts_.index);
    // Storage alone, from storage: the pages were dropped after writing; drop them again in case
    // anything read the file since.
    if (!direct_) file_->drop_page_cache();
    const double t0 = now_seconds();
    for (std::size_t i = 0; i < chunks_; ++i) read_chunk(i, pinned_[0].as<std::uint8_t>());
    storage_bps_ = static_cast<double>(case_.file_bytes) / (now_seconds() - t0);
    // H2D alone (pinned chunks, same chunk size and depth), timed with events.
    const auto pair = EventPair::create();
    GPUSIZER_CUDA_CALL(cudaEventRecord(pair.start(), stream_.get()));
    for (std::size_t i = 0; i < chunks_; ++i) {
      const std::size_t slot = i % pinned_.size();
      GPUSIZER_CUDA_CALL(cudaMemcpyAsync(ring_.as<std::uint8_t>() + slot * case_.chunk_bytes,
                                         pinned_[slot].get(), chunk_len(i), cudaMemcpyHostToDevice,
                                         stream_.get()));
    }
    GPUSIZER_CUDA_CALL(cudaEventRecord(pair.stop(), stream_.get()));
    h2d_bps_ = static_cast<double>(case_.file_bytes) / pair.elapsed_seconds();
    run(1);
  }

  double run(std::size_t repeats) override {
    DeviceScope scope(facts_.index);
    double total = 0;
    read_busy_ = 0;
    copy_busy_ = 0;
    for (std::size_t r = 0; r < repeats; ++r) total += one_pass();
    last_wall_ = total;
    return total;
  }

  Verification verify() override {
    DeviceScope scope(facts_.index);
    GPUSIZER_CUDA_CALL(cudaDeviceSynchronize());
    std::vector<std::uint8_t> host(case_.chunk_bytes);
    std::size_t wrong = 0;
    const std::size_t first = chunks_ > pinned_.size() ? chunks_ - pinned_.size() : 0;
    for (std::size_t i = first; i < chunks_; ++i) {
      const std::size_t slot = i % pinned_.size();
      GPUSIZER_CUDA_CALL(cudaMemcpy(host.data(),
                                    ring_.as<std::uint8_t>() + slot * case_.chunk_bytes,
                                    chunk_len(i), cudaMemcpyDeviceToHost));
      wrong += check_pattern(std::span<const std::uint8_t>(host.data(), chunk_len(i)), kSeed,
                             i * case_.chunk_bytes)
                   .wrong_bytes;
    }
    return pattern_result(
        wrong, "the last `depth` chunks in device memory vs the file's xorshift pattern");
  }

  void corrupt_output_for_test() override {
    DeviceScope scope(facts_.index);
    const std::size_t slot = (chunks_ - 1) % pinned_.size();
    GPUSIZER_CUDA_CALL(cudaDeviceSynchronize());
    GPUSIZER_CUDA_CALL(cudaMemset(ring_.as<std::uint8_t>() + slot * case_.chunk_bytes, 0, 1));
  }

  WorkAmount work_per_op() const override {
    return {static_cast<double>(case_.file_bytes), 0,
            "bytes = file size (storage -> pinned -> device, end to end)", RateMetric::bandwidth};
  }
  Timer timer() const override { return Timer::steady_clock; }
  // "cold" when every pass starts with the file out of the page cache (O_DIRECT or a drop that
  // was checked to work) on a disk-backed folder, as on the CPU backend; "hot" on tmpfs/ramfs.
  CacheMode mode() const override {
    const bool dropped = direct_ || file_->initial_drop().worked;
    return dropped && !file_->filesystem().memory_backed ? CacheMode::cold : CacheMode::hot;
  }
  std::map<std::string, std::string> details() const override {
    std::map<std::string, std::string> d = {{"io_mode", io_mode_},
                                            {"directory", case_.directory},
                                            {"depth", std::to_string(case_.depth)},
                                            {"chunk_bytes", std::to_string(case_.chunk_bytes)},
                                            {"gpudirect_storage", "not built (no libcufile)"}};
    d.merge(file_->details(direct_));
    return d;
  }
  std::vector<std::string> flags() const override {
    if (file_->filesystem().memory_backed) return {kIoDirectoryInMemoryFlag};
    return {};
  }
  std::map<std::string, double> extra_metrics() const override {
    std::map<std::string, double> m;
    if (storage_bps_ > 0) m["storage_only_bytes_per_second"] = storage_bps_;
    if (h2d_bps_ > 0) m["h2d_only_bytes_per_second"] = h2d_bps_;
    if (last_wall_ > 0) {
      m["read_busy_fraction"] = read_busy_ / last_wall_;
      m["h2d_busy_fraction"] = copy_busy_ / last_wall_;
    }
    return m;
  }

 private:
  std::size_t chunk_len(std::size_t i) const {
    return std::min(case_.chunk_bytes, case_.file_bytes - i * case_.chunk_bytes);
  }

  void read_chunk(std::size_t i, std::uint8_t* dst) {
    const int fd = direct_ ? file_->direct_fd() : file_->fd();
    const std::size_t len = chunk_len(i);
    std::size_t got = 0;
    while (got < len) {
      const ssize_t r =
          ::pread(fd, dst + got, len - got, static_cast<off_t>(i * case_.chunk_bytes + got));
      if (r < 0) {
        if (errno == EINTR) continue;
        throw RuntimeError("read of " + file_->label() + " failed: " + std::strerror(errno));
      }
      if (r == 0) throw RuntimeError("read of " + file_->label() + ": unexpected end of file");
      got += static_cast<std::size_t>(r);
    }
  }

  // One pass over the file; returns wall seconds.
  double one_pass() {
    if (!direct_) file_->drop_page_cache();
    const std::size_t depth = pinned_.size();
    std::mutex m;
    std::condition_variable cv;
    std::size_t filled = 0, enqueued = 0;
    bool stop = false;  // set when this thread leaves early: the reader must not wait for it
    std::exception_ptr reader_error;
    const double t0 = now_seconds();
    std::thread reader([&] {
      try {
        GPUSIZER_CUDA_CALL(cudaSetDevice(facts_.index));
        for (std::size_t i = 0; i < chunks_; ++i) {
          const std::size_t slot = i % depth;
          {
            std::unique_lock lock(m);
            cv.wait(lock, [&] { return stop || i < depth || enqueued > i - depth; });
            if (stop) return;
          }
          if (i >= depth) {  // the slot's previous copy must be done before overwriting it
            GPUSIZER_CUDA_CALL(cudaEventSynchronize(done_[slot].get()));
            float ms = 0;
            GPUSIZER_CUDA_CALL(cudaEventElapsedTime(&ms, start_[slot].get(), done_[slot].get()));
            copy_busy_ += static_cast<double>(ms) * 1e-3;
          }
          const double r0 = now_seconds();
          read_chunk(i, pinned_[slot].as<std::uint8_t>());
          read_busy_ += now_seconds() - r0;
          std::lock_guard lock(m);
          filled = i + 1;
          cv.notify_all();
        }
      } catch (...) {
        std::lock_guard lock(m);
        reader_error = std::current_exception();
        filled = chunks_;
        cv.notify_all();
      }
    });
    try {
      for (std::size_t i = 0; i < chunks_; ++i) {
        {
          std::unique_lock lock(m);
          cv.wait(lock, [&] { return filled > i; });
          if (reader_error) break;
        }
        const std::size_t slot = i % depth;
        GPUSIZER_CUDA_CALL(cudaEventRecord(start_[slot].get(), stream_.get()));
        GPUSIZER_CUDA_CALL(cudaMemcpyAsync(ring_.as<std::uint8_t>() + slot * case_.chunk_bytes,
                                           pinned_[slot].get(), chunk_len(i),
                                           cudaMemcpyHostToDevice, stream_.get()));
        GPUSIZER_CUDA_CALL(cudaEventRecord(done_[slot].get(), stream_.get()));
        std::lock_guard lock(m);
        enqueued = i + 1;
        cv.notify_all();
      }
    } catch (...) {
      // A joinable std::thread destroyed by the unwinding would call std::terminate: stop the
      // reader, join it, and let the copies queued so far finish before the buffers can go.
      {
        std::lock_guard lock(m);
        stop = true;
        cv.notify_all();
      }
      reader.join();
      GPUSIZER_CUDA_CALL_NOTHROW(cudaStreamSynchronize(stream_.get()));
      throw;
    }
    reader.join();
    GPUSIZER_CUDA_CALL(cudaStreamSynchronize(stream_.get()));
    if (reader_error) std::rethrow_exception(reader_error);
    const double wall = now_seconds() - t0;
    for (std::size_t i = chunks_ > depth ? chunks_ - depth : 0; i < chunks_; ++i) {
      float ms = 0;
      GPUSIZER_CUDA_CALL(
          cudaEventElapsedTime(&ms, start_[i % depth].get(), done_[i % depth].get()));
      copy_busy_ += static_cast<double>(ms) * 1e-3;
    }
    return wall;
  }

  DeviceFacts facts_;
  IoCase case_;
  std::size_t chunks_ = 0;
  std::unique_ptr<IoTestFile> file_;  // declared before the buffers: closed after them
  bool direct_ = false;
  std::string io_mode_;
  Stream stream_;
  std::vector<PinnedBuffer> pinned_;
  std::vector<Event> start_, done_;
  DeviceBuffer ring_;
  double storage_bps_ = 0, h2d_bps_ = 0, read_busy_ = 0, copy_busy_ = 0, last_wall_ = 0;
};

}  // namespace

std::unique_ptr<Workload> make_io_workload(const DeviceFacts& d, const IoCase& c) {
  return std::make_unique<IoWorkload>(d, c);
}

}  // namespace gpusizer::kernels::cuda
