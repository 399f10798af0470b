#include "archs/mapping_reader.h"

#include "base/error.h"

namespace polyarch::archs {

MappingReader::MappingReader(const sim::OpResult& op) : MappingReader(op, op.mapping, "mapping") {}

MappingReader::MappingReader(const sim::OpResult& op, const nlohmann::ordered_json& object,
                             std::string path)
    : op_(&op), object_(&object), path_(std::move(path)) {}

void MappingReader::fail(std::string_view key, const std::string& problem) const {
  SourceLocation where;
  where.key_path = path_ + "." + std::string(key);
  throw_runtime(where, "op '" + op_->name + "' on unit '" + op_->unit + "': " + problem);
}

const nlohmann::ordered_json& MappingReader::field(std::string_view key) const {
  if (!object_->is_object()) fail(key, "its parent is " + std::string(object_->type_name()));
  const auto found = object_->find(std::string(key));
  if (found == object_->end()) fail(key, "missing");
  return *found;
}

MappingReader MappingReader::object(std::string_view key) const {
  const nlohmann::ordered_json& value = field(key);
  if (!value.is_object()) fail(key, std::string(value.type_name()) + ", not an object");
  return MappingReader(*op_, value, path_ + "." + std::string(key));
}

int64_t MappingReader::count(std::string_view key) const {
  const nlohmann::ordered_json& value = field(key);
  if (!value.is_number_integer()) fail(key, std::string(value.type_name()) + ", not an integer");
  return value.get<int64_t>();
}

double MappingReader::number(std::string_view key) const {
  const nlohmann::ordered_json& value = field(key);
  if (!value.is_number()) fail(key, std::string(value.type_name()) + ", not a number");
  return value.get<double>();
}

ir::DType MappingReader::dtype(std::string_view key) const {
  const nlohmann::ordered_json& value = field(key);
  if (!value.is_string()) fail(key, std::string(value.type_name()) + ", not a dtype name");
  const std::optional<ir::DType> dtype = ir::parse_dtype(value.get<std::string>());
  if (!dtype) fail(key, "'" + value.get<std::string>() + "' is not a dtype");
  return *dtype;
}

std::vector<std::pair<std::string, int64_t>> MappingReader::counts() const {
  std::vector<std::pair<std::string, int64_t>> entries;
  for (auto entry = object_->begin(); entry != object_->end(); ++entry) {
    entries.emplace_back(entry.key(), count(entry.key()));
  }
  return entries;
}

}  // namespace polyarch::archs
