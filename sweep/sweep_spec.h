#pragma once
// A sweep file (`polyarch sweep S.yaml`) parsed and validated: the base arch, the parameters
// (key paths into the arch document) grouped into dimensions, sampling, constraints, workloads,
// objectives and kept metrics. Every error names the sweep file's line:col and key path.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "base/config_tree.h"
#include "sweep/expression.h"

namespace polyarch::sweep {

struct SweepParameter {
  std::string path;        // key path into the arch document, units addressed by name
  std::string short_name;  // the last path segment, usable in constraints when unique
  SourceLocation where;    // of the parameter's key in the sweep file
};

// A range without a step, only meaningful under sampling: values are drawn from [from, to].
struct ContinuousRange {
  double from = 0.0;
  double to = 0.0;
  bool integral = false;  // both ends are integers: draw integers
  SourceLocation where;
};

// One axis of the design space: a single parameter, or a `zip` group varied together.
struct SweepDimension {
  std::vector<std::size_t> parameters;        // indices into SweepSpec::parameters
  std::vector<std::vector<ConfigNode>> rows;  // rows[i][k]: value of parameters[k] at step i
  std::optional<ContinuousRange> range;       // set instead of rows for a step-less range
};

struct SamplingSpec {
  enum class Method { kRandom, kLatinHypercube };
  Method method = Method::kRandom;
  int64_t samples = 0;
  uint64_t seed = 0;
};

struct Objective {
  std::string metric;  // one of sweep_objective_metrics()
  bool minimize = true;
};

struct SweepSpec {
  std::filesystem::path file;
  std::string sha256;  // of the sweep file's bytes
  std::filesystem::path base_path;
  std::string base_sha256;  // of the resolved base arch document, for resume safety
  ConfigNode base;          // the base arch document, `base:` includes resolved
  std::vector<SweepParameter> parameters;
  std::vector<SweepDimension> dimensions;
  std::optional<SamplingSpec> sampling;
  std::vector<Expression> constraints;
  std::vector<std::filesystem::path> workloads;
  // The workload paths as the sweep file writes them: stored in the database so that a resume
  // from another working directory still recognises its workloads.
  std::vector<std::string> workload_entries;
  std::vector<Objective> objectives;
  std::vector<std::string> keep;  // summary metrics stored per result
  bool keep_ops = true;           // whether op_results rows are stored
};

// Per-result summary metrics a sweep keeps unless `keep:` says otherwise (columns of the results
// table).
const std::vector<std::string>& sweep_summary_metrics();
// Metrics derived from a whole run (sweep_metrics.h): utilization, edp_js, tops_per_w,
// peak_temp_c, energy_by_action; kept only when `keep:` names them.
const std::vector<std::string>& sweep_extra_metrics();
// Every metric `keep:` may name: the summary metrics and the extra ones.
const std::vector<std::string>& sweep_keepable_metrics();
// Metrics objectives may name: the summary metrics plus per-point `area_mm2`.
const std::vector<std::string>& sweep_objective_metrics();
// Names constraints may use besides parameters and arch key paths, known before simulating.
const std::vector<std::string>& sweep_derived_names();

// True when a document looks like a sweep file (has `parameters`), for `polyarch validate`.
bool looks_like_sweep(const ConfigNode& root);

SweepSpec parse_sweep_spec(const ConfigNode& root, const std::filesystem::path& file);
SweepSpec load_sweep_spec(const std::filesystem::path& file);

}  // namespace polyarch::sweep
