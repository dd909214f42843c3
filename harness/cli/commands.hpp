// Each subcommand lives in its own file and registers itself on the app. Its CLI11 callback sets
// `action` to the work to do; main() runs it and turns errors into one line and an exit code.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace gpusizer::cli {

using Action = std::function<int()>;

void register_run(CLI::App& app, Action& action);
void register_devices(CLI::App& app, Action& action);
void register_show(CLI::App& app, Action& action);
void register_compare(CLI::App& app, Action& action);
void register_monitor(CLI::App& app, Action& action);
void register_recommend(CLI::App& app, Action& action);
void register_catalog(CLI::App& app, Action& action);
void register_merge(CLI::App& app, Action& action);

}  // namespace gpusizer::cli
