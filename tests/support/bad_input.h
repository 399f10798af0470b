#pragma once
// The message of the bad-input error an action must throw; the test fails when it throws
// nothing or an error of another kind.
#include <gtest/gtest.h>

#include <string>

#include "base/error.h"

namespace polyarch::test_support {

template <class Action>
std::string bad_input_message(Action&& action, const std::string& input) {
  try {
    action();
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    return error.what();
  }
  ADD_FAILURE() << "expected a bad-input error for:\n" << input;
  return "";
}

}  // namespace polyarch::test_support
