// Measures this machine's CPU for polyarch's mimd validation cases: OpenBLAS fp32 GEMM
// (cblas_sgemm) and STREAM-style fp32 kernels (copy, add, triad) over arrays far larger than
// the caches, on 1 thread and on every online core. Prints JSON on stdout.
//
// Build and run (Debian 12: apt-get install libopenblas-dev):
//   gcc -O3 -march=native -fopenmp measure_cpu.c -o measure_cpu -lopenblas && ./measure_cpu
// Each figure is the best of REPEATS timed runs after a warm-up (the machine is shared, so the
// best run is the one least disturbed by other processes); the median is printed beside it.
#include <cblas.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { REPEATS = 7 };

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static int cmp_double(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

static void best_and_median(double* seconds, int n, double* best, double* median) {
  qsort(seconds, n, sizeof(double), cmp_double);
  *best = seconds[0];
  *median = seconds[n / 2];
}

// The core clock while running: a chain of dependent integer adds retires one add per cycle, so
// adds / seconds is the clock (a VM reports its TSC rate in /proc/cpuinfo, not the boost clock).
// Short runs (about 30 ms), many of them: the fastest is one no other process interrupted.
static double measured_clock_ghz(void) {
  const long iterations = 10000000;
  unsigned long x = 0;
  enum { CLOCK_RUNS = 50 };
  double seconds[CLOCK_RUNS];
  for (int r = 0; r < CLOCK_RUNS; ++r) {
    double t0 = now_s();
    for (long i = 0; i < iterations; ++i)
      __asm__ volatile(
          "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
          "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0"
          : "+r"(x));
    seconds[r] = now_s() - t0;
  }
  double best, median;
  best_and_median(seconds, CLOCK_RUNS, &best, &median);
  return 8.0 * iterations / best * 1e-9 + 0.0 * (double)x;
}

static void print_loadavg(const char* key) {
  double one = -1.0;
  FILE* f = fopen("/proc/loadavg", "r");
  if (f) {
    if (fscanf(f, "%lf", &one) != 1) one = -1.0;
    fclose(f);
  }
  printf("  \"%s\": %.2f,\n", key, one);
}

extern void openblas_set_num_threads(int);
extern char* openblas_get_corename(void);

static void gemm(int n, int threads, int first) {
  openblas_set_num_threads(threads);
  float* a = malloc(sizeof(float) * n * n);
  float* b = malloc(sizeof(float) * n * n);
  float* c = malloc(sizeof(float) * n * n);
  for (long i = 0; i < (long)n * n; ++i) {
    a[i] = (float)(i % 7) * 0.25f;
    b[i] = (float)(i % 5) * 0.5f;
    c[i] = 0.0f;
  }
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n);
  double seconds[REPEATS];
  for (int r = 0; r < REPEATS; ++r) {
    double t0 = now_s();
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a, n, b, n, 0.0f, c,
                n);
    seconds[r] = now_s() - t0;
  }
  double best, median;
  best_and_median(seconds, REPEATS, &best, &median);
  double flops = 2.0 * n * n * (double)n;
  printf("%s    {\"kernel\": \"sgemm\", \"m\": %d, \"n\": %d, \"k\": %d, \"threads\": %d, "
         "\"best_s\": %.6e, \"median_s\": %.6e, \"best_gflops\": %.2f, \"median_gflops\": %.2f}",
         first ? "" : ",\n", n, n, n, threads, best, median, flops / best * 1e-9,
         flops / median * 1e-9);
  free(a);
  free(b);
  free(c);
}

// STREAM's kernels on fp32 arrays; bytes counted as STREAM counts them (reads + writes, no
// write-allocate traffic).
static void stream(const char* kernel, long n, int threads) {
  omp_set_num_threads(threads);
  float* a = malloc(sizeof(float) * n);
  float* b = malloc(sizeof(float) * n);
  float* c = malloc(sizeof(float) * n);
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) {
    a[i] = 1.0f;
    b[i] = 2.0f;
    c[i] = 0.5f;
  }
  const float scalar = 3.0f;
  double seconds[REPEATS + 1];
  int arrays = 0;
  for (int r = 0; r <= REPEATS; ++r) {
    double t0 = now_s();
    if (strcmp(kernel, "copy") == 0) {
      arrays = 2;
#pragma omp parallel for schedule(static)
      for (long i = 0; i < n; ++i) c[i] = a[i];
    } else if (strcmp(kernel, "add") == 0) {
      arrays = 3;
#pragma omp parallel for schedule(static)
      for (long i = 0; i < n; ++i) c[i] = a[i] + b[i];
    } else {
      arrays = 3;
#pragma omp parallel for schedule(static)
      for (long i = 0; i < n; ++i) a[i] = b[i] + scalar * c[i];
    }
    seconds[r] = now_s() - t0;
  }
  double best, median;
  best_and_median(seconds + 1, REPEATS, &best, &median);  // the first run warms up
  double bytes = (double)arrays * sizeof(float) * n;
  printf(",\n    {\"kernel\": \"%s\", \"elements\": %ld, \"dtype\": \"fp32\", \"threads\": %d, "
         "\"bytes\": %.0f, \"best_s\": %.6e, \"median_s\": %.6e, \"best_gbps\": %.2f, "
         "\"median_gbps\": %.2f, \"check\": %.1f}",
         kernel, n, threads, bytes, best, median, bytes / best * 1e-9, bytes / median * 1e-9,
         (double)a[n / 2] + c[n / 3]);
  free(a);
  free(b);
  free(c);
}

int main(void) {
  int cores = omp_get_num_procs();
  time_t started = time(NULL);
  char date[32];
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&started));
  printf("{\n  \"date_utc\": \"%s\",\n", date);
  print_loadavg("loadavg_1min_before");
  printf("  \"clock_ghz_dependent_adds\": %.3f,\n", measured_clock_ghz());
  printf("  \"openblas_core\": \"%s\",\n  \"online_cores\": %d,\n  \"kernels\": [\n",
         openblas_get_corename(), cores);
  int first = 1;
  const int sizes[] = {512, 1024, 2048, 4096};
  for (int t = 1; t <= cores; t = (t == cores ? cores + 1 : cores)) {
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
      gemm(sizes[s], t, first);
      first = 0;
    }
  }
  const long elements = 1L << 26;  // 256 MiB per array
  const char* kernels[] = {"copy", "add", "triad"};
  for (int t = 1; t <= cores; t = (t == cores ? cores + 1 : cores))
    for (int k = 0; k < 3; ++k) stream(kernels[k], elements, t);
  printf("\n  ],\n");
  print_loadavg("loadavg_1min_after");
  printf("  \"end\": true\n}\n");
  return 0;
}
