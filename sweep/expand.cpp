#include "sweep/expand.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <set>

#include "base/sha256.h"
#include "sweep/key_path.h"

namespace polyarch::sweep {

namespace {

std::string point_id(const SweepSpec& spec, const std::vector<ConfigNode>& values) {
  std::map<std::string, std::string> by_path;
  for (std::size_t i = 0; i < values.size(); ++i) {
    by_path[spec.parameters[i].path] = values[i].scalar();
  }
  std::string canonical;
  for (const auto& [path, value] : by_path) canonical += path + "=" + value + "\n";
  return sha256_hex(canonical).substr(0, 16);
}

// A draw in [0, 1) from 53 random bits: std::uniform_real_distribution is not specified
// bit-exactly across standard libraries, mt19937_64 is, so seeds reproduce everywhere.
double uniform01(std::mt19937_64& generator) {
  return static_cast<double>(generator() >> 11) * 0x1.0p-53;
}

// Sets dimension `dimension`'s parameters from a position u in [0, 1).
void assign_from_unit(const SweepDimension& dimension, double u, std::vector<ConfigNode>& values) {
  if (dimension.range) {
    const ContinuousRange& range = *dimension.range;
    char text[32];
    if (range.integral) {
      double span = range.to - range.from + 1;
      std::snprintf(text, sizeof text, "%lld",
                    static_cast<long long>(range.from + std::min(span - 1, std::floor(u * span))));
    } else {
      std::snprintf(text, sizeof text, "%.9g", range.from + u * (range.to - range.from));
    }
    values[dimension.parameters[0]] = ConfigNode::make_scalar(text, range.where);
    return;
  }
  std::size_t count = dimension.rows.size();
  std::size_t index = std::min(count - 1, static_cast<std::size_t>(u * static_cast<double>(count)));
  for (std::size_t k = 0; k < dimension.parameters.size(); ++k) {
    values[dimension.parameters[k]] = dimension.rows[index][k];
  }
}

std::vector<std::vector<ConfigNode>> cartesian(const SweepSpec& spec) {
  std::vector<std::vector<ConfigNode>> all;
  std::vector<std::size_t> index(spec.dimensions.size(), 0);
  std::vector<ConfigNode> values(spec.parameters.size());
  while (true) {
    for (std::size_t d = 0; d < spec.dimensions.size(); ++d) {
      const SweepDimension& dimension = spec.dimensions[d];
      for (std::size_t k = 0; k < dimension.parameters.size(); ++k) {
        values[dimension.parameters[k]] = dimension.rows[index[d]][k];
      }
    }
    all.push_back(values);
    // An odometer with the last dimension fastest.
    std::size_t d = spec.dimensions.size();
    while (d > 0) {
      --d;
      if (++index[d] < spec.dimensions[d].rows.size()) break;
      index[d] = 0;
      if (d == 0) return all;
    }
    if (spec.dimensions.empty()) return all;
  }
}

std::vector<std::vector<ConfigNode>> sampled(const SweepSpec& spec, const SamplingSpec& sampling) {
  std::mt19937_64 generator(sampling.seed);
  std::size_t samples = static_cast<std::size_t>(sampling.samples);
  std::size_t dimensions = spec.dimensions.size();
  // unit[s][d]: sample s's position along dimension d.
  std::vector<std::vector<double>> unit(samples, std::vector<double>(dimensions));
  if (sampling.method == SamplingSpec::Method::kRandom) {
    for (auto& row : unit) {
      for (double& u : row) u = uniform01(generator);
    }
  } else {
    // Latin hypercube (McKay, Beckman & Conover 1979): each dimension is cut into `samples`
    // strata and every stratum is used exactly once, in a random order per dimension.
    for (std::size_t d = 0; d < dimensions; ++d) {
      std::vector<std::size_t> strata(samples);
      for (std::size_t s = 0; s < samples; ++s) strata[s] = s;
      for (std::size_t s = samples; s > 1; --s) {
        std::swap(strata[s - 1], strata[generator() % s]);
      }
      for (std::size_t s = 0; s < samples; ++s) {
        unit[s][d] =
            (static_cast<double>(strata[s]) + uniform01(generator)) / static_cast<double>(samples);
      }
    }
  }
  std::vector<std::vector<ConfigNode>> all;
  for (const auto& row : unit) {
    std::vector<ConfigNode> values(spec.parameters.size());
    for (std::size_t d = 0; d < dimensions; ++d)
      assign_from_unit(spec.dimensions[d], row[d], values);
    all.push_back(std::move(values));
  }
  return all;
}

std::optional<double> soc_area_mm2(const archs::SocConfig& soc) {
  std::optional<double> total;
  for (const auto& unit : soc.units) {
    if (std::optional<double> area = unit->area_mm2(soc.tech.table))
      total = total.value_or(0) + *area;
  }
  return total;
}

double lookup_number(const SweepSpec& spec, const SweepPoint& point, const ConfigNode& arch,
                     const Expression& expression, const std::string& name) {
  const ConfigNode* node = nullptr;
  if (name == "area_mm2") {
    if (!point.area_mm2) {
      throw_bad_input(expression.where(), "in constraint '" + expression.text() +
                                              "': area_mm2 is unknown (no unit models area)");
    }
    return *point.area_mm2;
  }
  for (std::size_t i = 0; i < spec.parameters.size() && node == nullptr; ++i) {
    if (spec.parameters[i].path == name) node = &point.values[i];
  }
  for (std::size_t i = 0; i < spec.parameters.size() && node == nullptr; ++i) {
    if (spec.parameters[i].short_name == name) node = &point.values[i];
  }
  if (node == nullptr) node = find_key_path(arch, name);
  if (node == nullptr) {
    std::string path = unique_key_path_for(arch, name);
    if (!path.empty()) node = find_key_path(arch, path);
  }
  if (node == nullptr || !node->is_scalar()) {
    throw_bad_input(expression.where(), "in constraint '" + expression.text() + "': '" + name +
                                            "' is not a number in this point's arch");
  }
  return node->as_double(-1e300, 1e300);
}

}  // namespace

std::vector<SweepPoint> expand_points(const SweepSpec& spec) {
  std::vector<std::vector<ConfigNode>> all =
      spec.sampling ? sampled(spec, *spec.sampling) : cartesian(spec);
  std::vector<SweepPoint> points;
  std::set<std::string> seen;
  for (auto& values : all) {
    std::string id = point_id(spec, values);
    if (seen.insert(id).second) points.push_back({id, std::move(values), std::nullopt});
  }
  return points;
}

ConfigNode point_arch_document(const SweepSpec& spec, const SweepPoint& point) {
  ConfigNode arch = spec.base;
  for (std::size_t i = 0; i < spec.parameters.size(); ++i) {
    set_key_path(arch, spec.parameters[i].path, point.values[i]);
  }
  return arch;
}

bool satisfies_constraints(const SweepSpec& spec, const SweepPoint& point, const ConfigNode& arch) {
  for (const Expression& constraint : spec.constraints) {
    double verdict = constraint.evaluate([&](const std::string& name) {
      return lookup_number(spec, point, arch, constraint, name);
    });
    if (verdict == 0.0) return false;
  }
  return true;
}

SweepPlan plan_sweep(const SweepSpec& spec) {
  SweepPlan plan;
  for (SweepPoint& point : expand_points(spec)) {
    ConfigNode arch = point_arch_document(spec, point);
    archs::SocConfig soc = archs::parse_soc_config(arch);
    point.area_mm2 = soc_area_mm2(soc);
    if (satisfies_constraints(spec, point, arch)) {
      plan.points.push_back(std::move(point));
    } else {
      ++plan.rejected;
    }
  }
  return plan;
}

}  // namespace polyarch::sweep
