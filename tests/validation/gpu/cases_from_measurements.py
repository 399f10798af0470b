#!/usr/bin/env python3
"""Writes a validation case (tests/validation/simd_<gpu>_<kernel>/) for every kernel of the
measured GPU runs in this folder that the hand-written simd_* cases do not already cover, so the
table holds the whole measured kernel set, not a selection of it. Python 3 standard library only;
run it again after adding a measurement run, then `make validate`.

Kernels left out, and why:
- those under 0.1 ms: each sample repeats the kernel back to back, so a kernel shorter than
  PyTorch's launch path (about 10-25 us per call here) measures the launch rate, not the GPU;
  such kernels differ by up to 47 % between the two H100 runs (README.md);
- fp32 GEMMs: the measurement allowed TF32 tensor cores (torch allow_tf32), a type polyarch's IR
  does not have, so no workload states the computation that ran.
"""

import glob
import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.dirname(HERE)
REPO = os.path.dirname(os.path.dirname(CASES))
MIN_KERNEL_MS = 0.1
# What a layer-list attention entry states to run FlashAttention-2's schedule.
FLASH2_LAYER_KEYS = {"kernel": "flash2"}

# gpu tag, measured run, a second run of the same machine (or None), arch, conditions' opening.
RUNS = [
    ("h100", "h100_sxm_run1.json", "h100_sxm_run2.json", "configs/arch/h100_like.yaml",
     "H100 80GB HBM3 SXM, 132 SMs, 700 W limit, clocks under the GPU's own management"),
    ("h200", "h200_sxm_run1.json", None, "tests/validation/gpu/h200_sxm.yaml",
     "H200 SXM, 141 GB HBM3e, 132 SMs, 60 MB L2, 700 W limit, clocks under the GPU's own "
     "management"),
]

# The library that runs a category's kernels, where the measuring script names one; the others
# are PyTorch's own kernels. Then, per category, where the model is known to differ from it.
SOFTWARE = {
    "gemm": "cuBLAS",
    "attention": "scaled_dot_product_attention, flash backend",
    "decode": "scaled_dot_product_attention, default backend",
    "conv": "cuDNN 9.19, benchmark mode",
}
DIFFERS = {
    "gemm": "cuBLAS picks its kernel and the GPU its clock (up to 1.98 GHz); the arch runs every "
            "tensor core at the 1.83 GHz tensor clock of the datasheet's peak, with its own "
            "searched tiling",
    "attention": "PyTorch's flash backend is FlashAttention-2, which the workload states "
                 "(kernel: flash2): polyarch launches it as the library does (its tile for the "
                 "head dim, its KV-split heuristic, its items in grid order two to an SM) and "
                 "plans each block's products at the tensor cores' synchronous mma.sync rate "
                 "(measured) followed by its softmax",
    "decode": "the measuring script expands the 8 KV heads to the query heads with "
              "repeat_interleave before the timed call, so the kernel reads that many heads of K "
              "and V; the workload states it (kv_heads equal to heads). PyTorch's default SDPA "
              "backend, not a split-KV flash-decoding kernel",
    "conv": "cuDNN autotunes among its kernels; polyarch plans the implicit GEMM as CUTLASS's "
            "kernels step it (one filter tap per K step, each tap's channels zero-filled up to "
            "the tile's K; channel rows TMA cannot load on the synchronous MMA) on the tensor "
            "cores and on the CUDA cores, and runs the faster",
    "layernorm": "PyTorch's fused layer_norm kernel (Welford's update with a reciprocal per "
                 "element, in fp32); polyarch streams the rows through the SMs with the same "
                 "per-element work against the DRAM",
    "rmsnorm": "PyTorch's fused rms_norm kernel; polyarch streams the rows through the SMs with "
               "its per-element work in fp32 against the DRAM",
    "softmax": "PyTorch's softmax kernel: one 1024-thread block per row, the row cached in "
               "shared memory, the max, the sum of exponentials, then exp / sum written (the "
               "exponential computed twice, in fp32); polyarch streams the rows with the same "
               "per-element work (30 lane ops and 3 SFU results, and the conversions)",
    "stream": "PyTorch's vectorised elementwise kernel; the same streams in polyarch",
    "gelu": "PyTorch's F.gelu is the exact form, x/2 (1 + erf(x/sqrt 2)), computed in fp32; "
            "polyarch prices the same routine (CUDA's erff and the scaling: 28 lane ops and an "
            "exp2 per element, and the bf16 conversions) over the same two streams",
}
LIMITATION = {
    "gemm": "cuBLAS's kernel choice for the shape (tile shape, split-K, waves over the 132 SMs) "
            "and the clock the GPU holds are not the model's: polyarch searches its own tiling "
            "at the fixed 1.83 GHz tensor clock, while a GEMM of several milliseconds run back "
            "to back meets the 700 W limit, which lowers the SM clock (1.4 GHz in the sustained "
            "8192^3 run)",
    "attention": "the flash2 plan prices the MMAs, the softmax's lane ops and exps and the K/V "
                 "staging, but no other instruction of FlashAttention-2's stream (each warp's "
                 "own loads of K and V fragments from shared memory, address arithmetic, the "
                 "synchronisation between blocks), nor the masking work of the causal diagonal "
                 "blocks; of an item's prologue and epilogue only its Q fetch and its O scaling "
                 "and pass through shared memory are priced, and short sequences' few blocks "
                 "per item expose the rest (causal 512-token runs are off by most)",
    "decode": "the model streams K and V at the DRAM speed; the measured default backend's "
              "split of the cached tokens over the SMs is not modelled",
    "conv": "cuDNN's kernel for the shape is not known: polyarch searches its own tiling at "
            "the engine's peak rate; for a few-channel stem, cuDNN's tap slice width and the "
            "gather of 6-byte pixel rows through registers (no async copy loads them) are not "
            "modelled (with 64-channel slices at the synchronous MMA rate the 3-channel stem "
            "would take 0.25 ms, near the measured time, but no source states cuDNN's tile)",
    "layernorm": "the model reads each row once from the DRAM (it fits the scratchpad); "
                 "PyTorch's kernel reads it twice through global memory, and the measured rate "
                 "(about 1.5 times the minimum bytes at the copy's bandwidth, on both GPUs) "
                 "suggests the second read misses L2, which the model does not price; per-row "
                 "reductions and the kernel's occupancy are not modelled either "
                 "(tests/validation/gpu/measure_row_kernels.cu is ready to measure them)",
    "rmsnorm": "as layer norm: the second read of each row and the per-row reductions and "
               "occupancy of the library kernel are not modelled",
    "softmax": "the measured kernel takes the same time per row on the H100 and the H200 (about "
               "1.7 us per 4096-element row per SM): it is bound on the SM by each block's "
               "serial phases (the load, two block reductions with their barriers, the sum and "
               "write passes) with one or two 1024-thread blocks per SM, which the model does "
               "not serialise: it streams the rows with the library's per-element work at the "
               "lanes' and the DRAM's rates (tests/validation/gpu/measure_row_kernels.cu is "
               "ready to measure the phases)",
    "stream": "the model streams at the DRAM preset's efficiency; the library kernel's "
              "vectorisation and occupancy are not modelled",
    "gelu": "the H200's faster memory leaves the exact GELU bound by the lanes (75 % of the "
            "copy's bandwidth there, 95 % on the H100); the model counts the routine's "
            "arithmetic, not the kernel's index arithmetic and loop",
}


def covered_kernels():
    """(run file, kernel) pairs a hand-written case already reproduces (its `source:` line)."""
    covered = set()
    for path in glob.glob(os.path.join(CASES, "*", "case.yaml")):
        with open(path) as f:
            text = f.read()
        if "# Generated by tests/validation/gpu/cases_from_measurements.py" in text:
            continue
        match = re.search(r"^source: .*gpu/(\S+\.json), kernel (\S+)\"", text, re.M)
        if match:
            covered.add((match.group(1), match.group(2)))
    return covered


def category(kernel):
    layer = kernel["layer"]
    if layer["op"] == "attention":
        return "decode" if layer.get("kv_len") else "attention"
    if layer["op"] in ("layernorm", "rmsnorm", "softmax"):
        return layer["op"]
    if layer["op"] == "elementwise":
        return "gelu" if layer.get("fn") == "gelu" else "stream"
    if layer["op"] == "conv2d":
        return "conv"
    return "gemm"


def describe(kernel, cat):
    layer = kernel["layer"]
    dtype = layer.get("dtype", "")
    if cat == "gemm":
        shape = f"{layer['m']}x{layer['n']}x{layer['k']}"
        if layer.get("batch"):
            return f"batched {dtype} GEMM, {layer['batch']} x ({shape})"
        return f"{dtype} GEMM {shape} throughput"
    if cat == "attention":
        kind = "causal flash" if layer.get("causal") else "flash"
        return (f"{kind} attention forward, batch {layer['b']}, {layer['h']} heads, seq "
                f"{layer['s']}, head dim {layer['d']}")
    if cat == "decode":
        return (f"decode attention: batch {layer['b']}, {layer['h']} query heads, one query "
                f"against {layer['kv_len']} cached tokens, head dim {layer['d']}")
    if cat == "conv":
        return (f"convolution {layer['c']}->{layer['k']}, {layer['r']}x{layer['s']} stride "
                f"{layer['stride']}, {layer['h']}x{layer['w']}, batch {layer['n']}, NHWC {dtype}")
    if cat in ("stream", "gelu"):
        return (f"elementwise {layer['fn']} of {layer['elements']} {dtype} elements, bytes per "
                "second")
    return f"{cat} {layer['rows']}x{layer['cols']} {dtype}, bytes read and written per second"


def workload_layer(kernel, cat):
    layer = dict(kernel["layer"])
    if cat == "decode":
        layer["kv_heads"] = layer["h"]
    if cat == "attention":
        layer.update(FLASH2_LAYER_KEYS)
    fields = ", ".join(f"{key}: {json.dumps(value)}" for key, value in layer.items())
    return "{name: " + kernel["name"] + ", " + fields + "}"


def write_case(tag, run_file, second, arch, opening, kernel):
    cat = category(kernel)
    name = f"simd_{tag}_{kernel['name']}"
    folder = os.path.join(CASES, name)
    os.makedirs(folder, exist_ok=True)
    throughput = cat in ("gemm", "attention", "conv")
    unit, figure, scale = ("TFLOP/s", kernel["flops"], 1e12) if throughput else \
        ("GB/s", kernel["min_bytes"], 1e9)
    published = figure / (kernel["median_ms"] * 1e-3) / scale
    expression = f"{figure} / latency_s / {scale:.0e}".replace("e+", "e")
    if cat == "decode":
        # The kernel reads the expanded heads, not the bytes the run file counts: compare times.
        unit, published, expression = "ms", kernel["median_ms"], "latency_s * 1e3"
    software = SOFTWARE.get(cat)
    conditions = f"{opening}; PyTorch 2.11 / CUDA 13.0" + (f" ({software})" if software else "")
    conditions += "; median of 30 CUDA-event samples"
    if second and kernel["name"] in second:
        again = second[kernel["name"]] if cat == "decode" else \
            figure / (second[kernel["name"]] * 1e-3) / scale
        conditions += f"; run 2 of the same machine: {again:.4g} {unit}"
    conditions += f"; kernel time {kernel['median_ms']:.3f} ms"
    gpu = "H100 SXM" if tag == "h100" else "H200 SXM"
    lines = [
        "# Generated by tests/validation/gpu/cases_from_measurements.py from the measured run;",
        "# edit the script, not this file.",
        "kind: simd",
        f"case: {name}",
        f"source: \"measured, {gpu}: tests/validation/gpu/{run_file}, kernel {kernel['name']}\"",
        f"metric: \"{describe(kernel, cat)}\"",
        f"unit: {unit}",
        f"published: {published:.6g}",
        f"conditions: \"{conditions}\"",
        f"differs: \"{DIFFERS[cat]}\"",
        f"limitation: \"{LIMITATION[cat]}\"",
        f"arch: {arch}",
        "workload: workload.yaml",
        f"polyarch: \"{expression}\"",
    ]
    with open(os.path.join(folder, "case.yaml"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(folder, "workload.yaml"), "w") as f:
        f.write(f"# The kernel {kernel['name']} of tests/validation/gpu/{run_file} as a layer "
                "list.\n")
        f.write(f"name: {name}\nlayers:\n  - {workload_layer(kernel, cat)}\n")
    return name


def main():
    covered = covered_kernels()
    for path in glob.glob(os.path.join(CASES, "simd_*", "case.yaml")):
        with open(path) as f:
            if "# Generated by tests/validation/gpu/cases_from_measurements.py" in f.read():
                for old in os.listdir(os.path.dirname(path)):
                    os.remove(os.path.join(os.path.dirname(path), old))
                os.rmdir(os.path.dirname(path))
    written = 0
    for tag, run_file, second_file, arch, opening in RUNS:
        with open(os.path.join(HERE, run_file)) as f:
            run = json.load(f)
        second = None
        if second_file:
            with open(os.path.join(HERE, second_file)) as f:
                second = {k["name"]: k["median_ms"] for k in json.load(f)["kernels"]}
        for kernel in run["kernels"]:
            if kernel["median_ms"] < MIN_KERNEL_MS or (run_file, kernel["name"]) in covered:
                continue
            if kernel["layer"].get("dtype") == "fp32" and kernel["layer"]["op"] == "gemm":
                continue
            write_case(tag, run_file, second, arch, opening, kernel)
            written += 1
    print(f"wrote {written} cases")


if __name__ == "__main__":
    main()
