#include "mapping/cache/decision_cache.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace polyarch::mapping {

namespace {

constexpr const char* kSchema = "polyarch.mapping_decision/2";

uint64_t fnv1a(const std::string& text) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ull;
  }
  return hash;
}

// The program that made a decision: its executable's size and modification time. A rebuilt or
// upgraded polyarch may cost mappings differently, so another build's decisions are misses,
// never reused as if still the best. (A hash of the executable would also tell apart two builds
// in the same second, at a cost every process would pay.)
const std::string& program_identity() {
  static const std::string identity = [] {
    std::error_code error;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
    if (error) return std::string("unknown");
    const auto size = std::filesystem::file_size(exe, error);
    if (error) return std::string("unknown");
    const auto written = std::filesystem::last_write_time(exe, error);
    if (error) return std::string("unknown");
    return std::to_string(size) + "@" +
           std::to_string(written.time_since_epoch().count());
  }();
  return identity;
}

nlohmann::json key_json(const DecisionKey& key) {
  return {{"op_shape", key.op_shape},
          {"unit_config", key.unit_config},
          {"objective", key.objective},
          {"searcher", key.searcher},
          {"program", program_identity()}};
}

}  // namespace

DecisionCache::DecisionCache(std::filesystem::path directory, Warn warn)
    : directory_(std::move(directory)), warn_(std::move(warn)) {}

std::filesystem::path DecisionCache::entry_path(const DecisionKey& key) const {
  char name[32];
  std::snprintf(name, sizeof name, "%016llx.json",
                static_cast<unsigned long long>(fnv1a(key_json(key).dump())));
  return directory_ / name;
}

std::optional<CachedDecision> DecisionCache::lookup(const DecisionKey& key) const {
  const std::filesystem::path path = entry_path(key);
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  try {
    const nlohmann::json json = nlohmann::json::parse(text.str());
    if (json.at("schema") != kSchema) return std::nullopt;  // another version's entry: stale
    if (json.at("key") != key_json(key)) return std::nullopt;  // a hash collision: a miss
    const nlohmann::json& decision = json.at("decision");
    CachedDecision cached;
    cached.point = decision.at("point").get<std::vector<uint32_t>>();
    cached.mapping = decision.at("mapping").get<std::string>();
    cached.latency_s = decision.at("latency_s").get<double>();
    cached.energy_j = decision.at("energy_j").get<double>();
    cached.score = decision.at("score").get<double>();
    cached.bound = decision.at("bound").get<std::string>();
    cached.evaluations = decision.at("evaluations").get<int64_t>();
    return cached;
  } catch (const std::exception& error) {
    if (warn_)
      warn_("ignoring corrupted mapping cache entry " + path.string() + ": " + error.what());
    return std::nullopt;
  }
}

void DecisionCache::store(const DecisionKey& key, const CachedDecision& decision) const {
  static std::atomic<uint64_t> counter{0};
  const nlohmann::json json{{"schema", kSchema},
                            {"key", key_json(key)},
                            {"decision",
                             {{"point", decision.point},
                              {"mapping", decision.mapping},
                              {"latency_s", decision.latency_s},
                              {"energy_j", decision.energy_j},
                              {"score", decision.score},
                              {"bound", decision.bound},
                              {"evaluations", decision.evaluations}}}};
  const std::filesystem::path path = entry_path(key);
  // A unique temporary name per process and call, so concurrent compiles never share one.
  const std::filesystem::path temporary =
      path.string() + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
  std::error_code error;
  std::filesystem::create_directories(directory_, error);
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << json.dump(1) << '\n';
    if (!out.flush()) {
      if (warn_) warn_("cannot write mapping cache entry " + temporary.string());
      std::filesystem::remove(temporary, error);
      return;
    }
  }
  std::filesystem::rename(temporary, path, error);
  if (error) {
    if (warn_) warn_("cannot write mapping cache entry " + path.string() + ": " + error.message());
    std::filesystem::remove(temporary, error);
  }
}

std::filesystem::path default_cache_directory() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0') {
    return std::filesystem::path(xdg) / "polyarch";
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return std::filesystem::path(home) / ".cache" / "polyarch";
  }
  return ".polyarch-cache";
}

}  // namespace polyarch::mapping
