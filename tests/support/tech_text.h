#pragma once
// Tech files as text for tests of their parsing: a shipped file, an edit of it, and the error
// parsing it gives, read with the sections the kinds declare (as every arch load reads them).
#include <gtest/gtest.h>

#include <string>

#include "archs/registry.h"
#include "base/error.h"

namespace polyarch::test_support {

inline std::string embedded_tech_yaml(const std::string& node) {
  for (const sim::EmbeddedTechFile& file : sim::embedded_tech_files()) {
    if (file.node == node) return std::string(file.yaml);
  }
  ADD_FAILURE() << "no embedded table " << node;
  return "";
}

// The error message of parsing `text` as a tech file (fails the test when it parses).
inline std::string tech_parse_error(const std::string& text) {
  try {
    sim::parse_tech_table(parse_config_text(text, "tech.yaml"), archs::tech_device_sections());
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    return error.what();
  }
  ADD_FAILURE() << "expected an error";
  return "";
}

// `text` with the first `from` replaced by `to` (fails the test when there is none).
inline std::string replaced(std::string text, const std::string& from, const std::string& to) {
  auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

}  // namespace polyarch::test_support
