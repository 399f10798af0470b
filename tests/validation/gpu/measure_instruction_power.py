# Board power while one instruction class runs on every SM, sampled by nvidia-smi every 100 ms:
# the data for an energy-per-instruction model of the simd kind. Run on one CUDA GPU as
#   OUT=DIR python3 measure_instruction_power.py
# It compiles measure_instruction_power.cu with nvcc (sm_90), runs each path (idle first) for
# 8 s and writes DIR/instruction_power.json: per path the program's own report (instruction
# rates, SM clock from clock64) and the medians of the second half of the nvidia-smi samples
# (board power, SM clock, temperature). Energy per instruction is then
# (power(path) - power(idle at the same clock)) / rate; the idle board clocks its SMs too.
import json
import os
import statistics
import subprocess
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PATHS = ["idle", "ffma", "mma_sync", "sfu", "lds", "l2", "dram", "idle"]
SECONDS = 8.0


def sample():
    out = subprocess.run(
        ["nvidia-smi", "--query-gpu=power.draw,clocks.sm,temperature.gpu",
         "--format=csv,noheader,nounits"], capture_output=True, text=True).stdout
    return [float(field) for field in out.split(",")]


def run(binary, path):
    samples, stop = [], threading.Event()

    def sampler():
        while not stop.is_set():
            try:
                samples.append(sample())
            except (ValueError, OSError):
                pass
            time.sleep(0.1)

    thread = threading.Thread(target=sampler)
    thread.start()
    report = subprocess.run([binary, path, str(SECONDS)], capture_output=True, text=True)
    stop.set()
    thread.join()
    tail = samples[len(samples) // 2:]
    result = json.loads(report.stdout) if report.returncode == 0 else {"error": report.stderr}
    result.update({
        "board_power_w": statistics.median(s[0] for s in tail) if tail else None,
        "smi_sm_mhz": statistics.median(s[1] for s in tail) if tail else None,
        "temperature_c": statistics.median(s[2] for s in tail) if tail else None,
        "samples": len(samples),
    })
    print(path, result, flush=True)
    return result


def main():
    out = os.environ["OUT"]
    binary = os.path.join(out, "measure_instruction_power")
    subprocess.run(["nvcc", "-O3", "-gencode=arch=compute_90,code=sm_90",
                    os.path.join(HERE, "measure_instruction_power.cu"), "-o", binary], check=True)
    results = {"date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "runs": []}
    for path in PATHS:
        results["runs"].append(run(binary, path))
    os.remove(binary)
    with open(os.path.join(out, "instruction_power.json"), "w") as handle:
        json.dump(results, handle, indent=1)


if __name__ == "__main__":
    main()
