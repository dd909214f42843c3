// A report of a two-GPU machine, written by the real writer code without a GPU: plan_cases() runs
// every family file in bench/ over the real CPU backend plus stand-ins for two H200s, the
// multi-GPU copy matrix and the NCCL group (their factories are never called); each case becomes
// a record through build_record(), with GPU telemetry windows combined by combine_across_devices().
// The samples are placeholders (the figures mean nothing); what matters is that every family,
// operation and field a backend can write is in the report. Used by multi_gpu_report_test.cpp and,
// through gpusizer_write_multi_gpu_report, by tests/cli/multi_gpu_report.sh.
#pragma once

#include <set>
#include <string>

#include "gpusizer/report.hpp"

namespace gpusizer::test {

Report multi_gpu_report();

// The families of the cases plan_cases() gives for that machine.
std::set<std::string> planned_families();

// The ids plan_cases() gives for that machine, in order, one a line, under a "# suite=..." line for
// the tiny sizes, the quick and the standard suite (the full suite's CPU cases depend on the
// host's memory). Reports are resumed by id, so they must never change by accident:
// tests/golden/case-ids-two-gpu.txt holds them.
std::string planned_ids_text();

}  // namespace gpusizer::test
