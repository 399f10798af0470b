// Measures this machine's memory latency as one core sees it, for the `core.memory_latency_ns`
// of its arch files: a chain of dependent loads (pointer chasing) through a random cyclic
// permutation of 64-byte lines over buffers far larger than the caches, so that every load
// misses every cache level and the next address is known only when the previous load returns.
// Blocks of the buffer in random order, and the lines of each block in random order before the
// next block. Three block sizes: the whole buffer (any line after any line: nearly every load
// also misses the TLBs, and in a virtual machine a miss walks the guest's and the host's page
// tables), 2 MiB (the 512 4 KiB translations of a block fit the second-level TLB, and
// successive loads fall in different 4 KiB pages, so the per-page prefetchers find no pattern:
// the latency of DRAM as a core sees it) and 4 KiB (one translation per 64 loads, but
// prefetchers that track a page's lines may fetch ahead: a lower bound). The buffer asks for
// 2 MiB pages (madvise MADV_HUGEPAGE). Prints JSON on stdout.
//
// Build and run:
//   gcc -O2 measure_latency.c -o measure_latency && ./measure_latency
// Each figure is the best of REPEATS timed chases (the machine is shared: the best chase is the
// one least disturbed); the median is printed beside it. This is the unloaded latency; under a
// streaming load the queues in the fabric and the DRAM controller only add to it.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

enum { REPEATS = 9, LINE_BYTES = 64 };

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static int cmp_double(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

// xorshift64: a fixed seed, so every run chases the same permutation.
static uint64_t next_random(uint64_t* state) {
  uint64_t x = *state;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  *state = x;
  return x;
}

static void shuffle(size_t* items, size_t count, uint64_t* state) {
  for (size_t i = count - 1; i > 0; --i) {
    size_t j = (size_t)(next_random(state) % (i + 1));
    size_t t = items[i];
    items[i] = items[j];
    items[j] = t;
  }
}

static void chase(size_t bytes, size_t block_bytes, const char* comma) {
  const size_t lines = bytes / LINE_BYTES;
  char* buffer = aligned_alloc(1 << 21, bytes);
  if (!buffer) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  madvise(buffer, bytes, MADV_HUGEPAGE);
  // `order` is the visiting order; linking each line to the next closes one cycle.
  size_t* order = malloc(lines * sizeof(size_t));
  uint64_t state = 0x9E3779B97F4A7C15ull;
  const size_t per_block = block_bytes / LINE_BYTES;
  const size_t blocks = lines / per_block;
  size_t* block_order = malloc(blocks * sizeof(size_t));
  size_t* in_block = malloc(per_block * sizeof(size_t));
  for (size_t b = 0; b < blocks; ++b) block_order[b] = b;
  shuffle(block_order, blocks, &state);
  for (size_t b = 0; b < blocks; ++b) {
    for (size_t l = 0; l < per_block; ++l) in_block[l] = l;
    shuffle(in_block, per_block, &state);
    for (size_t l = 0; l < per_block; ++l) {
      order[b * per_block + l] = block_order[b] * per_block + in_block[l];
    }
  }
  free(block_order);
  free(in_block);
  for (size_t i = 0; i < lines; ++i) {
    *(char**)(buffer + order[i] * LINE_BYTES) = buffer + order[(i + 1) % lines] * LINE_BYTES;
  }
  free(order);
  const long steps = 4000000;
  double ns[REPEATS];
  char* p = buffer;
  for (long i = 0; i < steps; ++i) p = *(char**)p;  // warm-up: pages faulted, TLB filled
  for (int r = 0; r < REPEATS; ++r) {
    double t0 = now_s();
    for (long i = 0; i < steps; ++i) p = *(char**)p;
    ns[r] = (now_s() - t0) * 1e9 / steps;
  }
  qsort(ns, REPEATS, sizeof(double), cmp_double);
  printf("  {\"buffer_mib\": %zu, \"block_kib\": %zu, \"best_ns\": %.1f, \"median_ns\": %.1f, "
         "\"end\": %d}%s\n",
         bytes >> 20, block_bytes >> 10, ns[0], ns[REPEATS / 2], (int)((uintptr_t)p & 1), comma);
  free(buffer);
}

int main(void) {
  double load = -1.0;
  FILE* f = fopen("/proc/loadavg", "r");
  if (f) {
    if (fscanf(f, "%lf", &load) != 1) load = -1.0;
    fclose(f);
  }
  time_t t = time(NULL);
  char date[32];
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
  printf("{\n \"date_utc\": \"%s\",\n \"loadavg_1min_before\": %.2f,\n \"chases\": [\n", date,
         load);
  const size_t mib = (size_t)1 << 20;
  chase(256 * mib, 256 * mib, ",");
  chase(1024 * mib, 2 * mib, ",");
  chase(256 * mib, 2 * mib, ",");
  chase(1024 * mib, 4096, ",");
  chase(256 * mib, 4096, "");
  printf(" ]\n}\n");
  return 0;
}
