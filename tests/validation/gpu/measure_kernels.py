#!/usr/bin/env python3
"""Times a kernel set on a real NVIDIA GPU with PyTorch, for polyarch's GPU validation cases.

Each kernel is described twice: how PyTorch runs it, and as the polyarch layer-list entry
(docs/workloads.md) that states the same computation, so a case can be replayed on a GPU-like
arch file. Times are CUDA-event medians over many launches after warm-up, in the GPU's own
clock management (nothing is locked or reset). One sustained GEMM is also run while
nvidia-smi samples board power, SM clock and temperature.

Usage: python3 measure_kernels.py OUT_DIR   (writes OUT_DIR/measurements.json)
Not run in CI: it needs a CUDA GPU.
"""
import json
import os
import platform
import statistics
import subprocess
import sys
import threading
import time

import torch
import torch.nn.functional as F

DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}


def time_ms(fn, warmup=5, iters=30, min_total_ms=60.0):
    """Median milliseconds of fn() over CUDA events; repeats short kernels so each sample
    spans enough time that launch gaps do not dominate."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record(); fn(); stop.record(); torch.cuda.synchronize()
    one = max(start.elapsed_time(stop), 1e-3)
    reps = max(1, int(min_total_ms / iters / one))
    samples = []
    for _ in range(iters):
        start.record()
        for _ in range(reps):
            fn()
        stop.record()
        torch.cuda.synchronize()
        samples.append(start.elapsed_time(stop) / reps)
    return statistics.median(samples), min(samples), max(samples)


def record(results, category, name, layer, flops, bytes_moved, fn):
    med, lo, hi = time_ms(fn)
    entry = {"category": category, "name": name, "layer": layer, "median_ms": med,
             "min_ms": lo, "max_ms": hi, "flops": flops, "min_bytes": bytes_moved,
             "tflops": flops / (med * 1e-3) / 1e12 if flops else None,
             "gbps": bytes_moved / (med * 1e-3) / 1e9 if bytes_moved else None}
    results.append(entry)
    print(f"{category:10s} {name:44s} {med:9.4f} ms"
          + (f" {entry['tflops']:8.1f} TFLOP/s" if flops else "")
          + (f" {entry['gbps']:8.1f} GB/s" if bytes_moved else ""), flush=True)


def gemms(results):
    shapes = [(s, s, s) for s in (256, 512, 1024, 2048, 4096, 8192, 16384)]
    # Transformer shapes: GPT-3/Llama projections at a few token counts, decode GEMVs.
    shapes += [(2048, 12288, 4096), (4096, 4096, 4096 * 4), (8192, 11008, 4096),
               (8192, 4096, 11008), (16384, 8192, 8192), (512, 768, 768), (512, 3072, 768),
               (512, 768, 3072), (1, 4096, 4096), (16, 4096, 4096), (64, 8192, 8192),
               (128, 12288, 4096), (4096, 128, 4096), (65536, 256, 256)]
    for dname in ("bf16", "fp16", "fp32"):
        dt = DTYPES[dname]
        for (m, n, k) in shapes:
            if dname == "fp32" and m * n * k > 4096 ** 3:
                continue
            a = torch.randn(m, k, device="cuda", dtype=dt)
            b = torch.randn(k, n, device="cuda", dtype=dt)
            el = a.element_size()
            record(results, "gemm", f"gemm_{dname}_{m}x{n}x{k}",
                   {"op": "gemm", "m": m, "n": n, "k": k, "dtype": dname},
                   2 * m * n * k, (m * k + k * n + m * n) * el, lambda: a @ b)
            del a, b
    # Batched GEMMs as attention's QK^T takes them.
    for (bt, m, n, k) in ((128, 512, 512, 64), (64, 2048, 2048, 128), (32, 4096, 4096, 128)):
        a = torch.randn(bt, m, k, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(bt, k, n, device="cuda", dtype=torch.bfloat16)
        record(results, "gemm", f"bmm_bf16_{bt}x{m}x{n}x{k}",
               {"op": "gemm", "m": m, "n": n, "k": k, "batch": bt, "dtype": "bf16"},
               2 * bt * m * n * k, bt * (m * k + k * n + m * n) * 2, lambda: torch.bmm(a, b))


def attention(results):
    from torch.nn.attention import SDPBackend, sdpa_kernel
    # FlashAttention-2/3 papers' forward benchmark: 16k tokens per batch, hidden 2048.
    for d in (64, 128):
        heads = 2048 // d
        for s in (512, 1024, 2048, 4096, 8192, 16384):
            b = 16384 // s
            for causal in (False, True):
                q = torch.randn(b, heads, s, d, device="cuda", dtype=torch.bfloat16)
                k = torch.randn_like(q); v = torch.randn_like(q)
                macs = 2 * b * heads * s * s * d
                if causal:
                    macs = macs * (s + 1) // (2 * s)
                with sdpa_kernel([SDPBackend.FLASH_ATTENTION]):
                    record(results, "attention",
                           f"attn_fwd_bf16_b{b}_h{heads}_s{s}_d{d}" + ("_causal" if causal else ""),
                           {"op": "attention", "b": b, "h": heads, "s": s, "d": d,
                            "causal": causal, "dtype": "bf16"},
                           2 * macs, 4 * b * heads * s * d * 2,
                           lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal))
                del q, k, v
    # Decode: one query against a long KV cache (GQA 32 query heads on 8 KV heads).
    for kv in (1024, 4096, 16384):
        b, hq, hk, d = 16, 32, 8, 128
        q = torch.randn(b, hq, 1, d, device="cuda", dtype=torch.bfloat16)
        k = torch.randn(b, hk, kv, d, device="cuda", dtype=torch.bfloat16)
        v = torch.randn_like(k)
        kr = k.repeat_interleave(hq // hk, dim=1); vr = v.repeat_interleave(hq // hk, dim=1)
        record(results, "attention", f"attn_decode_bf16_b{b}_h{hq}_kv{hk}_len{kv}_d{d}",
               {"op": "attention", "b": b, "h": hq, "kv_heads": hk, "s": 1, "kv_len": kv,
                "d": d, "dtype": "bf16"},
               4 * b * hq * kv * d, 2 * b * hk * kv * d * 2,
               lambda: F.scaled_dot_product_attention(q, kr, vr))
        del q, k, v, kr, vr


def norms_and_streams(results):
    for rows, cols in ((4096, 1024), (16384, 4096), (8192, 8192), (65536, 4096)):
        x = torch.randn(rows, cols, device="cuda", dtype=torch.bfloat16)
        w = torch.ones(cols, device="cuda", dtype=torch.bfloat16)
        nbytes = 2 * rows * cols * 2
        record(results, "norm", f"layernorm_bf16_{rows}x{cols}",
               {"op": "layernorm", "rows": rows, "cols": cols, "dtype": "bf16"}, None, nbytes,
               lambda: F.layer_norm(x, (cols,), w, w))
        record(results, "norm", f"rmsnorm_bf16_{rows}x{cols}",
               {"op": "rmsnorm", "rows": rows, "cols": cols, "dtype": "bf16"}, None, nbytes,
               lambda: F.rms_norm(x, (cols,), w))
        record(results, "norm", f"softmax_bf16_{rows}x{cols}",
               {"op": "softmax", "rows": rows, "cols": cols, "dtype": "bf16"}, None, nbytes,
               lambda: torch.softmax(x, dim=-1))
        del x, w
    for n in (1 << 20, 1 << 24, 1 << 28):
        a = torch.randn(n, device="cuda", dtype=torch.bfloat16); b = torch.randn_like(a)
        record(results, "stream", f"add_bf16_{n}",
               {"op": "elementwise", "fn": "add", "elements": n, "inputs": 2, "dtype": "bf16"},
               None, 3 * n * 2, lambda: a + b)
        record(results, "stream", f"gelu_bf16_{n}",
               {"op": "elementwise", "fn": "gelu", "elements": n, "inputs": 1, "dtype": "bf16"},
               None, 2 * n * 2, lambda: F.gelu(a))
        record(results, "stream", f"copy_bf16_{n}",
               {"op": "elementwise", "fn": "copy", "elements": n, "inputs": 1, "dtype": "bf16"},
               None, 2 * n * 2, lambda: b.copy_(a))
        del a, b


def convs(results):
    torch.backends.cudnn.benchmark = True
    # ResNet-50 stage shapes (n, c, h, w, k, r, s, stride, pad) at batch 32, NHWC bf16.
    layers = [(32, 3, 224, 224, 64, 7, 7, 2, 3), (32, 64, 56, 56, 64, 3, 3, 1, 1),
              (32, 64, 56, 56, 256, 1, 1, 1, 0), (32, 128, 28, 28, 128, 3, 3, 1, 1),
              (32, 256, 14, 14, 256, 3, 3, 1, 1), (32, 512, 7, 7, 512, 3, 3, 1, 1),
              (32, 1024, 14, 14, 256, 1, 1, 1, 0), (32, 2048, 7, 7, 512, 1, 1, 1, 0),
              (1, 64, 56, 56, 64, 3, 3, 1, 1), (256, 64, 56, 56, 64, 3, 3, 1, 1)]
    for (n, c, h, w, k, r, s, st, p) in layers:
        x = torch.randn(n, c, h, w, device="cuda", dtype=torch.bfloat16).to(
            memory_format=torch.channels_last)
        wt = torch.randn(k, c, r, s, device="cuda", dtype=torch.bfloat16).to(
            memory_format=torch.channels_last)
        oh = (h + 2 * p - r) // st + 1; ow = (w + 2 * p - s) // st + 1
        macs = n * k * oh * ow * c * r * s
        record(results, "conv", f"conv_bf16_n{n}_c{c}_{h}x{w}_k{k}_{r}x{s}_s{st}",
               {"op": "conv2d", "n": n, "c": c, "h": h, "w": w, "k": k, "r": r, "s": s,
                "stride": st, "pad": p, "dtype": "bf16"},
               2 * macs, (n * c * h * w + k * c * r * s + n * k * oh * ow) * 2,
               lambda: F.conv2d(x, wt, stride=st, padding=p))
        del x, wt


def smi(query):
    try:
        out = subprocess.run(["nvidia-smi", f"--query-gpu={query}", "--format=csv,noheader,nounits"],
                             capture_output=True, text=True, timeout=20).stdout.strip()
        return [v.strip() for v in out.split(",")]
    except Exception as e:  # the measurement stands without it
        return [f"unavailable: {e}"]


def sustained_gemm_power(seconds=12.0):
    """Board power, SM clock and temperature sampled every 100 ms while bf16 8192^3 GEMMs
    run back to back; the sustained figures are the medians of the last half."""
    n = 8192
    a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    samples, stop = [], threading.Event()

    def sampler():
        while not stop.is_set():
            v = smi("power.draw,clocks.sm,clocks.mem,temperature.gpu")
            try:
                samples.append([time.time()] + [float(x) for x in v])
            except ValueError:
                pass
            time.sleep(0.1)

    t = threading.Thread(target=sampler); t.start()
    start = time.time(); count = 0
    ev0, ev1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    ev0.record()
    while time.time() - start < seconds:
        for _ in range(20):
            a @ b
        count += 20
        torch.cuda.synchronize()
    ev1.record(); torch.cuda.synchronize()
    stop.set(); t.join()
    ms = ev0.elapsed_time(ev1)
    half = samples[len(samples) // 2:] or samples
    med = lambda i: statistics.median(s[i] for s in half) if half else None
    return {"gemm": "bf16 8192x8192x8192 back to back", "seconds": ms / 1e3, "gemms": count,
            "tflops": 2 * n ** 3 * count / (ms * 1e-3) / 1e12,
            "power_w": med(1), "sm_clock_mhz": med(2), "mem_clock_mhz": med(3),
            "temperature_c": med(4), "samples": len(samples)}


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else "."
    os.makedirs(out_dir, exist_ok=True)
    torch.backends.cuda.matmul.allow_tf32 = True  # as cuBLAS users run fp32 on Hopper
    torch.backends.cudnn.allow_tf32 = True
    props = torch.cuda.get_device_properties(0)
    meta = {"device": props.name, "sm_count": props.multi_processor_count,
            "memory_gib": props.total_memory / 2 ** 30,
            "l2_mib": getattr(props, "L2_cache_size", 0) / 2 ** 20,
            "torch": torch.__version__, "cuda": torch.version.cuda,
            "cudnn": torch.backends.cudnn.version(), "python": platform.python_version(),
            "driver_and_limits": smi("driver_version,power.limit,clocks.max.sm,clocks.max.mem"),
            "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "fp32_gemm": "TF32 tensor cores allowed (torch allow_tf32 = True)",
            "timing": "CUDA events; median of 30 samples, each repeating the kernel to span >= 2 ms"}
    print(json.dumps(meta), flush=True)
    results = []
    t0 = time.time()
    power = sustained_gemm_power()
    print("sustained", json.dumps(power), flush=True)
    for part in (gemms, attention, norms_and_streams, convs):
        part(results)
        torch.cuda.empty_cache()
        print(f"-- {part.__name__} done at {time.time() - t0:.0f} s", flush=True)
    with open(os.path.join(out_dir, "measurements.json"), "w") as f:
        json.dump({"meta": meta, "sustained_gemm": power, "kernels": results}, f, indent=1)


if __name__ == "__main__":
    main()
