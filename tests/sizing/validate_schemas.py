"""Validates the shipped catalog, the example workloads and a generated plan (written by the
recommend test, when it has run) against reports/schema/*.schema.json, and checks that the
schemas reject files that must fail."""
import json
import pathlib
import sys

import jsonschema

root = pathlib.Path(sys.argv[1])
build_plan = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else None


def validator(name):
    schema = json.loads((root / "reports/schema" / f"{name}.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


failures = []


def check(v, path, doc=None):
    doc = doc if doc is not None else json.loads(pathlib.Path(path).read_text())
    errors = list(v.iter_errors(doc))
    for e in errors:
        failures.append(f"{path}: {'/'.join(map(str, e.path))}: {e.message}")
    return not errors


catalog = validator("catalog")
check(catalog, root / "data/catalog/aws-us-east-1.json")
workload = validator("workload")
examples = sorted((root / "examples/workloads").glob("*.json"))
if len(examples) < 4:
    failures.append("expected at least 4 example workloads")
for f in examples:
    check(workload, f)
for f in sorted((root / "examples/overlays").glob("*.json")):
    check(catalog, f)
plan = validator("plan")
if build_plan is None or not build_plan.exists():
    failures.append(f"no generated plan to validate at {build_plan}")
else:
    check(plan, build_plan)

# Must be rejected: a zero price, an unknown purchase option, a workload without work.
bad = json.loads((root / "data/catalog/aws-us-east-1.json").read_text())
bad["instances"][0]["prices"]["on_demand"]["usd_per_hour"] = 0
if catalog.is_valid(bad):
    failures.append("catalog schema accepted a zero price")
bad_w = json.loads(examples[0].read_text())
bad_w.pop("work_per_unit", None)
bad_w.pop("measured_rates", None)
if workload.is_valid(bad_w):
    failures.append("workload schema accepted a workload with nothing to size from")

# A plan option must say what its measured spread is (or why it has none).
if build_plan is not None and build_plan.exists():
    doc = json.loads(build_plan.read_text())
    spreads = [o["measurement_spread"] for o in doc["options"]]
    if not any(s["available"] for s in spreads):
        failures.append("the generated plan has no option with a measured spread")
    for s in spreads:
        if s["available"] and s["units_per_second_per_replica"]["low"] > s["units_per_second_per_replica"]["high"]:
            failures.append("a measured spread has low > high")
    bad_p = json.loads(build_plan.read_text())
    del bad_p["options"][0]["measurement_spread"]
    if plan.is_valid(bad_p):
        failures.append("plan schema accepted an option without measurement_spread")
    bad_p = json.loads(build_plan.read_text())
    bad_p["options"][0]["measurement_spread"] = {"available": False}
    if plan.is_valid(bad_p):
        failures.append("plan schema accepted a missing spread without why_not")

for f in failures:
    print(f)
sys.exit(1 if failures else 0)
