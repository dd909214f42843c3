#include "gpusizer/table.hpp"

#include <algorithm>

#include "gpusizer/error.hpp"

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
  for (char c : text) {
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

void Table::render(std::ostream& out, TextFormat format) const {
  const std::size_t cols = headers_.size();
  if (format == TextFormat::csv) {
    for (std::size_t c = 0; c < cols; ++c) out << (c ? "," : "") << csv_escape(headers_[c]);
    out << "\n";
    for (const auto& row : rows_) {
      for (std::size_t c = 0; c < cols; ++c) out << (c ? "," : "") << csv_escape(row[c]);
      out << "\n";
    }
    return;
  }
  if (format == TextFormat::html) {
    out << "<table>\n<thead><tr>";
    for (const auto& h : headers_) out << "<th>" << html_escape(h) << "</th>";
    out << "</tr></thead>\n<tbody>\n";
    for (const auto& row : rows_) {
      out << "<tr>";
      for (std::size_t c = 0; c < cols; ++c) {
        bool right = c < right_.size() && right_[c];
        out << (right ? "<td class=\"num\">" : "<td>") << html_escape(row[c]) << "</td>";
      }
      out << "</tr>\n";
    }
    out << "</tbody>\n</table>\n";
    return;
  }
  if (format == TextFormat::md) {
    out << "|";
    for (const auto& h : headers_) out << " " << md_escape(h) << " |";
    out << "\n|";
    for (std::size_t c = 0; c < cols; ++c) {
      bool right = c < right_.size() && right_[c];
      out << (right ? " ---: |" : " --- |");
    }
    out << "\n";
    for (const auto& row : rows_) {
      out << "|";
      for (const auto& cell : row) out << " " << md_escape(cell) << " |";
      out << "\n";
    }
    return;
  }
  std::vector<std::size_t> width(cols, 0);
  for (std::size_t c = 0; c < cols; ++c) width[c] = display_width(headers_[c]);
  for (const auto& row : rows_) {
    for (std::size_t c = 0; c < cols; ++c) width[c] = std::max(width[c], display_width(row[c]));
  }
  auto line = [&](const std::vector<std::string>& cells) {
    for (std::size_t c = 0; c < cols; ++c) {
      std::size_t pad = width[c] - display_width(cells[c]);
      bool right = c < right_.size() && right_[c];
      if (right) out << std::string(pad, ' ');
      out << cells[c];
      if (c + 1 < cols) {
        if (!right) out << std::string(pad, ' ');
        out << "  ";
      }
    }
    out << "\n";
  };
  line(headers_);
  std::vector<std::string> rule;
  for (std::size_t c = 0; c < cols; ++c) rule.push_back(std::string(width[c], '-'));
  line(rule);
  for (const auto& row : rows_) line(row);
}

}  // namespace gpusizer
