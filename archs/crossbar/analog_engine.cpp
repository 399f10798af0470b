#include "archs/crossbar/analog_engine.h"

#include <cmath>

#include "archs/crossbar/cost_model.h"
#include "archs/crossbar/kind.h"
#include "base/error.h"

namespace polyarch::archs::crossbar {

namespace {

constexpr int64_t kMaxCodeBits = 24;  // codes, products and sums stay exact in double

void check_code_bits(const CrossbarParams& params, const char* key, int64_t bits) {
  if (bits < 2 || bits > kMaxCodeBits) {
    throw_bad_input({}, "crossbar unit '" + params.name + "': the functional model needs " + key +
                            " between 2 and " + std::to_string(kMaxCodeBits) + ", not " +
                            std::to_string(bits));
  }
}

// The fp32 product the analog one is held to, in double.
std::vector<double> exact_product(const interp::MvmCall& call) {
  std::vector<double> product(static_cast<std::size_t>(call.m * call.n), 0.0);
  for (int64_t row = 0; row < call.m; ++row) {
    for (int64_t inner = 0; inner < call.k; ++inner) {
      const double a = call.activations[row * call.k + inner];
      if (a == 0.0) continue;
      for (int64_t column = 0; column < call.n; ++column) {
        product[row * call.n + column] += a * call.weights[inner * call.n + column];
      }
    }
  }
  return product;
}

}  // namespace

AnalogMvmEngine::AnalogMvmEngine(CrossbarParams params, uint64_t seed)
    : params_(std::move(params)), seed_(seed) {
  check_code_bits(params_, "weight_bits", params_.weight_bits);
  check_code_bits(params_, "input_bits", params_.input_bits);
}

bool AnalogMvmEngine::accepts(const ir::Op& op) const { return crossbar_supports(op); }

std::vector<float> AnalogMvmEngine::multiply(const interp::MvmCall& call) {
  const AnalogMvm mvm(params_, call.weights, call.k, call.n, seed_,
                      stream_of(call.op.name, call.weight_set));
  OpStats& stats = stats_[call.op.name];
  std::vector<float> outputs = mvm.multiply(call.activations, call.m, stats.counts);
  stats.weight_sets += 1;
  stats.arrays += mvm.arrays();
  const std::vector<double> exact = exact_product(call);
  for (std::size_t i = 0; i < exact.size(); ++i) {
    const double error = double{outputs[i]} - exact[i];
    stats.max_abs_error = std::max(stats.max_abs_error, std::fabs(error));
    stats.max_abs_exact = std::max(stats.max_abs_exact, std::fabs(exact[i]));
    stats.squared_error += error * error;
  }
  stats.outputs += static_cast<int64_t>(exact.size());
  return outputs;
}

nlohmann::ordered_json AnalogMvmEngine::describe() const {
  const AnalogParams& analog = params_.analog;
  const AdcTransfer adc = adc_transfer(params_);
  return {{"name", params_.name},
          {"kind", "crossbar"},
          {"rows", params_.rows},
          {"cols", params_.cols},
          {"bits_per_cell", params_.cell.bits_per_cell},
          {"weight_bits", params_.weight_bits},
          {"input_bits", params_.input_bits},
          {"dac_bits", params_.dac_bits},
          {"signed_weights", params_.differential ? "differential" : "offset"},
          {"flip_columns", params_.flip_columns},
          {"adc",
           {{"bits", params_.adc.bits},
            {"range", params_.adc.calibrated_range ? "calibrated" : "worst_case"},
            {"full_scale_fraction", params_.adc.full_scale_fraction},
            {"quantization", analog.adc_quantization},
            {"full_scale", adc.full_scale},
            {"lsb", adc.lsb}}},
          {"analog",
           {{"program_sigma", analog.program_sigma},
            {"program_variation", program_variation_name(analog.program_variation)},
            {"read_sigma", analog.read_sigma},
            {"stuck_at_zero_rate", analog.stuck_at_zero_rate},
            {"stuck_at_one_rate", analog.stuck_at_one_rate},
            {"wire_resistance_ohm", analog.wire_resistance_ohm},
            {"cell_on_resistance_ohm", analog.cell_on_resistance_ohm}}},
          {"seed", seed_}};
}

nlohmann::ordered_json AnalogMvmEngine::op_stats(const std::string& op_name) const {
  const auto found = stats_.find(op_name);
  if (found == stats_.end()) return nullptr;
  const OpStats& stats = found->second;
  const double conversions = double(std::max<int64_t>(stats.counts.adc_conversions, 1));
  return {
      {"weight_sets", stats.weight_sets},
      {"arrays", stats.arrays},
      {"adc_conversions", stats.counts.adc_conversions},
      {"adc_clipped_fraction", double(stats.counts.adc_clipped) / conversions},
      // This op's own error: its analog product against the fp32 product of the same
      // (already perturbed) inputs, before bias and activation.
      {"mvm_max_abs_error", stats.max_abs_error},
      {"mvm_max_rel_error",
       stats.max_abs_exact > 0.0 ? stats.max_abs_error / stats.max_abs_exact : stats.max_abs_error},
      {"mvm_rms_error",
       stats.outputs > 0 ? std::sqrt(stats.squared_error / double(stats.outputs)) : 0.0}};
}

std::unique_ptr<AnalogMvmEngine> analog_engine_for(const SocConfig& soc,
                                                   const std::string& arch_path, uint64_t seed) {
  for (const auto& unit : soc.units) {
    if (const auto* xbar = dynamic_cast<const CrossbarUnitConfig*>(unit.get())) {
      return std::make_unique<AnalogMvmEngine>(xbar->params(), seed);
    }
  }
  throw_bad_input({arch_path, 0, 0, ""},
                  "--functional --arch needs a unit of kind crossbar (the unit models with "
                  "functional effects); arch '" +
                      soc.name + "' has none");
}

}  // namespace polyarch::archs::crossbar
