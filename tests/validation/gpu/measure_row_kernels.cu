// Where the time of PyTorch's row kernels goes on one CUDA GPU: the data for a model of library
// softmax and layer norm in the simd kind. The kernels are copies of PyTorch 2.x's
// (aten/src/ATen/native/cuda/SoftMax.cu cunn_SoftMaxForwardSmem with the ILP of a 16-byte
// vector, its launch of one 1024-thread block per row with the 48 KiB default dynamic shared
// memory; layer_norm_kernel.cu vectorized_layer_norm_kernel with compute_stats' Welford pass and
// block reduction, 128 threads per row, 4-element vectors; block_reduce.cuh BlockReduce), built
// with the same flags (-O3, no fast math), each in two forms: plain, timed with CUDA events, and
// instrumented: thread 0 of every block stamps clock64 at the block's start and after each phase
// (each stamp after a __syncthreads, so the phase is the slowest warp's), and %globaltimer at
// start and end. Prints one JSON object: per kernel and shape the plain time, registers per
// thread, blocks per SM (the occupancy API), and per phase the mean and the 10/50/90th
// percentile over the blocks in cycles, plus the mean block lifetime in ns.
//
//   nvcc -O3 -gencode=arch=compute_90,code=sm_90 measure_row_kernels.cu -o measure_row_kernels
//   ./measure_row_kernels > row_kernels_runN.json
#include <cuda_bf16.h>

#include <algorithm>
#include <cfloat>
#include <cstdio>
#include <vector>

namespace {

constexpr int kMaxPhases = 6;
constexpr int kSoftmaxIlp = 8;      // sizeof(float4) / sizeof(bf16)
constexpr int kLayerNormVec = 4;    // layer_norm_kernel.cu vec_size
constexpr int kLayerNormThreads = 128;  // thread_constants.h num_threads(): 4 warps

template <typename T, int N>
struct alignas(sizeof(T) * N) Vec {
  T val[N];
};

// One block's stamps: phase ends in clock64 cycles since its start, and its wall span.
struct Stamps {
  long long phase_end[kMaxPhases];
  unsigned long long start_ns;
  unsigned long long end_ns;
};

__device__ unsigned long long global_ns() {
  unsigned long long now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  return now;
}

template <bool kInstrumented>
struct Recorder {
  Stamps* stamps;
  long long start = 0;
  int phase = 0;
  __device__ explicit Recorder(Stamps* out) : stamps(out) {
    if (kInstrumented && threadIdx.x == 0 && threadIdx.y == 0) {
      start = clock64();
      stamps[blockIdx.x].start_ns = global_ns();
    }
  }
  // Called by every thread right after a __syncthreads.
  __device__ void mark() {
    if (kInstrumented && threadIdx.x == 0 && threadIdx.y == 0) {
      stamps[blockIdx.x].phase_end[phase] = clock64() - start;
    }
    ++phase;
  }
  __device__ void finish() {
    if (kInstrumented && threadIdx.x == 0 && threadIdx.y == 0) {
      stamps[blockIdx.x].end_ns = global_ns();
    }
  }
};

struct MaxOp {
  __device__ float combine(float a, float b) const { return a < b ? b : a; }
};
struct SumOp {
  __device__ float combine(float a, float b) const { return a + b; }
};

// block_reduce.cuh BlockReduce, then blockReduceWarp's broadcast through shared memory.
template <class Op>
__device__ float block_reduce(float value, Op op, float identity, float* shared) {
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  for (int offset = 16; offset > 0; offset >>= 1) {
    value = op.combine(value, __shfl_down_sync(0xffffffffu, value, offset));
  }
  __syncthreads();
  if (lane == 0) shared[warp] = value;
  __syncthreads();
  value = threadIdx.x < blockDim.x / 32 ? shared[lane] : identity;
  if (warp == 0) {
    for (int offset = 16; offset > 0; offset >>= 1) {
      value = op.combine(value, __shfl_down_sync(0xffffffffu, value, offset));
    }
  }
  if (threadIdx.x == 0) shared[0] = value;
  __syncthreads();
  return shared[0];
}

// cunn_SoftMaxForwardSmem. Phases: load (a __syncthreads added after the load loop), max,
// sum of exponentials, write.
template <bool kInstrumented>
__global__ void softmax_smem(__nv_bfloat16* output, const __nv_bfloat16* input, int classes,
                             size_t max_smem, Stamps* stamps) {
  Recorder<kInstrumented> recorder(stamps);
  input += static_cast<long long>(blockIdx.x) * classes;
  output += static_cast<long long>(blockIdx.x) * classes;
  extern __shared__ unsigned char smem[];
  auto* cache = reinterpret_cast<__nv_bfloat16*>(smem);
  const size_t cache_elements = (max_smem - blockDim.x / 32 * sizeof(float)) / 2;
  auto* reduction = reinterpret_cast<float*>(smem + cache_elements * 2);
  using LoadT = Vec<__nv_bfloat16, kSoftmaxIlp>;
  const auto* in = reinterpret_cast<const LoadT*>(input);
  auto* cached = reinterpret_cast<LoadT*>(cache);
  float thread_max = -FLT_MAX;
  for (int offset = threadIdx.x; offset * kSoftmaxIlp < classes; offset += blockDim.x) {
    const LoadT value = in[offset];
    cached[offset] = value;
#pragma unroll
    for (int i = 0; i < kSoftmaxIlp; ++i) {
      thread_max = fmaxf(thread_max, __bfloat162float(value.val[i]));
    }
  }
  if (kInstrumented) {
    __syncthreads();
    recorder.mark();
  }
  const float max_k = block_reduce(thread_max, MaxOp{}, -FLT_MAX, reduction);
  recorder.mark();
  float thread_sum = 0;
  for (int offset = threadIdx.x; offset * kSoftmaxIlp < classes; offset += blockDim.x) {
    const LoadT value = cached[offset];
#pragma unroll
    for (int i = 0; i < kSoftmaxIlp; ++i) {
      thread_sum += expf(__bfloat162float(value.val[i]) - max_k);
    }
  }
  const float sum = block_reduce(thread_sum, SumOp{}, 0.f, reduction);
  recorder.mark();
  auto* out = reinterpret_cast<LoadT*>(output);
  for (int offset = threadIdx.x; offset * kSoftmaxIlp < classes; offset += blockDim.x) {
    const LoadT value = cached[offset];
    LoadT result;
#pragma unroll
    for (int i = 0; i < kSoftmaxIlp; ++i) {
      result.val[i] = __float2bfloat16(expf(__bfloat162float(value.val[i]) - max_k) / sum);
    }
    out[offset] = result;
  }
  if (kInstrumented) {
    __syncthreads();
    recorder.mark();
  }
  recorder.finish();
}

struct Welford {
  float mean, sigma2, count;
};

__device__ Welford welford_add(float value, Welford sum) {
  const float delta = value - sum.mean;
  const float count = sum.count + 1.f;
  const float mean = sum.mean + delta * (1.f / count);
  return {mean, sum.sigma2 + delta * (value - mean), count};
}

__device__ Welford welford_combine(Welford b, Welford a) {
  const float delta = b.mean - a.mean;
  const float count = a.count + b.count;
  if (count <= 0) return {0, 0, 0};
  const float coef = 1.f / count;
  const float na = a.count * coef;
  const float nb = b.count * coef;
  return {na * a.mean + nb * b.mean, a.sigma2 + b.sigma2 + delta * delta * a.count * nb, count};
}

// vectorized_layer_norm_kernel (gamma and beta given). Phases: statistics pass (loads and the
// Welford chain; a __syncthreads added after it), the block reduction, normalise and write.
template <bool kInstrumented>
__global__ void layer_norm(int n, float eps, const __nv_bfloat16* x, const __nv_bfloat16* gamma,
                           const __nv_bfloat16* beta, float* mean_out, float* rstd_out,
                           __nv_bfloat16* y, Stamps* stamps) {
  Recorder<kInstrumented> recorder(stamps);
  extern __shared__ float s_data[];
  using VecT = Vec<__nv_bfloat16, kLayerNormVec>;
  const __nv_bfloat16* row = x + static_cast<long long>(blockIdx.x) * n;
  const auto* row_vec = reinterpret_cast<const VecT*>(row);
  const int threads = blockDim.x * blockDim.y;
  const int thread = threadIdx.x + threadIdx.y * blockDim.x;
  const int vectors = n / kLayerNormVec;
  Welford wd{0, 0, 0};
  for (int i = thread; i < vectors; i += threads) {
    const VecT data = row_vec[i];
#pragma unroll
    for (int k = 0; k < kLayerNormVec; ++k) wd = welford_add(__bfloat162float(data.val[k]), wd);
  }
  if (kInstrumented) {
    __syncthreads();
    recorder.mark();
  }
  for (int offset = 16; offset > 0; offset >>= 1) {
    const Welford other{__shfl_down_sync(0xffffffffu, wd.mean, offset),
                        __shfl_down_sync(0xffffffffu, wd.sigma2, offset),
                        __shfl_down_sync(0xffffffffu, wd.count, offset)};
    wd = welford_combine(wd, other);
  }
  float* mean_sigma = s_data;
  float* counts = s_data + blockDim.y;
  for (int offset = blockDim.y / 2; offset > 0; offset /= 2) {
    if (threadIdx.x == 0 && threadIdx.y >= offset && threadIdx.y < 2 * offset) {
      const int slot = threadIdx.y - offset;
      mean_sigma[2 * slot] = wd.mean;
      mean_sigma[2 * slot + 1] = wd.sigma2;
      counts[slot] = wd.count;
    }
    __syncthreads();
    if (threadIdx.x == 0 && threadIdx.y < offset) {
      wd = welford_combine(wd, Welford{mean_sigma[2 * threadIdx.y],
                                       mean_sigma[2 * threadIdx.y + 1], counts[threadIdx.y]});
    }
    __syncthreads();
  }
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    mean_sigma[0] = wd.mean;
    mean_sigma[1] = wd.sigma2 / float(n);
  }
  __syncthreads();
  const float mean = mean_sigma[0];
  const float rstd = rsqrtf(mean_sigma[1] + eps);
  recorder.mark();
  const auto* gamma_vec = reinterpret_cast<const VecT*>(gamma);
  const auto* beta_vec = reinterpret_cast<const VecT*>(beta);
  auto* out = reinterpret_cast<VecT*>(y + static_cast<long long>(blockIdx.x) * n);
  for (int i = thread; i < vectors; i += threads) {
    const VecT data = row_vec[i];
    VecT result;
#pragma unroll
    for (int k = 0; k < kLayerNormVec; ++k) {
      result.val[k] = __float2bfloat16(
          __bfloat162float(gamma_vec[i].val[k]) * (rstd * (__bfloat162float(data.val[k]) - mean)) +
          __bfloat162float(beta_vec[i].val[k]));
    }
    out[i] = result;
  }
  if (thread == 0) {
    mean_out[blockIdx.x] = mean;
    rstd_out[blockIdx.x] = rstd;
  }
  if (kInstrumented) {
    __syncthreads();
    recorder.mark();
  }
  recorder.finish();
}

double percentile(std::vector<long long> values, double fraction) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return static_cast<double>(values[static_cast<size_t>(fraction * (values.size() - 1))]);
}

template <typename Launch>
float time_ms(Launch launch) {
  launch();  // warm-up
  cudaEvent_t begin, end;
  cudaEventCreate(&begin);
  cudaEventCreate(&end);
  constexpr int kRepeats = 20;
  cudaEventRecord(begin);
  for (int repeat = 0; repeat < kRepeats; ++repeat) launch();
  cudaEventRecord(end);
  cudaEventSynchronize(end);
  float ms = 0;
  cudaEventElapsedTime(&ms, begin, end);
  return ms / kRepeats;
}

void print_phases(const char* name, int rows, int cols, float plain_ms, float instrumented_ms,
                  int registers, int blocks_per_sm, const Stamps* device_stamps, int phases,
                  const char* const* phase_names, bool* first) {
  std::vector<Stamps> stamps(rows);
  cudaMemcpy(stamps.data(), device_stamps, sizeof(Stamps) * rows, cudaMemcpyDeviceToHost);
  printf("%s\"%s_%dx%d\":{\"plain_ms\":%.5f,\"instrumented_ms\":%.5f,\"registers\":%d,"
         "\"blocks_per_sm\":%d",
         *first ? "" : ",", name, rows, cols, plain_ms, instrumented_ms, registers, blocks_per_sm);
  *first = false;
  double lifetime_ns = 0;
  for (const Stamps& s : stamps) lifetime_ns += static_cast<double>(s.end_ns - s.start_ns) / rows;
  printf(",\"block_lifetime_ns\":%.1f", lifetime_ns);
  for (int phase = 0; phase < phases; ++phase) {
    std::vector<long long> cycles(rows);
    for (int row = 0; row < rows; ++row) {
      const long long before = phase == 0 ? 0 : stamps[row].phase_end[phase - 1];
      cycles[row] = stamps[row].phase_end[phase] - before;
    }
    double mean = 0;
    for (long long c : cycles) mean += static_cast<double>(c) / rows;
    printf(",\"%s\":{\"mean\":%.1f,\"p10\":%.0f,\"p50\":%.0f,\"p90\":%.0f}", phase_names[phase],
           mean, percentile(cycles, 0.1), percentile(cycles, 0.5), percentile(cycles, 0.9));
  }
  printf("}");
}

}  // namespace

int main() {
  cudaDeviceProp properties;
  cudaGetDeviceProperties(&properties, 0);
  const int shapes[][2] = {{16384, 4096}, {8192, 8192}, {65536, 4096}};
  const size_t max_elements = 65536ull * 4096;
  __nv_bfloat16 *input, *output, *weights;
  float *means, *rstds;
  Stamps* stamps;
  cudaMalloc(&input, max_elements * 2);
  cudaMalloc(&output, max_elements * 2);
  cudaMalloc(&weights, 8192 * 2);
  cudaMalloc(&means, 65536 * 4);
  cudaMalloc(&rstds, 65536 * 4);
  cudaMalloc(&stamps, sizeof(Stamps) * 65536);
  cudaMemset(input, 0x3c, max_elements * 2);  // small positive bf16 values
  cudaMemset(weights, 0x3c, 8192 * 2);
  printf("{\"device\":\"%s\",\"sms\":%d,\"kernels\":{", properties.name,
         properties.multiProcessorCount);
  bool first = true;
  const size_t smem = properties.sharedMemPerBlock;  // PyTorch's max_smem_per_block
  for (const auto& shape : shapes) {
    const int rows = shape[0];
    const int cols = shape[1];
    const int softmax_threads = std::min(cols, 1024);  // SoftMaxForward_getBlockSize
    cudaFuncAttributes attributes;
    cudaFuncGetAttributes(&attributes, softmax_smem<false>);
    int blocks_per_sm = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, softmax_smem<false>,
                                                  softmax_threads, smem);
    const float plain = time_ms([&] {
      softmax_smem<false><<<rows, softmax_threads, smem>>>(output, input, cols, smem, stamps);
    });
    const float instrumented = time_ms([&] {
      softmax_smem<true><<<rows, softmax_threads, smem>>>(output, input, cols, smem, stamps);
    });
    const char* softmax_phases[] = {"load", "max_reduce", "exp_sum_reduce", "write"};
    print_phases("softmax", rows, cols, plain, instrumented, attributes.numRegs, blocks_per_sm,
                 stamps, 4, softmax_phases, &first);

    const dim3 threads(32, kLayerNormThreads / 32);
    const int layer_norm_smem = threads.y * 3 / 2 * sizeof(float);
    cudaFuncGetAttributes(&attributes, layer_norm<false>);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, layer_norm<false>,
                                                  kLayerNormThreads, layer_norm_smem);
    const float plain_ln = time_ms([&] {
      layer_norm<false><<<rows, threads, layer_norm_smem>>>(cols, 1e-5f, input, weights, weights,
                                                            means, rstds, output, stamps);
    });
    const float instrumented_ln = time_ms([&] {
      layer_norm<true><<<rows, threads, layer_norm_smem>>>(cols, 1e-5f, input, weights, weights,
                                                           means, rstds, output, stamps);
    });
    const char* layer_norm_phases[] = {"statistics_pass", "block_reduce", "normalise_pass"};
    print_phases("layernorm", rows, cols, plain_ln, instrumented_ln, attributes.numRegs,
                 blocks_per_sm, stamps, 3, layer_norm_phases, &first);
  }
  printf("},\"status\":\"%s\"}\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
