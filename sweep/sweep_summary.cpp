#include "sweep/sweep_summary.h"

#include "base/config_tree.h"
#include "sweep/expand.h"

namespace polyarch::sweep {

std::optional<std::string> sweep_file_summary(const std::filesystem::path& path) {
  // Topologies, ONNX models and text IR are workloads by their extension; only YAML can be a
  // sweep.
  const std::string extension = path.extension().string();
  if (extension == ".csv" || extension == ".onnx" || extension == ".ir") return std::nullopt;
  // A sweep file's `base:` names its arch, not an include, so it is read as it is.
  if (!looks_like_sweep(load_config_file(path))) return std::nullopt;
  const SweepSpec spec = load_sweep_spec(path);
  const SweepPlan plan = plan_sweep(spec);
  return "sweep, " + std::to_string(plan.points.size()) + " point(s) (" +
         std::to_string(plan.rejected) + " rejected by constraints) x " +
         std::to_string(spec.workloads.size()) + " workload(s)";
}

}  // namespace polyarch::sweep
