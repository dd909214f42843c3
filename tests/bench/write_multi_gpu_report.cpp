// Writes the two-GPU report of multi_gpu_report.hpp to the path given, for the CLI test
// (tests/cli/multi_gpu_report.sh); with --ids, prints the planned case ids of that machine per
// suite instead (how tests/golden/case-ids-two-gpu.txt was written).
// usage: gpusizer_write_multi_gpu_report FILE | --ids
#include <exception>
#include <iostream>
#include <string>

#include "gpusizer/report_io.hpp"
#include "multi_gpu_report.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " FILE | --ids\n";
    return 2;
  }
  try {
    if (std::string(argv[1]) == "--ids") {
      std::cout << gpusizer::test::planned_ids_text();
    } else {
      gpusizer::save_report(gpusizer::test::multi_gpu_report(), argv[1]);
    }
  } catch (const std::exception& e) {
    std::cerr << argv[0] << ": " << e.what() << "\n";
    return 1;
  }
  return 0;
}
