// The one table printer: both layouts in every format, widths in code points, and every cell
// escaped before it is laid out (no raw control byte in any format).
#include <gtest/gtest.h>

#include <sstream>

#include "gpusizer/table.hpp"

namespace gpusizer {
namespace {

std::string rendered(const Table& t, TextFormat format) {
  std::ostringstream out;
  t.render(out, format);
  return out.str();
}

TEST(Table, PaddedLayoutPadsEveryCellTheLastOneToo) {
  Table t({"a", "bb"}, TableLayout::padded);
  t.add_row({"ccc", "d"});
  EXPECT_EQ(rendered(t, TextFormat::table), "a    bb  \n---  --  \nccc  d   \n");
  EXPECT_EQ(rendered(t, TextFormat::md), "| a   | bb | \n|-----|----|\n| ccc | d  | \n");
}

TEST(Table, CompactLayoutLeavesTheLastColumnUnpadded) {
  Table t({"a", "bb"});
  t.add_row({"ccc", "d"});
  t.right_align(1);
  EXPECT_EQ(rendered(t, TextFormat::table), "a    bb\n---  --\nccc   d\n");
  EXPECT_EQ(rendered(t, TextFormat::md), "| a | bb |\n| --- | ---: |\n| ccc | d |\n");
}

TEST(Table, WidthsCountCodePointsNotBytes) {
  Table t({"x"}, TableLayout::padded);
  t.add_row({"\xc3\x97"});  // U+00D7, two bytes, one column
  t.add_row({"ab"});
  EXPECT_EQ(rendered(t, TextFormat::table), "x   \n--  \n\xc3\x97   \nab  \n");
}

TEST(Table, EveryFormatEscapesControlCharacters) {
  Table t({"h\x1b"});
  t.add_row({"a|b\a"});
  t.add_row({"two\nlines, \xff"});
  EXPECT_EQ(rendered(t, TextFormat::table),
            "h\\x1b\n------------------\na|b\\x07\ntwo\\x0alines, \\xff\n");
  EXPECT_EQ(rendered(t, TextFormat::md),
            "| h\\x1b |\n| --- |\n| a\\|b\\x07 |\n| two\\x0alines, \\xff |\n");
  EXPECT_EQ(rendered(t, TextFormat::csv), "h\\x1b\na|b\\x07\n\"two\\x0alines, \\xff\"\n");
  EXPECT_EQ(rendered(t, TextFormat::html),
            "<table>\n<thead><tr><th>h\\x1b</th></tr></thead>\n<tbody>\n"
            "<tr><td>a|b\\x07</td></tr>\n<tr><td>two\\x0alines, \\xff</td></tr>\n</tbody>\n"
            "</table>\n");
}

TEST(Table, HtmlEscapeNeutralisesControlsAndKeepsUtf8) {
  EXPECT_EQ(html_escape("<b>\x1b[2J\xc2\x9b & \xe2\x89\xa5"),
            "&lt;b&gt;\\x1b[2J\\u009b &amp; \xe2\x89\xa5");
}

}  // namespace
}  // namespace gpusizer
