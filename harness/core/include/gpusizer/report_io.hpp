// Reading and writing reports. Writing is atomic (temp file in the same folder, fsync, rename),
// so a report on disk is always a complete, valid document, even if the run is killed mid-write.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "gpusizer/json_input.hpp"
#include "gpusizer/report.hpp"

namespace gpusizer {

nlohmann::json to_json(const Report& report);
nlohmann::json to_json(const Record& record);
nlohmann::json to_json(const Target& target);
nlohmann::json to_json(const Host& host);
nlohmann::json to_json(const TelemetryWindow& window);
nlohmann::json to_json(const Summary& summary);

// Throws InputError naming the source and JSON path on any malformed content.
Report report_from_json(const JsonInput& in);
Record record_from_json(const JsonInput& in);
Target target_from_json(const JsonInput& in);
Host host_from_json(const JsonInput& in);
TelemetryWindow telemetry_from_json(const JsonInput& in);
Summary summary_from_json(const JsonInput& in);

Report load_report(const std::filesystem::path& file);

// Writes text to `file` atomically. Throws RuntimeError on failure.
void write_file_atomically(const std::filesystem::path& file, const std::string& text);
void save_report(const Report& report, const std::filesystem::path& file);

// SHA-256 of a byte string, lowercase hex (used for report digests in plans).
std::string sha256_hex(const std::string& bytes);

}  // namespace gpusizer
