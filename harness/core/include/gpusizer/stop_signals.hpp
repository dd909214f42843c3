// Graceful stop on SIGINT/SIGTERM (a spot interruption notice ends in SIGTERM; so does the end of
// a capacity block). While a StopSignals object lives, those signals set a flag instead of
// killing the process; long loops poll it and stop cleanly. The old handlers come back when it
// is destroyed. The flag is the one process-wide variable in gpusizer: a signal handler can
// reach nothing else.
#pragma once

#include <atomic>

namespace gpusizer {

class StopSignals {
 public:
  StopSignals();  // clears the flag, installs the handlers
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  // True once SIGINT or SIGTERM arrived.
  static const std::atomic<bool>& requested();
  // The signal that arrived (SIGINT or SIGTERM), 0 if none.
  static int signal_number();
};

}  // namespace gpusizer
