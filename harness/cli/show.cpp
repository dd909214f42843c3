// gpusizer show report.json [--format table|md|csv|json]
#include <iostream>

#include "commands.hpp"
#include "gpusizer/printers.hpp"
#include "gpusizer/report_io.hpp"

namespace gpusizer::cli {

void register_show(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("show", "Print a report as a table, Markdown, CSV or JSON");
  auto file = std::make_shared<std::string>();
  auto format = std::make_shared<std::string>("table");
  cmd->add_option("report", *file, "Report file")->required();
  cmd->add_option("--format", *format, "table | md | csv | json | html");
  cmd->callback([&action, file, format] {
    action = [file, format] {
      TextFormat f = text_format_from_string(*format);
      Report report = load_report(*file);
      print_report(report, std::cout, f);
      return 0;
    };
  });
}

}  // namespace gpusizer::cli
