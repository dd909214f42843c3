#!/usr/bin/env python3
"""Reference figures from PyTorch on the same GPU in the same session, to hold gpusizer's
numbers against (issue 3's bar: bf16 GEMM 8192^3, device-to-device copy, pinned H2D).

usage:
  torch_reference.py measure > torch_reference.json      (needs torch with CUDA)
  torch_reference.py compare torch_reference.json report.json

Methods (stated in the output): CUDA events around N back-to-back ops after warm-up, mean time;
random inputs; 1 GB = 1e9 B; a D2D copy of N bytes is given both as N (gpusizer/nvbandwidth's
convention) and as 2N (bytes read + written, how the ~4.3 TB/s PyTorch figure is usually quoted).
"""
import json
import sys


def measure():
    import torch

    dev = torch.device("cuda")
    out = {"torch": torch.__version__, "device": torch.cuda.get_device_name(0), "results": []}

    def timed(fn, warmup, iters):
        for _ in range(warmup):
            fn()
        torch.cuda.synchronize()
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(iters):
            fn()
        stop.record()
        torch.cuda.synchronize()
        return start.elapsed_time(stop) / 1e3 / iters  # seconds per op

    n = 8192
    a = torch.randn(n, n, device=dev, dtype=torch.bfloat16)
    b = torch.randn(n, n, device=dev, dtype=torch.bfloat16)
    t = timed(lambda: torch.matmul(a, b), 3, 10)
    out["results"].append({"name": "bf16_gemm_8192", "flop_per_second": 2 * n**3 / t,
                           "method": "torch.matmul bf16 8192^3, random, mean of 10 after 3 warm-ups"})
    del a, b

    nbytes = 1 << 30
    src = torch.empty(nbytes, dtype=torch.uint8, device=dev).random_()
    dst = torch.empty_like(src)
    t = timed(lambda: dst.copy_(src), 3, 20)
    out["results"].append({"name": "d2d_copy_1GiB", "bytes_per_second_counted_once": nbytes / t,
                           "bytes_per_second_read_plus_write": 2 * nbytes / t,
                           "method": "Tensor.copy_ 1 GiB device to device, mean of 20"})
    del src, dst

    host = torch.empty(nbytes, dtype=torch.uint8).pin_memory()
    dev_buf = torch.empty(nbytes, dtype=torch.uint8, device=dev)
    t = timed(lambda: dev_buf.copy_(host, non_blocking=True), 2, 10)
    out["results"].append({"name": "h2d_pinned_1GiB", "bytes_per_second": nbytes / t,
                           "method": "pinned host tensor copy_ to device, non_blocking, mean of 10"})
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
