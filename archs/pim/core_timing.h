#pragma once
// A PU that is a programmable in-order core rather than SIMD lanes (an UPMEM DPU): its program
// copies blocks of its bank (MRAM) into a scratchpad (WRAM) with a DMA engine and works on them
// with one instruction at a time, interleaving threads (tasklets) in a pipeline that takes a
// thread's next instruction only `dispatch_interval_cycles` after its last. Parameters and
// defaults from Gómez-Luna et al., "Benchmarking a New Paradigm: Experimental Analysis and
// Characterization of a Real Processing-in-Memory System", IEEE Access 2022 (PrIM); the model
// in equations: archs/pim/README.md, "Programmable cores".
#include <cstdint>

namespace polyarch::archs::pim {

struct PimCoreParams {
  // Threads the kernel runs (PrIM's benchmarks run 16; a DPU has 24 hardware threads).
  int64_t tasklets = 16;
  // Cycles between two instructions of one thread: the DPU's 14-stage pipeline overlaps only
  // its last three stages with the same thread's next dispatch and fetch, so a thread issues
  // every 11 cycles and 11 threads fill the pipeline (PrIM, the DPU architecture section).
  int64_t dispatch_interval_cycles = 11;
  // Bytes of one bank-to-scratchpad transfer (PrIM's benchmarks default to 1024; the DMA takes
  // 8 to 2048, UPMEM SDK, "Direct access to the MRAM").
  int64_t dma_block_bytes = 1024;
  // One transfer of s bytes occupies the DMA engine latency + cycles_per_byte x s core cycles
  // (PrIM's MRAM latency model alpha + beta x size: alpha 77 cycles for mram_read, 61 for
  // mram_write, beta 0.5 cycles per byte, i.e. at most 2 bytes per cycle).
  double dma_read_latency_cycles = 77.0;
  double dma_write_latency_cycles = 61.0;
  double dma_cycles_per_byte = 0.5;
  // Instructions of a streaming loop per element besides its loads, stores and arithmetic:
  // the address, the index increment and the branch (PrIM's listing of its 32-bit ADD loop:
  // lsl_add, lw, add, sw, add, jneq).
  int64_t loop_instructions = 3;
  // Instructions per multiplication of the unit's dtype: 1 where the ISA multiplies it (the
  // DPU's 8-bit multiplies); wider ones are emulated in software.
  int64_t mul_instructions = 1;
};

// What a core's program does per byte of the stream it works through.
struct CoreKernel {
  double instructions_per_byte = 0;
  double read_share = 1.0;  // of the streamed bytes, the share DMA reads (the rest it writes)
};

// Core cycles per streamed byte. Three bounds, the largest one holds: the DMA engine moves one
// transfer at a time; the pipeline issues at most one instruction per cycle, and with fewer
// threads than the dispatch interval only one per thread per interval; each thread waits for its
// own block's transfer before working on it, so its transfers and instructions add up.
double core_cycles_per_byte(const PimCoreParams& core, const CoreKernel& kernel);

}  // namespace polyarch::archs::pim
