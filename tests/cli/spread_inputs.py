# The inputs of the plans-with-error-bars tests (plan_spread.sh, plan_page.sh), written to the
# current folder: the committed H200 report with the samples of its device-memory records spread
# +-10% (noisy.json) and with every sample equal (exact.json); a catalog of p5en.48xlarge (on-demand
# only) and a made-up 4-GPU H200 type p5h.24xlarge at 0.7 x its price (catalog.json); the example
# LLM inference workload at 39,000 tokens/s on GPUs only (w.json). plan_spread.sh derives what
# they give.
# usage: python3 spread_inputs.py <source dir>
import json
import sys

src = sys.argv[1]
report = json.load(open(f"{src}/reports/examples/h200-quick.json"))


def respread(spread):
    r = json.loads(json.dumps(report))
    for rec in r["records"]:
        t = rec.get("timing")
        if rec["family"] != "memory" or not t or len(t["samples_seconds"]) < 2:
            continue
        n = len(t["samples_seconds"])
        median = sorted(t["samples_seconds"])[n // 2]
        t["samples_seconds"] = [median * (1 - spread + 2 * spread * i / (n - 1)) for i in range(n)]
    return r


json.dump(respread(0.1), open("noisy.json", "w"))
json.dump(respread(0.0), open("exact.json", "w"))
catalog = json.load(open(f"{src}/data/catalog/aws-us-east-1.json"))
p5en = next(i for i in catalog["instances"] if i["type"] == "p5en.48xlarge")
half = json.loads(json.dumps(p5en))
half.update(type="p5h.24xlarge", family="p5h", accelerator_count=4, vcpu=96)
half["prices"] = {"on_demand": dict(p5en["prices"]["on_demand"], usd_per_hour=63.296 * 0.7)}
p5en["prices"] = {"on_demand": p5en["prices"]["on_demand"]}
catalog["instances"] = [p5en, half]
json.dump(catalog, open("catalog.json", "w"))
workload = json.load(open(f"{src}/examples/workloads/llm-inference.json"))
workload.pop("$schema", None)
workload["target_rate"]["value"] = 39000
workload["allowed"] = ["gpu"]
json.dump(workload, open("w.json", "w"))
