// gpusizer merge a.json b.json ... -o fleet.json: reports measured separately (e.g. by EC2 user
// data on each instance, copied to S3) become one fleet report (harness/core fleet.hpp).
#include <filesystem>
#include <iostream>

#include "commands.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/fleet.hpp"
#include "gpusizer/report_io.hpp"

namespace gpusizer::cli {

void register_merge(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand(
      "merge",
      "Combine reports of several hosts (same suite, same gpusizer) into one fleet report");
  auto files = std::make_shared<std::vector<std::string>>();
  auto out = std::make_shared<std::string>();
  cmd->add_option("reports", *files, "Report files, one per host (or fleet reports)")->required();
  cmd->add_option("--out,-o", *out, "Fleet report to write")->required();
  cmd->callback([&action, files, out, &app] {
    action = [files, out, &app] {
      if (files->size() < 2) throw InputError("merge: give at least two reports");
      const std::filesystem::path out_dir = std::filesystem::absolute(*out).parent_path();
      if (!std::filesystem::is_directory(out_dir))
        throw InputError("--out: folder " + out_dir.string() + " does not exist");
      std::vector<std::pair<std::string, Report>> inputs;
      for (const auto& f : *files) {
        if (std::filesystem::absolute(f) == std::filesystem::absolute(*out))
          throw InputError("merge: --out " + *out + " is also an input");
        inputs.emplace_back(f, load_report(f));
      }
      Report fleet = merge_reports(inputs);
      fleet.command_line = {app.get_name(), "merge"};
      for (const auto& f : *files) fleet.command_line.push_back(f);
      fleet.command_line.push_back("--out=" + *out);
      save_report(fleet, *out);
      std::cerr << "fleet report: " << *out << " (" << fleet.hosts.size() << " hosts, "
                << fleet.targets.size() << " targets, " << fleet.records.size()
                << " records, status " << to_string(fleet.status) << ")\n";
      return 0;
    };
  });
}

}  // namespace gpusizer::cli
