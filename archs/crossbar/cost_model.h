#pragma once
// How a GEMM or convolution maps onto crossbar arrays: the blocks, replicas and passes, the
// bytes it moves and the conversions and cell reads it makes (its time: estimate.h for the
// closed form, op_schedule.h and module.h for the simulation). Attention's products and other
// ops whose weights are not static go to a digital unit: crossbar_supports() says no, and the
// scheduler places them elsewhere.
#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

#include "archs/crossbar/activity.h"
#include "archs/crossbar/params.h"
#include "compiler/ir/op.h"

namespace polyarch::archs::crossbar {

// The arrays one op may use and whether its weights stay programmed there between runs
// (array_allocation.h gives every op of a unit its budget; the default is the whole unit with
// resident weights, an op alone on the unit).
struct ArrayBudget {
  int64_t arrays = 0;     // 0: every array of the unit
  bool resident = true;   // false: the op programs its arrays at each run
};

struct CrossbarPlan {
  int64_t row_blocks = 0;          // ceil(K / rows)
  int64_t col_blocks = 0;          // ceil(N x cells per weight / cols)
  int64_t arrays_needed = 0;       // row_blocks x col_blocks x weight sets (conv groups)
  int64_t replicas = 1;            // copies of the weights working on different inputs
  int64_t passes = 1;              // > 1 when the weights do not fit and arrays are reprogrammed
  int64_t arrays_allocated = 0;    // the op's budget of arrays
  bool reprogrammed = false;       // the op writes its weights at each run (passes > 1 or shared)
  int64_t mvms = 0;                // input vectors (im2col rows)
  int64_t last_block_columns = 0;  // columns the last column block of each row uses
  int64_t input_slices = 0;        // per input vector, for the op's input sign
  double mvm_latency_ns = 0;       // one MVM alone
  double program_ns = 0;           // reprogramming's row writes inside the op
  CrossbarActivity activity;       // for energy
  int64_t macs = 0;
  int64_t vector_input_bytes = 0;   // one input vector as the rows are driven (K per weight set)
  int64_t vector_output_bytes = 0;  // one vector's outputs (N per weight set)
  int64_t input_bytes = 0;       // the input activations, read once per pass
  int64_t output_bytes = 0;      // the output activations
  int64_t weight_bytes = 0;      // the weights, read from DRAM when reprogrammed
  int64_t dram_read_bytes = 0;   // inputs x passes, plus the weights when reprogrammed
  int64_t dram_write_bytes = 0;  // outputs
  nlohmann::ordered_json mapping = nlohmann::ordered_json::object();
};

bool crossbar_supports(const ir::Op& op);
// Inputs enter bit-serially whatever their type; the op's type sizes what moves (16-bit fixed
// point where the op names none). An 8-bit float or 4-bit integer op moves as int8 fixed point,
// and the report marks it converted.
ir::DType crossbar_run_dtype(const ir::Op& op);

// The most weight copies the op's MVMs can use: the arrays of its budget that hold whole copies
// of the weights, at most one copy per input vector; 1 when the weights do not fit
// (reprogramming in passes).
int64_t max_replicas(const CrossbarParams& params, const ir::Op& op, ArrayBudget budget = {});

// `replicas` (1 ... max_replicas) forces the replication; without it every copy that fits in
// the budget is used. Weights that are not resident are written into every copy at each run.
CrossbarPlan plan_op(const CrossbarParams& params, const ir::Op& op,
                     std::optional<int64_t> replicas = std::nullopt, ArrayBudget budget = {});

}  // namespace polyarch::archs::crossbar
