// The terminal's width: COLUMNS first, then the terminal's own, else no limit.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>

#include "gpusizer/terminal.hpp"

namespace gpusizer {
namespace {

TEST(Terminal, ColumnsFromTheEnvironmentThenTheTerminal) {
  EXPECT_EQ(terminal_columns("120", std::nullopt), 120u);
  EXPECT_EQ(terminal_columns("120", 80), 120u);  // COLUMNS wins, as for ls
  EXPECT_EQ(terminal_columns(nullptr, 80), 80u);
  EXPECT_EQ(terminal_columns(nullptr, std::nullopt), std::nullopt);  // a pipe: no limit
  EXPECT_EQ(terminal_columns("100000", std::nullopt), 100000u);
}

TEST(Terminal, UnusableColumnsAreIgnored) {
  for (const char* bad : {"", "0", "-5", "80x", " 80", "abc", "100001", "99999999999999999999"}) {
    EXPECT_EQ(terminal_columns(bad, 90), 90u) << bad;
    EXPECT_EQ(terminal_columns(bad, std::nullopt), std::nullopt) << bad;
  }
  EXPECT_EQ(terminal_columns(nullptr, 0), std::nullopt);
}

TEST(Terminal, ReadsColumnsAndKnowsAPipeIsNoTerminal) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  EXPECT_FALSE(is_terminal(fds[0]));
  EXPECT_FALSE(is_terminal(fds[1]));
  close(fds[0]);
  close(fds[1]);
  const char* saved = std::getenv("COLUMNS");
  const std::string before = saved ? saved : "";
  setenv("COLUMNS", "77", 1);
  EXPECT_EQ(terminal_columns(), 77u);
  if (saved) {
    setenv("COLUMNS", before.c_str(), 1);
  } else {
    unsetenv("COLUMNS");
  }
}

}  // namespace
}  // namespace gpusizer
