#include "base/config_yaml.h"

#include <yaml-cpp/yaml.h>

namespace polyarch {

namespace {

void emit(YAML::Emitter& out, const ConfigNode& node) {
  switch (node.type()) {
    case ConfigNode::Type::kNull:
      out << YAML::Null;
      return;
    case ConfigNode::Type::kScalar:
      // Quoted only where plain text would read as something else (yaml-cpp decides).
      out << node.scalar();
      return;
    case ConfigNode::Type::kMap:
      out << YAML::BeginMap;
      for (const auto& [key, value] : node.entries()) {
        out << YAML::Key << key << YAML::Value;
        emit(out, value);
      }
      out << YAML::EndMap;
      return;
    case ConfigNode::Type::kSequence:
      out << YAML::BeginSeq;
      for (const ConfigNode& item : node.items()) emit(out, item);
      out << YAML::EndSeq;
      return;
  }
}

}  // namespace

std::string config_to_yaml(const ConfigNode& node) {
  YAML::Emitter out;
  emit(out, node);
  return std::string(out.c_str()) + "\n";
}

}  // namespace polyarch
