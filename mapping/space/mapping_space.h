#pragma once
// A mapping space: named discrete dimensions (tile sizes per loop and memory level, loop order,
// dataflow, buffer partition, double buffering, ...). A point of the space is one index per
// dimension; the unit kind that owns the space gives each value its meaning. Spaces are
// enumerable (rank <-> point) so exhaustive search, caches and de-duplication share one key.
#include <cstdint>
#include <string>
#include <vector>

namespace polyarch::mapping {

struct Dimension {
  std::string name;                 // e.g. "dataflow", "ifmap_eighths", "temporal_splits"
  std::vector<int64_t> values;      // the candidate values, in the order searches walk them
  std::vector<std::string> labels;  // optional names of the values ("os", "ws", ...)

  std::string label(std::size_t index) const;
};

// One index into each dimension's values.
using MappingPoint = std::vector<uint32_t>;

class MappingSpace {
 public:
  MappingSpace() = default;
  explicit MappingSpace(std::vector<Dimension> dimensions);

  const std::vector<Dimension>& dimensions() const { return dimensions_; }
  std::size_t dimension_count() const { return dimensions_.size(); }
  // Number of points (valid or not); saturates at INT64_MAX for absurd spaces.
  int64_t size() const { return size_; }
  // Index of the dimension named `name`; throws a runtime error when absent.
  std::size_t index_of(const std::string& name) const;
  int64_t value(const MappingPoint& point, std::size_t dimension) const {
    return dimensions_[dimension].values[point[dimension]];
  }

  // Mixed-radix numbering, the last dimension fastest: rank(unrank(r)) == r.
  int64_t rank(const MappingPoint& point) const;
  MappingPoint unrank(int64_t rank) const;
  // "dataflow=ws ifmap_eighths=3 ..." for logs, explain output and cache files.
  std::string describe(const MappingPoint& point) const;
  // The point `describe` writes as `description`: every dimension once, as name=label, in any
  // order. Bad input naming the dimension or value when one is unknown, repeated or missing.
  MappingPoint parse(const std::string& description) const;

 private:
  std::vector<Dimension> dimensions_;
  int64_t size_ = 1;
};

}  // namespace polyarch::mapping
