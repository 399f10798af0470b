// MapReader and the spelling suggestions its unknown-key errors use.
#include <algorithm>
#include <limits>

#include "base/config_tree.h"

namespace polyarch {

int edit_distance(const std::string& a, const std::string& b) {
  // Two-row Levenshtein: insertions, deletions and substitutions each cost 1.
  std::vector<int> previous(b.size() + 1), current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = static_cast<int>(j);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = static_cast<int>(i);
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const int substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
    }
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::string nearest_spelling(const std::string& word, const std::vector<std::string>& candidates) {
  // Allow about one edit per two letters (a swapped pair costs two), at most three, and never
  // a rewrite of the whole word: "rwos" -> "rows", but "k" is not a misspelling of "m".
  const int limit = std::clamp(static_cast<int>(word.size() + 1) / 2, 1, 3);
  std::string best;
  int best_distance = std::numeric_limits<int>::max();
  for (const std::string& candidate : candidates) {
    const int distance = edit_distance(word, candidate);
    const int longest = static_cast<int>(std::max(word.size(), candidate.size()));
    if (distance <= limit && distance < longest && distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  return best;
}

namespace {
std::string join(const std::vector<std::string>& words) {
  std::string text;
  for (const std::string& word : words) text += (text.empty() ? "" : ", ") + word;
  return text;
}
}  // namespace

MapReader::MapReader(const ConfigNode& node) : node_(node) {
  if (!node.is_map()) {
    const std::string found = node.is_scalar() ? "'" + node.scalar() + "'" : node.describe_type();
    throw_bad_input(node.where(), "expected a map, got " + found);
  }
}

namespace {

// One insertion, deletion or substitution, or one swap of adjacent letters.
// Keys shorter than three letters ('k', 'h', 'r') are one edit from each other, so never count.
bool is_single_typo(const std::string& written, const std::string& intended) {
  if (std::min(written.size(), intended.size()) < 3) return false;
  if (edit_distance(written, intended) == 1) return true;
  if (written.size() != intended.size()) return false;
  std::size_t first = 0;
  while (first < written.size() && written[first] == intended[first]) ++first;
  if (first + 1 >= written.size()) return false;
  std::string swapped = written;
  std::swap(swapped[first], swapped[first + 1]);
  return swapped == intended;
}

}  // namespace

bool MapReader::has(const std::string& key) const { return node_.find(key) != nullptr; }

const ConfigNode& MapReader::required(const std::string& key) {
  ignore(key);
  const ConfigNode* value = node_.find(key);
  if (value == nullptr) {
    // A missing key is most often a misspelt one: point at the misspelling when there is one.
    // Only near-certain typos count here (one edit or one swap): 'cols' is not a misspelt
    // 'rows', even though nearest_spelling would pair them.
    std::string near;
    for (const auto& entry : node_.entries()) {
      if (is_single_typo(entry.first, key)) near = entry.first;
    }
    if (!near.empty()) {
      const ConfigNode& misspelt = *node_.find(near);
      throw_bad_input(misspelt.where(), "unknown key '" + near + "'; did you mean '" + key +
                                            "'? (required key '" + key + "' is missing)");
    }
    throw_bad_input(node_.where(), "missing required key '" + key + "'");
  }
  return *value;
}

const ConfigNode* MapReader::optional(const std::string& key) {
  ignore(key);
  return node_.find(key);
}

int64_t MapReader::required_int(const std::string& key, int64_t min_value, int64_t max_value) {
  return required(key).as_int(min_value, max_value);
}

int64_t MapReader::optional_int(const std::string& key, int64_t fallback, int64_t min_value,
                                int64_t max_value) {
  const ConfigNode* value = optional(key);
  return value ? value->as_int(min_value, max_value) : fallback;
}

double MapReader::required_double(const std::string& key, double min_value, double max_value) {
  return required(key).as_double(min_value, max_value);
}

double MapReader::optional_double(const std::string& key, double fallback, double min_value,
                                  double max_value) {
  const ConfigNode* value = optional(key);
  return value ? value->as_double(min_value, max_value) : fallback;
}

namespace {
const std::string& string_value(const ConfigNode& value) {
  if (!value.is_scalar())
    throw_bad_input(value.where(), "expected a string, got " + value.describe_type());
  return value.scalar();
}

void check_allowed(const ConfigNode& value, const std::string& key,
                   const std::vector<std::string>& allowed) {
  const std::string& text = string_value(value);
  if (std::find(allowed.begin(), allowed.end(), text) != allowed.end()) return;
  std::string message = "invalid value '" + text + "' for '" + key + "'";
  const std::string suggestion = nearest_spelling(text, allowed);
  if (!suggestion.empty()) message += "; did you mean '" + suggestion + "'?";
  throw_bad_input(value.where(), message + " (allowed: " + join(allowed) + ")");
}
}  // namespace

std::string MapReader::required_string(const std::string& key) {
  return string_value(required(key));
}

std::string MapReader::optional_string(const std::string& key, const std::string& fallback) {
  const ConfigNode* value = optional(key);
  return value ? string_value(*value) : fallback;
}

std::string MapReader::required_enum(const std::string& key,
                                     const std::vector<std::string>& allowed) {
  const ConfigNode& value = required(key);
  check_allowed(value, key, allowed);
  return value.scalar();
}

std::string MapReader::optional_enum(const std::string& key, const std::string& fallback,
                                     const std::vector<std::string>& allowed) {
  const ConfigNode* value = optional(key);
  if (value == nullptr) return fallback;
  check_allowed(*value, key, allowed);
  return value->scalar();
}

bool MapReader::optional_bool(const std::string& key, bool fallback) {
  const ConfigNode* value = optional(key);
  return value ? value->as_bool() : fallback;
}

void MapReader::ignore(const std::string& key) {
  if (std::find(known_keys_.begin(), known_keys_.end(), key) == known_keys_.end()) {
    known_keys_.push_back(key);
  }
}

void MapReader::finish() {
  for (const auto& [key, value] : node_.entries()) {
    if (std::find(known_keys_.begin(), known_keys_.end(), key) != known_keys_.end()) continue;
    std::string message = "unknown key '" + key + "'";
    const std::string suggestion = nearest_spelling(key, known_keys_);
    if (!suggestion.empty()) {
      message += "; did you mean '" + suggestion + "'?";
    } else if (!known_keys_.empty()) {
      message += " (valid keys: " + join(known_keys_) + ")";
    }
    throw_bad_input(value.where(), message);
  }
}

}  // namespace polyarch
