#!/usr/bin/env python3
"""Trains two small classifiers on scikit-learn's digits (8x8 handwritten digits, 1797 images),
exports them to ONNX with their weights, and writes the held-out images and labels as .npy.

The crossbar presets' accuracy on them (measure_accuracy.py) is the accuracy a user of an analog
design cares about, measured on a real task rather than as output error on random inputs.
Not run in CI (needs python3-torch, python3-sklearn, python3-onnx); its outputs are checked in
beside it. Deterministic: fixed seeds, single thread.

    python3 tests/validation/crossbar_accuracy/train_digits.py OUTDIR
"""
import sys
from pathlib import Path

import numpy as np
import torch
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

torch.manual_seed(0)
torch.set_num_threads(1)


def data():
    digits = load_digits()
    images = (digits.images / 16.0).astype(np.float32)  # pixel values 0..16 -> 0..1
    # Centred and scaled as a deployed network sees its inputs: mean 0, unit variance.
    mean, std = images.mean(), images.std()
    images = (images - mean) / std
    x_train, x_test, y_train, y_test = train_test_split(
        images, digits.target, test_size=0.2, random_state=0, stratify=digits.target)
    return (torch.from_numpy(x_train[:, None]), torch.from_numpy(y_train),
            torch.from_numpy(x_test[:, None]), torch.from_numpy(y_test))


def cnn():
    return torch.nn.Sequential(
        torch.nn.Conv2d(1, 16, 3, padding=1), torch.nn.BatchNorm2d(16), torch.nn.ReLU(),
        torch.nn.Conv2d(16, 32, 3, padding=1, stride=2), torch.nn.BatchNorm2d(32), torch.nn.ReLU(),
        torch.nn.Conv2d(32, 32, 3, padding=1), torch.nn.BatchNorm2d(32), torch.nn.ReLU(),
        torch.nn.Flatten(), torch.nn.Linear(32 * 4 * 4, 64), torch.nn.ReLU(),
        torch.nn.Linear(64, 10))


def mlp():
    return torch.nn.Sequential(
        torch.nn.Flatten(), torch.nn.Linear(64, 128), torch.nn.ReLU(),
        torch.nn.Linear(128, 64), torch.nn.ReLU(), torch.nn.Linear(64, 10))


def train(model, x, y, epochs=60):
    optimiser = torch.optim.Adam(model.parameters(), lr=3e-3)
    loss = torch.nn.CrossEntropyLoss()
    generator = torch.Generator().manual_seed(1)
    for _ in range(epochs):
        model.train()
        order = torch.randperm(len(x), generator=generator)
        for start in range(0, len(x), 64):
            batch = order[start:start + 64]
            optimiser.zero_grad()
            loss(model(x[batch]), y[batch]).backward()
            optimiser.step()
    model.eval()
    return model


def main():
    out = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent)
    out.mkdir(parents=True, exist_ok=True)
    x_train, y_train, x_test, y_test = data()
    np.save(out / "digits_test_images.npy", x_test.numpy())
    np.save(out / "digits_test_labels.npy", y_test.numpy().astype(np.int64))
    for name, builder in (("digits_cnn", cnn), ("digits_mlp", mlp)):
        model = train(builder(), x_train, y_train)
        with torch.no_grad():
            logits = model(x_test)
        accuracy = float((logits.argmax(1) == y_test).float().mean())
        print(f"{name}: float32 test accuracy {accuracy:.4f} on {len(y_test)} images")
        # polyarch compiles fixed shapes: the batch is the whole test set.
        torch.onnx.export(model, x_test, out / f"{name}.onnx", opset_version=13,
                          input_names=["image"], output_names=["logits"])
        np.save(out / f"{name}_float_logits.npy", logits.numpy())


if __name__ == "__main__":
    main()
