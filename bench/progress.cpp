#include "gpusizer/bench/progress.hpp"

#include <ostream>

#include "gpusizer/printers.hpp"

namespace gpusizer::bench {

ProgressStyle progress_style(int progress_flag, bool stderr_is_terminal) {
  if (progress_flag == 0) return ProgressStyle::off;
  if (stderr_is_terminal) return ProgressStyle::one_line;
  return progress_flag == 1 ? ProgressStyle::lines : ProgressStyle::off;
}

Progress::Progress(ProgressStyle style, std::ostream& err, std::size_t total,
                   std::optional<SystemTime> deadline)
    : style_(style),
      err_(err),
      total_(total),
      deadline_(deadline),
      start_(std::chrono::steady_clock::now()) {}

Progress::~Progress() {
  if (line_open_) err_ << std::endl;
}

std::string Progress::countdown() const {
  if (!deadline_) return "";
  const double left =
      std::chrono::duration<double>(*deadline_ - std::chrono::system_clock::now()).count();
  return ", deadline in " + human_duration(left > 0 ? left : 0);
}

void Progress::show(const std::string& line) {
  if (style_ == ProgressStyle::lines) {
    err_ << line << std::endl;
    return;
  }
  // Back to the start of the line, the new text, the rest of the old line erased (ESC[K).
  err_ << "\r" << line << "\x1b[K" << std::flush;
  line_open_ = true;
}

void Progress::begin(std::size_t index, const BenchCase& c, double estimated_left) {
  if (style_ == ProgressStyle::off) return;
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  show("[" + std::to_string(index + 1) + "/" + std::to_string(total_) + "] " + c.id +
       "  (elapsed " + human_duration(elapsed) + ", ~" + human_duration(estimated_left) + " left" +
       (style_ == ProgressStyle::one_line ? countdown() : std::string()) + ")");
}

void Progress::note(const std::string& line) {
  if (style_ == ProgressStyle::off) return;
  if (style_ == ProgressStyle::lines) {
    show("  " + line);
    return;
  }
  show("  " + line + countdown());
}

std::string one_line_summary(const Record& r) {
  if (r.status == RecordStatus::skipped) return "skipped: " + r.reason;
  if (r.status == RecordStatus::error) return "error: " + r.reason;
  std::string s(to_string(r.status));
  if (!r.metrics.empty()) {
    const auto& m = r.metrics.front();
    s += " " + format_value(m.value, m.unit);
  }
  return s + ", verification " + std::string(to_string(r.verification.status));
}

}  // namespace gpusizer::bench
