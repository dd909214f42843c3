// One function per subcommand: each adds its CLI11 subcommand and, when chosen, sets `action`
// to a lambda that runs it and returns the exit code.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace gpusizer::cli {

void register_monitor(CLI::App& app, std::function<int()>& action);

}  // namespace gpusizer::cli
