// Typed errors shared by every layer. Library code throws; only the CLI turns an error into a
// one-line message and an exit code (InputError -> 2, everything else -> 1).
#pragma once

#include <stdexcept>
#include <string>

namespace gpusizer {

// The user's input is wrong: a file, a field in it, a flag. The message names the file and the
// JSON path (or the flag) and what was expected.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Something failed while doing the work: an I/O error, a device error, a failed child process.
class RuntimeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A benchmark cannot run on this target (dtype not supported, too few GPUs, no O_DIRECT...).
// Not a failure: the benchmark is recorded as skipped with this reason.
class Unsupported : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace gpusizer
