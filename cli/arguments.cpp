#include "cli/arguments.h"

#include "base/config_tree.h"
#include "base/error.h"

namespace polyarch::cli {

namespace {

const OptionSpec* find_spec(const std::vector<OptionSpec>& specs, const std::string& name) {
  for (const OptionSpec& spec : specs) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

[[noreturn]] void unknown_option(const std::vector<OptionSpec>& specs, const std::string& name) {
  std::vector<std::string> names;
  for (const OptionSpec& spec : specs) names.push_back(spec.name);
  std::string message = "unknown option '--" + name + "'";
  std::string suggestion = nearest_spelling(name, names);
  if (!suggestion.empty()) message += "; did you mean '--" + suggestion + "'?";
  throw_bad_input({}, message + " (see --help)");
}

}  // namespace

Arguments::Arguments(const std::vector<std::string>& args, const std::vector<OptionSpec>& specs) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg.rfind("--", 0) != 0 || arg == "--") {
      positionals_.push_back(arg);
      continue;
    }
    std::string name = arg.substr(2);
    std::optional<std::string> inline_value;
    if (auto equals = name.find('='); equals != std::string::npos) {
      inline_value = name.substr(equals + 1);
      name = name.substr(0, equals);
    }
    const OptionSpec* spec = find_spec(specs, name);
    if (spec == nullptr) unknown_option(specs, name);
    std::string value;
    if (spec->takes_value) {
      if (inline_value) {
        value = *inline_value;
      } else if (i + 1 < args.size()) {
        value = args[++i];
      } else {
        throw_bad_input({}, "option '--" + name + "' needs a value");
      }
    } else if (inline_value) {
      throw_bad_input({}, "option '--" + name + "' takes no value");
    }
    auto& slot = values_[name];
    if (!slot.empty() && !spec->repeatable) {
      throw_bad_input({}, "option '--" + name + "' given more than once");
    }
    slot.push_back(value);
  }
}

std::optional<std::string> Arguments::value(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second.front();
}

std::string Arguments::required(const std::string& name) const {
  std::optional<std::string> found = value(name);
  if (!found) throw_bad_input({}, "missing required option '--" + name + "' (see --help)");
  return *found;
}

std::vector<std::string> Arguments::values(const std::string& name) const {
  auto it = values_.find(name);
  return it == values_.end() ? std::vector<std::string>{} : it->second;
}

}  // namespace polyarch::cli
