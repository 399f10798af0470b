// `polyarch compare`: one workload on several architectures, side by side.
#include <cstdio>
#include <iostream>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "driver/run.h"
#include "reports/json_report.h"
#include "reports/output_files.h"

namespace polyarch::cli {

namespace {

constexpr const char* kCompareHelp = R"(usage: polyarch compare --workload W --arch A.yaml --arch B.yaml ... [--out DIR]

Runs W on every architecture and prints latency, cycles, utilisation and DRAM traffic side by
side. W is a workload file or an inline kernel: gemm:M,N,K or attention:B,H,S,D[,causal], each
with an optional :dtype (gemm:4096,4096,4096:bf16). With --out, writes DIR/compare.csv (one
plot-ready row per architecture) and DIR/<arch name>/report.json for each.
)";

// One row per architecture: what a "same kernel on every architecture" plot needs. The
// workload field is quoted: an inline spec contains commas.
std::string compare_csv(const std::string& workload, const std::vector<sim::RunResult>& results) {
  std::string csv =
      "arch,workload,latency_s,total_cycles,clock_ghz,energy_j,avg_power_w,flops,"
      "attained_flops_per_s,dram_bytes\n";
  for (const sim::RunResult& result : results) {
    double flops = 0;
    for (const sim::OpResult& op : result.ops) flops += 2.0 * static_cast<double>(op.macs);
    const double seconds = result.summary.latency_s;
    char row[512];
    std::snprintf(row, sizeof(row), "%s,\"%s\",%.9g,%lld,%.6g,%s,%s,%.9g,%.9g,%lld\n",
                  result.provenance.arch_name.c_str(), workload.c_str(), seconds,
                  static_cast<long long>(result.summary.total_cycles), result.summary.clock_ghz,
                  result.summary.energy_j ? std::to_string(*result.summary.energy_j).c_str() : "",
                  result.summary.avg_power_w ? std::to_string(*result.summary.avg_power_w).c_str()
                                             : "",
                  flops, seconds > 0 ? flops / seconds : 0.0,
                  static_cast<long long>(result.summary.dram_bytes_read +
                                         result.summary.dram_bytes_written));
    csv += row;
  }
  return csv;
}

}  // namespace

int compare_command(const CommandArgs& args) {
  if (wants_help(args)) {
    std::cout << kCompareHelp;
    return 0;
  }
  Arguments parsed(args, {{"workload"}, {"arch", true, true}, {"out"}});
  std::vector<std::string> archs = parsed.values("arch");
  if (archs.empty()) throw_bad_input({}, "compare needs at least one --arch (see --help)");
  std::string workload = parsed.required("workload");
  std::vector<sim::RunResult> results;
  for (const std::string& arch : archs) {
    driver::RunRequest request;
    request.arch_path = arch;
    request.workload_path = workload;
    results.push_back(driver::run(request));
  }
  std::printf("%-24s %14s %14s %12s %16s\n", "arch", "latency_s", "total_cycles", "mean_util",
              "dram_bytes");
  for (const sim::RunResult& result : results) {
    double util_sum = 0;
    for (const sim::OpResult& op : result.ops) util_sum += op.utilization;
    double mean_util = result.ops.empty() ? 0.0 : util_sum / result.ops.size();
    std::printf("%-24s %14.6g %14lld %11.1f%% %16lld\n", result.provenance.arch_name.c_str(),
                result.summary.latency_s, static_cast<long long>(result.summary.total_cycles),
                100.0 * mean_util,
                static_cast<long long>(result.summary.dram_bytes_read +
                                       result.summary.dram_bytes_written));
  }
  if (auto out = parsed.value("out")) {
    for (const sim::RunResult& result : results) {
      reports::write_files_atomically(std::filesystem::path(*out) / result.provenance.arch_name,
                                      {{"report.json", reports::report_json(result).dump(2) + "\n"}});
    }
    reports::write_files_atomically(*out, {{"compare.csv", compare_csv(workload, results)}});
  }
  return 0;
}

}  // namespace polyarch::cli
