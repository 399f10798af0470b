#include "mapping/space/mapping_space.h"

#include <limits>

#include "base/error.h"

namespace polyarch::mapping {

std::string Dimension::label(std::size_t index) const {
  if (index < labels.size()) return labels[index];
  return std::to_string(values.at(index));
}

MappingSpace::MappingSpace(std::vector<Dimension> dimensions) : dimensions_(std::move(dimensions)) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  for (const Dimension& dimension : dimensions_) {
    if (dimension.values.empty()) {
      throw_runtime({}, "mapping dimension '" + dimension.name + "' has no values");
    }
    const auto count = static_cast<int64_t>(dimension.values.size());
    size_ = size_ > kMax / count ? kMax : size_ * count;
  }
}

std::size_t MappingSpace::index_of(const std::string& name) const {
  for (std::size_t i = 0; i < dimensions_.size(); ++i) {
    if (dimensions_[i].name == name) return i;
  }
  throw_runtime({}, "mapping space has no dimension '" + name + "'");
}

int64_t MappingSpace::rank(const MappingPoint& point) const {
  int64_t rank = 0;
  for (std::size_t i = 0; i < dimensions_.size(); ++i) {
    rank = rank * static_cast<int64_t>(dimensions_[i].values.size()) + point[i];
  }
  return rank;
}

MappingPoint MappingSpace::unrank(int64_t rank) const {
  MappingPoint point(dimensions_.size(), 0);
  for (std::size_t i = dimensions_.size(); i-- > 0;) {
    const auto count = static_cast<int64_t>(dimensions_[i].values.size());
    point[i] = static_cast<uint32_t>(rank % count);
    rank /= count;
  }
  return point;
}

std::string MappingSpace::describe(const MappingPoint& point) const {
  std::string text;
  for (std::size_t i = 0; i < dimensions_.size(); ++i) {
    if (!text.empty()) text += ' ';
    text += dimensions_[i].name + "=" + dimensions_[i].label(point[i]);
  }
  return text;
}

}  // namespace polyarch::mapping
