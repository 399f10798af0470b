#include "archs/conversion_pass.h"

#include <memory>
#include <string>
#include <utility>

#include <systemc>

#include "base/checked_math.h"
#include "base/error.h"

namespace polyarch::archs {

namespace {

class ConvertingUnit final : public sim::UnitModel {
 public:
  ConvertingUnit(std::unique_ptr<sim::UnitModel> inner,
                 std::function<ConversionWork(const ir::Op&)> work_of)
      : inner_(std::move(inner)), work_of_(std::move(work_of)) {}

  const std::string& name() const override { return inner_->name(); }
  std::string kind() const override { return inner_->kind(); }
  double clock_ghz() const override { return inner_->clock_ghz(); }
  bool supports(const ir::Op& op) const override { return inner_->supports(op); }
  void prepare(const std::vector<const ir::Op*>& ops) override { inner_->prepare(ops); }

  sim::OpResult execute(const ir::Op& op) override {
    const ConversionWork work = work_of_(op);
    if (work.elements == 0) return inner_->execute(op);
    sc_core::wait(sc_core::sc_time(static_cast<double>(work.cycles) / clock_ghz(), sc_core::SC_NS));
    sim::OpResult result = inner_->execute(op);
    result.compute_cycles = checked_add(result.compute_cycles, work.cycles, "compute cycles");
    result.converted_elements = work.elements;
    result.conversion_cycles = work.cycles;
    // The type the energy model prices the conversions in (the driver writes the same later).
    result.dtype = std::string(ir::dtype_name(work.run_dtype));
    return result;
  }

 private:
  std::unique_ptr<sim::UnitModel> inner_;
  std::function<ConversionWork(const ir::Op&)> work_of_;
};

}  // namespace

int64_t conversion_cycles(int64_t elements, int64_t per_cycle) {
  if (per_cycle <= 0) {
    throw_runtime({}, "a unit converting " + std::to_string(elements) +
                          " elements has no conversion rate");
  }
  return ceil_div(elements, per_cycle);
}

sim::UnitFactory with_conversion_pass(sim::UnitFactory inner,
                                      std::function<ConversionWork(const ir::Op&)> work_of) {
  return [inner = std::move(inner),
          work_of = std::move(work_of)](sim::SharedResources& resources) {
    return std::unique_ptr<sim::UnitModel>(
        std::make_unique<ConvertingUnit>(inner(resources), work_of));
  };
}

}  // namespace polyarch::archs
