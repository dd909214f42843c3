// gpusizer_memcpy_baseline [--bytes N] [--repeats R] [--samples S]
// Times S samples of R back-to-back std::memcpy calls of N bytes (defaults: 256 MiB, 16, 10)
// with std::chrono::steady_clock, on one thread, between two 64-byte aligned buffers that are
// touched before timing (as gpusizer's CPU memcpy case does), and prints one JSON line:
// {"bytes":N,"repeats":R,"samples":S,"bytes_per_second":median,"min_bytes_per_second":..,
//  "max_bytes_per_second":..}. A copy of N bytes counts N bytes (nvbandwidth's convention).
// Deliberately uses nothing from gpusizer: it is the plain loop the harness is checked against.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Options {
  std::size_t bytes = std::size_t{256} << 20;
  std::size_t repeats = 16;
  std::size_t samples = 10;
};

bool parse_count(const char* text, std::size_t& out) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(text, &end, 10);
  // ERANGE: 99999999999999999999 is ULLONG_MAX, not a count; 2^40 bounds bytes and counts alike.
  if (end == text || *end != '\0' || v == 0 || text[0] == '-' || errno == ERANGE ||
      v > (1ULL << 40))
    return false;
  out = static_cast<std::size_t>(v);
  return true;
}

int usage(const char* why) {
  std::fprintf(stderr,
               "gpusizer_memcpy_baseline: %s\nusage: gpusizer_memcpy_baseline "
               "[--bytes N] [--repeats R] [--samples S]  (positive integers)\n",
               why);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    std::size_t* target = flag == "--bytes"     ? &opt.bytes
                          : flag == "--repeats" ? &opt.repeats
                          : flag == "--samples" ? &opt.samples
                                                : nullptr;
    if (target == nullptr) return usage(("unknown argument " + flag).c_str());
    if (i + 1 >= argc || !parse_count(argv[i + 1], *target)) {
      return usage((flag + " needs a positive integer").c_str());
    }
    ++i;
  }
  const std::size_t alloc = (opt.bytes + 63) / 64 * 64;
  void* src = std::aligned_alloc(64, alloc);
  void* dst = std::aligned_alloc(64, alloc);
  if (src == nullptr || dst == nullptr) {
    std::fprintf(stderr, "gpusizer_memcpy_baseline: cannot allocate 2 x %zu bytes\n", opt.bytes);
    return 1;
  }
  std::memset(src, 0x5A, opt.bytes);  // first touch before timing
  std::memset(dst, 0xA5, opt.bytes);
  std::memcpy(dst, src, opt.bytes);  // warm-up copy

  std::vector<double> rates;
  for (std::size_t s = 0; s < opt.samples; ++s) {
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t r = 0; r < opt.repeats; ++r) std::memcpy(dst, src, opt.bytes);
    const auto stop = std::chrono::steady_clock::now();
    const double seconds = std::chrono::duration<double>(stop - start).count();
    rates.push_back(static_cast<double>(opt.bytes) * static_cast<double>(opt.repeats) / seconds);
  }
  // The copy must have happened (and cannot be optimised away: its result is read here).
  const bool ok = std::memcmp(dst, src, opt.bytes) == 0;
  std::sort(rates.begin(), rates.end());
  const std::size_t n = rates.size();
  const double median = n % 2 == 1 ? rates[n / 2] : (rates[n / 2 - 1] + rates[n / 2]) / 2;
  std::printf(
      "{\"bytes\":%zu,\"repeats\":%zu,\"samples\":%zu,\"bytes_per_second\":%.6e,"
      "\"min_bytes_per_second\":%.6e,\"max_bytes_per_second\":%.6e,\"verified\":%s}\n",
      opt.bytes, opt.repeats, opt.samples, median, rates.front(), rates.back(),
      ok ? "true" : "false");
  std::free(src);
  std::free(dst);
  return ok ? 0 : 1;
}
