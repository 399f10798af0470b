#include "compiler/frontend/inline_workload.h"

#include <sstream>
#include <vector>

#include "base/config_tree.h"
#include "base/error.h"
#include "compiler/frontend/layer_list.h"

namespace polyarch::frontend {

namespace {

struct InlineKind {
  std::string name;
  std::vector<std::string> keys;  // in the order the values come
  std::string flag;               // an optional trailing word (e.g. "causal")
};

const std::vector<InlineKind>& inline_kinds() {
  static const std::vector<InlineKind> kinds = {{"gemm", {"m", "n", "k"}, ""},
                                                {"attention", {"b", "h", "s", "d"}, "causal"}};
  return kinds;
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  std::string part;
  while (std::getline(stream, part, separator)) parts.push_back(part);
  return parts;
}

[[noreturn]] void bad_spec(const std::string& spec, const std::string& why) {
  throw_bad_input({}, "inline workload '" + spec + "': " + why +
                          " (forms: gemm:M,N,K or attention:B,H,S,D[,causal], each with an "
                          "optional :dtype)");
}

}  // namespace

bool looks_like_inline_workload(const std::string& spec) {
  const std::size_t colon = spec.find(':');
  if (colon == std::string::npos) return false;
  const std::string prefix = spec.substr(0, colon);
  for (const InlineKind& kind : inline_kinds()) {
    if (kind.name == prefix) return true;
  }
  return false;
}

ir::Graph inline_workload(const std::string& spec) {
  const std::vector<std::string> fields = split(spec, ':');
  if (fields.size() < 2 || fields.size() > 3) bad_spec(spec, "expected KIND:VALUES[:DTYPE]");
  const InlineKind* kind = nullptr;
  for (const InlineKind& candidate : inline_kinds()) {
    if (candidate.name == fields[0]) kind = &candidate;
  }
  if (kind == nullptr) bad_spec(spec, "unknown kind '" + fields[0] + "'");
  std::vector<std::string> values = split(fields[1], ',');
  std::string layer = "{name: " + kind->name + ", op: " + kind->name;
  if (!kind->flag.empty() && !values.empty() && values.back() == kind->flag) {
    layer += ", " + kind->flag + ": true";
    values.pop_back();
  }
  if (values.size() != kind->keys.size()) {
    bad_spec(spec, std::to_string(kind->keys.size()) + " values expected, got " +
                       std::to_string(values.size()));
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i].empty() || values[i].find_first_not_of("0123456789") != std::string::npos) {
      bad_spec(spec, "'" + values[i] + "' is not a positive integer");
    }
    layer += ", " + kind->keys[i] + ": " + values[i];
  }
  if (fields.size() == 3) layer += ", dtype: " + fields[2];
  layer += "}";
  // The layer list checks ranges and dtype names, with the spec as the "file" in messages.
  return layer_list_from_config(parse_config_text("layers: [" + layer + "]\n", spec),
                                kind->name);
}

}  // namespace polyarch::frontend
