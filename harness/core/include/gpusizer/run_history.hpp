// Which run measured which record. A report may only be continued (--resume) by a run of the
// same provenance (gpusizer version, host, suite, GPU models) unless the user allows the mix; each
// run that writes the report is one RunSession in Report::history (report.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpusizer/report.hpp"

namespace gpusizer {

// What must match for records to sit in one report.
struct Provenance {
  ToolInfo tool;
  std::string hostname;
  std::string suite;                                   // "quick", "quick-tiny", ...
  std::optional<std::vector<std::string>> gpu_models;  // distinct, sorted; nullopt: not known yet
};

// The report's own provenance: its tool, host and suite, and the models of its GPU targets.
Provenance provenance_of(const Report& report);
// Distinct models of the targets of kind "gpu", sorted.
std::vector<std::string> gpu_models(const std::vector<Target>& targets);

// "" when a run of provenance `here` may add records to a report of provenance `report`; else
// what differs, one clause per difference ("host \"a\" (report) vs \"b\" (here); ..."). GPU
// models are compared only when both are known and non-empty (a run without GPUs adds CPU records
// on the same host).
std::string provenance_difference(const Provenance& report, const Provenance& here);

// Starts this run's entry in the history (a new report: no started_at yet, no earlier entry). A
// report without history (written before it existed) first gets one entry for the run that wrote
// it; an entry still "running" (that run was killed) becomes "stopped". The previous run's "run
// stopped: ..." warnings leave `warnings` (its history entry keeps the reason). `differs`: see
// RunSession.
void open_session(Report& report, const Provenance& here, const std::string& started_at,
                  const std::string& differs);
// The GPUs this run measures ("gpu0: NVIDIA H200 (GPU-…)"), for its history entry.
void note_session_devices(Report& report, const std::vector<Target>& targets);
// Brings this run's entry up to date (at every checkpoint, and at the end): status, stop reason,
// finish time ("" while running), and the records it added (every id
// that no earlier entry lists).
void update_session(Report& report, ReportStatus status, const std::string& stop_reason,
                    const std::string& finished_at);

// A record this run measures again (an earlier run's was cut short): earlier entries no longer
// list it.
void forget_earlier_record(Report& report, const std::string& record_id);

// The prefix of the warning a stopped run leaves ("run stopped: interrupted by signal SIGTERM").
inline constexpr const char* kRunStoppedWarning = "run stopped: ";

}  // namespace gpusizer
