#include "cli/sweep_request.h"

#include <tuple>
#include <utility>

#include "base/error.h"
#include "cli/mapping_search_options.h"

namespace polyarch::cli {

namespace {

int parse_jobs(const std::optional<std::string>& text) {
  if (!text) return 1;
  try {
    std::size_t used = 0;
    int jobs = std::stoi(*text, &used);
    if (used == text->size() && jobs >= 1 && jobs <= 1024) return jobs;
  } catch (const std::exception&) {
  }
  throw_bad_input({}, "-j expects a number of processes from 1 to 1024, got '" + *text + "'");
}

// "i/N" with 0 <= i < N: the form Slurm's 0-based array indices give directly.
std::pair<int, int> parse_shard(const std::optional<std::string>& text) {
  if (!text) return {0, 1};
  std::size_t slash = text->find('/');
  try {
    if (slash != std::string::npos) {
      std::size_t used_index = 0;
      std::size_t used_count = 0;
      int index = std::stoi(text->substr(0, slash), &used_index);
      int count = std::stoi(text->substr(slash + 1), &used_count);
      if (used_index == slash && used_count == text->size() - slash - 1 && (*text)[0] != '-' &&
          count >= 1 && count <= 1000000 && index >= 0 && index < count) {
        return {index, count};
      }
    }
  } catch (const std::exception&) {
  }
  throw_bad_input({}, "--shard expects i/N with 0 <= i < N (e.g. 0/4), got '" + *text + "'");
}

}  // namespace

std::vector<OptionSpec> sweep_option_specs() {
  std::vector<OptionSpec> specs = {{"out"}, {"jobs"}, {"resume", false}, {"shard"}};
  for (OptionSpec& spec : mapping_search_option_specs()) specs.push_back(std::move(spec));
  return specs;
}

std::vector<std::string> normalise_jobs_flag(const std::vector<std::string>& args) {
  std::vector<std::string> normalised;
  for (const std::string& arg : args) {
    if (arg == "-j") {
      normalised.push_back("--jobs");
    } else if (arg.rfind("-j", 0) == 0 && arg.rfind("--", 0) != 0) {
      normalised.push_back("--jobs");
      normalised.push_back(arg.substr(2));
    } else {
      normalised.push_back(arg);
    }
  }
  return normalised;
}

sweep::SweepRunOptions sweep_run_options(const Arguments& parsed) {
  if (parsed.positionals().size() != 1) {
    throw_bad_input({}, "sweep needs exactly one sweep file (see --help)");
  }
  sweep::SweepRunOptions options;
  options.sweep_file = parsed.positionals().front();
  options.out_dir = parsed.value("out").value_or(
      (std::filesystem::path("out/sweeps") / options.sweep_file.stem()).string());
  options.jobs = parse_jobs(parsed.value("jobs"));
  options.resume = parsed.flag("resume");
  std::tie(options.shard_index, options.shard_count) = parse_shard(parsed.value("shard"));
  options.mapping_search = driver::search_policy(mapping_search_options(parsed), 0);
  return options;
}

}  // namespace polyarch::cli
