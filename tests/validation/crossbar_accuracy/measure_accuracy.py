#!/usr/bin/env python3
"""Top-1 accuracy of the digits classifiers (train_digits.py) run through polyarch's functional
crossbar model on each crossbar preset, against the float32 network, and the logits' relative L2
error against the ideal run. Not run in CI; writes the table that archs/crossbar/README.md quotes.

    python3 tests/validation/crossbar_accuracy/measure_accuracy.py POLYARCH [ARCH.yaml ...]
"""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
PRESETS = ["configs/arch/isaac_like.yaml", "configs/arch/neurosim_rram_like.yaml",
           "configs/arch/sram_cim_like.yaml"]


def run(polyarch, model, arch, seed=1):
    with tempfile.TemporaryDirectory() as out:
        command = [polyarch, "run", "--functional", "--workload", str(HERE / f"{model}.onnx"),
                   "--input", str(HERE / "digits_test_images.npy"), "--out", out, "--quiet"]
        if arch:
            command += ["--arch", str(ROOT / arch), "--seed", str(seed)]
        subprocess.run(command, check=True, cwd=ROOT)
        logits = np.load(Path(out) / "outputs" / "logits.npy")
        functional = json.loads((Path(out) / "functional.json").read_text()) if arch else None
    return logits, functional


def main():
    polyarch = sys.argv[1]
    presets = sys.argv[2:] or PRESETS
    labels = np.load(HERE / "digits_test_labels.npy")
    print("| model | configuration | top-1 accuracy | float32 | logits rel. L2 error |")
    print("|---|---|---|---|---|")
    for model in ("digits_mlp", "digits_cnn"):
        ideal, _ = run(polyarch, model, None)
        ideal_accuracy = float((ideal.argmax(1) == labels).mean())
        for arch in presets:
            logits, _ = run(polyarch, model, arch)
            accuracy = float((logits.argmax(1) == labels).mean())
            error = float(np.linalg.norm(logits - ideal) / np.linalg.norm(ideal))
            print(f"| {model} | {Path(arch).stem} | {accuracy:.3f} | {ideal_accuracy:.3f} | "
                  f"{error:.3g} |")


if __name__ == "__main__":
    main()
