// Table::fit_width: a text table laid out in a terminal's width by cutting the widest shrinkable
// column with "…"; every other format, and a table with no limit, unchanged.
#include <gtest/gtest.h>

#include <sstream>

#include "gpusizer/table.hpp"
#include "terminal_safe.hpp"

namespace gpusizer {
namespace {

const std::string kEllipsis = "\xe2\x80\xa6";  // U+2026, one display column

std::string rendered(const Table& t, TextFormat format) {
  std::ostringstream out;
  t.render(out, format);
  return out.str();
}

Table listing() {
  Table t({"benchmark", "parameters", "value"});
  t.add_row({"memory/stream_triad cpu", "bytes=256 MiB threads=2", "1.234 TB/s"});
  t.right_align(2);
  return t;
}

TEST(TableWidth, CutsTheWidestLeftAlignedColumnsInTurn) {
  // Natural widths 23, 23, 10 and two separators of 2: 60 columns. Fitting 50 takes 10 off,
  // one at a time from the widest left-aligned column (the first on a tie): 18 and 18, each
  // cell cut to 17 code points and the ellipsis.
  Table t = listing();
  t.fit_width(50);
  const std::string rule =
      std::string(18, '-') + "  " + std::string(18, '-') + "  " + std::string(10, '-') + "\n";
  EXPECT_EQ(rendered(t, TextFormat::table),
            "benchmark           parameters               value\n" + rule + "memory/stream_tri" +
                kEllipsis + "  bytes=256 MiB thr" + kEllipsis + "  1.234 TB/s\n");
}

TEST(TableWidth, OnlyTheMarkedColumnsShrink) {
  // Column 1 alone: 23 - 10 = 13, its cell cut to 12 code points and the ellipsis.
  Table t = listing();
  t.shrinkable(1);
  t.fit_width(50);
  const std::string text = rendered(t, TextFormat::table);
  EXPECT_NE(text.find("memory/stream_triad cpu  bytes=256 Mi" + kEllipsis + "  1.234 TB/s\n"),
            std::string::npos)
      << text;
}

TEST(TableWidth, NeverBelowTheHeaderOrEightColumnsSoATooNarrowWidthRunsOver) {
  // Floors: "benchmark" 9, "parameters" 10; the figure column never shrinks: 9 + 10 + 10 + 4 = 33.
  Table t = listing();
  t.fit_width(20);
  const std::string text = rendered(t, TextFormat::table);
  EXPECT_NE(text.find("memory/s" + kEllipsis + "  bytes=256" + kEllipsis + "  1.234 TB/s\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("benchmark  parameters       value\n"), std::string::npos) << text;
}

TEST(TableWidth, PaddedLayoutCountsTheTrailingSeparator) {
  // 12 + 1 + 2 separators of 2 = 17; fitting 15 cuts the first column to 10.
  Table t({"a", "b"}, TableLayout::padded);
  t.add_row({"xxxxxxxxxxxx", "y"});
  t.fit_width(15);
  EXPECT_EQ(rendered(t, TextFormat::table),
            "a           b  \n----------  -  \nxxxxxxxxx" + kEllipsis + "  y  \n");
}

TEST(TableWidth, CutsCodePointsNotBytes) {
  // 12 two-byte code points cut to 10 columns: 9 of them and the ellipsis.
  Table t({"name"});
  t.add_row(
      {"\xc3\xa4\xc3\xb6\xc3\xbc\xc3\xa4\xc3\xb6\xc3\xbc\xc3\xa4\xc3\xb6\xc3\xbc\xc3\xa4"
       "\xc3\xb6\xc3\xbc"});
  t.fit_width(10);
  EXPECT_EQ(rendered(t, TextFormat::table),
            "name\n----------\n\xc3\xa4\xc3\xb6\xc3\xbc\xc3\xa4\xc3\xb6\xc3\xbc\xc3\xa4\xc3\xb6"
            "\xc3\xbc" +
                kEllipsis + "\n");
}

TEST(TableWidth, EscapesBeforeCutting) {
  // The ESC is shown as \x1b first, then the cell is cut: no raw control byte either way.
  Table t({"name"});
  t.add_row({"\x1b[2J" + std::string(30, 'x')});
  t.fit_width(12);
  const std::string text = rendered(t, TextFormat::table);
  EXPECT_TRUE(testing::terminal_safe(text)) << text;
  EXPECT_NE(text.find("\\x1b[2Jxxxx" + kEllipsis + "\n"), std::string::npos) << text;
}

TEST(TableWidth, OtherFormatsAndNoLimitAreUnchanged) {
  Table fitted = listing();
  fitted.fit_width(20);
  const Table plain = listing();
  for (TextFormat f : {TextFormat::md, TextFormat::csv, TextFormat::html}) {
    EXPECT_EQ(rendered(fitted, f), rendered(plain, f));
  }
  Table unlimited = listing();
  unlimited.fit_width(std::nullopt);
  EXPECT_EQ(rendered(unlimited, TextFormat::table), rendered(plain, TextFormat::table));
  Table wide = listing();
  wide.fit_width(60);  // exactly the natural width
  EXPECT_EQ(rendered(wide, TextFormat::table), rendered(plain, TextFormat::table));
}

}  // namespace
}  // namespace gpusizer
