// The core text helpers: escaping of text from reports and input files, number formatting and
// case folding. Expected strings are written out by hand (escapes) or produced by the
// iostreams the helpers replaced (numbers).
#include <gtest/gtest.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "gpusizer/text.hpp"
#include "terminal_safe.hpp"

namespace gpusizer {
namespace {

using gpusizer::testing::terminal_safe;

TEST(Text, EscapesC0AndDelAsHex) {
  EXPECT_EQ(escape_control("\x1b[2Jhost"), "\\x1b[2Jhost");
  EXPECT_EQ(escape_control("a\ab\rc\nd\te"), "a\\x07b\\x0dc\\x0ad\\x09e");
  EXPECT_EQ(escape_control(std::string("nul\0end", 7)), "nul\\x00end");
  EXPECT_EQ(escape_control("del\x7f"), "del\\x7f");
}

TEST(Text, EscapesC1ControlsAsCodePoints) {
  EXPECT_EQ(escape_control("\xc2\x9b"
                           "31m"),
            "\\u009b31m");                               // CSI
  EXPECT_EQ(escape_control("x\xc2\x85y"), "x\\u0085y");  // NEL
  EXPECT_EQ(escape_control("\xc2\x80\xc2\x9f"), "\\u0080\\u009f");
  EXPECT_EQ(escape_control("\xc2\xa0"), "\xc2\xa0");  // U+00A0 (no-break space) is not C1
}

TEST(Text, EscapesEachByteOfIllFormedUtf8) {
  EXPECT_EQ(escape_control("\xff"), "\\xff");
  EXPECT_EQ(escape_control("\x9b"), "\\x9b");                             // a raw 8-bit CSI
  EXPECT_EQ(escape_control("ab\xc3"), "ab\\xc3");                         // truncated at the end
  EXPECT_EQ(escape_control("\xc3("), "\\xc3(");                           // continuation missing
  EXPECT_EQ(escape_control("\xc0\xaf"), "\\xc0\\xaf");                    // overlong '/'
  EXPECT_EQ(escape_control("\xe0\x80\xaf"), "\\xe0\\x80\\xaf");           // overlong, 3 bytes
  EXPECT_EQ(escape_control("\xed\xa0\x80"), "\\xed\\xa0\\x80");           // UTF-16 surrogate
  EXPECT_EQ(escape_control("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // above U+10FFFF
  EXPECT_EQ(escape_control("\xe2\x89"
                           "A"),
            "\\xe2\\x89A");
}

TEST(Text, KeepsValidUtf8AndPlainText) {
  for (const std::string s :
       {"", "plain ASCII, with \\ and \"quotes\"", "4 \xc3\x97 H200", "\xe2\x89\xa5 0.7",
        "M\xc3\xbcller-\xc3\x89tienne", "\xf0\x9f\x98\x80", "\xef\xbf\xbd", "\xf4\x8f\xbf\xbf"}) {
    EXPECT_EQ(escape_control(s), s);
  }
}

TEST(Text, EveryOneAndTwoByteInputComesOutSafe) {
  for (int a = 0; a < 256; ++a) {
    const std::string one(1, static_cast<char>(a));
    ASSERT_TRUE(terminal_safe(escape_control(one))) << a;
    ASSERT_EQ(escape_control(one).find('\n'), std::string::npos);
    for (int b = 0; b < 256; ++b) {
      const std::string two{static_cast<char>(a), static_cast<char>(b)};
      ASSERT_TRUE(terminal_safe(escape_control(two))) << a << " " << b;
    }
  }
  EXPECT_FALSE(terminal_safe("\x1b"));  // the check itself can fail
  EXPECT_TRUE(terminal_safe("\n"));
  EXPECT_FALSE(terminal_safe("\xff"));
  EXPECT_FALSE(terminal_safe("\xc2\x9b"));
}

std::string ostream_text(double v, int precision, bool fixed_point) {
  std::ostringstream s;
  if (fixed_point) s.setf(std::ios::fixed);
  s.precision(precision);
  s << v;
  return s.str();
}

TEST(Text, NumbersAsTheStreamsTheyReplaced) {
  for (double v : {0.0, 0.7, 1.0 / 6.0, 1.1666667, 5600.0, 51750000.0, 1234567.0, 0.000012345,
                   -3.25, 730.0, 257.71}) {
    EXPECT_EQ(significant(v, 6), ostream_text(v, 6, false)) << v;
    EXPECT_EQ(fixed(v, 2), ostream_text(v, 2, true)) << v;
  }
  EXPECT_EQ(fixed(1e300, 0).size(), 301u);  // no truncation of large values
}

// Numbers as people read them: four significant digits, no exponent from 0.001 up, thousands
// separated. Every expectation is written out by hand.
TEST(Text, ShortNumbersAsPeopleReadThem) {
  EXPECT_EQ(short_number(20000.0), "20,000");  // was "2e+04"
  EXPECT_EQ(short_number(400000.0), "400,000");
  EXPECT_EQ(short_number(783123.0), "783,100");  // four significant digits
  EXPECT_EQ(short_number(51750000.0), "51,750,000");
  EXPECT_EQ(short_number(1234567.0), "1,235,000");
  EXPECT_EQ(short_number(1234.6), "1,235");
  EXPECT_EQ(short_number(5600.0), "5,600");
  EXPECT_EQ(short_number(9999.6), "10,000");  // rounding carries into the next power of ten
  EXPECT_EQ(short_number(999.96), "1,000");
  EXPECT_EQ(short_number(730.0), "730");
  EXPECT_EQ(short_number(257.71), "257.7");
  EXPECT_EQ(short_number(13.7255), "13.73");
  EXPECT_EQ(short_number(99.996), "100");
  EXPECT_EQ(short_number(1.1666667), "1.167");
  EXPECT_EQ(short_number(0.7), "0.7");
  EXPECT_EQ(short_number(1.0 / 6.0), "0.1667");
  EXPECT_EQ(short_number(0.0012345678), "0.001235");
  EXPECT_EQ(short_number(0.0), "0");
  EXPECT_EQ(short_number(-0.0), "0");
  EXPECT_EQ(short_number(-3.25), "-3.25");
  EXPECT_EQ(short_number(-20000.0), "-20,000");
  EXPECT_EQ(short_number(0.000012345), "1.234e-05");  // below 0.001 the exponent stays
  EXPECT_EQ(group_thousands("1234567"), "1,234,567");
  EXPECT_EQ(group_thousands("-1234.5678"), "-1,234.5678");
  EXPECT_EQ(group_thousands("999"), "999");
  EXPECT_EQ(group_thousands(""), "");
}

// One money format: cents with separators from a dollar up, four significant digits below.
TEST(Text, MoneyInOneFormat) {
  EXPECT_EQ(format_usd(130.3125), "$130.31");
  EXPECT_EQ(format_usd(1372320.576), "$1,372,320.58");
  EXPECT_EQ(format_usd(2016.0), "$2,016.00");
  EXPECT_EQ(format_usd(1000000.0), "$1,000,000.00");
  EXPECT_EQ(format_usd(-806.4), "-$806.40");
  EXPECT_EQ(format_usd(0.0), "$0.00");
  EXPECT_EQ(format_usd(0.1785), "$0.1785");  // a sub-dollar hourly price keeps its precision
  EXPECT_EQ(format_usd(0.17854), "$0.1785");
  EXPECT_EQ(format_usd(0.5), "$0.50");  // at least the cents
  EXPECT_EQ(format_usd(0.05), "$0.05");
  EXPECT_EQ(format_usd(0.00523), "$0.00523");
  EXPECT_EQ(format_usd(0.99999), "$1.00");
  EXPECT_EQ(format_usd(1.005), "$1.00");       // 1.005 is 1.00499999... as a double
  EXPECT_EQ(format_usd(0.0000001), "$0.00");   // at most six decimals
  EXPECT_EQ(format_usd(-0.0000001), "$0.00");  // no "-$0.00"
  EXPECT_EQ(exact_usd(39.33), "$39.33");
  EXPECT_EQ(exact_usd(63.296), "$63.296");
  EXPECT_EQ(exact_usd(0.8048), "$0.8048");
  EXPECT_EQ(exact_usd(34.6080), "$34.608");
  EXPECT_EQ(exact_usd(1234.5), "$1,234.50");
  EXPECT_EQ(exact_usd(55.04), "$55.04");
}

TEST(Text, PlainNumbersForMachines) {
  EXPECT_EQ(plain_number(400000.0), "400000");
  EXPECT_EQ(plain_number(2088.768), "2088.768");
  EXPECT_EQ(plain_number(0.1), "0.1");
  EXPECT_EQ(plain_number(-3.25), "-3.25");
  EXPECT_EQ(plain_number(0.0), "0");
  EXPECT_EQ(plain_number(1e20), "100000000000000000000");
  EXPECT_EQ(plain_number(1.0 / 3.0), "0.3333333333333333");  // 16 digits read back exactly
  for (double v : {1.0 / 3.0, 63.296 * 33, 0.7146, 1e-7, 123456789.125}) {
    EXPECT_EQ(std::stod(plain_number(v)), v) << v;
  }
}

TEST(Text, ThreeSignificantAndBinaryBytes) {
  EXPECT_EQ(three_significant(812.5), "812.5");
  EXPECT_EQ(three_significant(55.2), "55.20");
  EXPECT_EQ(three_significant(4.3), "4.300");
  EXPECT_EQ(three_significant(-0.5), "-0.500");
  EXPECT_EQ(binary_bytes(512), "512 B");
  EXPECT_EQ(binary_bytes(1536), "1.5 KiB");
  EXPECT_EQ(binary_bytes(80ull << 30), "80 GiB");
  EXPECT_EQ(binary_bytes(3ull << 50), "3072 TiB");  // TiB is the largest unit
}

TEST(Text, JsonForTheTerminalEscapesC1AndReplacesInvalidUtf8) {
  const nlohmann::json j{{"a", "x\x1b\xc2\x9b\xc3\x97"}, {"n", 1}};
  EXPECT_EQ(json_for_terminal(j, -1), "{\"a\":\"x\\u001b\\u009b\xc3\x97\",\"n\":1}");
  EXPECT_EQ(nlohmann::json::parse(json_for_terminal(j)), j);  // the same document
  EXPECT_EQ(json_for_terminal(nlohmann::json("a\xff"), -1), "\"a\xef\xbf\xbd\"");  // U+FFFD
  const nlohmann::json plain{{"name", "H200 \xc3\x97 8"}, {"list", {1, 2}}};
  EXPECT_EQ(json_for_terminal(plain), plain.dump(2));
}

TEST(Text, LowerAndJoin) {
  EXPECT_EQ(lower("GPU-AbC-\xc3\x89"), "gpu-abc-\xc3\x89");  // ASCII only
  EXPECT_EQ(join({}), "");
  EXPECT_EQ(join({"a"}), "a");
  EXPECT_EQ(join({"a", "b", "c"}), "a, b, c");
  EXPECT_EQ(join({"a", "b"}, "+"), "a+b");
}

}  // namespace
}  // namespace gpusizer
