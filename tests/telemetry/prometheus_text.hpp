// A small parser of the Prometheus text exposition format, for tests of `monitor` output: it
// fails the running test on any rule broken.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace gpusizer::test {

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// Parses one exposition document; fails the test on any rule broken. Returns the samples as
// "name{labels}" -> value.
inline std::map<std::string, double> parse_prometheus(const std::string& text) {
  static const std::regex help(R"(# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) .+)");
  static const std::regex type(R"(# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (gauge|counter))");
  static const std::regex sample(
      R"(([a-zA-Z_:][a-zA-Z0-9_:]*)\{((?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*)\} (\S+))");
  std::set<std::string> typed, helped, sampled_families;
  std::map<std::string, double> samples;
  std::smatch m;
  for (const auto& line : lines_of(text)) {
    if (line.empty()) continue;
    if (std::regex_match(line, m, help)) {
      EXPECT_TRUE(helped.insert(m[1]).second) << "duplicate HELP: " << line;
      EXPECT_FALSE(sampled_families.count(m[1])) << "HELP after samples: " << line;
    } else if (std::regex_match(line, m, type)) {
      EXPECT_TRUE(typed.insert(m[1]).second) << "duplicate TYPE: " << line;
      EXPECT_FALSE(sampled_families.count(m[1])) << "TYPE after samples: " << line;
    } else if (std::regex_match(line, m, sample)) {
      const std::string name = m[1];
      EXPECT_TRUE(typed.count(name)) << "sample before its TYPE: " << line;
      sampled_families.insert(name);
      std::size_t used = 0;
      const double v = std::stod(m[3], &used);
      EXPECT_EQ(used, m[3].length()) << line;
      EXPECT_TRUE(samples.emplace(name + "{" + std::string(m[2]) + "}", v).second)
          << "duplicate series: " << line;
    } else if (line.rfind("# ", 0) == 0 && line.rfind("# HELP", 0) != 0 &&
               line.rfind("# TYPE", 0) != 0) {
      continue;  // a plain comment (gpusizer says there what a series cannot give)
    } else {
      ADD_FAILURE() << "not exposition format: " << line;
    }
  }
  return samples;
}

}  // namespace gpusizer::test
