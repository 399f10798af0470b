#include "mapping/space/mapping_space.h"

#include <limits>
#include <sstream>

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

MappingPoint MappingSpace::parse(const std::string& description) const {
  constexpr uint32_t kUnset = std::numeric_limits<uint32_t>::max();
  MappingPoint point(dimensions_.size(), kUnset);
  std::istringstream words(description);
  std::string word;
  while (words >> word) {
    const std::size_t equals = word.find('=');
    if (equals == std::string::npos) {
      throw_bad_input({}, "mapping '" + description + "': '" + word + "' is not name=value");
    }
    const std::string name = word.substr(0, equals);
    const std::string label = word.substr(equals + 1);
    std::size_t dimension = dimensions_.size();
    for (std::size_t i = 0; i < dimensions_.size(); ++i) {
      if (dimensions_[i].name == name) dimension = i;
    }
    if (dimension == dimensions_.size()) {
      throw_bad_input({}, "mapping '" + description + "': the space has no dimension '" + name +
                              "'");
    }
    if (point[dimension] != kUnset) {
      throw_bad_input({}, "mapping '" + description + "': '" + name + "' is given twice");
    }
    const Dimension& values = dimensions_[dimension];
    for (std::size_t index = 0; index < values.values.size(); ++index) {
      if (values.label(index) == label) point[dimension] = static_cast<uint32_t>(index);
    }
    if (point[dimension] == kUnset) {
      throw_bad_input({}, "mapping '" + description + "': '" + label + "' is not a value of '" +
                              name + "'");
    }
  }
  for (std::size_t i = 0; i < dimensions_.size(); ++i) {
    if (point[i] == kUnset) {
      throw_bad_input({}, "mapping '" + description + "' leaves out '" + dimensions_[i].name +
                              "'");
    }
  }
  return point;
}

}  // namespace polyarch::mapping
