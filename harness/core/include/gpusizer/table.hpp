// A plain table rendered as aligned text, Markdown, CSV or an HTML <table>. Printers build tables;
// they never measure.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace gpusizer {

enum class TextFormat { table, md, csv, json, html };
TextFormat text_format_from_string(const std::string& s);  // throws InputError

class Table {
 public:
  explicit Table(std::vector<std::string> headers) : headers_(std::move(headers)) {}
  void add_row(std::vector<std::string> cells);
  // Numeric columns are right-aligned in the text rendering.
  void right_align(std::size_t column);
  void render(std::ostream& out, TextFormat format) const;
  std::size_t rows() const { return rows_.size(); }

 private:
  std::vector<std::string> headers_;
  std::vector<std::vector<std::string>> rows_;
  std::vector<bool> right_;
};

std::string csv_escape(const std::string& cell);
std::string html_escape(const std::string& text);

}  // namespace gpusizer
