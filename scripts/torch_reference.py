#!/usr/bin/env python3
"""Reference figures from PyTorch on the same GPU in the same session, to hold gpusizer's
numbers against (issue 3's bar: bf16 GEMM 8192^3, device-to-device copy, pinned H2D).

usage:
  torch_reference.py measure > torch_reference.json      (needs torch with CUDA)
  torch_reference.py compare torch_reference.json report.json

Methods (stated in the output): CUDA events around batches of back-to-back ops, >= 1 s of
warm-up then >= 1 s of samples, median sample; uniform [-1, 1) inputs, a @ b.t() (gpusizer's TN
layout); 1 GB = 1e9 B; a D2D copy of N bytes is given both as N (gpusizer/nvbandwidth's
convention) and as 2N (bytes read + written, how the ~4.3 TB/s PyTorch figure is usually quoted).
"""
import json
import sys


def measure():
    import statistics
    import time

    import torch

    dev = torch.device("cuda")
    out = {"torch": torch.__version__, "device": torch.cuda.get_device_name(0),
           "method": "CUDA events around a batch of back-to-back ops; warm-up >= 1 s, then samples "
                     "for >= 1 s; the figure is the median sample", "results": []}

    def timed(fn, per_sample, warmup_s=1.0, timed_s=1.0):
        """Median seconds per op over samples of `per_sample` back-to-back ops."""
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < warmup_s:
            fn()
            torch.cuda.synchronize()
        samples = []
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < timed_s or len(samples) < 5:
            start.record()
            for _ in range(per_sample):
                fn()
            stop.record()
            stop.synchronize()
            samples.append(start.elapsed_time(stop) / 1e3 / per_sample)
        return statistics.median(samples), len(samples)

    n = 8192
    # gpusizer's GEMM is TN (A transposed): D = A^T B with A, B stored column-major, which is
    # a @ b.t() on row-major tensors. Inputs: uniform in [-1, 1) rounded to bf16, gpusizer's
    # distribution (tensor-core power, hence clocks, depend on the bits that toggle).
    a = (torch.rand(n, n, device=dev, dtype=torch.float32) * 2 - 1).to(torch.bfloat16)
    b = (torch.rand(n, n, device=dev, dtype=torch.float32) * 2 - 1).to(torch.bfloat16)
    t, k = timed(lambda: a @ b.t(), 10)
    out["results"].append({"name": "bf16_gemm_8192", "flop_per_second": 2 * n**3 / t,
                           "method": f"a @ b.t() bf16 8192^3, uniform [-1, 1) inputs, median of {k} samples of 10"})
    del a, b

    nbytes = 1 << 30
    src = torch.empty(nbytes, dtype=torch.uint8, device=dev).random_()
    dst = torch.empty_like(src)
    t, k = timed(lambda: dst.copy_(src), 20)
    out["results"].append({"name": "d2d_copy_1GiB", "bytes_per_second_counted_once": nbytes / t,
                           "bytes_per_second_read_plus_write": 2 * nbytes / t,
                           "method": f"Tensor.copy_ 1 GiB device to device, median of {k} samples of 20"})
    del src, dst

    host = torch.empty(nbytes, dtype=torch.uint8).pin_memory()
    dev_buf = torch.empty(nbytes, dtype=torch.uint8, device=dev)
    t, k = timed(lambda: dev_buf.copy_(host, non_blocking=True), 4)
    out["results"].append({"name": "h2d_pinned_1GiB", "bytes_per_second": nbytes / t,
                           "method": f"pinned host tensor copy_ to device, non_blocking, median of {k} samples of 4"})
    json.dump(out, sys.stdout, indent=2)
    print()


def compare(ref_path, report_path):
    ref = {r["name"]: r for r in json.load(open(ref_path))["results"]}
    report = json.load(open(report_path))

    gpus = {t["id"] for t in report["targets"] if t["kind"] == "gpu"}

    def best(pred, metric="bandwidth"):  # best verified figure on a full GPU
        vals = [m["value"] for r in report["records"]
                if r["status"] == "ok" and r["target"] in gpus and pred(r)
                for m in r["metrics"] if m["name"] == metric]
        return max(vals) if vals else None

    rows = [
        ("bf16 GEMM 8192^3 (FLOP/s)", ref.get("bf16_gemm_8192", {}).get("flop_per_second"),
         best(lambda r: r["family"] == "gemm" and r["operation"] == "bf16"
              and r["parameters"].get("m") == 8192 and r["parameters"].get("k") == 8192, "throughput")),
        ("D2D copy, bytes counted once (B/s)", ref.get("d2d_copy_1GiB", {}).get("bytes_per_second_counted_once"),
         best(lambda r: r["family"] == "memory" and r["operation"] == "d2d")),
        ("STREAM triad vs D2D read+write (B/s)", ref.get("d2d_copy_1GiB", {}).get("bytes_per_second_read_plus_write"),
         best(lambda r: r["family"] == "memory" and r["operation"] == "stream_triad")),
        ("pinned H2D (B/s)", ref.get("h2d_pinned_1GiB", {}).get("bytes_per_second"),
         best(lambda r: r["family"] == "memory" and r["operation"] == "h2d_pinned")),
    ]
    print(f"{'figure':40} {'pytorch':>12} {'gpusizer':>12} {'ratio':>7}")
    for name, theirs, ours in rows:
        fmt = lambda v: f"{v:12.4g}" if v else f"{'-':>12}"
        ratio = f"{ours / theirs:7.3f}" if theirs and ours else f"{'-':>7}"
        print(f"{name:40} {fmt(theirs)} {fmt(ours)} {ratio}")


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] == "measure":
        measure()
    elif len(sys.argv) == 4 and sys.argv[1] == "compare":
        compare(sys.argv[2], sys.argv[3])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
