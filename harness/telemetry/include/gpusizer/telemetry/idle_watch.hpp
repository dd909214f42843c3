// When to call GPUs idle and release them (`gpusizer monitor --idle-after`): a pure rule over
// rounds of readings, so it is tested with scripted sequences (as stop_reason() is).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gpusizer::telemetry {

struct IdlePolicy {
  double idle_after_seconds = 0;           // every GPU idle this long -> act (0: off)
  double grace_seconds = 300;              // never act sooner than this after the start
  double max_utilization_percent = 5;      // idle: NVML utilization.gpu below this...
  double max_memory_activity_percent = 5;  // ...and utilization.memory below this
  // A MIG slice whose utilization NVML does not give (most drivers) is idle when its memory in
  // use is below this: no process holds memory on it. A CUDA context alone takes a few hundred
  // MiB, a loaded model GBs.
  double max_mig_memory_used_mib = 1024;
};

// One GPU's (or one MIG slice's) reading in a round; a missing figure means "cannot tell",
// never "idle". A MIG GPU is represented by its slices, not by itself: it is idle only when
// every slice is.
struct IdleReading {
  std::string gpu;  // "GPU 0 (GPU-…)", "GPU 0 (GPU-…) MIG 1g.18gb GI 13"
  std::optional<double> utilization_percent;
  std::optional<double> memory_activity_percent;
  // A MIG slice: judged by utilization when NVML gives it, else by memory used.
  bool mig_slice = false;
  std::optional<double> memory_used_mib;
};

struct IdleDecision {
  double idle_since_seconds = 0;  // start of the idle stretch (seconds since the start)
  double at_seconds = 0;          // when the rule held
  std::string reason;             // one line: what was idle, under which thresholds, how long
};

class IdleWatch {
 public:
  explicit IdleWatch(IdlePolicy policy) : policy_(policy) {}

  // Feeds one round (every watched GPU's reading at `t_seconds` since the start). Returns the
  // decision the first time every GPU has been idle for idle_after_seconds and the grace period
  // is over; never again afterwards. A round with no GPU, or with a GPU whose utilization or
  // memory activity is unknown (an unsupported call; a MIG slice without memory used either),
  // is not idle.
  std::optional<IdleDecision> update(double t_seconds, const std::vector<IdleReading>& round);

  // Why the last round could not count as idle, when a reading was missing ("" otherwise).
  const std::string& undecidable() const { return undecidable_; }

 private:
  IdlePolicy policy_;
  std::optional<double> idle_since_;
  bool fired_ = false;
  std::string undecidable_;
};

}  // namespace gpusizer::telemetry
