// Streaming ops on the fabric: an elementwise chain or a row kernel's graph, replicated to fill
// the fabric (each copy on its own share of the elements or rows), run as scratchpad-sized
// steps so that loads from DRAM overlap computation.
#include <algorithm>

#include "archs/dataflow/phase_plans.h"
#include "base/checked_math.h"

namespace polyarch::archs::dataflow {

namespace {

constexpr int64_t kMaxSteps = 4096;  // identical steps cost one simulated step each
// At least this many steps when the stream is long enough, so that DRAM transfers overlap
// computation (one step's load is exposed, the rest hide behind the previous step).
constexpr int64_t kMinSteps = 16;

int64_t stream_mul(int64_t a, int64_t b) { return checked_mul(a, b, "dataflow stream"); }

LoopPhase stream_phase(const DataflowParams& params, MappingCache& cache, const Dfg& single,
                       int64_t vectors, int64_t read_bytes, int64_t write_bytes,
                       int64_t element_bytes) {
  LoopPhase phase;
  phase.label = single.label;
  const int64_t replicas =
      std::clamp<int64_t>(replicas_to_fill(params, single), 1, std::max<int64_t>(vectors, 1));
  phase.loop = cache.map(params, single, replicas, element_bytes);
  phase.iterations = ceil_div(std::max<int64_t>(vectors, 1), replicas);
  const int64_t steps = stream_step_count(params, read_bytes + write_bytes, phase.iterations);
  phase.steps = stream_steps(*phase.loop, phase.iterations, steps, read_bytes, write_bytes);
  for (const PlanStep& step : phase.steps) phase.compute_cycles += stream_mul(step.cycles, step.count);
  describe_phase(params, phase, element_bytes);
  return phase;
}

// The largest accumulator latency: how many rows are interleaved round-robin so that the
// accumulation recurrence does not bound the II (RecMII = ceil(latency / interleave)).
int64_t interleave_for(const DataflowParams& params, int64_t independent_rows) {
  int64_t latency = 1;
  for (const char* op : {"add", "max", "min", "mul"}) {
    latency = std::max(latency, params.pe.latency(op));
  }
  return std::clamp<int64_t>(independent_rows, 1, latency);
}

struct RowWork {
  int64_t independent_rows = 1;  // accumulations that can interleave
  int64_t vectors = 0;           // lanes-wide iterations in all
  int64_t read_bytes = 0;
  int64_t write_bytes = 0;
};

RowWork row_work(const DataflowParams& params, const ir::Op& op, int64_t elem) {
  const int64_t lanes = params.pe.lanes;
  RowWork work;
  const double half = params.scratchpad_bytes() / 2.0;
  auto rows_of = [&](int64_t rows, int64_t cols, int64_t passes) {
    work.independent_rows = rows;
    work.vectors = stream_mul(rows, ceil_div(cols, lanes));
    // A row that does not stay in the scratchpad is read once per pass over it.
    const int64_t reads = static_cast<double>(stream_mul(cols, elem)) <= half ? 1 : passes;
    work.read_bytes = stream_mul(stream_mul(stream_mul(rows, cols), elem), reads);
    work.write_bytes = stream_mul(stream_mul(rows, cols), elem);
  };
  if (const auto* softmax = std::get_if<ir::SoftmaxAttrs>(&op.attrs)) {
    rows_of(softmax->rows, softmax->cols, 3);
  } else if (const auto* norm = std::get_if<ir::NormAttrs>(&op.attrs)) {
    rows_of(norm->rows, norm->cols, 2);
  } else if (const auto* reduce = std::get_if<ir::ReduceAttrs>(&op.attrs)) {
    rows_of(reduce->rows, reduce->cols, 1);
    work.write_bytes = stream_mul(reduce->rows, elem);
  } else if (const auto* pool = std::get_if<ir::PoolAttrs>(&op.attrs)) {
    const int64_t outputs = stream_mul(stream_mul(pool->n, pool->c), stream_mul(pool->out_h(), pool->out_w()));
    work.independent_rows = outputs;
    work.vectors = stream_mul(ceil_div(outputs, lanes), stream_mul(pool->r, pool->s));
    work.read_bytes = stream_mul(stream_mul(stream_mul(pool->n, pool->c), stream_mul(pool->h, pool->w)), elem);
    work.write_bytes = stream_mul(outputs, elem);
  } else if (const auto* embedding = std::get_if<ir::EmbeddingAttrs>(&op.attrs)) {
    rows_of(embedding->rows, embedding->cols, 1);
  } else if (const auto* copy = std::get_if<ir::CopyAttrs>(&op.attrs)) {
    const int64_t elements = ceil_div(copy->bytes, elem);
    work.vectors = ceil_div(elements, lanes);
    work.read_bytes = copy->bytes;
    work.write_bytes = copy->bytes;
  }
  return work;
}

}  // namespace

int64_t stream_step_count(const DataflowParams& params, int64_t bytes, int64_t iterations) {
  const auto half = static_cast<int64_t>(params.scratchpad_bytes() / 2.0);
  const int64_t needed = std::max(ceil_div(bytes, std::max<int64_t>(half, 1)), kMinSteps);
  return std::clamp<int64_t>(needed, 1, std::min(kMaxSteps, std::max<int64_t>(iterations, 1)));
}

std::vector<PlanStep> stream_steps(const MappedLoop& loop, int64_t iterations, int64_t steps,
                                   int64_t read_bytes, int64_t write_bytes) {
  const int64_t ii = loop.schedule.ii;
  const int64_t per_step = ceil_div(iterations, steps);
  const int64_t full_steps = iterations / per_step;
  const int64_t last_iterations = iterations - full_steps * per_step;
  const int64_t step_total = full_steps + (last_iterations > 0 ? 1 : 0);
  const int64_t read = read_bytes / step_total;
  const int64_t write = write_bytes / step_total;
  const int64_t fill_drain = loop.schedule.depth_cycles - ii;
  std::vector<PlanStep> result;
  // The first step fills and the pipeline keeps running across steps; the remainder last.
  result.push_back({fill_drain + ii * per_step, read, write, 1});
  if (full_steps > 1) result.push_back({ii * per_step, read, write, full_steps - 1});
  if (last_iterations > 0) {
    result.push_back({ii * last_iterations, read, write, 1});
  }
  result.back().dram_read_bytes += read_bytes - read * step_total;
  result.back().dram_write_bytes += write_bytes - write * step_total;
  if (result.size() > 1 && result.back().count > 1) {  // keep the remainder bytes in one step
    PlanStep last = result.back();
    result.back().count -= 1;
    result.back().dram_read_bytes = read;
    result.back().dram_write_bytes = write;
    last.count = 1;
    result.push_back(last);
  }
  return result;
}

LoopPhase plan_chain_phase(const DataflowParams& params, MappingCache& cache,
                           const std::vector<ChainStep>& steps, int64_t elements, ir::DType dtype) {
  const int64_t elem = ir::dtype_bytes(dtype);
  int64_t loads = 0;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    loads += std::max<int64_t>(steps[i].inputs, 1) - (i == 0 ? 0 : 1);
  }
  const Dfg single = elementwise_chain_dfg(params, steps);
  return stream_phase(params, cache, single, ceil_div(elements, params.pe.lanes),
                      stream_mul(stream_mul(elements, loads), elem), stream_mul(elements, elem), elem);
}

LoopPhase plan_row_phase(const DataflowParams& params, MappingCache& cache, const ir::Op& op,
                         ir::DType dtype) {
  const int64_t elem = ir::dtype_bytes(dtype);
  const RowWork work = row_work(params, op, elem);
  const Dfg single = row_kernel_dfg(params, op, interleave_for(params, work.independent_rows));
  return stream_phase(params, cache, single, work.vectors, work.read_bytes, work.write_bytes, elem);
}

}  // namespace polyarch::archs::dataflow
