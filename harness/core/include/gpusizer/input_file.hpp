// Reading an input file safely: every file gpusizer reads (report, catalog, overlay, workload,
// AWS CLI output, Price List) comes through read_input_file, so none of them can hang the
// process (a FIFO or a device is refused before it is opened for reading), exhaust memory (each
// kind of file has a size limit, stated in the message) or read a file twice (the bytes that are
// parsed are the bytes that are hashed). JSON nesting is limited separately (kMaxJsonDepth,
// json_input.hpp). The limits are documented in docs/report-format.md ("Input limits").
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace gpusizer {

inline constexpr std::uint64_t kMiB = 1024ULL * 1024ULL;

// What a file is read as, and the largest it may be. A limit is about 10x the largest real file
// of its kind and small enough that the parsed document (up to ~20x its text for hostile JSON)
// fits in the memory of a laptop or a CI runner.
struct InputKind {
  std::string_view name;  // with its article: "a report", "AWS CLI output" (used in messages)
  std::uint64_t max_bytes;
};

namespace input_kinds {
// A full-suite report of 8 GPUs with MIG slices is a few MB (2000 samples per case at most).
inline constexpr InputKind report{"a report", 64 * kMiB};
inline constexpr InputKind catalog{"a catalog", 16 * kMiB};  // the shipped one is 50 KB
inline constexpr InputKind overlay{"a catalog overlay", 16 * kMiB};
inline constexpr InputKind workload{"a workload", 1 * kMiB};  // a few hundred bytes each
// AWS's instance identity certificates: a few KB per region.
inline constexpr InputKind certificates{"a certificates", 4 * kMiB};
// aws ec2 describe-spot-price-history / describe-capacity-block-offerings, aws service-quotas,
// aws pricing get-products: paginated CLI output, megabytes at most.
inline constexpr InputKind aws_cli_output{"AWS CLI output", 64 * kMiB};
// The Price List bulk offer file is legitimately large (the regional EC2 file is gigabytes): it
// is streamed (only the rows kept are held in memory), so its limit bounds time, not memory.
inline constexpr InputKind price_list{"an AWS Price List bulk file", 16384 * kMiB};
}  // namespace input_kinds

// Checks `file` before reading it: it must exist and be a regular file (symlinks are followed;
// a FIFO, character or block device, socket or directory is refused without being opened) of at
// most kind.max_bytes. Throws InputError naming the file:
//   "<file>: no such file"
//   "<file>: not a regular file (a FIFO), expected a <kind> file"
//   "<file>: larger than the 64 MiB limit for a report (200 MiB)"
// Returns the file's size in bytes.
std::uint64_t check_input_file(const std::filesystem::path& file, const InputKind& kind);

// check_input_file, then reads the whole file in one pass (never more than kind.max_bytes: a
// file that grows while it is read is refused the same way).
std::string read_input_file(const std::filesystem::path& file, const InputKind& kind);

// "200 MiB", "1.5 MiB", "512 bytes": sizes in messages.
std::string describe_size(std::uint64_t bytes);

}  // namespace gpusizer
