// The terminal standard output goes to: its width, for tables that fit it (Table::fit_width).
// Reads the environment and asks the terminal; never prints.
#pragma once

#include <cstddef>
#include <optional>

namespace gpusizer {

// Whether the file descriptor is a terminal (isatty).
bool is_terminal(int fd);

// The columns a table printed on stdout may use: the COLUMNS environment variable when it holds
// a positive number (as `ls` reads it), else the terminal's own width (ioctl TIOCGWINSZ) when
// stdout is a terminal, else nullopt: a pipe or a file, no limit.
std::optional<std::size_t> terminal_columns();

// The rule above, pure: COLUMNS's value (nullptr when unset) and the width the terminal gave
// (nullopt when stdout is not a terminal or did not say). A COLUMNS that is empty, zero, not a
// number or absurd (over 100 000) is ignored.
std::optional<std::size_t> terminal_columns(const char* columns_env,
                                            std::optional<std::size_t> tty_columns);

}  // namespace gpusizer
