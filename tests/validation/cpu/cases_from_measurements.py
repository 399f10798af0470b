#!/usr/bin/env python3
"""Writes the mimd validation cases (tests/validation/mimd_cpu_*/) from the measurements in this
folder (measured_run*.json, written by measure_cpu.c): each case's figure is the best over all
runs, since the machine is shared and the least disturbed run is the closest to what the
hardware does. Run it again after adding a measurement run; Python 3 standard library only."""

import glob
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.dirname(HERE)
# case, kernel, size (GEMM n or elements), threads, metric, what differs. GEMM runs on one thread
# only: on two threads it competes with the machine's other processes for both vCPUs, and its
# best run (247 GFLOP/s, 1.3 times one thread) measures that competition more than the cores.
CASE_LIST = [
    ("mimd_cpu_sgemm_4096_1core", "sgemm", 4096, 1,
     "fp32 GEMM 4096^3 on one core (OpenBLAS cblas_sgemm)",
     "OpenBLAS's SkylakeX (AVX-512) kernel with its cache blocking for L1/L2 and packing of A "
     "and B; polyarch splits the output into blocks whose operands stream from DRAM through the "
     "core's 1 MiB private memory, with no shared L3"),
    ("mimd_cpu_sgemm_1024_1core", "sgemm", 1024, 1,
     "fp32 GEMM 1024^3 on one core (OpenBLAS cblas_sgemm)",
     "as the 4096 case; at 1024 the packing and edge handling are a larger share of the time"),
    ("mimd_cpu_sgemm_2048_1core", "sgemm", 2048, 1,
     "fp32 GEMM 2048^3 on one core (OpenBLAS cblas_sgemm)",
     "as the 4096 case"),
    ("mimd_cpu_triad_1core", "triad", 1 << 26, 1,
     "STREAM triad a = b + s*c on 2^26-element fp32 arrays, one core",
     "STREAM counts 12 bytes per element and no write-allocate traffic; polyarch moves 16 (two "
     "inputs, and the output's lines read before they are written) through the core's window "
     "of line misses and its NoC link to DRAM, and the figure compared is STREAM's count over "
     "polyarch's time"),
    ("mimd_cpu_triad_2core", "triad", 1 << 26, 2,
     "STREAM triad on 2^26-element fp32 arrays, both cores (OpenMP)",
     "as the one-core triad, split over two cores"),
    ("mimd_cpu_copy_2core", "copy", 1 << 26, 2,
     "STREAM copy c = a on 2^26-element fp32 arrays, both cores (OpenMP)",
     "STREAM counts 8 bytes per element; polyarch moves 12 (the input, and the output's lines "
     "read before they are written) and the figure compared is STREAM's count over polyarch's "
     "time"),
]
LIMITATION_BANDWIDTH = (
    "each core streams at the bound its 64 line misses in flight set over the 103 ns memory "
    "latency measured unloaded (39.8 GB/s of lines per core; measure_latency.c); under a stream "
    "the fabric's and the DRAM controller's queues lengthen that latency, which the model does "
    "not add, and the VM's memory is shared with its host's other tenants")
LIMITATION_GEMM = (
    "the model runs GEMM at the vector pipes' peak; OpenBLAS reaches a share of it set by its "
    "kernel (AVX-512 on a core with full-width FMA pipes, packing, loads per FMA), and the shared "
    "machine's other processes take time from the measured runs")


def best(runs, kernel, size, threads):
    values = []
    for run in runs:
        for k in run["kernels"]:
            if k["kernel"] == kernel and k["threads"] == threads and \
                    k.get("m", k.get("elements")) == size:
                values.append(k["best_gflops"] if kernel == "sgemm" else k["best_gbps"])
    return max(values), values


def main():
    paths = sorted(glob.glob(os.path.join(HERE, "measured_run*.json")))
    runs = [json.load(open(p)) for p in paths]
    names = ", ".join(os.path.basename(p) for p in paths)
    loads = ", ".join(f"{r['loadavg_1min_before']:.1f}" for r in runs)
    clocks = ", ".join(f"{r['clock_ghz_dependent_adds']:.2f}" for r in runs)
    for case, kernel, size, threads, metric, differs in CASE_LIST:
        value, values = best(runs, kernel, size, threads)
        gemm = kernel == "sgemm"
        folder = os.path.join(CASES, case)
        os.makedirs(folder, exist_ok=True)
        arch = f"tests/validation/cpu/zen5_vm_{threads}core.yaml"
        limitation = LIMITATION_GEMM if gemm else LIMITATION_BANDWIDTH
        # Two threads have the VM's two cores only when nothing else runs; the one-thread
        # figures come from windows no other process interrupted.
        shared = "; the two threads share the two vCPUs with the other processes, so this " \
            "figure is a lower bound on the machine's" if threads == 2 else ""
        if not gemm and threads == 2:
            limitation += (". Two threads share the VM's two vCPUs with the machine's other "
                           "processes (load average near 7), so the measured figure is a lower "
                           "bound on what the two cores stream")
        # STREAM's bytes per element: copy reads one array and writes one, triad reads two.
        stream_bytes = 8 if kernel == "copy" else 12
        expression = "flops / latency_s / 1e9" if gemm else \
            f"{stream_bytes} * {size} / latency_s / 1e9"
        note = "; the triad's scalar multiply is free beside its memory traffic, so an add of " \
            "two streams" if kernel == "triad" else ""
        with open(os.path.join(folder, "case.yaml"), "w") as f:
            f.write(f"""# Written by tests/validation/cpu/cases_from_measurements.py from the measurements beside it.
kind: mimd
case: {case}
source: "measured on this project's build machine: tests/validation/cpu/ ({names}; measure_cpu.c)"
metric: "{metric}"
unit: {'GFLOP/s' if gemm else 'GB/s'}
published: {value:.4g}
conditions: "2-vCPU VM on an AMD EPYC Zen 5 host (lscpu_and_cpuinfo.txt), OpenBLAS 0.3.21 with OPENBLAS_CORETYPE=SkylakeX, gcc 12 -O3 -march=native -fopenmp; best of 7 timed repeats in each run, best over the runs ({', '.join(f'{v:.1f}' for v in values)}); 1-minute load average before each run {loads} (other builds share the machine); dependent-add clock {clocks} GHz{shared}"
differs: "{differs}"
limitation: "{limitation}"
arch: {arch}
workload: workload.yaml
polyarch: "{expression}"
""")
        if gemm:
            layer = f"{{name: sgemm, op: gemm, m: {size}, n: {size}, k: {size}, dtype: fp32}}"
        elif kernel == "copy":
            layer = (f"{{name: copy, op: elementwise, fn: copy, elements: {size}, inputs: 1, "
                     f"dtype: fp32}}")
        else:
            layer = (f"{{name: triad, op: elementwise, fn: add, elements: {size}, inputs: 2, "
                     f"dtype: fp32}}")
        with open(os.path.join(folder, "workload.yaml"), "w") as f:
            f.write(f"# {metric} (measure_cpu.c){note}.\n"
                    f"name: {case}\nlayers:\n  - {layer}\n")
        print(case, value)


if __name__ == "__main__":
    main()
