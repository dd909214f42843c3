// gpusizer: GPU microbenchmarks and sizing. Thin: parses options, calls the library, maps errors
// to exit codes (2 = usage or input error, 1 = runtime failure or a failed verification). An
// error is one line, its quoted input escaped (escape_control).
#include <iostream>

#include "commands.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/host_info.hpp"
#include "gpusizer/text.hpp"

int main(int argc, char** argv) {
  using namespace gpusizer;
  CLI::App app{
      "gpusizer: measure GPUs, MIG slices and the CPU under Google Benchmark, then size "
      "instance type x count x purchase option from the reports"};
  app.require_subcommand(1);
  app.set_version_flag(
      "--version", "gpusizer " + current_tool().version + " (" + current_tool().git_revision + ")");
  cli::Action action;
  cli::register_run(app, action);
  cli::register_devices(app, action);
  cli::register_show(app, action);
  cli::register_compare(app, action);
  cli::register_monitor(app, action);
  cli::register_recommend(app, action);
  cli::register_catalog(app, action);
  cli::register_merge(app, action);
  cli::register_verify(app, action);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "gpusizer: " << escape_control(e.what()) << " (see gpusizer --help)\n";
    return 2;
  } catch (const InputError& e) {
    std::cerr << "gpusizer: " << escape_control(e.what()) << "\n";
    return 2;
  }
  if (!action) return 2;
  try {
    return action();
  } catch (const InputError& e) {
    std::cerr << "gpusizer: " << escape_control(e.what()) << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "gpusizer: error: " << escape_control(e.what()) << "\n";
    return 1;
  }
}
