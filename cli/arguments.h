#pragma once
// A small command-line parser: `--name value`, `--name=value`, `--flag`, and positionals.
// Unknown options are bad input (exit 2) with the nearest valid option suggested.
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace polyarch::cli {

struct OptionSpec {
  std::string name;  // without dashes
  bool takes_value = true;
  bool repeatable = false;
};

class Arguments {
 public:
  Arguments(const std::vector<std::string>& args, const std::vector<OptionSpec>& specs);

  bool flag(const std::string& name) const { return values_.count(name) > 0; }
  std::optional<std::string> value(const std::string& name) const;
  std::string required(const std::string& name) const;
  std::vector<std::string> values(const std::string& name) const;
  const std::vector<std::string>& positionals() const { return positionals_; }

 private:
  std::map<std::string, std::vector<std::string>> values_;
  std::vector<std::string> positionals_;
};

}  // namespace polyarch::cli
