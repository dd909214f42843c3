// The message of the InputError `f` throws, or "(no error)": tests compare whole messages.
#pragma once

#include <functional>
#include <string>

#include "gpusizer/error.hpp"

namespace gpusizer {

inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace gpusizer
