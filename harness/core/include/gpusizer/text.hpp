// Text helpers shared by every printer: the one place for case folding, number formatting and
// the escaping of text that came from a report or an input file. Pure functions, no state.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace gpusizer {

// ASCII lower case ("GPU-AbC" -> "gpu-abc"); other bytes unchanged.
std::string lower(std::string text);

// "a, b, c" (any separator).
std::string join(const std::vector<std::string>& items, std::string_view separator = ", ");

// Fixed-point with `digits` decimals: fixed(3.14159, 2) = "3.14" (printf "%.*f").
std::string fixed(double value, int digits);
// `digits` significant digits, trailing zeros dropped: significant(1234.5, 6) = "1234.5",
// significant(0.000012345, 4) = "1.234e-05" (printf "%.*g", as an ostream's default format).
std::string significant(double value, int digits);
// A number as people read it, in sentences and plan tables: four significant digits, never an
// exponent from 0.001 up, thousands separated by commas: "20,000" (not "2e+04"), "783,100",
// "1,235" (1234.5), "13.73", "0.7", "0.0005234"; "0" for zero. Below 0.001 the exponent stays
// ("1.234e-05"); infinities and NaN as printf writes them.
std::string short_number(double value);
// "1234567" -> "1,234,567" (a run of digits, optionally signed).
std::string group_thousands(std::string digits);
// Money, the one format of every plan printer: "$130.31", "$1,372,320.58", "-$5.00"; below one
// dollar four significant digits with at least the cents, so a sub-dollar hourly price keeps
// its precision: "$0.1785" (not "$0.18"), "$0.50", "$0.00523", "$0.00". The caller adds the
// period: format_usd(x) + "/h", + "/month".
std::string format_usd(double usd);
// A price quoted back as given (up to 6 decimals, trailing zeros trimmed, at least the cents):
// "$39.33", "$63.296", "$0.8048", "$1,234.5". Rounding to the cent is format_usd's.
std::string exact_usd(double usd);
// A number for a machine (CSV cells): the shortest decimal that reads back as the same double,
// never an exponent, no separators: 400000 -> "400000", 2088.768 -> "2088.768", 0.1 -> "0.1".
std::string plain_number(double value);
// At least three significant digits as fixed-point: 812.5, 55.20, 4.300, 0.912.
std::string three_significant(double value);
// Bytes in binary units: "512 B", "1.5 KiB", "80 GiB" (one decimal unless whole).
std::string binary_bytes(std::uint64_t bytes);

// Text from a report or an input file made safe for a terminal, a Markdown file or a page:
// C0 controls (ESC, BEL, CR, LF, TAB, ...) and DEL become "\x1b", C1 controls (U+0080..U+009F,
// as UTF-8) become "\u009b", and every byte of an ill-formed UTF-8 sequence becomes "\xff".
// Valid UTF-8 ("×", "≥", "Müller") is kept as it is. Printers apply it to every string they
// did not write themselves; Table does it for each cell.
std::string escape_control(std::string_view text);

// JSON for the terminal (`--format json`, `devices --json`, monitor EMF lines): nlohmann's dump,
// which writes C0 controls as "\u001b", with C1 controls also written as "\u009b" (valid JSON,
// the same string) and ill-formed UTF-8 replaced by U+FFFD instead of thrown on.
std::string json_for_terminal(const nlohmann::json& value, int indent = 2);

}  // namespace gpusizer
