// The fixed value sets of gpusizer's records and reports, in one place: each is an `enum class`
// whose names are the strings written to and read from JSON. Each set is ONE list below,
// X(enumerator, "name"): the enum, to_string, parse and the list of all values all come from it,
// so a new family or status is one edit and the compiler finds every switch and comparison that
// must learn it. tests/core/vocabulary_test.cpp checks each list against the enums of
// reports/schema/report.schema.json.
//
//   to_string(RecordStatus::ok)    -> "ok"
//   parse<RecordStatus>("skipped") -> RecordStatus::skipped; parse<RecordStatus>("oops") -> nullopt
//   all_values<Family>()           -> {memory, gemm, io, p2p, collectives}
//   all_names<Family>()            -> {"memory", "gemm", "io", "p2p", "collectives"}
//
// Reading goes through JsonInput::enumerated<E>() (json_input.hpp), whose error names the file,
// the JSON pointer and every allowed name; writing through nlohmann, which calls to_json below.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

namespace gpusizer {

// What a record measured (bench/<family>.cpp); p2p: multi-GPU copies (GPU pairs, all GPUs <->
// host); collectives: NCCL, multi-GPU.
#define GPUSIZER_FAMILY_VALUES(X) \
  X(memory, "memory") X(gemm, "gemm") X(io, "io") X(p2p, "p2p") X(collectives, "collectives")

// How a record ended: failed = measured but its verification failed; error = it could not be
// measured; skipped = not run here (reason says why).
#define GPUSIZER_RECORD_STATUS_VALUES(X) \
  X(ok, "ok") X(failed, "failed") X(error, "error") X(skipped, "skipped")

// What a target is: the CPU, a whole GPU or a MIG slice of one.
#define GPUSIZER_TARGET_KIND_VALUES(X) X(cpu, "cpu") X(gpu, "gpu") X(mig, "mig")

// Whether a record's result was checked against a reference.
#define GPUSIZER_VERIFICATION_STATUS_VALUES(X) \
  X(passed, "passed") X(failed, "failed") X(not_applicable, "not_applicable")

// hot: back-to-back, caches warm; cold: caches flushed before each sample.
#define GPUSIZER_CACHE_MODE_VALUES(X) X(hot, "hot") X(cold, "cold")

// What timed the samples: steady clock for CPU work, CUDA events for GPU work.
#define GPUSIZER_TIMER_VALUES(X) X(steady_clock, "steady_clock") X(cuda_events, "cuda_events")

// MIG slices measured alone (isolated) or all slices of a GPU at once (concurrent); not_stated
// for every other record (its JSON has no "mode").
#define GPUSIZER_CONCURRENCY_VALUES(X) \
  X(not_stated, "") X(isolated, "isolated") X(concurrent, "concurrent")

// How a run (and a report) ended: stopped = a signal, the deadline or the time budget ended it
// early (--resume continues it); empty = nothing was measured.
#define GPUSIZER_REPORT_STATUS_VALUES(X) \
  X(running, "running")                  \
  X(complete, "complete") X(stopped, "stopped") X(empty, "empty") X(failed, "failed")

// Where a telemetry window's figures came from.
#define GPUSIZER_TELEMETRY_SOURCE_VALUES(X) \
  X(nvml, "nvml") X(rapl, "rapl") X(unavailable, "unavailable")

// names[i] is the name of the enumerator with value i. GPUSIZER_VOCABULARY(Enum, LIST) makes
// both from one list; other layers define their own sets with it the same way.
template <class E>
struct VocabularyTable;

template <class E>
concept Vocabulary = requires {
  VocabularyTable<E>::names;
};

#define GPUSIZER_VOCABULARY_ENUMERATOR(value, name) value,
#define GPUSIZER_VOCABULARY_NAME(value, name) std::string_view{name},
#define GPUSIZER_VOCABULARY(Enum, VALUES)                                    \
  enum class Enum : std::uint8_t { VALUES(GPUSIZER_VOCABULARY_ENUMERATOR) }; \
  template <>                                                                \
  struct VocabularyTable<Enum> {                                             \
    static constexpr std::array names{VALUES(GPUSIZER_VOCABULARY_NAME)};     \
  };

GPUSIZER_VOCABULARY(Family, GPUSIZER_FAMILY_VALUES)
GPUSIZER_VOCABULARY(RecordStatus, GPUSIZER_RECORD_STATUS_VALUES)
GPUSIZER_VOCABULARY(TargetKind, GPUSIZER_TARGET_KIND_VALUES)
GPUSIZER_VOCABULARY(VerificationStatus, GPUSIZER_VERIFICATION_STATUS_VALUES)
GPUSIZER_VOCABULARY(CacheMode, GPUSIZER_CACHE_MODE_VALUES)
GPUSIZER_VOCABULARY(Timer, GPUSIZER_TIMER_VALUES)
GPUSIZER_VOCABULARY(Concurrency, GPUSIZER_CONCURRENCY_VALUES)
GPUSIZER_VOCABULARY(ReportStatus, GPUSIZER_REPORT_STATUS_VALUES)
GPUSIZER_VOCABULARY(TelemetrySource, GPUSIZER_TELEMETRY_SOURCE_VALUES)

// Every name of E, in declaration order.
template <Vocabulary E>
constexpr std::span<const std::string_view> all_names() {
  return VocabularyTable<E>::names;
}

template <Vocabulary E, std::size_t... i>
constexpr std::array<E, sizeof...(i)> values_of(std::index_sequence<i...>) {
  return {static_cast<E>(i)...};
}

// Every value of E, in declaration order.
template <Vocabulary E>
constexpr auto all_values() {
  return values_of<E>(std::make_index_sequence<VocabularyTable<E>::names.size()>{});
}

template <Vocabulary E>
constexpr std::string_view to_string(E value) {
  return VocabularyTable<E>::names[static_cast<std::size_t>(value)];
}

// The value named `name` exactly (case matters), or nullopt.
template <Vocabulary E>
constexpr std::optional<E> parse(std::string_view name) {
  const auto& names = VocabularyTable<E>::names;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<E>(i);
  }
  return std::nullopt;
}

// "ok, failed, error, skipped": the allowed names, for messages.
template <Vocabulary E>
std::string names_list() {
  std::string out;
  for (auto name : all_names<E>()) out += (out.empty() ? "" : ", ") + std::string(name);
  return out;
}

// nlohmann writes a vocabulary value as its name (found by argument-dependent lookup).
template <Vocabulary E>
void to_json(nlohmann::json& j, E value) {
  j = to_string(value);
}

}  // namespace gpusizer
