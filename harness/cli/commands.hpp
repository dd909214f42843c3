// Each subcommand lives in its own file and registers itself on the app. Its CLI11 callback sets
// `action` to the work to do; main() runs it and turns errors into one line and an exit code.
#pragma once

#include <cmath>
#include <functional>
#include <string>

#include <CLI/CLI.hpp>

namespace gpusizer::cli {

using Action = std::function<int()>;

// A finite number >= 0 (CLI11's NonNegativeNumber lets "nan" through).
inline CLI::Validator finite_non_negative() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        double v = 0;
        if (!CLI::detail::lexical_cast(text, v) || !std::isfinite(v) || v < 0)
          return "expected a finite number >= 0, got \"" + text.substr(0, 64) + "\"";
        return "";
      },
      "NUMBER >= 0");
}

void register_run(CLI::App& app, Action& action);
void register_devices(CLI::App& app, Action& action);
void register_show(CLI::App& app, Action& action);
void register_compare(CLI::App& app, Action& action);
void register_monitor(CLI::App& app, Action& action);
void register_recommend(CLI::App& app, Action& action);
void register_catalog(CLI::App& app, Action& action);
void register_merge(CLI::App& app, Action& action);
void register_verify(CLI::App& app, Action& action);

}  // namespace gpusizer::cli
