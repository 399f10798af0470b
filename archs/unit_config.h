#pragma once
// A parsed unit of any kind, as the SoC holds it. Each kind's folder implements one subclass and
// registers its parser in archs/registry.cpp.
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "archs/unit_search.h"
#include "compiler/ir/op.h"
#include "mapping/cache/unit_decisions.h"
#include "sim/energy/energy_context.h"
#include "sim/kernel/unit_model.h"
#include "sim/memory/dram_spec.h"
#include "sim/memory/dram_view.h"
#include "sim/physics/chip_physics.h"
#include "sim/result.h"

namespace polyarch::archs {

// The memory behind every unit, as the analytical estimates see it.
using MemoryContext = sim::DramView;

// An op's estimate and mapping space on a unit within one program (UnitConfig::
// program_estimates): nullopt where the unit does not run the op or gives none.
struct ProgramEstimates {
  std::function<std::optional<double>(const ir::Op&)> seconds;
  std::function<std::optional<MappingQuery>(const ir::Op&)> query;
};

// The physics side (name, op energy, area) is sim::UnitPhysics, which each kind implements too.
class UnitConfig : public sim::UnitPhysics {
 public:
  virtual std::string kind() const = 0;
  virtual bool supports(const ir::Op& op) const = 0;
  // Whether the kind's model reads the op's weights and KV cache as they are stored (a weight
  // format, a KV cache type); supports() is false where it does not.
  virtual bool reads_storage_of(const ir::Op& op) const = 0;
  // Why the unit does not run the op's type (its engines cannot hold it, and converting it
  // would not be exact), naming both; nullopt where it runs or converts it. supports() is false
  // where it refuses.
  virtual std::optional<std::string> type_refusal(const ir::Op& op) const = 0;
  // A factory for the SystemC model; `soc_clock_ghz` applies where the unit has no own clock.
  virtual sim::UnitFactory factory(double soc_clock_ghz) const = 0;
  // The unit's parameters as JSON, for reports and `validate`.
  virtual nlohmann::ordered_json describe() const = 0;
  // The activation order its convolution engine reads best; the layout pass (`--layout auto`)
  // takes it from the first unit of the SoC that runs convolutions.
  virtual ir::Layout preferred_conv_layout() const = 0;
  // The element type the unit computes `op` in: the op's own where the unit computes it (at
  // that type's rate), else the type the unit converts it to (an int8 array runs an fp32 GEMM
  // as int8); the unit's default where the op names none.
  virtual ir::DType run_dtype(const ir::Op& op) const = 0;

  // The op's latency on this unit by its analytical model, without simulation (for the list
  // scheduler); nullopt where the kind gives no estimate. `soc_clock_ghz` applies where the unit
  // has no own clock.
  virtual std::optional<double> estimate_seconds(const ir::Op& op, const MemoryContext& memory,
                                                 double soc_clock_ghz) const {
    (void)op;
    (void)memory;
    (void)soc_clock_ghz;
    return std::nullopt;
  }
  // `polyarch run --search S`: from now on, ops whose mapping the kind exposes as a space
  // (mapping/space/) run the mapping the policy's searcher picks, decided once per op shape and
  // cached. A kind without a space ignores it and keeps its own choice.
  virtual void use_mapping_search(std::shared_ptr<const mapping::SearchPolicy> policy) {
    (void)policy;
  }
  // The op's mapping space on this unit as a search problem, with the op part of the decision
  // key `run --search` decides it under (archs/unit_search.h); nullopt where the kind exposes no
  // space for the op. What `compile --explain` searches for every kind alike.
  virtual std::optional<MappingQuery> mapping_query(const ir::Op& op, const MemoryContext& memory,
                                                    double soc_clock_ghz) const {
    (void)op;
    (void)memory;
    (void)soc_clock_ghz;
    return std::nullopt;
  }
  // The estimate and mapping space of each op as the unit runs it within `program` (the
  // graph's ops in issue order; those the unit cannot run are skipped): a kind whose ops share
  // the unit's resources over a program (a crossbar's arrays, archs/crossbar/array_allocation.h)
  // sizes each op's share from the whole program, as its simulation does; the others see each op
  // alone (estimate_seconds, mapping_query). The functions borrow this unit.
  virtual ProgramEstimates program_estimates(const std::vector<const ir::Op*>& program,
                                             const MemoryContext& memory,
                                             double soc_clock_ghz) const {
    (void)program;
    return {[this, memory, soc_clock_ghz](const ir::Op& op) {
              return estimate_seconds(op, memory, soc_clock_ghz);
            },
            [this, memory, soc_clock_ghz](const ir::Op& op) {
              return mapping_query(op, memory, soc_clock_ghz);
            }};
  }
  // The SoC's DRAM, once the arch file's memory is read, and the path to it as estimates see
  // it: a kind whose units live in it (PIM units with `memory: shared`) takes its organisation
  // here (bad input where it cannot), one that moves data through it its bandwidth.
  virtual void use_soc_memory(const sim::DramSpec& dram, const sim::DramView& path) {
    (void)dram;
    (void)path;
  }
  // The energy table mapping search prices mappings with; the SoC loader sets it from the
  // arch's technology and DRAM (without it, searched mappings cost 0 J).
  void use_mapping_energy(MappingEnergy energy) { mapping_energy_ = std::move(energy); }
  const MappingEnergy& mapping_energy() const { return mapping_energy_; }

 private:
  MappingEnergy mapping_energy_;
};

}  // namespace polyarch::archs
