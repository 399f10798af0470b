#pragma once
// `polyarch run --functional`: the reference interpreter on a model, with the static-weight
// products computed by an architecture's analog crossbar when one is named.
#include <cstdint>
#include <filesystem>
#include <optional>

#include "compiler/interp/functional_run.h"

namespace polyarch::driver {

struct FunctionalRunRequest {
  interp::FunctionalRequest interpreter;  // workload, inputs, tensors to dump
  // An arch whose first crossbar unit computes Gemm/Conv products with its analog effects
  // (seeded by `seed`); nullopt: the ideal fp32 products.
  std::optional<std::filesystem::path> arch_path;
  uint64_t seed = 0;
};

interp::FunctionalResult run_functional(FunctionalRunRequest request);

}  // namespace polyarch::driver
