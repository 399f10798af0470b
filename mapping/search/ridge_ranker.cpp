#include "mapping/search/ridge_ranker.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "base/error.h"

namespace polyarch::mapping {

namespace {

// Solves A x = b (A symmetric positive definite after the ridge term) by Gaussian elimination
// with partial pivoting; A is small (features + 1 square).
std::vector<double> solve(std::vector<std::vector<double>> a, std::vector<double> b) {
  const std::size_t n = b.size();
  for (std::size_t col = 0; col < n; ++col) {
    std::size_t pivot = col;
    for (std::size_t row = col + 1; row < n; ++row) {
      if (std::abs(a[row][col]) > std::abs(a[pivot][col])) pivot = row;
    }
    std::swap(a[col], a[pivot]);
    std::swap(b[col], b[pivot]);
    if (std::abs(a[col][col]) < 1e-300) continue;
    for (std::size_t row = col + 1; row < n; ++row) {
      const double factor = a[row][col] / a[col][col];
      for (std::size_t k = col; k < n; ++k) a[row][k] -= factor * a[col][k];
      b[row] -= factor * b[col];
    }
  }
  std::vector<double> x(n, 0.0);
  for (std::size_t row = n; row-- > 0;) {
    double sum = b[row];
    for (std::size_t k = row + 1; k < n; ++k) sum -= a[row][k] * x[k];
    x[row] = std::abs(a[row][row]) < 1e-300 ? 0.0 : sum / a[row][row];
  }
  return x;
}

}  // namespace

void RidgeRanker::fit(const std::vector<std::vector<double>>& features,
                      const std::vector<double>& scores) {
  std::vector<const std::vector<double>*> rows;
  std::vector<double> targets;
  for (std::size_t i = 0; i < features.size(); ++i) {
    if (std::isfinite(scores[i]) && scores[i] > 0) {
      rows.push_back(&features[i]);
      targets.push_back(std::log(scores[i]));
    }
  }
  if (rows.size() < 2) return;
  const std::size_t dims = rows.front()->size();
  mean_.assign(dims, 0.0);
  scale_.assign(dims, 0.0);
  for (const auto* row : rows) {
    for (std::size_t d = 0; d < dims; ++d) mean_[d] += (*row)[d] / static_cast<double>(rows.size());
  }
  for (const auto* row : rows) {
    for (std::size_t d = 0; d < dims; ++d) {
      scale_[d] += std::pow((*row)[d] - mean_[d], 2) / static_cast<double>(rows.size());
    }
  }
  for (double& s : scale_) s = s > 1e-24 ? std::sqrt(s) : 1.0;
  // Normal equations (X^T X + penalty I) w = X^T y over [1, standardised features]; the
  // intercept is not penalised.
  const std::size_t n = dims + 1;
  std::vector<std::vector<double>> gram(n, std::vector<double>(n, 0.0));
  std::vector<double> rhs(n, 0.0);
  std::vector<double> x(n);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    x[0] = 1.0;
    for (std::size_t d = 0; d < dims; ++d) x[d + 1] = ((*rows[i])[d] - mean_[d]) / scale_[d];
    for (std::size_t r = 0; r < n; ++r) {
      rhs[r] += x[r] * targets[i];
      for (std::size_t c = 0; c < n; ++c) gram[r][c] += x[r] * x[c];
    }
  }
  for (std::size_t d = 1; d < n; ++d) gram[d][d] += penalty_ * static_cast<double>(rows.size());
  weights_ = solve(std::move(gram), std::move(rhs));
}

double RidgeRanker::predict(const std::vector<double>& features) const {
  if (!trained()) return 0.0;
  double value = weights_[0];
  for (std::size_t d = 0; d < mean_.size() && d < features.size(); ++d) {
    value += weights_[d + 1] * (features[d] - mean_[d]) / scale_[d];
  }
  return value;
}

std::string RidgeRanker::to_json() const {
  nlohmann::json json{{"schema", "polyarch.ridge_ranker/1"},
                      {"penalty", penalty_},
                      {"mean", mean_},
                      {"scale", scale_},
                      {"weights", weights_}};
  return json.dump();
}

RidgeRanker RidgeRanker::from_json(const std::string& text) {
  try {
    const nlohmann::json json = nlohmann::json::parse(text);
    if (json.at("schema") != "polyarch.ridge_ranker/1") throw std::runtime_error("schema");
    RidgeRanker ranker(json.at("penalty").get<double>());
    ranker.mean_ = json.at("mean").get<std::vector<double>>();
    ranker.scale_ = json.at("scale").get<std::vector<double>>();
    ranker.weights_ = json.at("weights").get<std::vector<double>>();
    if (ranker.scale_.size() != ranker.mean_.size() ||
        (!ranker.weights_.empty() && ranker.weights_.size() != ranker.mean_.size() + 1)) {
      throw std::runtime_error("sizes");
    }
    return ranker;
  } catch (const std::exception& error) {
    throw_runtime({}, std::string("malformed ridge ranker JSON: ") + error.what());
  }
}

}  // namespace polyarch::mapping
