#include "reports/diff/report_diff.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "base/error.h"
#include "reports/json_report.h"

namespace polyarch::reports {

namespace {

using Json = nlohmann::json;
using Values = std::vector<std::optional<double>>;  // one per diff_metric_keys() entry
// Positions in diff_metric_keys() (and so in Values) that the summary's utilisation reads.
constexpr std::size_t kLatencyIndex = 0;
constexpr std::size_t kUtilizationIndex = 5;

const std::vector<std::string> kUnitMetricKeys = {"busy_cycles", "busy_fraction", "energy_j"};
// Keys renamed since report.json's first version, each with the name it had: a report written
// before the rename (a baseline kept from an older build) is read by the earlier name.
const std::map<std::string, std::string> kEarlierKeys = {{"compute_utilization", "utilization"},
                                                         {"busy_fraction", "utilization"}};

struct ParsedOp {
  std::string name;
  std::string unit;
  Values values;
};

struct ParsedUnit {
  std::string name;
  Values values;
};

struct ParsedReport {
  Values summary;
  std::vector<ParsedOp> ops;  // report order
  std::vector<ParsedUnit> units;
  std::string arch;
  std::string workload;
};

// Reads one report, naming it by `label` and the key path in every error.
class ReportReader {
 public:
  explicit ReportReader(std::string label) : label_(std::move(label)) {}

  ParsedReport read(const Json& report) const {
    if (!report.is_object()) fail("", "not a polyarch report: expected a JSON object");
    if (!report.contains("schema")) {
      fail("", std::string("not a polyarch report: no \"schema\" key (expected \"") +
                   kReportSchema + "\")");
    }
    const Json& schema = report["schema"];
    if (!schema.is_string() || schema.get<std::string>() != kReportSchema) {
      fail("schema",
           "unsupported schema " + schema.dump() + " (expected \"" + kReportSchema + "\")");
    }
    ParsedReport parsed;
    parsed.ops = read_entries<ParsedOp>(
        member(report, "ops", "", Json::value_t::array), "ops",
        [&](const Json& op, const std::string& path) { return read_op(op, path); });
    parsed.units = read_units(member(report, "units", "", Json::value_t::array));
    parsed.summary = read_summary(member(report, "summary", "", Json::value_t::object), parsed.ops);
    if (report.contains("provenance") && report["provenance"].is_object()) {
      parsed.arch = optional_text(report["provenance"], "arch_name");
      parsed.workload = optional_text(report["provenance"], "workload_name");
    }
    return parsed;
  }

 private:
  [[noreturn]] void fail(const std::string& path, const std::string& message) const {
    throw_bad_input({label_, 0, 0, path}, message);
  }

  static std::string join(const std::string& parent, const std::string& key) {
    return parent.empty() ? key : parent + "." + key;
  }

  const Json& member(const Json& object, const std::string& key, const std::string& parent,
                     Json::value_t type) const {
    const std::string path = join(parent, key);
    if (!object.contains(key)) fail(path, "missing key");
    const Json& value = object[key];
    if (value.type() != type) {
      fail(path, std::string("expected ") +
                     (type == Json::value_t::array ? "an array" : "an object") + ", got " +
                     value.type_name());
    }
    return value;
  }

  std::string text(const Json& object, const std::string& key, const std::string& parent) const {
    const std::string path = join(parent, key);
    if (!object.contains(key)) fail(path, "missing key");
    if (!object[key].is_string())
      fail(path, std::string("expected a string, got ") + object[key].type_name());
    return object[key].get<std::string>();
  }

  static std::string optional_text(const Json& object, const std::string& key) {
    return object.contains(key) && object[key].is_string() ? object[key].get<std::string>() : "";
  }

  // A number, or absent for null; a renamed key is read by its earlier name when that is what
  // the report has.
  std::optional<double> number(const Json& object, const std::string& key,
                               const std::string& parent) const {
    const std::string path = join(parent, key);
    const auto earlier = kEarlierKeys.find(key);
    const std::string& present =
        !object.contains(key) && earlier != kEarlierKeys.end() && object.contains(earlier->second)
            ? earlier->second
            : key;
    if (!object.contains(present)) fail(path, "missing key");
    const Json& value = object[present];
    if (value.is_null()) return std::nullopt;
    if (!value.is_number()) fail(path, std::string("expected a number, got ") + value.type_name());
    return value.get<double>();
  }

  std::optional<double> dram_bytes(const Json& object, const std::string& parent) const {
    const std::optional<double> read = number(object, "dram_bytes_read", parent);
    const std::optional<double> written = number(object, "dram_bytes_written", parent);
    if (!read || !written) return std::nullopt;
    return *read + *written;
  }

  // The entries of the array `name` (ops, units), each an object, read by `read_entry`.
  template <typename Entry, typename ReadEntry>
  std::vector<Entry> read_entries(const Json& array, const std::string& name,
                                  ReadEntry read_entry) const {
    std::vector<Entry> entries;
    for (std::size_t i = 0; i < array.size(); ++i) {
      const std::string path = name + "[" + std::to_string(i) + "]";
      const Json& entry = array[i];
      if (!entry.is_object())
        fail(path, std::string("expected an object, got ") + entry.type_name());
      entries.push_back(read_entry(entry, path));
    }
    return entries;
  }

  ParsedOp read_op(const Json& op, const std::string& path) const {
    const std::optional<double> latency = number(op, "latency_s", path);
    const std::optional<double> energy = number(op, "energy_j", path);
    std::optional<double> power;
    if (latency && energy && *latency > 0) power = *energy / *latency;
    return {text(op, "name", path),
            text(op, "unit", path),
            {latency, number(op, "total_cycles", path), energy, power, dram_bytes(op, path),
             number(op, "compute_utilization", path)}};
  }

  std::vector<ParsedUnit> read_units(const Json& units) const {
    std::vector<ParsedUnit> parsed =
        read_entries<ParsedUnit>(units, "units", [&](const Json& unit, const std::string& path) {
          ParsedUnit entry{text(unit, "name", path), {}};
          for (const std::string& key : kUnitMetricKeys)
            entry.values.push_back(number(unit, key, path));
          return entry;
        });
    for (std::size_t i = 1; i < parsed.size(); ++i) {
      for (std::size_t earlier = 0; earlier < i; ++earlier) {
        if (parsed[earlier].name == parsed[i].name) {
          fail("units[" + std::to_string(i) + "].name", "duplicate unit '" + parsed[i].name + "'");
        }
      }
    }
    return parsed;
  }

  Values read_summary(const Json& summary, const std::vector<ParsedOp>& ops) const {
    return {number(summary, "latency_s", "summary"), number(summary, "total_cycles", "summary"),
            number(summary, "energy_j", "summary"),  number(summary, "avg_power_w", "summary"),
            dram_bytes(summary, "summary"),          weighted_utilization(ops)};
  }

  // The run's utilisation: each op's utilization weighted by its latency_s, so that a long op
  // counts for more than a short one (for one unit running ops back to back this is its MACs
  // over its peak MACs in that time).
  static std::optional<double> weighted_utilization(const std::vector<ParsedOp>& ops) {
    double weighted = 0.0;
    double seconds = 0.0;
    for (const ParsedOp& op : ops) {
      const std::optional<double>& latency = op.values[kLatencyIndex];
      const std::optional<double>& utilization = op.values[kUtilizationIndex];
      if (!latency || !utilization) continue;
      weighted += *latency * *utilization;
      seconds += *latency;
    }
    if (seconds <= 0) return std::nullopt;
    return weighted / seconds;
  }

  std::string label_;
};

std::vector<MetricDelta> pair_values(const std::vector<std::string>& keys, const Values& base,
                                     const Values& next) {
  std::vector<MetricDelta> metrics;
  for (std::size_t i = 0; i < keys.size(); ++i) metrics.push_back({keys[i], base[i], next[i]});
  return metrics;
}

void match_ops_of_one_name(const std::vector<const ParsedOp*>& base,
                           const std::vector<const ParsedOp*>& next, ReportDiff& diff) {
  std::vector<bool> base_used(base.size(), false);
  std::vector<bool> next_used(next.size(), false);
  auto pair_up = [&](std::size_t b, std::size_t n) {
    base_used[b] = next_used[n] = true;
    diff.ops.push_back({base[b]->name, base[b]->unit, next[n]->unit,
                        pair_values(diff_metric_keys(), base[b]->values, next[n]->values)});
  };
  for (std::size_t b = 0; b < base.size(); ++b) {
    for (std::size_t n = 0; n < next.size(); ++n) {
      if (!next_used[n] && next[n]->unit == base[b]->unit) {
        pair_up(b, n);
        break;
      }
    }
  }
  std::size_t n = 0;
  for (std::size_t b = 0; b < base.size(); ++b) {
    if (base_used[b]) continue;
    while (n < next.size() && next_used[n]) ++n;
    if (n == next.size()) break;
    pair_up(b, n);
  }
  for (std::size_t b = 0; b < base.size(); ++b) {
    if (!base_used[b]) diff.ops_only_in_base.push_back({base[b]->name, base[b]->unit});
  }
  for (std::size_t i = 0; i < next.size(); ++i) {
    if (!next_used[i]) diff.ops_only_in_next.push_back({next[i]->name, next[i]->unit});
  }
}

void match_ops(const std::vector<ParsedOp>& base, const std::vector<ParsedOp>& next,
               ReportDiff& diff) {
  std::map<std::string, std::pair<std::vector<const ParsedOp*>, std::vector<const ParsedOp*>>>
      by_name;
  for (const ParsedOp& op : base) by_name[op.name].first.push_back(&op);
  for (const ParsedOp& op : next) by_name[op.name].second.push_back(&op);
  for (const auto& [name, ops] : by_name) match_ops_of_one_name(ops.first, ops.second, diff);
  std::stable_sort(diff.ops.begin(), diff.ops.end(), [](const OpDelta& a, const OpDelta& b) {
    return std::tie(a.name, a.base_unit, a.next_unit) < std::tie(b.name, b.base_unit, b.next_unit);
  });
  auto by_name_and_unit = [](const UnmatchedOp& a, const UnmatchedOp& b) {
    return std::tie(a.name, a.unit) < std::tie(b.name, b.unit);
  };
  std::stable_sort(diff.ops_only_in_base.begin(), diff.ops_only_in_base.end(), by_name_and_unit);
  std::stable_sort(diff.ops_only_in_next.begin(), diff.ops_only_in_next.end(), by_name_and_unit);
}

void match_units(const std::vector<ParsedUnit>& base, const std::vector<ParsedUnit>& next,
                 ReportDiff& diff) {
  std::map<std::string, const ParsedUnit*> next_by_name;
  for (const ParsedUnit& unit : next) next_by_name[unit.name] = &unit;
  std::map<std::string, const ParsedUnit*> base_by_name;
  for (const ParsedUnit& unit : base) base_by_name[unit.name] = &unit;
  for (const auto& [name, unit] : base_by_name) {
    auto found = next_by_name.find(name);
    if (found == next_by_name.end()) {
      diff.units_only_in_base.push_back(name);
    } else {
      diff.units.push_back(
          {name, pair_values(kUnitMetricKeys, unit->values, found->second->values)});
    }
  }
  for (const auto& [name, unit] : next_by_name) {
    if (!base_by_name.contains(name)) diff.units_only_in_next.push_back(name);
  }
}

}  // namespace

std::optional<double> MetricDelta::absolute_change() const {
  if (!base || !next) return std::nullopt;
  return *next - *base;
}

std::optional<double> MetricDelta::relative_change() const {
  if (!base || !next) return std::nullopt;
  if (*base == 0) return *next == 0 ? std::optional<double>(0.0) : std::nullopt;
  return (*next - *base) / std::fabs(*base);
}

const std::vector<std::string>& diff_metric_keys() {
  static const std::vector<std::string> keys = {"latency_s",   "total_cycles", "energy_j",
                                                "avg_power_w", "dram_bytes",   "utilization"};
  return keys;
}

ReportDiff diff_reports(const nlohmann::json& base, const nlohmann::json& next,
                        const std::string& base_label, const std::string& next_label) {
  const ParsedReport parsed_base = ReportReader(base_label).read(base);
  const ParsedReport parsed_next = ReportReader(next_label).read(next);
  ReportDiff diff;
  diff.base_label = base_label;
  diff.next_label = next_label;
  diff.base_arch = parsed_base.arch;
  diff.next_arch = parsed_next.arch;
  diff.base_workload = parsed_base.workload;
  diff.next_workload = parsed_next.workload;
  diff.summary = pair_values(diff_metric_keys(), parsed_base.summary, parsed_next.summary);
  match_ops(parsed_base.ops, parsed_next.ops, diff);
  match_units(parsed_base.units, parsed_next.units, diff);
  return diff;
}

}  // namespace polyarch::reports
