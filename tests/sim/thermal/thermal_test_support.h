#pragma once
// Helpers of the thermal tests: the message of an expected bad-input error, and readers of the
// HotSpot outputs kept in tests/data/thermal/<case>/ (see PROVENANCE.md there):
// `hotspot.steady` (node name, kelvin) and `*.ttrace` (a header of names, rows of kelvin).
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "base/error.h"

namespace polyarch::sim::thermal::test {

// What `parse` throws as bad input; fails the test when it throws nothing.
template <typename Parse>
std::string bad_input_message(Parse&& parse) {
  try {
    parse();
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    return error.what();
  }
  ADD_FAILURE() << "expected a bad-input error";
  return "";
}

inline const std::vector<std::string>& hotspot_cases() {
  static const std::vector<std::string> cases = {"strip3", "grid6_hot", "mixed12_gap",
                                                 "tall5_custom"};
  return cases;
}

inline std::string case_path(const std::string& name, const std::string& file) {
  return std::string(POLYARCH_SOURCE_DIR) + "/tests/data/thermal/" + name + "/" + file;
}

inline std::map<std::string, double> read_hotspot_steady(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  std::map<std::string, double> kelvin;
  std::string name;
  double value = 0.0;
  while (in >> name >> value) kelvin[name] = value;
  return kelvin;
}

struct HotSpotTrace {
  std::vector<std::string> names;
  std::vector<std::vector<double>> rows;
};

inline HotSpotTrace read_hotspot_trace(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  HotSpotTrace trace;
  std::string line;
  std::getline(in, line);
  std::istringstream header(line);
  for (std::string name; header >> name;) trace.names.push_back(name);
  while (std::getline(in, line)) {
    std::istringstream values(line);
    std::vector<double> row;
    for (double value; values >> value;) row.push_back(value);
    if (!row.empty()) trace.rows.push_back(row);
  }
  return trace;
}

}  // namespace polyarch::sim::thermal::test
