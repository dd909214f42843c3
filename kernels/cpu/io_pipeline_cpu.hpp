// Storage -> ring of aligned host buffers -> consumer. A persistent reader thread reads the file
// in chunks into a ring of `depth` buffers; the calling thread drains each full buffer (64-bit
// checksum: the CPU "consume" stage; the GPU backend copies to the device instead), so reading
// and consuming overlap. O_DIRECT when the filesystem accepts it, else buffered reads with the
// file's pages dropped from the page cache before every pass.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "aligned_buffer.hpp"
#include "cpu_workload.hpp"
#include "gpusizer/kernels/backend.hpp"
#include "io_file.hpp"

namespace gpusizer::kernels::cpu {

inline constexpr const char* kIoModeDirect = "O_DIRECT";
inline constexpr const char* kIoModeDropped =
    "buffered, page cache dropped with posix_fadvise(DONTNEED)";
inline constexpr const char* kIoModeCached = "buffered (page cache may serve reads)";

class IoPipelineCpu final : public CpuWorkload {
 public:
  // Throws Unsupported when c.to_device, InputError for a bad directory or sizes.
  explicit IoPipelineCpu(const IoCase& c) : IoPipelineCpu(c, IoFileOptions{}) {}
  ~IoPipelineCpu() override;

  void warm_up() override;
  double run(std::size_t repeats) override;
  WorkAmount work_per_op() const override;
  // "cold": the file's pages are out of the page cache before every pass (O_DIRECT or a verified
  // DONTNEED); "hot" when the drop could not be verified, or the folder is in RAM (tmpfs/ramfs,
  // where even O_DIRECT reads come from memory).
  CacheMode mode() const override;
  std::map<std::string, std::string> details() const override;
  std::map<std::string, double> extra_metrics() const override;
  std::vector<std::string> flags() const override;

  const std::string& io_mode() const { return io_mode_; }
  // Test hook: flips one byte in the middle of the file on storage (the next pass reads it).
  void corrupt_file_for_test();
  // Test hook: the options the pattern file is created with (e.g. a fault injection).
  IoPipelineCpu(const IoCase& c, const IoFileOptions& file_options);

 private:
  std::string verification_method() const override;
  void check_output(Verification& v) const override;

  struct Slot {
    bool full = false;
    std::size_t bytes = 0;
    std::size_t chunk = 0;
  };
  struct PassResult {
    double seconds = 0;
    double reader_busy_seconds = 0;
    double consumer_busy_seconds = 0;
    std::uint64_t checksum = 0;
    std::size_t bytes = 0;
  };

  void choose_read_mode();
  void drop_cache();
  // One pass over the whole file; `consume` = false only releases buffers (storage alone).
  PassResult pass(bool consume);
  void reader_main();
  void read_chunk(std::size_t chunk, unsigned char* buffer, std::size_t& bytes_read);

  IoCase case_;
  std::unique_ptr<PatternFile> file_;
  int read_fd_ = -1;  // file_'s O_DIRECT or buffered descriptor
  std::string io_mode_;
  std::string io_mode_note_;
  std::size_t chunks_ = 0;
  std::size_t buffer_bytes_ = 0;  // chunk rounded up to the O_DIRECT alignment
  std::vector<AlignedBuffer> ring_;

  std::mutex mutex_;
  std::condition_variable reader_cv_;    // reader waits: new pass or an empty slot
  std::condition_variable consumer_cv_;  // consumer waits: a full slot or the end of a pass
  std::vector<Slot> slots_;
  std::size_t pass_generation_ = 0;
  std::size_t reader_done_generation_ = 0;
  double reader_busy_seconds_ = 0;  // of the current pass, written by the reader
  std::string reader_error_;
  bool stopping_ = false;
  std::thread reader_;

  std::uint64_t last_checksum_ = 0;
  std::size_t last_bytes_ = 0;
  double last_reader_fraction_ = 0;
  double last_consumer_fraction_ = 0;
  double storage_only_bytes_per_second_ = 0;
};

}  // namespace gpusizer::kernels::cpu
