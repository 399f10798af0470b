// Per-SM issue rates of one CUDA GPU, in results per SM clock cycle: clock64 around each block's
// loop, so the figures do not depend on the clock the GPU chose. Three paths:
//   kMmaSync  the synchronous warp MMA (mma.sync m16n8k16, bf16 operands, fp32 accumulators),
//             what FlashAttention-2 issues: 16 x 8 x 16 = 2048 MACs per instruction;
//   kExp2     the special-function unit's exp2 (ex2.approx, MUFU.EX2): 32 results per warp;
//   kFma      the fp32 FMA: 32 results per warp.
// One block per SM of 4 to 32 warps; every warp runs 8 independent chains so that issue, not
// latency, limits the loop. Prints one JSON object: per path and warp count the mean rate over
// the SMs, the kernel's time and the clock that implies.
//
//   nvcc -O3 -gencode=arch=compute_90,code=sm_90 measure_issue_rates.cu -o measure_issue_rates
//   ./measure_issue_rates > h200_issue_rates_runN.json
//
// The runs in this folder were made by this program passed to the GPU machine in a compact
// one-line form of the same kernels and arithmetic (its command length is limited).
#include <cstdio>

namespace {

constexpr int kIterations = 4096;
constexpr int kChains = 8;  // independent accumulators per thread
constexpr int kMaxSms = 4096;

enum Path { kMmaSync = 0, kExp2 = 1, kFma = 2 };

__device__ long long sm_cycles[kMaxSms];

template <int path>
__global__ void issue_loop(float* sink) {
  const unsigned lane_value = threadIdx.x;
  const unsigned other_value = lane_value * 3;
  float accumulators[kChains][4] = {};
  float values[kChains];
  for (int chain = 0; chain < kChains; ++chain) values[chain] = -1 - .001f * (lane_value + chain);
  __syncthreads();
  const long long start = clock64();
  for (int iteration = 0; iteration < kIterations; ++iteration) {
#pragma unroll
    for (int chain = 0; chain < kChains; ++chain) {
      if (path == kMmaSync) {
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3},{%4,%4,%4,%4},"
            "{%5,%5},{%0,%1,%2,%3};"
            : "+f"(accumulators[chain][0]), "+f"(accumulators[chain][1]),
              "+f"(accumulators[chain][2]), "+f"(accumulators[chain][3])
            : "r"(lane_value), "r"(other_value));
      }
      if (path == kExp2) asm volatile("ex2.approx.ftz.f32 %0,%0;" : "+f"(values[chain]));
      if (path == kFma) {
        asm volatile("fma.rn.f32 %0,%0,0f3F7FF000,0f3A800000;" : "+f"(values[chain]));
      }
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) sm_cycles[blockIdx.x] = clock64() - start;
  // Keep the results live so the compiler cannot drop the loop.
  float sum = 0;
  for (int chain = 0; chain < kChains; ++chain) sum += accumulators[chain][0] + values[chain];
  if (sum == 1.5f) *sink = sum;
}

}  // namespace

int main() {
  cudaDeviceProp properties;
  cudaGetDeviceProperties(&properties, 0);
  const int sms = properties.multiProcessorCount;
  float* sink;
  cudaMalloc(&sink, sizeof(float));
  const char* names[] = {"mma_sync_bf16_macs", "ex2_results", "ffma_results"};
  // Results per warp over the whole loop, by path.
  const double per_warp[] = {2048.0 * kIterations * kChains, 32.0 * kIterations * kChains,
                             32.0 * kIterations * kChains};
  void (*kernels[])(float*) = {issue_loop<kMmaSync>, issue_loop<kExp2>, issue_loop<kFma>};
  printf("{\"device\":\"%s\",\"sms\":%d", properties.name, sms);
  for (int path = 0; path < 3; ++path) {
    for (int warps = 4; warps <= 32; warps *= 2) {
      kernels[path]<<<sms, warps * 32>>>(sink);  // warm-up
      cudaEvent_t begin, end;
      cudaEventCreate(&begin);
      cudaEventCreate(&end);
      cudaEventRecord(begin);
      kernels[path]<<<sms, warps * 32>>>(sink);
      cudaEventRecord(end);
      cudaEventSynchronize(end);
      float ms;
      cudaEventElapsedTime(&ms, begin, end);
      long long cycles[kMaxSms];
      cudaMemcpyFromSymbol(cycles, sm_cycles, sizeof(long long) * sms);
      double rate = 0, mean_cycles = 0;
      for (int sm = 0; sm < sms; ++sm) {
        rate += per_warp[path] * warps / cycles[sm] / sms;
        mean_cycles += cycles[sm] / static_cast<double>(sms);
      }
      printf(",\"%s_w%d\":{\"per_sm_cycle\":%.2f,\"ms\":%.4f,\"clock_ghz\":%.3f}", names[path],
             warps, rate, ms, mean_cycles / ms / 1e6);
    }
  }
  printf(",\"status\":\"%s\"}\n", cudaGetErrorString(cudaDeviceSynchronize()));
}
