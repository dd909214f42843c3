// Progress of a run on stderr: a line per case ("[3/20] <id> (elapsed, ~left)") and a note per
// result, in the same units as the final table (format_value, printers.hpp). On a terminal the
// progress stays on one line, rewritten in place (carriage return), with a countdown to the
// deadline when the run has one; elsewhere (a log, a test) each line is kept.
#pragma once

#include <chrono>
#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>

#include "gpusizer/bench/case.hpp"
#include "gpusizer/clock.hpp"
#include "gpusizer/report.hpp"

namespace gpusizer::bench {

enum class ProgressStyle {
  off,
  lines,     // one line per case and per note (not a terminal, or --progress into a file)
  one_line,  // a terminal: one line rewritten in place
};

// --progress / --no-progress / neither (-1, 0, 1 as in RunOptions::progress) and whether stderr
// is a terminal.
ProgressStyle progress_style(int progress_flag, bool stderr_is_terminal);

class Progress {
 public:
  Progress(ProgressStyle style, std::ostream& err, std::size_t total,
           std::optional<SystemTime> deadline = std::nullopt);
  ~Progress();  // ends the one line, so what follows starts on its own
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Case `index` (0-based) starts; `estimated_left`: seconds the remaining cases should take.
  void begin(std::size_t index, const BenchCase& c, double estimated_left);
  // A result or an event ("not run: ...", the record's summary).
  void note(const std::string& line);

 private:
  void show(const std::string& line);
  std::string countdown() const;

  ProgressStyle style_;
  std::ostream& err_;
  std::size_t total_;
  std::optional<SystemTime> deadline_;
  std::chrono::steady_clock::time_point start_;
  bool line_open_ = false;  // one_line: a line was written and not ended
};

// "ok 104.7 GFLOP/s, verification passed", "skipped: <reason>": the record's headline in the
// final table's unit.
std::string one_line_summary(const Record& r);

}  // namespace gpusizer::bench
