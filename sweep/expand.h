#pragma once
// Turns a sweep spec into design points, deterministically: the cartesian product of its
// dimensions in file order (the first dimension varies slowest), or `samples` random or
// Latin-hypercube draws from a seeded generator. A point's id hashes its parameter values, so
// the same values get the same id in every run and every sweep file order.
#include <optional>
#include <string>
#include <vector>

#include "archs/soc/soc_config.h"
#include "sweep/sweep_spec.h"

namespace polyarch::sweep {

struct SweepPoint {
  std::string id;                  // 16 hex digits of SHA-256 over "path=value" lines, sorted
  std::vector<ConfigNode> values;  // one scalar per SweepSpec::parameters entry
  std::optional<double> area_mm2;  // from the unit area models, when any unit has one
};

// All points before constraints; duplicates (equal ids, e.g. repeated samples) keep the first.
std::vector<SweepPoint> expand_points(const SweepSpec& spec);

// The arch document of one point: the base with every parameter's value set.
ConfigNode point_arch_document(const SweepSpec& spec, const SweepPoint& point);

struct SweepPlan {
  std::vector<SweepPoint> points;  // valid points that satisfy every constraint
  int64_t rejected = 0;            // points some constraint excluded
};

// Expands, parses every point's arch (bad values are bad input naming the sweep file) and
// applies the constraints. No simulation happens here.
SweepPlan plan_sweep(const SweepSpec& spec);

// Evaluates the constraints for one point (its area_mm2 already set) with arch document `arch`.
bool satisfies_constraints(const SweepSpec& spec, const SweepPoint& point, const ConfigNode& arch);

}  // namespace polyarch::sweep
