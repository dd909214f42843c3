#!/usr/bin/env python3
"""Checks that a gpusizer report measured a GPU: at least one GPU target (a full GPU or a MIG
slice), and for each family the GPU supports (gemm, memory, io) at least one verified record on a
GPU target. Prints one line per finding; exits 0 when all hold, 1 otherwise, 2 on a bad file.

usage: check_gpu_report.py report.json [family ...]     (families default to: gemm memory io)
"""
import json
import sys


def check(report, families):
    problems = []
    gpu_ids = {t["id"] for t in report.get("targets", []) if t.get("kind") in ("gpu", "mig")}
    if not gpu_ids:
        return ["no GPU target in the report (targets: "
                + ", ".join(f"{t.get('id')}:{t.get('kind')}" for t in report.get("targets", []))
                + ")"]
    records = [r for r in report.get("records", []) if r.get("target") in gpu_ids]
    for family in families:
        fam = [r for r in records if r.get("family") == family]
        verified = [r for r in fam if r.get("status") == "ok"
                    and r.get("verification", {}).get("status") == "passed"]
        if not verified:
            statuses = sorted({f"{r.get('status')}/{r.get('verification', {}).get('status')}" for r in fam})
            problems.append(f"family {family}: no verified record on a GPU target "
                            f"({len(fam)} records: {', '.join(statuses) or 'none'})")
    failed = [r["id"] for r in records if r.get("verification", {}).get("status") == "failed"]
    if failed:
        problems.append(f"{len(failed)} GPU records failed verification: {', '.join(failed[:5])}")
    errors = [r["id"] for r in records if r.get("status") == "error"]
    if errors:
        problems.append(f"{len(errors)} GPU records ended in error: {', '.join(errors[:5])}")
    return problems


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    path = argv[1]
    families = argv[2:] or ["gemm", "memory", "io"]
    try:
        with open(path) as f:
            report = json.load(f)
    except (OSError, ValueError) as e:
        print(f"check_gpu_report: {path}: {e}", file=sys.stderr)
        return 2
    problems = check(report, families)
    for p in problems:
        print(f"check_gpu_report: {path}: {p}")
    if not problems:
        n = sum(1 for r in report["records"] if r.get("status") == "ok")
        print(f"check_gpu_report: {path}: GPU results present ({n} ok records; families {' '.join(families)})")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
