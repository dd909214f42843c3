// The `recommend` and `catalog` subcommands as library functions: the CLI parses flags into
// these structs and calls them. They return the exit code (0 success, 3 no feasible plan) and
// throw InputError / RuntimeError for the CLI to turn into one line.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace gpusizer::sizing {

struct CatalogSource {
  std::string catalog;  // empty: default_catalog_path()
  std::vector<std::string> overlays;
};

struct RecommendOptions {
  std::vector<std::string> workloads;  // at least one
  std::vector<std::string> reports;
  CatalogSource catalog;
  std::string format = "table";  // "table" | "md" | "json"
  std::string out;               // plan JSON file ("" = none)
  std::optional<int> max_instances;
};

int run_recommend(const RecommendOptions& options, std::ostream& out);

struct CatalogOptions {
  CatalogSource catalog;
  std::string family;                    // "p5", "g6e"...
  std::string accelerator;               // catalog accelerator id, case-insensitive
  std::optional<double> min_memory_gib;  // accelerator memory per device >=
  std::optional<double> max_price;       // on-demand $/h <=
  std::string format = "table";          // "table" | "md" | "json"
  // import-aws
  std::string import_file;  // non-empty: run `catalog import-aws`
  std::string region = "us-east-1";
  std::string out;  // overlay output ("" = stdout)
};

int run_catalog(const CatalogOptions& options, std::ostream& out);

}  // namespace gpusizer::sizing
