#!/usr/bin/env python3
"""Replays the same memory traces on DRAMsim3 and on `polyarch dram` and tabulates bandwidth
and mean read latency side by side.

usage: compare_dramsim3.py DRAMSIM3_BUILD POLYARCH [--source DIR] [--out DIR] [--requests N]

DRAMSIM3_BUILD is a DRAMsim3 build directory holding `dramsim3main`, configured with
-DCMD_TRACE=ON so that each channel's command trace gives the cycle of the last data transfer
(DRAMsim3's own `average_bandwidth` divides by every simulated cycle and counts a write done
when it is queued). --source is DRAMsim3's source tree (default: DRAMSIM3_BUILD/..), whose
configs/*.ini are used as they are or with a few [system] keys set (channel_size to one, two
or four ranks; refresh_policy). Traces are made here: sequential
and random addresses, reads only or two reads per write, saturated (every request arrives at
cycle 0) or paced. Writes results.csv and results.json (with provenance) into --out
(default: this script's folder). CI does not run this.
"""
import argparse
import csv
import datetime
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile

# DRAMsim3 config, a short name, and the [system] keys set in it (none: the file as it is).
# DDR4_8Gb_x8_3200.ini itself describes two 8192 MB ranks (channel_size 16384).
CONFIGS = [
    ("DDR4_8Gb_x8_3200.ini", "DDR4-3200", {"channel_size": "8192"}),
    ("DDR4_8Gb_x8_3200.ini", "DDR4-3200-2R", {}),
    ("DDR4_8Gb_x8_3200.ini", "DDR4-3200-4R", {"channel_size": "32768"}),
    ("HBM2_8Gb_x128.ini", "HBM2", {}),
    ("GDDR6_8Gb_x16.ini", "GDDR6", {}),
    ("LPDDR4_8Gb_x16_2400.ini", "LPDDR4-2400", {"channel_size": "4096"}),
    ("LPDDR4_8Gb_x16_2400.ini", "LPDDR4-2400-2R", {}),
    # Per-bank refresh: one bank every tREFIb (HBM2's file gives 128, LPDDR4's DRAMsim3's
    # default 1950), tRFCb (DRAMsim3's default 20 for both).
    ("HBM2_8Gb_x128.ini", "HBM2-REFpb", {"refresh_policy": "BANK_LEVEL_STAGGERED"}),
    ("LPDDR4_8Gb_x16_2400.ini", "LPDDR4-2400-REFpb",
     {"channel_size": "4096", "refresh_policy": "BANK_LEVEL_STAGGERED"}),
]

PATTERNS = [
    # name, sequential addresses, writes per three requests, paced
    ("seq_read_saturated", True, 0, False),
    ("rand_read_saturated", False, 0, False),
    ("seq_mix_saturated", True, 1, False),
    ("rand_mix_saturated", False, 1, False),
    ("seq_read_paced", True, 0, True),
    ("rand_read_paced", False, 0, True),
    ("rand_mix_paced", False, 1, True),
]


def read_ini(path):
    sections, section = {}, None
    with open(path) as f:
        for line in f:
            line = re.split(r"[;#]", line, 1)[0].strip()
            if not line:
                continue
            if line.startswith("["):
                section = line.strip("[]").strip()
                sections.setdefault(section, {})
            elif "=" in line:
                key, value = (part.strip() for part in line.split("=", 1))
                sections[section][key] = value
    return sections


def geometry(ini):
    """Request size, burst cycles, channels and capacity as DRAMsim3 derives them."""
    s, t, y = ini["dram_structure"], ini["timing"], ini["system"]
    protocol = s.get("protocol", "DDR3")
    bl = int(s.get("BL", 8))
    per_clock = {"GDDR5": 4, "GDDR5X": 8, "GDDR6": 16}.get(protocol, 2)
    columns = int(s.get("columns", 1024))
    if protocol.startswith("GDDR"):
        columns *= bl
    elif protocol.startswith("HBM"):
        columns *= 2
    bus = int(y.get("bus_width", 64))
    groups, banks = int(s.get("bankgroups", 2)), int(s.get("banks_per_group", 2))
    rows, channels = int(s.get("rows", 65536)), int(y.get("channels", 1))
    request = bus // 8 * bl
    # DRAMsim3's Config::CalculateSize: ranks = channel_size / the megabytes of one rank.
    device_width = int(s.get("device_width", 8))
    rank_mb = (columns * device_width // 8) * (rows // 1024) // 1024 * groups * banks * (
        bus // device_width)
    channel_mb = int(y.get("channel_size", 1024))
    ranks = 1 if rank_mb > channel_mb else channel_mb // rank_mb
    capacity = channels * ranks * groups * banks * rows * (columns // bl) * request
    return {"request": request, "burst_cycles": bl // per_clock, "channels": channels,
            "capacity": capacity, "tck": float(t.get("tCK", 1.0)),
            "read_delay": int(t.get("AL", 0)) + int(t.get("CL", 12)) + bl // per_clock,
            "write_delay": int(t.get("AL", 0)) + int(t.get("CWL", 12)) + bl // per_clock}


def write_ini(source, system_keys, path):
    with open(source) as f:
        text = f.read()
    for key, value in system_keys.items():
        pattern = r"^%s\s*=.*$" % key
        if re.search(pattern, text, flags=re.M):
            text = re.sub(pattern, "%s = %s" % (key, value), text, flags=re.M)
        else:
            text = text.replace("[system]", "[system]\n%s = %s" % (key, value), 1)
    with open(path, "w") as f:
        f.write(text)


def make_trace(path, geo, sequential, writes_per_three, paced, count, seed):
    rng = random.Random(seed)
    bursts = geo["capacity"] // geo["request"]
    if sequential:
        indices = range(count)
    else:
        indices = rng.sample(range(bursts), count)  # distinct: no write-buffer hits
    # Paced: requests every `interval` cycles, about a third of the peak's request rate.
    interval = max(1, math.ceil(3 * geo["burst_cycles"] / geo["channels"])) if paced else 0
    lines = []
    for i, burst in enumerate(indices):
        kind = "WRITE" if writes_per_three and i % 3 == 2 else "READ"
        lines.append("0x%x %s %d" % (burst * geo["request"], kind, i * interval))
    with open(path, "w") as f:
        # DRAMsim3's trace reader offers the last line once more after the end of the file: a
        # read to a pending address merges with it, so the last request is kept a read.
        f.write("\n".join(lines) + "\n")
    reads = sum(1 for line in lines if " READ " in line)
    return reads, len(lines) - reads, (len(lines) - 1) * interval


def run_dramsim3(build, ini, trace, workdir, geo, reads, writes, last_arrival):
    cycles = last_arrival + (reads + writes) * geo["burst_cycles"] * 8 + 20000
    while True:
        out = os.path.join(workdir, "ds3")
        os.makedirs(out, exist_ok=True)
        for name in os.listdir(out):
            os.remove(os.path.join(out, name))
        command = [os.path.join(build, "dramsim3main"), ini, "-c", str(cycles), "-t", trace,
                   "-o", out]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, cwd=out)
        with open(os.path.join(out, "dramsim3.json")) as f:
            stats = json.load(f)
        done_reads = sum(ch["num_reads_done"] for ch in stats.values())
        write_cmds = sum(ch["num_write_cmds"] for ch in stats.values())
        # DRAMsim3 drains its write buffer only when it fills or holds more than 8 writes with
        # the command queues empty, so up to 8 writes per channel stay queued at the end.
        if done_reads >= reads and write_cmds >= writes - 8 * geo["channels"]:
            break
        cycles *= 2
    last_data, columns_issued = 0, 0
    for name in os.listdir(out):
        if not name.endswith("cmd.trace"):
            continue
        with open(os.path.join(out, name)) as f:
            for line in f:
                fields = line.split()
                if len(fields) < 2:
                    continue
                if fields[1] in ("read", "read_p"):
                    last_data = max(last_data, int(fields[0]) + geo["read_delay"])
                    columns_issued += 1
                elif fields[1] in ("write", "write_p"):
                    last_data = max(last_data, int(fields[0]) + geo["write_delay"])
                    columns_issued += 1
    latency_sum = sum(ch["average_read_latency"] * ch["num_reads_done"] for ch in stats.values())
    mean_latency = latency_sum / done_reads if done_reads else 0.0
    # Bytes of the bursts DRAMsim3 moved (writes left in its buffer excluded).
    bandwidth = columns_issued * geo["request"] / (last_data * geo["tck"])
    return {"cycles": last_data, "bandwidth_gbps": bandwidth, "mean_read_latency": mean_latency,
            "command": " ".join(command)}


def run_polyarch(polyarch, ini, trace, workdir):
    out = os.path.join(workdir, "polyarch.json")
    command = [polyarch, "dram", "--config", ini, "--trace", trace, "--json", out]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    with open(out) as f:
        result = json.load(f)
    return {"cycles": result["cycles"], "bandwidth_gbps": result["bandwidth_gbps"],
            "mean_read_latency": result["mean_read_latency_cycles"],
            "command": " ".join(command)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dramsim3_build")
    parser.add_argument("polyarch")
    parser.add_argument("--source")
    parser.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--requests", type=int, default=20000)
    parser.add_argument("--only", nargs="*", help="run only these configurations (short names)")
    parser.add_argument("--merge", action="store_true",
                        help="keep the rows of configurations not run from the results there")
    args = parser.parse_args()
    source = args.source or os.path.join(args.dramsim3_build, "..")
    commit = subprocess.run(["git", "-C", source, "rev-parse", "HEAD"], capture_output=True,
                            text=True).stdout.strip() or "unknown"
    rows = []
    with tempfile.TemporaryDirectory() as workdir:
        for ini_name, label, system_keys in CONFIGS:
            if args.only and label not in args.only:
                continue
            ini = os.path.join(workdir, label + ".ini")
            write_ini(os.path.join(source, "configs", ini_name), system_keys, ini)
            geo = geometry(read_ini(ini))
            for seed, (pattern, sequential, writes, paced) in enumerate(PATTERNS):
                trace = os.path.join(workdir, "%s_%s.trace" % (label, pattern))
                reads, wrs, last = make_trace(trace, geo, sequential, writes, paced,
                                              args.requests, seed + 1)
                ds3 = run_dramsim3(args.dramsim3_build, ini, trace, workdir, geo, reads, wrs,
                                   last)
                poly = run_polyarch(args.polyarch, ini, trace, workdir)
                row = {
                    "config": label, "pattern": pattern, "requests": reads + wrs,
                    "reads": reads, "writes": wrs,
                    "dramsim3_bandwidth_gbps": round(ds3["bandwidth_gbps"], 3),
                    "polyarch_bandwidth_gbps": round(poly["bandwidth_gbps"], 3),
                    "bandwidth_diff_pct": round(
                        100 * (poly["bandwidth_gbps"] / ds3["bandwidth_gbps"] - 1), 2),
                    "dramsim3_mean_read_latency_cycles": round(ds3["mean_read_latency"], 2),
                    "polyarch_mean_read_latency_cycles": round(poly["mean_read_latency"], 2),
                    "latency_diff_pct": round(
                        100 * (poly["mean_read_latency"] / ds3["mean_read_latency"] - 1), 2)
                    if ds3["mean_read_latency"] else 0.0,
                    "dramsim3_cycles": ds3["cycles"], "polyarch_cycles": poly["cycles"],
                }
                rows.append(row)
                print("%-12s %-20s bw %8.3f / %8.3f GB/s (%+6.2f%%)  lat %8.2f / %8.2f (%+6.2f%%)"
                      % (label, pattern, row["dramsim3_bandwidth_gbps"],
                         row["polyarch_bandwidth_gbps"], row["bandwidth_diff_pct"],
                         row["dramsim3_mean_read_latency_cycles"],
                         row["polyarch_mean_read_latency_cycles"], row["latency_diff_pct"]),
                      flush=True)
    if args.merge and os.path.exists(os.path.join(args.out, "results.json")):
        with open(os.path.join(args.out, "results.json")) as f:
            kept = [row for row in json.load(f)["results"]
                    if row["config"] not in {r["config"] for r in rows}]
        order = [label for _, label, _ in CONFIGS]
        rows = sorted(kept + rows, key=lambda r: order.index(r["config"])
                      if r["config"] in order else len(order))
    with open(os.path.join(args.out, "results.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    here = os.path.dirname(os.path.abspath(__file__))
    polyarch_commit = subprocess.run(["git", "-C", here, "rev-parse", "HEAD"],
                                     capture_output=True, text=True).stdout.strip()
    provenance = {
        "dramsim3_commit": commit,
        "polyarch_commit": polyarch_commit or "unknown",
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "command": " ".join([os.path.basename(sys.argv[0])] + sys.argv[1:]),
        "dramsim3_run": "dramsim3main CONFIG.ini -c CYCLES -t TRACE -o DIR (built with "
                        "-DCMD_TRACE=ON)",
        "polyarch_run": "polyarch dram --config CONFIG.ini --trace TRACE --json OUT",
        "requests_per_trace": args.requests,
        "ini_system_keys_set": {label: keys for _, label, keys in CONFIGS if keys},
    }
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump({"provenance": provenance, "results": rows}, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
