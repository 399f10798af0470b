#include "sweep/sweep_runner.h"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>

#include "base/path_exists.h"
#include "base/sha256.h"
#include "compiler/frontend/workload_loader.h"
#include "driver/run.h"
#include "driver/search_options.h"
#include "sweep/expand.h"
#include "sweep/job_dispatch.h"
#include "sweep/mpi_world.h"
#include "sweep/pareto.h"
#include "sweep/progress.h"
#include "sweep/result_wire.h"
#include "sweep/sweep_database.h"
#include "sweep/sweep_export.h"
#include "sweep/worker_pool.h"

namespace polyarch::sweep {

namespace {

// Runs in the worker process: the arch is re-parsed there so the parent keeps only documents.
std::string simulate_point(const SweepSpec& spec, const SweepPoint& point, const ir::Graph& graph,
                           const std::shared_ptr<const mapping::SearchPolicy>& mapping_search) {
  archs::SocConfig soc = archs::parse_soc_config(point_arch_document(spec, point));
  soc.use_mapping_search(mapping_search);
  ir::Graph fitted = graph;
  driver::fit_graph_to_soc(soc, fitted, mapping_search != nullptr, /*only_supported=*/false);
  return encode_run_result(driver::simulate_workload(soc, fitted));
}

std::vector<ObjectiveRow> compute_front(const SweepSpec& spec, SweepDatabase& database,
                                        const SweepPlan& plan,
                                        const std::vector<int64_t>& workload_ids) {
  std::vector<std::string> ids;
  for (const SweepPoint& point : plan.points) ids.push_back(point.id);
  std::vector<ObjectiveRow> candidates;
  for (ObjectiveRow& row : database.objective_rows(ids, workload_ids)) {
    bool known = true;
    for (const auto& value : row.values) known = known && value.has_value();
    if (known) candidates.push_back(std::move(row));
  }
  std::vector<std::vector<double>> costs;
  for (const ObjectiveRow& row : candidates) {
    std::vector<double> cost;
    for (std::size_t k = 0; k < row.values.size(); ++k) {
      cost.push_back(spec.objectives[k].minimize ? *row.values[k] : -*row.values[k]);
    }
    costs.push_back(std::move(cost));
  }
  std::vector<ObjectiveRow> front;
  for (std::size_t index : pareto_front(costs)) front.push_back(candidates[index]);
  return front;
}

void print_front(const SweepSpec& spec, const SweepPlan& plan,
                 const std::vector<ObjectiveRow>& front, std::ostream& out) {
  std::map<std::string, const SweepPoint*> by_id;
  for (const SweepPoint& point : plan.points) by_id[point.id] = &point;
  out << "pareto front (" << front.size() << " point" << (front.size() == 1 ? "" : "s")
      << ", objectives summed over workloads):\n";
  for (const ObjectiveRow& row : front) {
    out << "  " << row.point_id;
    for (std::size_t k = 0; k < row.values.size(); ++k) {
      char value[32];
      std::snprintf(value, sizeof value, "%.6g", *row.values[k]);
      out << "  " << spec.objectives[k].metric << "=" << value;
    }
    const SweepPoint& point = *by_id.at(row.point_id);
    for (std::size_t i = 0; i < spec.parameters.size(); ++i) {
      out << "  " << spec.parameters[i].short_name << "=" << point.values[i].scalar();
    }
    out << "\n";
  }
}

// What every rank derives identically from the sweep file: the points (this shard's), the
// workload graphs, and so the meaning of a job id, point * workloads + workload.
struct SweepInputs {
  SweepSpec spec;
  SweepPlan plan;
  std::vector<ir::Graph> graphs;
  std::shared_ptr<const mapping::SearchPolicy> mapping_search;

  std::size_t point_of(std::size_t id) const { return id / graphs.size(); }
  std::size_t workload_of(std::size_t id) const { return id % graphs.size(); }
  std::string run(std::size_t id) const {
    return simulate_point(spec, plan.points[point_of(id)], graphs[workload_of(id)],
                          mapping_search);
  }
};

SweepInputs load_inputs(const SweepRunOptions& options) {
  SweepInputs inputs{load_sweep_spec(options.sweep_file), {}, {}, options.mapping_search};
  inputs.plan = plan_sweep(inputs.spec);
  if (options.shard_count > 1) {
    std::vector<SweepPoint> mine;
    for (std::size_t p = 0; p < inputs.plan.points.size(); ++p) {
      if (static_cast<int>(p % options.shard_count) == options.shard_index) {
        mine.push_back(std::move(inputs.plan.points[p]));
      }
    }
    inputs.plan.points = std::move(mine);
  }
  for (const std::filesystem::path& workload : inputs.spec.workloads) {
    inputs.graphs.push_back(frontend::load_workload(workload));
  }
  return inputs;
}

SweepRunSummary run_on_rank_zero(const SweepRunOptions& options, const MpiWorld& world,
                                 SweepInputs& inputs, std::ostream& out, std::ostream& progress) {
  auto started = std::chrono::steady_clock::now();
  const SweepSpec& spec = inputs.spec;
  const SweepPlan& plan = inputs.plan;
  const bool sharded = options.shard_count > 1;
  std::vector<SweepWorkload> workloads;
  for (std::size_t w = 0; w < spec.workloads.size(); ++w) {
    workloads.push_back({spec.workload_entries[w], sha256_file_hex(spec.workloads[w]),
                         inputs.graphs[w].name()});
  }
  std::filesystem::path database_path =
      options.out_dir / (sharded ? "results-shard-" + std::to_string(options.shard_index) + "-of-" +
                                       std::to_string(options.shard_count) + ".sqlite"
                                 : std::string("results.sqlite"));
  if (options.resume && !path_exists(database_path)) {
    throw_bad_input({database_path.string(), 0, 0, ""},
                    "--resume: no results database to resume here");
  }
  std::filesystem::create_directories(options.out_dir);
  SweepDatabase database(database_path, spec);
  database.record_mapping_mode(driver::mapping_mode_json(options.mapping_search.get()).dump());
  std::vector<int64_t> workload_ids = database.register_run(workloads);
  database.insert_points(plan.points);

  SweepRunSummary summary;
  summary.points = static_cast<int64_t>(plan.points.size());
  summary.rejected = plan.rejected;
  std::set<std::pair<std::string, int64_t>> done = database.completed();
  std::vector<std::size_t> jobs;
  for (std::size_t p = 0; p < plan.points.size(); ++p) {
    for (std::size_t w = 0; w < workloads.size(); ++w) {
      ++summary.jobs_total;
      if (done.count({plan.points[p].id, workload_ids[w]}) > 0) {
        ++summary.jobs_skipped;
      } else {
        jobs.push_back(p * workloads.size() + w);
      }
    }
  }
  out << spec.file.string() << ": " << summary.points << " points (" << summary.rejected
      << " rejected by constraints) x " << workloads.size() << " workload(s); "
      << summary.jobs_skipped << " already done, " << jobs.size() << " to run with -j "
      << options.jobs;
  if (world.distributed()) out << " on each of " << world.size() << " MPI ranks";
  out << "\n" << std::flush;

  SweepProgress bar(progress, static_cast<int64_t>(jobs.size()), options.terminal);
  dispatch_jobs(
      world, jobs, options.jobs, [&inputs](std::size_t id) { return inputs.run(id); },
      [&](std::size_t id, const FinishedJob& finished) {
        const SweepPoint& point = plan.points[inputs.point_of(id)];
        const std::size_t w = inputs.workload_of(id);
        if (finished.ok) {
          database.commit_result(point.id, workload_ids[w], decode_run_result(finished.payload),
                                 finished.wall_s);
        } else {
          database.commit_error(point.id, workload_ids[w], finished.payload);
          ++summary.jobs_failed;
        }
        bar.finished("point " + point.id + " on " + workloads[w].name +
                         (finished.ok ? "" : ": " + finished.payload),
                     finished.ok);
      });
  bar.close();

  if (sharded) {
    out << "shard " << options.shard_index << "/" << options.shard_count
        << ": join the shard databases with `polyarch merge` for the Pareto front and CSV\n";
  } else if (!spec.objectives.empty()) {
    std::vector<ObjectiveRow> front = compute_front(spec, database, plan, workload_ids);
    database.write_pareto(front);
    for (const ObjectiveRow& row : front) summary.pareto_point_ids.push_back(row.point_id);
    print_front(spec, plan, front, out);
  }
  if (!sharded) export_sweep_files(database_path, options.out_dir);
  summary.wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  char rate[64];
  int64_t ran = summary.jobs_total - summary.jobs_skipped;
  std::snprintf(rate, sizeof rate, "%.2f s (%.1f jobs/s)", summary.wall_s,
                summary.wall_s > 0 ? static_cast<double>(ran) / summary.wall_s : 0.0);
  out << "ran " << ran << " job(s), " << summary.jobs_failed << " failed, in " << rate
      << "; results in " << database_path.string()
      << (sharded ? "" : " (and points.csv, op_results.csv, dashboard.html)") << "\n";
  return summary;
}

}  // namespace

SweepRunSummary run_sweep(const SweepRunOptions& options, std::ostream& out,
                          std::ostream& progress) {
  MpiWorld world;
  // Every rank reads the files itself: a bad sweep file fails on all of them alike.
  SweepInputs inputs = load_inputs(options);
  if (world.rank() != 0) {
    serve_jobs(world, options.jobs, [&inputs](std::size_t id) { return inputs.run(id); });
    return {};
  }
  if (!world.distributed()) return run_on_rank_zero(options, world, inputs, out, progress);
  try {
    return run_on_rank_zero(options, world, inputs, out, progress);
  } catch (const std::exception& error) {
    // The other ranks wait for jobs that will never come: say why, then end them all.
    std::cerr << "polyarch: error: " << error.what() << "\n" << std::flush;
    world.abort(2);
  }
}

}  // namespace polyarch::sweep
