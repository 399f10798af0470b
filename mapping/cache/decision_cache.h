#pragma once
// Mapping decisions on disk, so a repeated compile does not search again. A decision is keyed
// by (op shape, unit configuration, objective), each given as canonical text by the caller (the
// unit's describe() JSON, the objective's key()); the file name is a 64-bit FNV-1a hash of the
// key and the file repeats the whole key, so a hash collision reads as a miss. Writes go to a
// temporary file in the same directory and are renamed over the entry (atomic on POSIX), so a
// reader never sees half an entry; an unreadable or malformed entry is ignored with a warning
// and overwritten by the next store, and an entry of another schema version or made by another
// build of polyarch (its executable's hash is part of the key) is a quiet miss.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace polyarch::mapping {

struct DecisionKey {
  std::string op_shape;     // e.g. "gemm m=512 n=768 k=768 batch=1 dtype=int8"
  std::string unit_config;  // the unit's parameters, canonical JSON
  std::string objective;    // Objective::key()
  std::string searcher;     // how the decision was made ("exhaustive", "annealing:seed=1:2000")
};

struct CachedDecision {
  std::vector<uint32_t> point;  // indices into the unit kind's mapping space
  std::string mapping;          // MappingSpace::describe(point), for people reading the cache
  double latency_s = 0;
  double energy_j = 0;
  double score = 0;
  std::string bound;
  int64_t evaluations = 0;  // how many points the search that made it evaluated
};

class DecisionCache {
 public:
  using Warn = std::function<void(const std::string&)>;
  // `directory` is created on first store. `warn` receives one line per ignored entry.
  DecisionCache(std::filesystem::path directory, Warn warn);

  std::optional<CachedDecision> lookup(const DecisionKey& key) const;
  // Best effort: a failed write warns and leaves the cache as it was.
  void store(const DecisionKey& key, const CachedDecision& decision) const;
  std::filesystem::path entry_path(const DecisionKey& key) const;

 private:
  std::filesystem::path directory_;
  Warn warn_;
};

// $XDG_CACHE_HOME/polyarch, else $HOME/.cache/polyarch, else ./.polyarch-cache.
std::filesystem::path default_cache_directory();

}  // namespace polyarch::mapping
