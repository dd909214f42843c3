#include "gpusizer/terminal.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace gpusizer {
namespace {

constexpr std::size_t kMaxColumns = 100000;

std::optional<std::size_t> stdout_tty_columns() {
  if (!is_terminal(STDOUT_FILENO)) return std::nullopt;
  winsize size{};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) != 0 || size.ws_col == 0) return std::nullopt;
  return static_cast<std::size_t>(size.ws_col);
}

}  // namespace

bool is_terminal(int fd) {
  return isatty(fd) == 1;
}

std::optional<std::size_t> terminal_columns(const char* columns_env,
                                            std::optional<std::size_t> tty_columns) {
  if (columns_env != nullptr && *columns_env != '\0') {
    const std::string text(columns_env);
    if (text.find_first_not_of("0123456789") == std::string::npos && text.size() <= 6) {
      const std::size_t n = std::stoul(text);
      if (n > 0 && n <= kMaxColumns) return n;
    }
  }
  if (tty_columns && *tty_columns > 0 && *tty_columns <= kMaxColumns) return tty_columns;
  return std::nullopt;
}

std::optional<std::size_t> terminal_columns() {
  return terminal_columns(std::getenv("COLUMNS"), stdout_tty_columns());
}

}  // namespace gpusizer
