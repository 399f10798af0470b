#pragma once
// Reads back, strictly, what a kind's model recorded in an op's mapping for its energy model: a
// missing or mistyped key is an internal error naming the op, its unit and the key's path. A
// default would price a misspelt key as zero energy without a word. Each kind's activity.h holds
// the key names; this holds only how a key is looked up.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "compiler/ir/dtype.h"
#include "sim/result.h"

namespace polyarch::archs {

class MappingReader {
 public:
  // The op's whole mapping; the op must outlive the reader.
  explicit MappingReader(const sim::OpResult& op);

  // The object under `key` (e.g. "activity").
  MappingReader object(std::string_view key) const;
  int64_t count(std::string_view key) const;    // an integer
  double number(std::string_view key) const;    // any number
  ir::DType dtype(std::string_view key) const;  // a string naming a dtype
  // Every entry of this object, each an integer (e.g. counts keyed by dtype name), in order.
  std::vector<std::pair<std::string, int64_t>> counts() const;

  // The internal error for `key` of this object: "<path>.<key>: op '<op>' on unit '<unit>': ...".
  [[noreturn]] void fail(std::string_view key, const std::string& problem) const;

 private:
  MappingReader(const sim::OpResult& op, const nlohmann::ordered_json& object, std::string path);
  const nlohmann::ordered_json& field(std::string_view key) const;

  const sim::OpResult* op_;
  const nlohmann::ordered_json* object_;
  std::string path_;  // "mapping", "mapping.activity", ...
};

}  // namespace polyarch::archs
