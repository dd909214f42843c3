#include "gpusizer/table.hpp"

#include <algorithm>

#include "gpusizer/error.hpp"
#include "gpusizer/text.hpp"

namespace gpusizer {
namespace {

// Display width in code points (UTF-8 continuation bytes take no column).
std::size_t display_width(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) {
    if ((c & 0xC0) != 0x80) ++n;
  }
  return n;
}

// The first `width` display columns of s: cut to width - 1 code points and "…" when longer.
std::string cut_to_width(const std::string& s, std::size_t width) {
  if (display_width(s) <= width) return s;
  std::size_t kept = 0;
  std::size_t end = 0;
  for (; end < s.size(); ++end) {
    const auto c = static_cast<unsigned char>(s[end]);
    if ((c & 0xC0) != 0x80 && kept++ == width - 1) break;
  }
  return s.substr(0, end) + "\xe2\x80\xa6";  // U+2026 HORIZONTAL ELLIPSIS
}

std::string md_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

TextFormat text_format_from_string(const std::string& s) {
  if (s == "table") return TextFormat::table;
  if (s == "md" || s == "markdown") return TextFormat::md;
  if (s == "csv") return TextFormat::csv;
  if (s == "json") return TextFormat::json;
  if (s == "html") return TextFormat::html;
  throw InputError("--format: expected table, md, csv, json or html, got \"" + s + "\"");
}

std::string html_escape(const std::string& text) {
  std::string out;
  for (char c : escape_control(text)) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string csv_escape(const std::string& cell) {
  if (cell.find_first_of(",\"\n") == std::string::npos) return cell;
  std::string out = "\"";
  for (char c : cell) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

void Table::add_row(std::vector<std::string> cells) {
  cells.resize(headers_.size());
  rows_.push_back(std::move(cells));
}

void Table::right_align(std::size_t column) {
  if (right_.size() < headers_.size()) right_.resize(headers_.size(), false);
  if (column < right_.size()) right_[column] = true;
}

void Table::shrinkable(std::size_t column) {
  if (shrinkable_.size() < headers_.size()) shrinkable_.resize(headers_.size(), false);
  if (column < shrinkable_.size()) shrinkable_[column] = true;
}

// Narrows the widest shrinkable column, one display column at a time, until the line fits
// `limit` or nothing can shrink further; returns the widths the cells must be cut to.
std::vector<std::size_t> Table::fitted_widths(std::vector<std::size_t> width, std::size_t limit,
                                              const std::vector<std::string>& headers) const {
  const std::size_t cols = width.size();
  const bool marked = std::find(shrinkable_.begin(), shrinkable_.end(), true) != shrinkable_.end();
  std::vector<std::size_t> floor(cols, 0);
  std::vector<bool> may(cols, false);
  for (std::size_t c = 0; c < cols; ++c) {
    const bool right = c < right_.size() && right_[c];
    may[c] = marked ? c < shrinkable_.size() && shrinkable_[c] : !right;
    floor[c] =
        std::min(width[c], std::max<std::size_t>(kMinShrunkWidth, display_width(headers[c])));
  }
  // The separators: two spaces between columns, and after the last one when padded.
  const std::size_t separators = 2 * (cols - 1) + (layout_ == TableLayout::padded ? 2 : 0);
  std::size_t total = separators;
  for (std::size_t w : width) total += w;
  while (total > limit) {
    std::size_t widest = cols;
    for (std::size_t c = 0; c < cols; ++c) {
      if (may[c] && width[c] > floor[c] && (widest == cols || width[c] > width[widest])) widest = c;
    }
    if (widest == cols) break;  // too many columns for the width: it runs over
    --width[widest];
    --total;
  }
  return width;
}

void Table::render(std::ostream& out, TextFormat format) const {
  const std::size_t cols = headers_.size();
  // Escaped once, before the format's own quoting: no raw control byte in any format.
  auto escaped = [](const std::vector<std::string>& cells) {
    std::vector<std::string> safe;
    for (const auto& c : cells) safe.push_back(escape_control(c));
    return safe;
  };
  std::vector<std::vector<std::string>> lines{escaped(headers_)};
  for (const auto& row : rows_) lines.push_back(escaped(row));
  const auto right = [&](std::size_t c) { return c < right_.size() && right_[c]; };
  if (format == TextFormat::csv) {
    for (const auto& line : lines) {
      for (std::size_t c = 0; c < cols; ++c) out << (c ? "," : "") << csv_escape(line[c]);
      out << "\n";
    }
    return;
  }
  if (format == TextFormat::html) {
    out << "<table>\n<thead><tr>";
    for (const auto& h : lines.front()) out << "<th>" << html_escape(h) << "</th>";
    out << "</tr></thead>\n<tbody>\n";
    for (std::size_t r = 1; r < lines.size(); ++r) {
      out << "<tr>";
      for (std::size_t c = 0; c < cols; ++c) {
        out << (right(c) ? "<td class=\"num\">" : "<td>") << html_escape(lines[r][c]) << "</td>";
      }
      out << "</tr>\n";
    }
    out << "</tbody>\n</table>\n";
    return;
  }
  const bool md = format == TextFormat::md;
  const bool padded = layout_ == TableLayout::padded;
  if (md) {
    for (auto& line : lines) {
      for (auto& cell : line) cell = md_escape(cell);
    }
  }
  std::vector<std::size_t> width(cols, 0);
  for (const auto& line : lines) {
    for (std::size_t c = 0; c < cols; ++c) width[c] = std::max(width[c], display_width(line[c]));
  }
  if (max_width_ && !md && cols > 0) {
    width = fitted_widths(width, *max_width_, lines.front());
    for (auto& line : lines) {
      for (std::size_t c = 0; c < cols; ++c) line[c] = cut_to_width(line[c], width[c]);
    }
  }
  auto write = [&](const std::vector<std::string>& cells) {
    if (md) out << (padded ? "| " : "|");
    for (std::size_t c = 0; c < cols; ++c) {
      const bool last = c + 1 == cols;
      // Compact text pads every column but a left-aligned last one; compact Markdown pads none.
      const bool pad = padded || (!md && (!last || right(c)));
      const std::string fill(pad ? width[c] - display_width(cells[c]) : 0, ' ');
      if (md && !padded) out << " ";
      out << (right(c) ? fill : "") << cells[c] << (right(c) ? "" : fill);
      if (md) {
        out << (padded ? " | " : " |");
      } else if (padded || !last) {
        out << "  ";
      }
    }
    out << "\n";
  };
  write(lines.front());
  if (md) {
    out << "|";
    for (std::size_t c = 0; c < cols; ++c) {
      if (padded) {
        out << std::string(width[c] + (right(c) ? 1 : 2), '-') << (right(c) ? ":|" : "|");
      } else {
        out << (right(c) ? " ---: |" : " --- |");
      }
    }
    out << "\n";
  } else {
    std::vector<std::string> rule;
    for (std::size_t c = 0; c < cols; ++c) rule.push_back(std::string(width[c], '-'));
    write(rule);
  }
  for (std::size_t r = 1; r < lines.size(); ++r) write(lines[r]);
}

}  // namespace gpusizer
