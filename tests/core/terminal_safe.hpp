// Test predicate: text that can go to a terminal as it is. No C0 control but the newline, no
// DEL, no C1 control (U+0080..U+009F), and valid UTF-8 (checked by nlohmann's serializer, which
// rejects ill-formed UTF-8: independent of escape_control).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

namespace gpusizer::testing {

inline ::testing::AssertionResult terminal_safe(const std::string& text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const bool c1 =
        c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) < 0xA0;
    if ((c < 0x20 && c != '\n') || c == 0x7F || c1)
      return ::testing::AssertionFailure() << "raw byte " << static_cast<int>(c) << " at " << i;
  }
  try {
    (void)nlohmann::json(text).dump();
  } catch (const nlohmann::json::exception& e) {
    return ::testing::AssertionFailure() << e.what();
  }
  return ::testing::AssertionSuccess();
}

}  // namespace gpusizer::testing
