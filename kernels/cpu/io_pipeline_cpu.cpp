#include "io_pipeline_cpu.hpp"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

namespace gpusizer::kernels::cpu {
namespace {

constexpr std::size_t kDirectAlign = 4096;  // safe for 512 B and 4 KiB logical blocks

std::size_t round_up(std::size_t x, std::size_t a) {
  return (x + a - 1) / a * a;
}

double seconds_between(std::chrono::steady_clock::time_point a,
                       std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

}  // namespace

IoPipelineCpu::IoPipelineCpu(const IoCase& c, const IoFileOptions& file_options) : case_(c) {
  if (c.to_device) {
    throw Unsupported(
        "the CPU backend has no device: an I/O pipeline into device memory needs a GPU");
  }
  if (c.file_bytes == 0 || c.chunk_bytes == 0 || c.depth < 1) {
    throw InputError("io: file_bytes, chunk_bytes and depth must be positive (got " +
                     std::to_string(c.file_bytes) + ", " + std::to_string(c.chunk_bytes) + ", " +
                     std::to_string(c.depth) + ")");
  }
  if (c.chunk_bytes % 8 != 0) {
    throw InputError("io: chunk_bytes = " + std::to_string(c.chunk_bytes) +
                     " must be a multiple of 8");
  }
  IoFileOptions options = file_options;
  options.try_direct = c.chunk_bytes % kDirectAlign == 0;
  options.direct_alignment = kDirectAlign;
  file_ = std::make_unique<PatternFile>(c.directory, c.file_bytes, options);
  chunks_ = (c.file_bytes + c.chunk_bytes - 1) / c.chunk_bytes;
  buffer_bytes_ = round_up(c.chunk_bytes, kDirectAlign);
  for (int i = 0; i < c.depth; ++i) ring_.emplace_back(buffer_bytes_, kDirectAlign);
  slots_.resize(static_cast<std::size_t>(c.depth));
  choose_read_mode();
  reader_ = std::thread([this] { reader_main(); });
}

IoPipelineCpu::~IoPipelineCpu() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  reader_cv_.notify_all();
  if (reader_.joinable()) reader_.join();
}

void IoPipelineCpu::choose_read_mode() {
  const IoTestFile& f = file_->file;
  if (case_.chunk_bytes % kDirectAlign != 0) {
    io_mode_note_ = "O_DIRECT not tried: chunk_bytes is not a multiple of 4096";
  } else if (f.direct_fd() >= 0) {
    read_fd_ = f.direct_fd();
    io_mode_ = kIoModeDirect;
    return;
  } else {
    io_mode_note_ = f.direct_note();
  }
  read_fd_ = f.fd();
  // The drop right after writing tells whether DONTNEED empties the cache on this filesystem.
  if (f.initial_drop().worked) {
    io_mode_ = kIoModeDropped;
  } else {
    io_mode_ = kIoModeCached;
    io_mode_note_ += (io_mode_note_.empty() ? "" : "; ") + f.initial_drop().detail();
  }
}

void IoPipelineCpu::drop_cache() {
  if (io_mode_ != kIoModeDirect) file_->file.drop_page_cache();
}

void IoPipelineCpu::read_chunk(std::size_t chunk, unsigned char* buffer, std::size_t& bytes_read) {
  const std::size_t offset = chunk * case_.chunk_bytes;
  const std::size_t expected = std::min(case_.chunk_bytes, case_.file_bytes - offset);
  // O_DIRECT wants block-multiple lengths; the read stops at the end of the file anyway.
  const std::size_t request =
      io_mode_ == kIoModeDirect ? round_up(expected, kDirectAlign) : expected;
  std::size_t got = 0;
  while (got < expected) {
    const ssize_t r =
        ::pread(read_fd_, buffer + got, request - got, static_cast<off_t>(offset + got));
    if (r < 0) {
      if (errno == EINTR) continue;
      throw RuntimeError("reading " + file_->file.label() + " at offset " +
                         std::to_string(offset + got) + ": " + std::strerror(errno));
    }
    if (r == 0) {
      throw RuntimeError("reading " + file_->file.label() + ": unexpected end of file at offset " +
                         std::to_string(offset + got));
    }
    got += static_cast<std::size_t>(r);
  }
  bytes_read = expected;
}

void IoPipelineCpu::reader_main() {
  std::size_t seen = 0;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      reader_cv_.wait(lock, [&] { return stopping_ || pass_generation_ != seen; });
      if (stopping_) return;
      seen = pass_generation_;
    }
    double busy = 0;
    std::string error;
    for (std::size_t chunk = 0; chunk < chunks_; ++chunk) {
      const std::size_t s = chunk % slots_.size();
      {
        std::unique_lock lock(mutex_);
        reader_cv_.wait(lock, [&] { return stopping_ || !slots_[s].full; });
        if (stopping_) return;
      }
      std::size_t got = 0;
      const auto t0 = std::chrono::steady_clock::now();
      try {
        read_chunk(chunk, ring_[s].as<unsigned char>(), got);
      } catch (const std::exception& e) {
        error = e.what();
      }
      busy += seconds_between(t0, std::chrono::steady_clock::now());
      if (!error.empty()) break;
      {
        std::lock_guard lock(mutex_);
        slots_[s] = Slot{true, got, chunk};
      }
      consumer_cv_.notify_one();
    }
    {
      std::lock_guard lock(mutex_);
      reader_busy_seconds_ = busy;
      reader_error_ = error;
      reader_done_generation_ = seen;
    }
    consumer_cv_.notify_one();
  }
}

IoPipelineCpu::PassResult IoPipelineCpu::pass(bool consume) {
  PassResult result;
  const auto start = std::chrono::steady_clock::now();
  std::size_t generation = 0;
  {
    std::lock_guard lock(mutex_);
    for (Slot& s : slots_) s = Slot{};
    reader_error_.clear();
    generation = ++pass_generation_;
  }
  reader_cv_.notify_one();
  for (std::size_t chunk = 0; chunk < chunks_; ++chunk) {
    const std::size_t s = chunk % slots_.size();
    Slot slot;
    {
      std::unique_lock lock(mutex_);
      consumer_cv_.wait(lock,
                        [&] { return slots_[s].full || reader_done_generation_ == generation; });
      if (!slots_[s].full) break;  // the reader stopped early (error)
      slot = slots_[s];
    }
    if (consume) {
      const auto t0 = std::chrono::steady_clock::now();
      result.checksum += checksum_words(ring_[s].as<const unsigned char>(), slot.bytes,
                                        slot.chunk * case_.chunk_bytes / 8);
      result.consumer_busy_seconds += seconds_between(t0, std::chrono::steady_clock::now());
    }
    result.bytes += slot.bytes;
    {
      std::lock_guard lock(mutex_);
      slots_[s].full = false;
    }
    reader_cv_.notify_one();
  }
  std::string error;
  {
    std::unique_lock lock(mutex_);
    consumer_cv_.wait(lock, [&] { return reader_done_generation_ == generation; });
    result.reader_busy_seconds = reader_busy_seconds_;
    error = reader_error_;
  }
  result.seconds = seconds_between(start, std::chrono::steady_clock::now());
  if (!error.empty()) throw RuntimeError(error);
  return result;
}

void IoPipelineCpu::warm_up() {
  drop_cache();
  const PassResult storage = pass(false);
  if (storage.seconds > 0) {
    storage_only_bytes_per_second_ = static_cast<double>(storage.bytes) / storage.seconds;
  }
  run(1);
}

double IoPipelineCpu::run(std::size_t repeats) {
  double total = 0, reader_busy = 0, consumer_busy = 0;
  for (std::size_t r = 0; r < repeats; ++r) {
    drop_cache();  // outside the timed pass
    const PassResult p = pass(true);
    total += p.seconds;
    reader_busy += p.reader_busy_seconds;
    consumer_busy += p.consumer_busy_seconds;
    last_checksum_ = p.checksum;
    last_bytes_ = p.bytes;
  }
  if (total > 0) {
    last_reader_fraction_ = reader_busy / total;
    last_consumer_fraction_ = consumer_busy / total;
  }
  count_runs(repeats);
  return total;
}

std::string IoPipelineCpu::verification_method() const {
  return "position-dependent 64-bit checksum of every byte consumed in the last pass compared "
         "with the checksum of the pattern written into the file";
}

void IoPipelineCpu::check_output(Verification& v) const {
  const bool ok = last_checksum_ == file_->checksum && last_bytes_ == case_.file_bytes;
  v.status = ok ? VerificationStatus::passed : VerificationStatus::failed;
  char buf[200];
  std::snprintf(buf, sizeof buf, "consumed %zu of %zu bytes, checksum %016llx, expected %016llx",
                last_bytes_, case_.file_bytes, static_cast<unsigned long long>(last_checksum_),
                static_cast<unsigned long long>(file_->checksum));
  v.detail = buf;
}

WorkAmount IoPipelineCpu::work_per_op() const {
  WorkAmount w;
  w.bytes = static_cast<double>(case_.file_bytes);
  w.rule = "bytes = file size = " + std::to_string(case_.file_bytes) +
           " per pass (read from storage once, consumed once); page-cache drop not timed";
  w.rate_metric = RateMetric::bandwidth;
  return w;
}

std::map<std::string, std::string> IoPipelineCpu::details() const {
  std::map<std::string, std::string> d = {
      {"io_mode", io_mode_},
      {"directory", case_.directory},
      {"file_bytes", std::to_string(case_.file_bytes)},
      {"chunk_bytes", std::to_string(case_.chunk_bytes)},
      {"depth", std::to_string(case_.depth)},
      {"buffer_alignment_bytes", std::to_string(kDirectAlign)},
      {"reader", "1 thread, pread into the next free ring buffer"},
      {"consumer", "calling thread, 64-bit position-dependent checksum of each buffer"},
  };
  if (!io_mode_note_.empty()) d["io_mode_note"] = io_mode_note_;
  d.merge(file_->file.details(io_mode_ == kIoModeDirect));
  return d;
}

CacheMode IoPipelineCpu::mode() const {
  const bool from_storage = io_mode_ != kIoModeCached && !file_->file.filesystem().memory_backed;
  return from_storage ? CacheMode::cold : CacheMode::hot;
}

std::vector<std::string> IoPipelineCpu::flags() const {
  if (file_->file.filesystem().memory_backed) return {kIoDirectoryInMemoryFlag};
  return {};
}

std::map<std::string, double> IoPipelineCpu::extra_metrics() const {
  std::map<std::string, double> m;
  if (runs_done() > 0) {
    m["reader_busy_fraction"] = last_reader_fraction_;
    m["consumer_busy_fraction"] = last_consumer_fraction_;
  }
  if (storage_only_bytes_per_second_ > 0) {
    m["storage_only_bytes_per_second"] = storage_only_bytes_per_second_;
  }
  return m;
}

void IoPipelineCpu::corrupt_file_for_test() {
  const int fd = file_->file.fd();  // read/write; the file has no name any more
  const auto offset = static_cast<off_t>(case_.file_bytes / 2);
  unsigned char byte = 0;
  if (::pread(fd, &byte, 1, offset) != 1) throw RuntimeError("corrupt: read failed");
  byte ^= 0x40;
  if (::pwrite(fd, &byte, 1, offset) != 1) throw RuntimeError("corrupt: write failed");
  ::fsync(fd);
}

}  // namespace gpusizer::kernels::cpu
