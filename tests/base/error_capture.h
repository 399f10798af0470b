#pragma once
// Runs an action that must fail and hands back the polyarch::Error it threw, so tests can check
// the message and the location separately.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "base/error.h"

namespace polyarch::testing {

inline std::optional<Error> capture_error(const std::function<void()>& action) {
  try {
    action();
  } catch (const Error& error) {
    return error;
  }
  ADD_FAILURE() << "expected a polyarch::Error, but nothing was thrown";
  return std::nullopt;
}

// what() of the error, or a marker that fails any substring expectation.
inline std::string error_text(const std::function<void()>& action) {
  std::optional<Error> error = capture_error(action);
  return error ? std::string(error->what()) : "<no error>";
}

inline std::filesystem::path source_path(const std::string& relative) {
  return std::filesystem::path(POLYARCH_SOURCE_DIR) / relative;
}

}  // namespace polyarch::testing
