#!/usr/bin/python3
"""Exports the ONNX zoo under tests/data/onnx_zoo/ and counts each model's MACs in torch.

Not run in CI: it needs Debian's python3-torch, python3-torchvision and python3-onnx
(/usr/bin/python3). Each model is exported with torch.onnx.export at the opset listed, then
stripped to structure only (every initializer's data marked external, in a file that does not
exist), which keeps the files small: polyarch compiles and simulates them, it cannot run them.

The MACs are counted on the torch side, independently of the ONNX export, while the model runs
once on its example input: a TorchDispatchMode sees every ATen operator torch executes after
its composite operators (linear, matmul, conv2d, einsum, multi-head attention's Python path)
have decomposed, and counts each convolution (output elements x input channels per group x
kernel area; dilation spreads the window without adding taps) and each matrix product (mm,
addmm, bmm, baddbmm, mv, dot: the product of its dimensions), the masked scores of a causal
attention included: torch computes them all. A fused kernel it would not see into (native
multi-head attention, a transposed convolution) stops the script rather than go uncounted;
the model runs with gradients enabled so that nn.MultiheadAttention takes its Python path.

Usage: /usr/bin/python3 tests/onnx_zoo/export_zoo.py   (from the repository root)
"""
import math
import os
import sys

import onnx
import torch
import torch.nn as nn
import torchvision
from torch.utils._python_dispatch import TorchDispatchMode

OUT = os.path.join("tests", "data", "onnx_zoo")


class MacCounter(TorchDispatchMode):
    """Counts the multiply-accumulates of every convolution and matrix product torch runs."""

    def __init__(self):
        super().__init__()
        self.macs = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        output = func(*args, **(kwargs or {}))
        name = func.overloadpacket.__name__
        if name in ("convolution", "_convolution"):
            if args[6]:  # transposed
                raise RuntimeError("a transposed convolution: its MACs are not counted here")
            # Weight [out channels, in channels / groups, kernel...]: one MAC per weight entry
            # past the first axis for each output element.
            self.macs += output.numel() * math.prod(int(d) for d in args[1].shape[1:])
        elif name in ("mm", "bmm", "mv", "dot"):
            self.macs += product_macs(args[0], args[1])
        elif name in ("addmm", "baddbmm", "addmv"):
            self.macs += product_macs(args[1], args[2])
        elif "attention" in name or "transformer" in name or name.startswith("mkldnn"):
            raise RuntimeError(f"{name} is a fused kernel whose MACs are not counted here")
        return output


def product_macs(a, b):
    """A matrix product's MACs: a's dimensions times b's last (a vector's when b is one)."""
    columns = int(b.shape[-1]) if b.dim() > 1 else 1
    return math.prod(int(d) for d in a.shape) * columns


def count_macs(model, example):
    """The model's conv and matrix-product MACs on one run over `example`."""
    counter = MacCounter()
    with torch.enable_grad(), counter:
        model(example)
    return counter.macs


class RmsNorm(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(width))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * self.weight


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


class DecoderLayer(nn.Module):
    """GPT-2-like (LayerNorm, GELU MLP, one K/V head per query head) or Llama-like (RMSNorm,
    SwiGLU, rotary positions, grouped-query attention) with a causal mask."""

    def __init__(self, width, heads, kv_heads, llama):
        super().__init__()
        self.heads, self.kv_heads, self.head = heads, kv_heads, width // heads
        self.llama = llama
        self.norm1 = RmsNorm(width) if llama else nn.LayerNorm(width)
        self.norm2 = RmsNorm(width) if llama else nn.LayerNorm(width)
        self.q = nn.Linear(width, width, bias=not llama)
        self.k = nn.Linear(width, kv_heads * self.head, bias=not llama)
        self.v = nn.Linear(width, kv_heads * self.head, bias=not llama)
        self.o = nn.Linear(width, width, bias=not llama)
        if llama:
            self.gate = nn.Linear(width, 3 * width, bias=False)
            self.up = nn.Linear(width, 3 * width, bias=False)
            self.down = nn.Linear(3 * width, width, bias=False)
        else:
            self.up = nn.Linear(width, 4 * width)
            self.down = nn.Linear(4 * width, width)

    def attention(self, x, cos, sin):
        b, s, _ = x.shape
        q = self.q(x).view(b, s, self.heads, self.head).transpose(1, 2)
        k = self.k(x).view(b, s, self.kv_heads, self.head).transpose(1, 2)
        v = self.v(x).view(b, s, self.kv_heads, self.head).transpose(1, 2)
        if self.llama:
            q = q * cos + rotate_half(q) * sin
            k = k * cos + rotate_half(k) * sin
            # Each K/V head serves heads / kv_heads query heads (as Hugging Face's repeat_kv).
            shape = (b, self.kv_heads, self.heads // self.kv_heads, s, self.head)
            k = k[:, :, None].expand(shape).reshape(b, self.heads, s, self.head)
            v = v[:, :, None].expand(shape).reshape(b, self.heads, s, self.head)
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head)
        mask = torch.triu(torch.ones(s, s, dtype=torch.bool), diagonal=1)
        scores = scores.masked_fill(mask, float("-inf"))
        context = torch.matmul(torch.softmax(scores, dim=-1), v)
        return self.o(context.transpose(1, 2).reshape(b, s, -1))

    def forward(self, x, cos, sin):
        x = x + self.attention(self.norm1(x), cos, sin)
        h = self.norm2(x)
        if self.llama:
            return x + self.down(nn.functional.silu(self.gate(h)) * self.up(h))
        return x + self.down(nn.functional.gelu(self.up(h)))


class Decoder(nn.Module):
    def __init__(self, vocab, width, heads, kv_heads, layers, seq, llama):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.llama = llama
        if not llama:
            self.position = nn.Embedding(seq, width)
        self.layers = nn.ModuleList(
            DecoderLayer(width, heads, kv_heads, llama) for _ in range(layers))
        self.norm = RmsNorm(width) if llama else nn.LayerNorm(width)
        self.head = nn.Linear(width, vocab, bias=False)
        head = width // heads
        angles = torch.outer(torch.arange(seq).float(),
                             1.0 / 10000 ** (torch.arange(0, head, 2).float() / head))
        angles = torch.cat((angles, angles), dim=-1)
        self.register_buffer("cos", angles.cos())
        self.register_buffer("sin", angles.sin())

    def forward(self, ids):
        x = self.embed(ids)
        if not self.llama:
            x = x + self.position(torch.arange(ids.shape[1]))
        for layer in self.layers:
            x = layer(x, self.cos, self.sin)
        return self.head(self.norm(x))


class SegmentationOut(nn.Module):
    """A torchvision segmentation model's "out" map alone (its forward returns a dict)."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model(x)["out"]


class FeatureMaps(nn.Module):
    """A detection backbone (ResNet and FPN) whose dict of feature maps becomes a tuple."""

    def __init__(self, backbone):
        super().__init__()
        self.backbone = backbone

    def forward(self, x):
        return tuple(self.backbone(x).values())


class AtrousTiny(nn.Module):
    """A segmentation-like head small enough to keep its weights: a strided conv, a dilated
    conv and a dilated depthwise conv (DeepLab's atrous convolutions), per-pixel classes, then
    bilinear upsampling back to the input's size."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 8, 3, stride=2, padding=1)
        self.atrous = nn.Conv2d(8, 8, 3, padding=2, dilation=2)
        self.depthwise = nn.Conv2d(8, 8, 3, padding=(3, 2), dilation=(3, 2), groups=8)
        self.classes = nn.Conv2d(8, 4, 1)

    def forward(self, x):
        y = torch.relu(self.stem(x))
        y = torch.relu(self.atrous(y))
        y = self.classes(torch.relu(self.depthwise(y)))
        return nn.functional.interpolate(y, size=x.shape[-2:], mode="bilinear",
                                         align_corners=False)


def strip_weights(path):
    """Marks every initializer's data external (a file that is not there): structure only."""
    model = onnx.load(path)
    for tensor in model.graph.initializer:
        if tensor.data_location == onnx.TensorProto.EXTERNAL:
            continue
        tensor.ClearField("raw_data")
        for field in ("float_data", "int32_data", "int64_data", "double_data"):
            tensor.ClearField(field)
        tensor.data_location = onnx.TensorProto.EXTERNAL
        del tensor.external_data[:]
        entry = tensor.external_data.add()
        entry.key, entry.value = "location", tensor.name.replace("/", "_") + ".weights"
    onnx.save(model, path)


def export(name, model, example, opset):
    model.eval()
    macs = count_macs(model, example)
    path = os.path.join(OUT, name + ".onnx")
    torch.onnx.export(model, (example,), path, opset_version=opset, do_constant_folding=True,
                      input_names=["input"], output_names=["output"])
    strip_weights(path)
    return f"{name}\t{opset}\t{macs}"


def export_with_weights(name, model, example, opset):
    """A small model kept whole, with an input and torch's output for `run --functional`."""
    import numpy
    model.eval()
    with torch.no_grad():
        output = model(example)
    path = os.path.join(OUT, name + ".onnx")
    torch.onnx.export(model, (example,), path, opset_version=opset, do_constant_folding=True,
                      input_names=["input"], output_names=["output"])
    numpy.save(os.path.join(OUT, name + "_input.npy"), example.numpy())
    numpy.save(os.path.join(OUT, name + "_output.npy"), output.numpy())


def main():
    torch.manual_seed(0)
    image = torch.randn(1, 3, 224, 224)
    ids = torch.randint(0, 1000, (1, 64))
    rows = [
        export("resnet18", torchvision.models.resnet18(), image, 13),
        export("mobilenet_v2", torchvision.models.mobilenet_v2(), image, 14),
        export("squeezenet1_0", torchvision.models.squeezenet1_0(), image, 15),
        export("shufflenet_v2_x0_5", torchvision.models.shufflenet_v2_x0_5(), image, 16),
        export("vgg11", torchvision.models.vgg11(), image, 17),
        export("resnet50", torchvision.models.resnet50(), image, 17),
        export("alexnet", torchvision.models.alexnet(), image, 13),
        export("mobilenet_v3_small", torchvision.models.mobilenet_v3_small(), image, 17),
        export("efficientnet_b0", torchvision.models.efficientnet_b0(), image, 17),
        export("regnet_y_400mf", torchvision.models.regnet_y_400mf(), image, 17),
        export("mnasnet0_5", torchvision.models.mnasnet0_5(), image, 16),
        export("densenet121", torchvision.models.densenet121(), image, 15),
        export("googlenet", torchvision.models.googlenet(aux_logits=False, init_weights=True),
               image, 14),
        export("convnext_tiny", torchvision.models.convnext_tiny(), image, 17),
        export("gpt2_like", Decoder(1000, 128, 4, 4, 2, 64, llama=False), ids, 17),
        export("llama_like", Decoder(1000, 128, 4, 2, 2, 64, llama=True), ids, 17),
    ]
    small_ids = torch.randint(0, 256, (1, 16))
    export_with_weights("llama_tiny", Decoder(256, 64, 4, 2, 2, 16, llama=True), small_ids, 17)
    export_with_weights("gpt2_tiny", Decoder(256, 64, 4, 4, 2, 16, llama=False), small_ids, 17)
    # After the tiny decoders, so that their weights (drawn from the seed) stay as they were.
    export_with_weights("atrous_tiny", AtrousTiny(), torch.randn(1, 3, 16, 16), 17)
    models = torchvision.models
    segmentation = torchvision.models.segmentation
    rows += [
        export("mobilenet_v3_large", models.mobilenet_v3_large(), image, 15),
        export("inception_v3", models.inception_v3(aux_logits=False, init_weights=True),
               torch.randn(1, 3, 299, 299), 16),
        export("vit_b_16", models.vit_b_16(), image, 14),
        export("swin_t", models.swin_t(), image, 17),
        export("lraspp_mobilenet_v3_large", SegmentationOut(segmentation.lraspp_mobilenet_v3_large(
            weights=None, weights_backbone=None)), image, 16),
        export("deeplabv3_mobilenet_v3_large", SegmentationOut(
            segmentation.deeplabv3_mobilenet_v3_large(weights=None, weights_backbone=None)),
               image, 13),
        export("fcn_resnet50", SegmentationOut(segmentation.fcn_resnet50(
            weights=None, weights_backbone=None)), image, 17),
        export("fasterrcnn_resnet50_fpn_backbone", FeatureMaps(
            models.detection.fasterrcnn_resnet50_fpn(weights=None, weights_backbone=None).backbone),
               image, 17),
    ]
    with open(os.path.join(OUT, "macs.tsv"), "w") as table:
        table.write("# model\topset\ttorch MACs (conv, linear, matmul; see export_zoo.py)\n")
        table.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    sys.exit(main())
