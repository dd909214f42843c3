// gpusizer compare a.json b.json [...] [--format ...]: the same benchmark on different machines or
// runs, each against the first: ratio, and whether the difference is more than noise.
#include <iostream>

#include "commands.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/printers.hpp"
#include "gpusizer/report_io.hpp"
#include "gpusizer/terminal.hpp"

namespace gpusizer::cli {

void register_compare(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("compare", "Put several reports side by side, with ratios");
  auto files = std::make_shared<std::vector<std::string>>();
  auto format = std::make_shared<std::string>("table");
  cmd->add_option("reports", *files, "Report files (two or more)")->required();
  cmd->add_option("--format", *format, "table | md | csv | json | html");
  cmd->callback([&action, files, format] {
    action = [files, format] {
      TextFormat f = text_format_from_string(*format);
      if (files->size() < 2) throw InputError("compare: give at least two reports");
      std::vector<NamedReport> reports;
      for (const auto& file : *files) reports.push_back({file, load_report(file)});
      print_comparison(reports, std::cout, f, terminal_columns());
      return 0;
    };
  });
}

}  // namespace gpusizer::cli
