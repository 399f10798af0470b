#pragma once
// What the physics (energy by action, power trace, temperature, temperature-dependent leakage,
// DVFS) needs of a chip, without knowing its unit kinds: each unit's energy and area models
// behind UnitPhysics, the technology table, the DRAM kind, the thermal package and the DVFS
// policy. An SoC description (archs::SocConfig::physics) provides it; the view borrows the
// SoC's units, so it lives no longer than the SoC.
#include <optional>
#include <string>
#include <vector>

#include "sim/dvfs/dvfs_policy.h"
#include "sim/energy/energy_context.h"
#include "sim/energy/tech_registry.h"
#include "sim/result.h"
#include "sim/thermal/package_config.h"

namespace polyarch::sim {

// The physics-facing side of one unit. Each unit kind implements it from its own energy and
// area models.
class UnitPhysics {
 public:
  virtual ~UnitPhysics() = default;

  virtual const std::string& name() const = 0;
  // Energy (J) by action of one op this unit ran, from the op's activity counts; leakage over
  // the op's latency included. A kind without an energy model returns nullopt.
  virtual std::optional<EnergyByAction> op_energy(const OpResult& op,
                                                  const EnergyContext& context) const {
    (void)op;
    (void)context;
    return std::nullopt;
  }
  // Silicon area (mm^2), from which the technology table gives the leakage power it draws
  // while idle; nullopt without a model.
  virtual std::optional<double> area_mm2(const TechTable& tech) const {
    (void)tech;
    return std::nullopt;
  }
  // The storage bits whose flip-flops the unit's clock drives every cycle (pipeline registers,
  // register files built of flip-flops, switch buffers: the bits its area counts as registers);
  // nullopt for a unit that is not clocked or whose model counts none.
  virtual std::optional<double> clocked_bits() const { return std::nullopt; }
};

struct ChipPhysics {
  const ResolvedTech* tech = nullptr;  // the energy table, with its stand-in note
  std::string dram_kind;               // a key of dram_pj_per_bit: "ddr4", "hbm2", ...
  int dram_channels = 0;               // each draws the DRAM kind's background power
  // The part's whole die, where the arch states it: the area its units' models do not price
  // (I/O, PHYs, NoC, control) leaks too. nullopt = the units' areas are the die.
  std::optional<double> die_area_mm2;
  // The board's voltage-regulator efficiency, where the arch states a board: the power drawn at
  // the board's input is the chip's (with its DRAM) over it. nullopt = no board.
  std::optional<double> board_regulator_efficiency;
  // The thermal package (HotSpot's keys and defaults); nullopt = the defaults.
  std::optional<thermal::PackageConfig> thermal;
  // Throttling on temperature; nullopt = units run at nominal clocks.
  std::optional<DvfsPolicy> dvfs;
  std::vector<const UnitPhysics*> units;

  const TechTable& tech_table() const { return tech->table; }
  // The unit named `name`; nullptr when the chip has none.
  const UnitPhysics* find_unit(const std::string& name) const {
    for (const UnitPhysics* unit : units) {
      if (unit->name() == name) return unit;
    }
    return nullptr;
  }
};

}  // namespace polyarch::sim
