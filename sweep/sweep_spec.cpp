#include "sweep/sweep_spec.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "base/path_exists.h"
#include "base/sha256.h"
#include "sweep/key_path.h"

namespace polyarch::sweep {

namespace {

// A range expands to at most this many values: beyond it a typo (step 0.0001) is likelier
// than intent, and the cartesian product would be unmanageable anyway.
constexpr int64_t kMaxRangeValues = 100000;
// The cartesian product is built point by point in memory: a few long dimensions multiply past
// any machine (3 ranges of 10^4 values: 10^12 points). Sampling draws a fixed number instead.
constexpr double kMaxCartesianPoints = 1e6;

bool parse_integer(const std::string& text, int64_t& value) {
  std::size_t used = 0;
  try {
    value = std::stoll(text, &used);
  } catch (const std::exception&) {
    return false;
  }
  return used == text.size();
}

std::string format_number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.12g", value);
  return buffer;
}

// Values of one parameter: a list of scalars, one scalar, or a range. A step-less range fills
// `range` and returns no values.
std::vector<ConfigNode> parse_values(const ConfigNode& node, std::optional<ContinuousRange>& range,
                                     bool sampling) {
  if (node.is_scalar()) return {node};
  if (node.is_sequence()) {
    if (node.items().empty()) throw_bad_input(node.where(), "a parameter needs at least one value");
    for (const ConfigNode& item : node.items()) {
      if (!item.is_scalar()) {
        throw_bad_input(item.where(),
                        "a parameter value must be a scalar, got " + item.describe_type());
      }
    }
    return node.items();
  }
  if (!node.is_map()) {
    throw_bad_input(node.where(), "expected a list of values or a range {from, to, step}, got " +
                                      node.describe_type());
  }
  MapReader reader(node);
  const ConfigNode& from_node = reader.required("from");
  const ConfigNode& to_node = reader.required("to");
  const ConfigNode* step_node = reader.optional("step");
  reader.finish();
  double from = from_node.as_double(-1e18, 1e18);
  double to = to_node.as_double(from, 1e18);
  int64_t from_int = 0;
  int64_t to_int = 0;
  bool integral =
      parse_integer(from_node.scalar(), from_int) && parse_integer(to_node.scalar(), to_int);
  if (step_node == nullptr) {
    if (!sampling) {
      throw_bad_input(node.where(), "a range without `step` needs `sampling:` to draw from it");
    }
    range = ContinuousRange{from, to, integral, node.where()};
    return {};
  }
  double step = step_node->as_double(1e-12, 1e18);
  int64_t step_int = 0;
  integral = integral && parse_integer(step_node->scalar(), step_int);
  // The small tolerance keeps `to` when (to - from) / step is an integer up to rounding.
  double count = std::floor((to - from) / step + 1e-9) + 1;
  if (count > kMaxRangeValues) {
    throw_bad_input(node.where(), "the range has " + format_number(count) + " values, more than " +
                                      std::to_string(kMaxRangeValues));
  }
  std::vector<ConfigNode> values;
  for (int64_t i = 0; i < static_cast<int64_t>(count); ++i) {
    std::string text = integral ? std::to_string(from_int + i * step_int)
                                : format_number(from + static_cast<double>(i) * step);
    values.push_back(ConfigNode::make_scalar(text, node.where()));
  }
  return values;
}

SweepParameter make_parameter(const SweepSpec& spec, const std::string& path,
                              const ConfigNode& value_node) {
  SourceLocation where = value_node.where();
  for (const SweepParameter& existing : spec.parameters) {
    if (existing.path == path) throw_bad_input(where, "parameter '" + path + "' appears twice");
  }
  check_key_path(spec.base, path, where);
  return {path, split_key_path(path).back(), where};
}

void parse_parameters(SweepSpec& spec, const ConfigNode& node) {
  if (!node.is_map()) {
    throw_bad_input(node.where(), "`parameters` must be a map of key path: values");
  }
  for (const auto& [path, value_node] : node.entries()) {
    spec.parameters.push_back(make_parameter(spec, path, value_node));
    SweepDimension dimension;
    dimension.parameters = {spec.parameters.size() - 1};
    for (ConfigNode& value : parse_values(value_node, dimension.range, spec.sampling.has_value())) {
      dimension.rows.push_back({value});
    }
    spec.dimensions.push_back(std::move(dimension));
  }
}

void parse_zip_group(SweepSpec& spec, const ConfigNode& group) {
  if (!group.is_map() || group.entries().empty()) {
    throw_bad_input(group.where(), "a zip group is a map of key path: values, varied together");
  }
  SweepDimension dimension;
  std::size_t length = 0;
  for (const auto& [path, value_node] : group.entries()) {
    spec.parameters.push_back(make_parameter(spec, path, value_node));
    dimension.parameters.push_back(spec.parameters.size() - 1);
    std::optional<ContinuousRange> range;
    std::vector<ConfigNode> values = parse_values(value_node, range, false);
    if (dimension.rows.empty()) {
      length = values.size();
      dimension.rows.resize(length);
    } else if (values.size() != length) {
      throw_bad_input(value_node.where(), "zip group members need equal lengths: '" + path +
                                              "' has " + std::to_string(values.size()) +
                                              " values, the first has " + std::to_string(length));
    }
    for (std::size_t i = 0; i < length; ++i) dimension.rows[i].push_back(values[i]);
  }
  spec.dimensions.push_back(std::move(dimension));
}

SamplingSpec parse_sampling(const ConfigNode& node) {
  MapReader reader(node);
  SamplingSpec sampling;
  std::string method = reader.required_enum("method", {"random", "latin_hypercube"});
  sampling.method =
      method == "random" ? SamplingSpec::Method::kRandom : SamplingSpec::Method::kLatinHypercube;
  sampling.samples = reader.required_int("samples", 1, 10000000);
  sampling.seed = static_cast<uint64_t>(reader.optional_int("seed", 0, 0, INT64_MAX));
  reader.finish();
  return sampling;
}

// Every identifier must name a parameter (full path or unique short name), a derived metric,
// or a key path of the base arch.
void check_identifiers(const SweepSpec& spec, const Expression& expression) {
  std::vector<std::string> candidates = sweep_derived_names();
  for (const SweepParameter& parameter : spec.parameters) {
    candidates.push_back(parameter.path);
    candidates.push_back(parameter.short_name);
  }
  for (const std::string& path : scalar_key_paths(spec.base)) {
    candidates.push_back(path);
    candidates.push_back(split_key_path(path).back());
  }
  for (const std::string& name : expression.identifiers()) {
    int short_matches = 0;
    bool base_ambiguous = false;
    bool known = std::find(candidates.begin(), candidates.end(), name) != candidates.end() &&
                 (find_key_path(spec.base, name) != nullptr ||
                  !unique_key_path_for(spec.base, name, &base_ambiguous).empty() ||
                  std::find(sweep_derived_names().begin(), sweep_derived_names().end(), name) !=
                      sweep_derived_names().end());
    for (const SweepParameter& parameter : spec.parameters) {
      short_matches += parameter.short_name == name && parameter.path != name;
    }
    bool is_parameter = false;
    for (const SweepParameter& parameter : spec.parameters) {
      is_parameter = is_parameter || parameter.short_name == name || parameter.path == name;
    }
    known = known || is_parameter;
    if (short_matches > 1 || (!known && base_ambiguous)) {
      throw_bad_input(expression.where(), "in constraint '" + expression.text() + "': '" + name +
                                              "' is ambiguous; use the full key path");
    }
    if (known) continue;
    std::string message = "in constraint '" + expression.text() + "': unknown name '" + name + "'";
    std::string suggestion = nearest_spelling(name, candidates);
    if (!suggestion.empty()) message += "; did you mean '" + suggestion + "'?";
    throw_bad_input(expression.where(),
                    message + " (constraints use parameters, arch key paths and " + "area_mm2)");
  }
}

void check_point_count(const SweepSpec& spec, const ConfigNode& parameters) {
  double points = 1.0;
  for (const SweepDimension& dimension : spec.dimensions) {
    points *= static_cast<double>(dimension.rows.size());
  }
  if (points > kMaxCartesianPoints) {
    throw_bad_input(parameters.where(), "the parameters span " + format_number(points) +
                                            " points, more than " +
                                            format_number(kMaxCartesianPoints) +
                                            "; narrow them or draw from them with `sampling:`");
  }
}

void parse_constraints(SweepSpec& spec, const ConfigNode& node) {
  if (!node.is_sequence()) throw_bad_input(node.where(), "`constraints` must be a list");
  for (const ConfigNode& item : node.items()) {
    Expression expression = Expression::parse(item.scalar(), item.where());
    if (!expression.is_comparison()) {
      throw_bad_input(item.where(), "constraint '" + item.scalar() +
                                        "' must be a comparison such as `rows * cols <= 65536`");
    }
    check_identifiers(spec, expression);
    spec.constraints.push_back(std::move(expression));
  }
}

// "unknown metric 'x'; did you mean 'y'? (valid: a, b, c)": every valid name, since a reader
// looking for a metric does not know what the sweep calls it.
std::string unknown_metric_message(const std::string& name, const std::vector<std::string>& valid) {
  std::string message = "unknown metric '" + name + "'";
  const std::string suggestion = nearest_spelling(name, valid);
  if (!suggestion.empty()) message += "; did you mean '" + suggestion + "'?";
  std::string list;
  for (const std::string& metric : valid) list.append(list.empty() ? "" : ", ").append(metric);
  return message + " (valid: " + list + ")";
}

void parse_objectives(SweepSpec& spec, const ConfigNode& node) {
  MapReader reader(node);
  for (const auto& [metric, value] : node.entries()) {
    if (std::find(sweep_objective_metrics().begin(), sweep_objective_metrics().end(), metric) ==
        sweep_objective_metrics().end()) {
      throw_bad_input(value.where(), unknown_metric_message(metric, sweep_objective_metrics()));
    }
    std::string direction = reader.required_enum(metric, {"min", "max"});
    spec.objectives.push_back({metric, direction == "min"});
  }
  reader.finish();
}

void parse_keep(SweepSpec& spec, const ConfigNode& node) {
  if (!node.is_sequence()) throw_bad_input(node.where(), "`keep` must be a list of metric names");
  spec.keep_ops = false;
  std::vector<std::string> allowed = sweep_keepable_metrics();
  allowed.push_back("ops");
  for (const ConfigNode& item : node.items()) {
    const std::string& name = item.scalar();
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
      throw_bad_input(item.where(), unknown_metric_message(name, allowed));
    }
    if (name == "ops") {
      spec.keep_ops = true;
    } else if (std::find(spec.keep.begin(), spec.keep.end(), name) == spec.keep.end()) {
      spec.keep.push_back(name);
    }
  }
}

}  // namespace

const std::vector<std::string>& sweep_summary_metrics() {
  static const std::vector<std::string> kMetrics = {"total_cycles",    "latency_s",
                                                    "energy_j",        "avg_power_w",
                                                    "dram_bytes_read", "dram_bytes_written"};
  return kMetrics;
}

const std::vector<std::string>& sweep_keepable_metrics() {
  static const std::vector<std::string> kMetrics = [] {
    std::vector<std::string> metrics = sweep_summary_metrics();
    metrics.insert(metrics.end(), sweep_extra_metrics().begin(), sweep_extra_metrics().end());
    return metrics;
  }();
  return kMetrics;
}

const std::vector<std::string>& sweep_objective_metrics() {
  static const std::vector<std::string> kMetrics = [] {
    std::vector<std::string> metrics = sweep_summary_metrics();
    metrics.push_back("area_mm2");
    return metrics;
  }();
  return kMetrics;
}

const std::vector<std::string>& sweep_derived_names() {
  static const std::vector<std::string> kNames = {"area_mm2"};
  return kNames;
}

bool looks_like_sweep(const ConfigNode& root) { return root.find("parameters") != nullptr; }

SweepSpec parse_sweep_spec(const ConfigNode& root, const std::filesystem::path& file) {
  MapReader reader(root);
  SweepSpec spec;
  spec.file = file;
  const ConfigNode& base_node = reader.required("base");
  spec.base_path = file.parent_path() / base_node.scalar();
  if (!path_exists(spec.base_path)) {
    throw_bad_input(base_node.where(),
                    "base arch file '" + spec.base_path.string() + "' does not exist");
  }
  spec.base = load_config_with_base(spec.base_path);
  spec.base_sha256 = sha256_file_hex(spec.base_path);
  if (const ConfigNode* node = reader.optional("sampling")) spec.sampling = parse_sampling(*node);
  parse_parameters(spec, reader.required("parameters"));
  if (const ConfigNode* node = reader.optional("zip")) {
    if (!node->is_sequence()) throw_bad_input(node->where(), "`zip` must be a list of groups");
    for (const ConfigNode& group : node->items()) parse_zip_group(spec, group);
  }
  if (!spec.sampling) check_point_count(spec, reader.required("parameters"));
  if (const ConfigNode* node = reader.optional("constraints")) parse_constraints(spec, *node);
  const ConfigNode& workloads = reader.required("workloads");
  if (!workloads.is_sequence() || workloads.items().empty()) {
    throw_bad_input(workloads.where(), "`workloads` must be a non-empty list of files");
  }
  std::set<std::string> seen;
  for (const ConfigNode& item : workloads.items()) {
    std::filesystem::path path = file.parent_path() / item.scalar();
    if (!path_exists(path)) {
      throw_bad_input(item.where(), "workload file '" + path.string() + "' does not exist");
    }
    if (!seen.insert(path.lexically_normal().string()).second) {
      throw_bad_input(item.where(), "workload '" + item.scalar() + "' is listed twice");
    }
    spec.workloads.push_back(path);
    spec.workload_entries.push_back(std::filesystem::path(item.scalar()).lexically_normal());
  }
  spec.keep = sweep_summary_metrics();
  if (const ConfigNode* node = reader.optional("keep")) parse_keep(spec, *node);
  if (const ConfigNode* node = reader.optional("objectives")) parse_objectives(spec, *node);
  for (const Objective& objective : spec.objectives) {
    bool stored = objective.metric == "area_mm2" || std::find(spec.keep.begin(), spec.keep.end(),
                                                              objective.metric) != spec.keep.end();
    if (!stored) {
      throw_bad_input(reader.required("objectives").where(),
                      "objective '" + objective.metric + "' is not in `keep`");
    }
  }
  reader.finish();
  return spec;
}

SweepSpec load_sweep_spec(const std::filesystem::path& file) {
  SweepSpec spec = parse_sweep_spec(load_config_file(file), file);
  spec.sha256 = sha256_file_hex(file);
  return spec;
}

}  // namespace polyarch::sweep
