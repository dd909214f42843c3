// Reading and writing reports. Writing is atomic (temp file in the same folder, fsync, rename),
// so a report on disk is always a complete, valid document, even if the run is killed mid-write.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

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
nlohmann::json to_json(const RunSession& session);  // report_history.cpp

// Throws InputError naming the source and JSON path on any malformed content.
Report report_from_json(const JsonInput& in);
Record record_from_json(const JsonInput& in);
Target target_from_json(const JsonInput& in);
Host host_from_json(const JsonInput& in);
TelemetryWindow telemetry_from_json(const JsonInput& in);
Summary summary_from_json(const JsonInput& in);
RunSession session_from_json(const JsonInput& in);

// Reads a report file (read_input_file: regular file, input_kinds::report limit), parses it and
// flags records above a physical ceiling the report knows (plausibility.hpp).
Report load_report(const std::filesystem::path& file);
// The same from the file's bytes (`source` names the file in errors).
Report load_report_text(std::string_view text, const std::string& source);

// Writes text to `file` atomically. Throws RuntimeError on failure.
void write_file_atomically(const std::filesystem::path& file, const std::string& text);
void save_report(const Report& report, const std::filesystem::path& file);

// SHA-256 of a byte string, lowercase hex (used for report digests in plans).
std::string sha256_hex(const std::string& bytes);

}  // namespace gpusizer
