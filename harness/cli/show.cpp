// gpusizer show report.json [--format table|md|csv|json]
#include <fstream>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "gpusizer/printers.hpp"
#include "gpusizer/report_io.hpp"
#include "gpusizer/report_page.hpp"
#include "gpusizer/terminal.hpp"

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
      if (f == TextFormat::html) {  // the page names the file and its digest
        std::ifstream in(*file, std::ios::binary);
        std::ostringstream bytes;
        bytes << in.rdbuf();
        print_report_page(report, {*file, sha256_hex(bytes.str())}, std::cout);
        return 0;
      }
      print_report(report, std::cout, f, terminal_columns());
      return 0;
    };
  });
}

}  // namespace gpusizer::cli
