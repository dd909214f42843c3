// A plain table rendered as aligned text, Markdown, CSV or an HTML <table>: the one table printer.
// Printers build tables; they never measure. Every cell and header is passed through
// escape_control (text.hpp) before it is laid out, so a control character from a report or an
// input file never reaches the terminal raw, whatever the format.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace gpusizer {

enum class TextFormat { table, md, csv, json, html };
TextFormat text_format_from_string(const std::string& s);  // throws InputError

// compact: report listings (show, compare, devices): text columns joined by two spaces, the last
//   one not padded; Markdown cells unpadded with `---` rules.
// padded: plan and catalog listings (recommend, catalog): every cell, the last one too, padded
//   to its column and followed by the separator ("  " in text, " | " in Markdown, whose rules are
//   dashes as wide as the column).
enum class TableLayout { compact, padded };

class Table {
 public:
  explicit Table(std::vector<std::string> headers, TableLayout layout = TableLayout::compact)
      : headers_(std::move(headers)), layout_(layout) {}
  void add_row(std::vector<std::string> cells);
  // Numeric columns are right-aligned in the text rendering.
  void right_align(std::size_t column);
  // Text rendering only: lay the table out in at most `columns` display columns (a terminal's
  // width, terminal.hpp) by cutting the cells of the widest shrinkable column to fit, ending
  // them with "…"; nullopt: no limit. Shrinkable are the columns marked so, else every
  // left-aligned one. None is cut below its header or 8 columns, so a table with too many
  // columns for the width still runs over it.
  void fit_width(std::optional<std::size_t> columns) { max_width_ = columns; }
  void shrinkable(std::size_t column);
  void render(std::ostream& out, TextFormat format) const;
  std::size_t rows() const { return rows_.size(); }

  // The narrowest a shrinkable column gets (unless its header is wider).
  static constexpr std::size_t kMinShrunkWidth = 8;

 private:
  std::vector<std::size_t> fitted_widths(std::vector<std::size_t> width, std::size_t limit,
                                         const std::vector<std::string>& headers) const;

  std::vector<std::string> headers_;
  std::vector<std::vector<std::string>> rows_;
  std::vector<bool> right_;
  std::vector<bool> shrinkable_;
  std::optional<std::size_t> max_width_;
  TableLayout layout_;
};

std::string csv_escape(const std::string& cell);
// &, <, >, " as entities, and control characters and invalid UTF-8 as escape_control does.
std::string html_escape(const std::string& text);

}  // namespace gpusizer
