#!/usr/bin/env python3
"""polyarch's functional crossbar model against CrossSim (Sandia's analog MVM simulator, NumPy),
on the same layer with the same encoding, device errors and converters.

One fully connected layer (K = 128 inputs on one array's rows, N = 64 outputs), 8-bit weights
over four 2-bit cells with an offset (polyarch's arrays 64 columns wide, the width of CrossSim's
per-slice arrays, so row wires have the same length), 8-bit signed inputs in 1-bit sign-magnitude slices, ideal
ADCs, cells with an infinite on/off ratio; every output column holds the same largest |w|, so
polyarch's per-column weight scale equals CrossSim's per-matrix one. Per setting the relative
error of each simulator's outputs against the float64 product (||y - W x|| / ||W x||), the mean
and spread over seeds. Not run in CI; results.md beside it holds what it printed.

    python3 tests/validation/crossbar_crosssim/compare_crosssim.py CROSSSIM_DIR POLYARCH

CROSSSIM_DIR: a checkout of https://github.com/sandialabs/cross-sim (the folder holding
simulator/); needs python3-numpy and python3-onnx.
"""
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

K, N, M = 128, 64, 64
SEEDS = range(5)
R_ON_OHM = 1000.0  # CrossSim's default Rmin: the top level's resistance

# name -> (polyarch `analog:` map, CrossSim settings)
SETTINGS = {
    "quantisation only": ({"adc_quantization": "false"}, {}),
    "programming error 5 % (Gaussian, proportional)": (
        {"adc_quantization": "false", "program_sigma": 0.05, "program_variation": "gaussian"},
        {"programming_error": 0.05}),
    "read noise 5 % (per read, proportional)": (
        {"adc_quantization": "false", "read_sigma": 0.05}, {"read_noise": 0.05}),
    "read noise 2 % + programming 2 %": (
        {"adc_quantization": "false", "read_sigma": 0.02, "program_sigma": 0.02,
         "program_variation": "gaussian"}, {"read_noise": 0.02, "programming_error": 0.02}),
    "IR drop, 0.05 ohm per pitch": (
        {"adc_quantization": "false", "wire_resistance_ohm": 0.05,
         "cell_on_resistance_ohm": R_ON_OHM}, {"parasitic_ohm": 0.05}),
    "IR drop, 0.2 ohm per pitch": (
        {"adc_quantization": "false", "wire_resistance_ohm": 0.2,
         "cell_on_resistance_ohm": R_ON_OHM}, {"parasitic_ohm": 0.2}),
    "IR drop, 1 ohm per pitch": (
        {"adc_quantization": "false", "wire_resistance_ohm": 1.0,
         "cell_on_resistance_ohm": R_ON_OHM}, {"parasitic_ohm": 1.0}),
}

ARCH = """name: crosssim-comparison
clock_ghz: 1.0
technology: 28nm
memory:
  dram: {{kind: ddr4, bandwidth_gbps: 25.6, latency_ns: 100, channels: 1, capacity_gib: 8}}
interconnect: {{kind: bus, bandwidth_gbps: 0, latency_cycles: 0}}
units:
  - name: xbar
    kind: crossbar
    tiles: 4
    arrays_per_tile: 8
    rows: 128
    cols: 64
    cell: {{device: rram, bits_per_cell: 2}}
    weight_bits: 8
    input_bits: 8
    dac_bits: 1
    signed_weights: offset
    adc: {{bits: 16, columns_per_adc: 64, sample_rate_gsps: 1.28}}
    read_ns: 100
    analog: {{{analog}}}
"""


def layer(seed):
    rng = np.random.default_rng(100 + seed)
    weights = rng.normal(0.0, 1.0, (N, K))
    largest = np.abs(weights).max()
    weights[:, 0] = np.where(weights[:, 0] < 0, -largest, largest)
    inputs = rng.normal(0.0, 1.0, (M, K))
    return weights, inputs


def crosssim(crosssim_dir, weights, inputs, setting, seed):
    sys.path.insert(0, str(crosssim_dir))
    from simulator import AnalogCore, CrossSimParameters
    np.random.seed(seed)
    params = CrossSimParameters()
    params.core.style = "BITSLICED"
    params.core.bit_sliced.style = "OFFSET"
    params.core.weight_bits = 8
    params.core.bit_sliced.num_slices = 4
    params.core.rows_max = K
    params.core.cols_max = 1024
    params.xbar.device.cell_bits = 2
    params.xbar.device.infinite_on_off_ratio = True
    params.xbar.device.Rmin = R_ON_OHM
    params.xbar.dac.mvm.model = "SignMagnitudeDAC"
    params.xbar.dac.mvm.bits = 8
    params.xbar.dac.mvm.input_bitslicing = True
    params.xbar.dac.mvm.signed = True
    largest = float(np.abs(inputs).max())
    params.core.mapping.inputs.mvm.min = -largest
    params.core.mapping.inputs.mvm.max = largest
    if "programming_error" in setting:
        params.xbar.device.programming_error.enable = True
        params.xbar.device.programming_error.model = "NormalProportionalDevice"
        params.xbar.device.programming_error.magnitude = setting["programming_error"]
    if "read_noise" in setting:
        params.xbar.device.read_noise.enable = True
        params.xbar.device.read_noise.model = "NormalProportionalDevice"
        params.xbar.device.read_noise.magnitude = setting["read_noise"]
    if "parasitic_ohm" in setting:
        params.xbar.array.parasitics.enable = True
        params.xbar.array.parasitics.Rp_row = setting["parasitic_ohm"]
        params.xbar.array.parasitics.Rp_col = setting["parasitic_ohm"]
        # CrossSim 3.2's bit-sliced core reads this list, which its parameter class lacks.
        object.__setattr__(params.xbar.array.parasitics, "disable_slices", [False] * 4)
    core = AnalogCore(weights, params)
    return np.stack([core.matvec(inputs[row]) for row in range(M)])


def polyarch(program, weights, inputs, analog, seed, workdir):
    workdir = Path(workdir)
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"])], "fc",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [M, K])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [M, N])],
        [numpy_helper.from_array(weights.T.astype(np.float32), "w")])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
              workdir / "fc.onnx")
    np.save(workdir / "x.npy", inputs.astype(np.float32))
    text = ", ".join(f"{key}: {value}" for key, value in analog.items())
    (workdir / "arch.yaml").write_text(ARCH.format(analog=text))
    run = subprocess.run([program, "run", "--functional", "--workload", str(workdir / "fc.onnx"),
                          "--input", str(workdir / "x.npy"), "--arch", str(workdir / "arch.yaml"),
                          "--seed", str(seed + 1), "--out", str(workdir / "out"), "--quiet"],
                         capture_output=True, text=True)
    if run.returncode == 1 and "did not settle" in run.stderr:
        return None  # polyarch refuses a wire network it cannot solve
    run.check_returncode()
    return np.load(workdir / "out" / "outputs" / "y.npy").astype(np.float64)


def relative_error(got, weights, inputs):
    exact = inputs @ weights.T
    return float(np.linalg.norm(got - exact) / np.linalg.norm(exact))


def main():
    crosssim_dir, program = Path(sys.argv[1]), sys.argv[2]
    print("| setting | polyarch rel. error (mean ± sd) | CrossSim rel. error (mean ± sd) | "
          "polyarch / CrossSim |")
    print("|---|---|---|---|")
    for name, (analog, setting) in SETTINGS.items():
        ours, theirs = [], []
        for seed in SEEDS:
            weights, inputs = layer(seed)
            with tempfile.TemporaryDirectory() as workdir:
                got = polyarch(program, weights, inputs, analog, seed, workdir)
                ours.append(relative_error(got, weights, inputs) if got is not None else np.nan)
            theirs.append(relative_error(crosssim(crosssim_dir, weights, inputs, setting, seed),
                                         weights, inputs))
        if np.isnan(ours).any():
            print(f"| {name} | refused (the network did not settle) | "
                  f"{np.mean(theirs):.4g} ± {np.std(theirs):.2g} | |")
            continue
        print(f"| {name} | {np.mean(ours):.4g} ± {np.std(ours):.2g} | "
              f"{np.mean(theirs):.4g} ± {np.std(theirs):.2g} | "
              f"{np.mean(ours) / np.mean(theirs):.3f} |")


if __name__ == "__main__":
    main()
