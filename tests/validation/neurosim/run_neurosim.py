#!/usr/bin/env python3
"""Drive DNN+NeuroSim V1.4's C++ estimator on VGG-8 / CIFAR-10 without PyTorch or the data set.

NeuroSim's Python wrapper (Inference_pytorch/inference.py) runs the trained VGG-8 on CIFAR-10
and, through the forward hooks of utee/hook.py, writes one weight and one input trace per
layer, then calls `NeuroSIM/main NetWork_VGG8.csv 8 8 128 128 w1 i1 w2 i2 ...`. Here neither
the CIFAR-10 images nor the pretrained weights (log/VGG8.pth) are available, so this script
writes the same traces, in the same formats, from
  - weights drawn by the wrapper's own initialiser (utee/wage_initializer.py: wage_init_ with
    factor 1.0, uniform in +-(1 - 2^-7)) and quantised by its Q (round(w 2^7) / 2^7), and
  - one synthetic image: uniform random pixels in [0, 1], normalised as models/dataset.py does
    ((x - 0.5) / 0.5),
propagated through VGG-8 (models/VGG.py) as the WAGE inference path computes it: conv / linear
with the quantised weights (the exact product, not the hardware path's ADC-quantised partial
sums), output / scale (the layer's WAGE scale), clipped to +-(1 - 2^-7)
and rounded to 2^-7 steps (WAGEQuantizer_f), ReLU, 2x2 max-pooling. Each layer's input is
written with hook.py's dec2bin (8-bit two's complement of x 2^7, sign bit first), rows = the
im2col row (channel, ky, kx), columns = vector x 8 bits; each weight as [fan-in x out].

What depends on these synthetic traces: only NeuroSim's dynamic energy (it counts the 1 bits of
each input vector and the weights' conductances). Area, clock, latency and throughput come from
the network description and Param.cpp alone.

Usage: run_neurosim.py --neurosim PATH/TO/DNN_NeuroSim_V1.4 --out DIR [--seed N]  (needs NumPy)
PATH is a checkout of github.com/neurosim/DNN_NeuroSim_V1.4 whose Inference_pytorch/NeuroSIM
has been built with `make`. Writes DIR/traces/*, DIR/neurosim_stdout.txt and DIR/summary.json.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys

import numpy as np

BITS = 8  # wl_weight and wl_activate, the wrapper's defaults (inference.py)
SUBARRAY = 128  # --subArray default
PARALLEL_READ = 128  # --parallelRead default

# models/VGG.py cfg_list['vgg8'] and the classifier: (kind, out, kernel, pool_after)
VGG8 = [("C", 128, 3, False), ("C", 128, 3, True), ("C", 256, 3, False), ("C", 256, 3, True),
        ("C", 512, 3, False), ("C", 512, 3, True), ("L", 1024, 1, False), ("L", 10, 1, False)]


def wage_scale(fan_in, bits):
    """utee/wage_initializer.py scale_limit(float_limit, bits) with factor 1.0."""
    float_limit = math.sqrt(3.0 / fan_in)
    limit = 1.0 - 1.0 / 2 ** (bits - 1)
    limit_std = limit / math.sqrt(3.0)
    return limit, 2.0 ** math.ceil(math.log2(limit_std / float_limit))


def quantise(x, bits):
    """utee/wage_quantizer.py Q: round(x 2^(bits-1)) / 2^(bits-1) (numpy rounds half to even,
    as torch.round does)."""
    s = 2.0 ** (bits - 1)
    return np.round(x * s) / s


def clip(x, bits):
    d = 1.0 / 2 ** (bits - 1)
    return np.clip(x, -1 + d, 1 - d)


def im2col(x, k):
    """hook.py stretch_input for a 'same' convolution, stride 1: [H W, C k k], row order of the
    window (y, x), column order (channel, ky, kx)."""
    c, h, w = x.shape
    p = k // 2
    xp = np.zeros((c, h + 2 * p, w + 2 * p))
    xp[:, p:p + h, p:p + w] = x
    cols = np.empty((h * w, c * k * k))
    idx = 0
    for i in range(h):
        for j in range(w):
            cols[idx] = xp[:, i:i + k, j:j + k].reshape(-1)
            idx += 1
    return cols


def dec2bin(x, n):
    """hook.py dec2bin: bit planes of x 2^(n-1), sign (weight -2^(n-1)) first."""
    y = np.zeros_like(x)
    out = []
    x_int = x / (1.0 / 2 ** (n - 1))
    base = 2 ** (n - 1)
    y[x_int >= 0] = 0
    y[x_int < 0] = 1
    rest = x_int + base * y
    out.append(y.copy())
    for _ in range(n - 1):
        base = base / 2
        y = (rest >= base).astype(float)
        rest = rest - base * y
        out.append(y.copy())
    return out


def write_input(cols, path):
    """hook.py write_matrix_activation_conv / _fc: rows = fan-in, column v * n + bit."""
    planes = dec2bin(cols, BITS)  # each [vectors, fan-in]
    vectors, fan_in = cols.shape
    m = np.zeros((fan_in, vectors * BITS), dtype=np.uint8)
    for b, plane in enumerate(planes):
        m[:, b::BITS] = plane.T
    with open(path, "w") as f:
        for row in m:
            f.write(",".join("1" if v else "0" for v in row))
            f.write("\n")


def write_weight(wmat, path):
    """hook.py write_matrix_weight: [fan-in x out], '%10.5f'."""
    np.savetxt(path, wmat, delimiter=",", fmt="%10.5f")


def make_traces(out_dir, seed):
    rng = np.random.default_rng(seed)
    os.makedirs(out_dir, exist_ok=True)
    x = (rng.uniform(0.0, 1.0, size=(3, 32, 32)) - 0.5) / 0.5  # models/dataset.py Normalize
    files = []
    ones = []
    for i, (kind, out, k, pool) in enumerate(VGG8):
        if kind == "C":
            cols = im2col(x, k)
        else:
            cols = x.reshape(1, -1)
        fan_in = cols.shape[1]
        limit, scale = wage_scale(fan_in, BITS)
        w = quantise(rng.uniform(-limit, limit, size=(fan_in, out)), BITS)
        wpath = os.path.join(out_dir, "weight_layer%d.csv" % (i + 1))
        ipath = os.path.join(out_dir, "input_layer%d.csv" % (i + 1))
        write_weight(w, wpath)
        write_input(cols, ipath)
        files += [wpath, ipath]
        ones.append(float(np.mean(np.stack(dec2bin(cols, BITS)))))
        y = quantise(clip((cols @ w) / scale, BITS), BITS)  # [vectors, out]
        if i == len(VGG8) - 1:
            break
        y = np.maximum(y, 0.0)  # ReLU after every layer but the last
        if kind == "C":
            side = int(round(math.sqrt(y.shape[0])))
            y = y.T.reshape(out, side, side)
            if pool:
                y = y.reshape(out, side // 2, 2, side // 2, 2).max(axis=(2, 4))
        x = y
    return files, ones


NUMBER = r"([-+0-9.eE]+)"


def grab(text, label):
    m = re.search(re.escape(label) + r"\s*:?\s*" + NUMBER, text)
    return float(m.group(1)) if m else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--neurosim", required=True, help="DNN_NeuroSim_V1.4 checkout (built)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    sim_dir = os.path.join(os.path.abspath(args.neurosim), "Inference_pytorch", "NeuroSIM")
    binary = os.path.join(sim_dir, "main")
    if not os.access(binary, os.X_OK):
        sys.exit("%s: not built (run make in %s)" % (binary, sim_dir))
    out = os.path.abspath(args.out)
    files, ones = make_traces(os.path.join(out, "traces"), args.seed)
    cmd = [binary, os.path.join(sim_dir, "NetWork_VGG8.csv"), str(BITS), str(BITS),
           str(SUBARRAY), str(PARALLEL_READ)] + files
    run = subprocess.run(cmd, cwd=sim_dir, capture_output=True, text=True, check=True)
    with open(os.path.join(out, "neurosim_stdout.txt"), "w") as f:
        f.write(run.stdout)
    text = run.stdout
    commit = subprocess.run(["git", "-C", os.path.abspath(args.neurosim), "rev-parse", "HEAD"],
                            capture_output=True, text=True)
    summary = {
        "tool": "DNN+NeuroSim V1.4 (github.com/neurosim/DNN_NeuroSim_V1.4)",
        "tool_commit": commit.stdout.strip() if commit.returncode == 0 else "unknown",
        "command": " ".join(["main", "NetWork_VGG8.csv", str(BITS), str(BITS), str(SUBARRAY),
                             str(PARALLEL_READ), "<weight and input traces of layers 1..8>"]),
        "seed": args.seed,
        "input_one_bit_fraction_per_layer": [round(v, 6) for v in ones],
        "chip_area_um2": grab(text, "ChipArea"),
        "chip_cim_array_area_um2": grab(text, "Chip total CIM array"),
        "chip_adc_area_um2": grab(text, "Total ADC (or S/As and precharger for SRAM) Area on chip"),
        "chip_clock_period_ns": grab(text, "Chip clock period is:"),
        "chip_pipeline_cycle_per_image_ns": grab(text, "Chip pipeline-system-clock-cycle (per image) is:"),
        "chip_energy_per_image_pj": grab(text, "Chip pipeline-system readDynamicEnergy (per image) is:"),
        "chip_leakage_energy_per_image_pj": grab(text, "Chip pipeline-system leakage Energy (per image) is:"),
        "energy_efficiency_tops_per_w": grab(text, "Energy Efficiency TOPS/W (Pipelined Process):"),
        "throughput_tops": grab(text, "Throughput TOPS (Pipelined Process):"),
        "throughput_fps": grab(text, "Throughput FPS (Pipelined Process):"),
        "compute_efficiency_tops_per_mm2": grab(text, "Compute efficiency TOPS/mm^2 (Pipelined Process):"),
    }
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=2)
        f.write("\n")
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
