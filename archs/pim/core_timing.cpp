#include "archs/pim/core_timing.h"

#include <algorithm>

namespace polyarch::archs::pim {

double core_cycles_per_byte(const PimCoreParams& core, const CoreKernel& kernel) {
  const auto block = static_cast<double>(core.dma_block_bytes);
  const double read_cycles_per_byte =
      (core.dma_read_latency_cycles + core.dma_cycles_per_byte * block) / block;
  const double write_cycles_per_byte =
      (core.dma_write_latency_cycles + core.dma_cycles_per_byte * block) / block;
  const double dma =
      kernel.read_share * read_cycles_per_byte + (1.0 - kernel.read_share) * write_cycles_per_byte;
  const auto threads = static_cast<double>(core.tasklets);
  const auto interval = static_cast<double>(core.dispatch_interval_cycles);
  const double issue = kernel.instructions_per_byte * std::max(1.0, interval / threads);
  const double one_thread_chain = (dma + kernel.instructions_per_byte * interval) / threads;
  return std::max({dma, issue, one_thread_chain});
}

}  // namespace polyarch::archs::pim
