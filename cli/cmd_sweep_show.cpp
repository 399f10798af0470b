// `polyarch sweep show DB POINT_ID [--out DIR] [--sweep S.yaml]`: one point of a sweep as an arch
// file and its reports (sweep/point_show.h).
#include <cstdio>
#include <iostream>

#include "base/error.h"
#include "cli/arguments.h"
#include "cli/commands.h"
#include "sweep/point_show.h"

namespace polyarch::cli {

namespace {

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g s", seconds);
  return text;
}

}  // namespace

int sweep_show_command(const CommandArgs& args) {
  Arguments parsed(args, {{"out"}, {"sweep"}});
  if (parsed.positionals().size() != 2) {
    throw_bad_input({},
                    "sweep show expects a sweep database (or its directory) and a point id, "
                    "got " +
                        std::to_string(parsed.positionals().size()) + " (see --help)");
  }
  sweep::PointShowRequest request;
  request.database = parsed.positionals()[0];
  request.point_id = parsed.positionals()[1];
  if (auto file = parsed.value("sweep")) request.sweep_file = *file;
  if (auto out = parsed.value("out")) request.out_dir = *out;
  const sweep::PointShowOutcome outcome = sweep::show_point(request);
  std::cout << "wrote " << (outcome.out_dir / "arch.yaml").string() << "\n";
  for (const sweep::ShownWorkload& workload : outcome.workloads) {
    std::cout << workload.name << ": latency " << seconds_text(workload.latency_s);
    if (workload.stored_latency_s) {
      std::cout << " (the sweep stored " << seconds_text(*workload.stored_latency_s) << ")";
    }
    std::cout << "; wrote " << (outcome.out_dir / workload.name / "report.html").string()
              << " and report.json\n";
  }
  return 0;
}

}  // namespace polyarch::cli
