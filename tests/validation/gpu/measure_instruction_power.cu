// Board power per instruction class on one CUDA GPU: the data an energy-per-instruction model of
// the simd kind needs (the method of Wattchmen-style GPU power models: run one instruction class
// on every SM for seconds, read the board power, subtract the idle board at the same clock).
// This program runs one path for a given number of seconds and prints what it did; the driver
// (measure_instruction_power.py) samples nvidia-smi while it runs. Paths:
//   idle      no kernel: the context held, the GPU idle at its own clocks;
//   ffma      fp32 FMA, 8 independent chains per thread (issue-bound, not latency-bound);
//   mma_sync  synchronous warp MMA m16n8k16, bf16 operands, fp32 accumulators (2048 MACs each);
//   sfu       the special-function unit: exp2 then log2 of each value (MUFU.EX2, MUFU.LG2);
//   lds       128-bit shared-memory loads, bank-conflict free, each followed by 4 integer adds;
//   l2        128-bit global loads that bypass L1 (ld.global.cg) over 16 MiB (L2-resident),
//             each followed by 4 integer adds;
//   dram      the same loads streaming over 4 GiB (HBM-bound).
// Every kernel runs 2048 threads per SM (two blocks of 1024) and counts what it issued; the
// output is one JSON object: path, seconds, launches, per-second rates of each instruction class,
// the SM clock clock64 saw.
//
//   nvcc -O3 -gencode=arch=compute_90,code=sm_90 measure_instruction_power.cu \
//        -o measure_instruction_power
//   ./measure_instruction_power PATH SECONDS
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace {

constexpr int kThreads = 1024;
constexpr int kBlocksPerSm = 2;
constexpr int kChains = 8;
constexpr int kIterations = 1 << 14;  // per launch: a few ms on an H100-class GPU
constexpr long long kL2Bytes = 16ll << 20;
constexpr long long kDramBytes = 4ll << 30;

__device__ long long block_cycles[4096 * kBlocksPerSm];

__device__ void keep(float value, float* sink) {
  if (value == 1.2345f) *sink = value;  // never true: keeps the loop's results live
}

// `kIterations / kDivisor` rounds of `step` on each of kChains independent values per thread
// (values start at first + sign x (thread / 1000 + chain)), the block's cycles stamped.
template <int kDivisor, typename Step>
__device__ void chain_loop(float first, float sign, float* sink, Step step) {
  float values[kChains];
  for (int chain = 0; chain < kChains; ++chain) {
    values[chain] = first + sign * (threadIdx.x * 1e-3f + chain);
  }
  const long long start = clock64();
  for (int iteration = 0; iteration < kIterations / kDivisor; ++iteration) {
#pragma unroll
    for (int chain = 0; chain < kChains; ++chain) step(values[chain]);
  }
  if (threadIdx.x == 0) block_cycles[blockIdx.x] = clock64() - start;
  float sum = 0;
  for (int chain = 0; chain < kChains; ++chain) sum += values[chain];
  keep(sum, sink);
}

__global__ void ffma_loop(float* sink) {
  chain_loop<1>(0.0f, 1.0f, sink, [](float& value) {
    asm volatile("fma.rn.f32 %0,%0,0f3F7FF000,0f3A800000;" : "+f"(value));
  });
}

__global__ void mma_sync_loop(float* sink) {
  const unsigned a = threadIdx.x;
  const unsigned b = threadIdx.x * 3;
  float accumulators[kChains][4] = {};
  const long long start = clock64();
  for (int iteration = 0; iteration < kIterations / 8; ++iteration) {
#pragma unroll
    for (int chain = 0; chain < kChains; ++chain) {
      asm volatile(
          "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3},{%4,%4,%4,%4},"
          "{%5,%5},{%0,%1,%2,%3};"
          : "+f"(accumulators[chain][0]), "+f"(accumulators[chain][1]),
            "+f"(accumulators[chain][2]), "+f"(accumulators[chain][3])
          : "r"(a), "r"(b));
    }
  }
  if (threadIdx.x == 0) block_cycles[blockIdx.x] = clock64() - start;
  float sum = 0;
  for (int chain = 0; chain < kChains; ++chain) sum += accumulators[chain][0];
  keep(sum, sink);
}

// exp2 then log2 of each value: 2^x alone overflows to +inf within a few rounds (2^x > x), and
// the SFU would then run on constant infinities; log2(2^x) returns a finite value of the same
// magnitude, so the operands stay ordinary numbers. Two MUFU results per round.
__global__ void sfu_loop(float* sink) {
  chain_loop<8>(-1.0f, -1.0f, sink, [](float& value) {
    asm volatile("ex2.approx.ftz.f32 %0,%0;\n\tlg2.approx.ftz.f32 %0,%0;" : "+f"(value));
  });
}

__global__ void lds_loop(float* sink) {
  __shared__ uint4 tile[kThreads];
  tile[threadIdx.x] = make_uint4(threadIdx.x, threadIdx.x + 1, threadIdx.x + 2, threadIdx.x + 3);
  __syncthreads();
  uint4 total = make_uint4(0, 0, 0, 0);
  const long long start = clock64();
  for (int iteration = 0; iteration < kIterations / 2; ++iteration) {
    // Consecutive threads read consecutive 16-byte words: 4 wavefronts per warp, no conflicts.
    const uint4 word = tile[(threadIdx.x + iteration) & (kThreads - 1)];
    total.x += word.x;
    total.y += word.y;
    total.z += word.z;
    total.w += word.w;
  }
  if (threadIdx.x == 0) block_cycles[blockIdx.x] = clock64() - start;
  keep(static_cast<float>(total.x ^ total.y ^ total.z ^ total.w), sink);
}

// 128-bit loads that bypass L1 over `bytes` (a power of two), each warp reading 512 contiguous
// bytes per load.
__global__ void global_loop(const uint4* buffer, long long bytes, int iterations, float* sink) {
  const long long words = bytes / 16;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  long long index = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  uint4 total = make_uint4(0, 0, 0, 0);
  const long long start = clock64();
  for (int iteration = 0; iteration < iterations; ++iteration) {
    uint4 word;
    asm volatile("ld.global.cg.v4.u32 {%0,%1,%2,%3},[%4];"
                 : "=r"(word.x), "=r"(word.y), "=r"(word.z), "=r"(word.w)
                 : "l"(buffer + (index & (words - 1))));
    total.x += word.x;
    total.y += word.y;
    total.z += word.z;
    total.w += word.w;
    index += stride;
  }
  if (threadIdx.x == 0) block_cycles[blockIdx.x] = clock64() - start;
  keep(static_cast<float>(total.x ^ total.y ^ total.z ^ total.w), sink);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s idle|ffma|mma_sync|sfu|lds|l2|dram SECONDS\n", argv[0]);
    return 2;
  }
  const char* path = argv[1];
  const double seconds = atof(argv[2]);
  cudaDeviceProp properties;
  cudaGetDeviceProperties(&properties, 0);
  const int blocks = properties.multiProcessorCount * kBlocksPerSm;
  float* sink;
  cudaMalloc(&sink, sizeof(float));
  const bool l2 = strcmp(path, "l2") == 0;
  const bool dram = strcmp(path, "dram") == 0;
  uint4* buffer = nullptr;
  const long long bytes = l2 ? kL2Bytes : kDramBytes;
  if (l2 || dram) {
    cudaMalloc(&buffer, bytes);
    cudaMemset(buffer, 1, bytes);
  }
  const int global_iterations = l2 ? kIterations / 4 : 64;
  // Instructions of each class one launch issues, per thread.
  double ffma = 0, mma = 0, sfu = 0, lds = 0, ldg = 0, iadd = 0;
  auto launch = [&]() {
    if (strcmp(path, "ffma") == 0) {
      ffma_loop<<<blocks, kThreads>>>(sink);
      ffma = static_cast<double>(kIterations) * kChains;
    } else if (strcmp(path, "mma_sync") == 0) {
      mma_sync_loop<<<blocks, kThreads>>>(sink);
      mma = static_cast<double>(kIterations / 8) * kChains / 32;  // one per warp
    } else if (strcmp(path, "sfu") == 0) {
      sfu_loop<<<blocks, kThreads>>>(sink);
      sfu = static_cast<double>(kIterations / 8) * kChains * 2;
    } else if (strcmp(path, "lds") == 0) {
      lds_loop<<<blocks, kThreads>>>(sink);
      lds = kIterations / 2;
      iadd = 4.0 * lds;
    } else if (l2 || dram) {
      global_loop<<<blocks, kThreads>>>(buffer, bytes, global_iterations, sink);
      ldg = global_iterations;
      iadd = 4.0 * ldg;
    }
  };
  const bool idle = strcmp(path, "idle") == 0;
  if (!idle) launch();  // warm-up
  cudaDeviceSynchronize();
  cudaEvent_t begin, end;
  cudaEventCreate(&begin);
  cudaEventCreate(&end);
  int launches = 0;
  const auto wall_start = std::chrono::steady_clock::now();
  auto elapsed = [&]() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  };
  cudaEventRecord(begin);
  while (elapsed() < seconds) {
    if (idle) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      continue;
    }
    for (int group = 0; group < 10; ++group) launch();
    launches += 10;
    cudaDeviceSynchronize();
  }
  cudaEventRecord(end);
  cudaEventSynchronize(end);
  float ms = 0;
  cudaEventElapsedTime(&ms, begin, end);
  long long cycles[4096 * kBlocksPerSm] = {};
  double clock_ghz = 0;
  if (!idle) {
    cudaMemcpyFromSymbol(cycles, block_cycles, sizeof(long long) * blocks);
    // The last launch's kernel time is unknown here; the mean block's cycles over the mean
    // launch's time approximates the SM clock.
    double mean_cycles = 0;
    for (int block = 0; block < blocks; ++block) mean_cycles += cycles[block] / double(blocks);
    clock_ghz = mean_cycles / (ms / launches) / 1e6;
  }
  const double threads = static_cast<double>(blocks) * kThreads;
  const double per_second = launches * threads / (ms / 1e3);
  printf("{\"path\":\"%s\",\"device\":\"%s\",\"sms\":%d,\"seconds\":%.3f,\"launches\":%d,"
         "\"ms_per_launch\":%.4f,\"sm_clock_ghz\":%.3f,\"per_second\":{\"ffma_thread\":%.6g,"
         "\"mma_sync_warp\":%.6g,\"mufu_thread\":%.6g,\"lds128_thread\":%.6g,"
         "\"ldg128_thread\":%.6g,\"iadd_thread\":%.6g},\"bytes_loaded_per_second\":%.6g,"
         "\"status\":\"%s\"}\n",
         path, properties.name, properties.multiProcessorCount, ms / 1e3, launches,
         launches ? ms / launches : 0.0, clock_ghz, ffma * per_second, mma * per_second,
         sfu * per_second, lds * per_second, ldg * per_second, iadd * per_second,
         (lds + ldg) * 16 * per_second, cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
