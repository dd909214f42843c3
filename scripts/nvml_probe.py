#!/usr/bin/env python3
"""How the real driver's NVML counters behave under load (issue 14's questions), measured with
NVIDIA's own Python bindings (nvidia-ml-py) while PyTorch keeps the GPU busy with bf16 GEMMs:

  - how often the total-energy counter (nvmlDeviceGetTotalEnergyConsumption, mJ) changes value;
  - how instant power (nvmlDeviceGetPowerUsage / field POWER_INSTANT) compares with the energy
    counter's average over the same window;
  - what one NVML call costs (latency of the energy, power and clock reads);
  - which clock-event reasons the driver reports at the power cap.

usage: nvml_probe.py [seconds] > probe.json      (GPU 0; needs torch with CUDA and pynvml)
Prints one JSON object. Never changes clocks, power limits or any other setting.
"""
import json
import statistics
import sys
import threading
import time


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    import pynvml
    import torch

    pynvml.nvmlInit()
    h = pynvml.nvmlDeviceGetHandleByIndex(0)
    out = {"driver": pynvml.nvmlSystemGetDriverVersion(), "name": pynvml.nvmlDeviceGetName(h)}

    stop = threading.Event()

    def load():
        a = torch.rand(8192, 8192, device="cuda", dtype=torch.bfloat16) * 2 - 1
        b = torch.rand(8192, 8192, device="cuda", dtype=torch.bfloat16) * 2 - 1
        while not stop.is_set():
            for _ in range(20):
                a @ b.t()
            torch.cuda.synchronize()

    t = threading.Thread(target=load)
    t.start()
    time.sleep(0.5)  # clocks up, power at the cap

    changes, energy, power, lat_e, lat_p, lat_c = [], [], [], [], [], []
    reasons = {}
    t0 = time.perf_counter()
    last = None
    while time.perf_counter() - t0 < seconds:
        s = time.perf_counter()
        e = pynvml.nvmlDeviceGetTotalEnergyConsumption(h)
        m = time.perf_counter()
        p = pynvml.nvmlDeviceGetPowerUsage(h)
        n = time.perf_counter()
        pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_SM)
        lat_e.append(m - s)
        lat_p.append(n - m)
        lat_c.append(time.perf_counter() - n)
        now = time.perf_counter() - t0
        energy.append((now, e))
        power.append((now, p))
        if last is not None and e != last:
            changes.append(now)
        last = e
        try:
            r = pynvml.nvmlDeviceGetCurrentClocksEventReasons(h)
        except Exception:  # older bindings
            r = pynvml.nvmlDeviceGetCurrentClocksThrottleReasons(h)
        reasons[r] = reasons.get(r, 0) + 1
        time.sleep(0.001)
    stop.set()
    t.join()

    gaps = [b - a for a, b in zip(changes, changes[1:])]
    window = energy[-1][0] - energy[0][0]
    counter_w = (energy[-1][1] - energy[0][1]) / 1e3 / window if window > 0 else 0
    inst_w = statistics.mean(p for _, p in power) / 1e3
    out.update({
        "seconds": window,
        "samples": len(energy),
        "energy_counter_updates": len(changes),
        "energy_update_interval_ms": {
            "median": 1e3 * statistics.median(gaps) if gaps else None,
            "min": 1e3 * min(gaps) if gaps else None,
            "max": 1e3 * max(gaps) if gaps else None,
        },
        "power_from_energy_counter_w": counter_w,
        "power_usage_mean_w": inst_w,
        "power_limit_w": pynvml.nvmlDeviceGetEnforcedPowerLimit(h) / 1e3,
        "nvml_call_latency_us": {
            "energy_median": 1e6 * statistics.median(lat_e),
            "power_median": 1e6 * statistics.median(lat_p),
            "sm_clock_median": 1e6 * statistics.median(lat_c),
        },
        "clock_event_reasons_share": {hex(k): v / len(energy) for k, v in reasons.items()},
    })
    pynvml.nvmlShutdown()
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
