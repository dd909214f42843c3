#!/usr/bin/env python3
"""Validate the shipped Kubernetes manifests (scripts/launchers) against their schemas.

usage: validate_manifests.py <source dir>
- k8s-mpijob.yaml against the MPI Operator v2beta1 CRD's openAPIV3Schema (Draft 4, as the API
  server's structural schemas are), strictly (a field the schema does not declare is an error, as
  `kubectl apply --validate=strict` reports it), plus the operator's own rules the schema does not
  carry (pkg/apis/kubeflow/validation/validation.go: one Launcher, >= 1 Worker, >= 1 container,
  DNS-1035 name) and gpusizer's: mpirun -np = Worker replicas x slotsPerWorker, and each worker
  asks for slotsPerWorker GPUs.
- k8s-job.yaml (full GPUs) and its MIG variant: batch/v1 Job fields, and the pod template against
  the same PodTemplateSpec schema.
Then it checks that broken copies are rejected, so that the checks can fail.
"""
import copy
import json
import os
import re
import sys

import jsonschema
import yaml

JOB_SPEC_FIELDS = {"activeDeadlineSeconds", "backoffLimit", "backoffLimitPerIndex", "completionMode",
                   "completions", "managedBy", "manualSelector", "maxFailedIndexes", "parallelism",
                   "podFailurePolicy", "podReplacementPolicy", "selector", "successPolicy",
                   "suspend", "template", "ttlSecondsAfterFinished"}


def unknown_fields(doc, schema, path=""):
    """Fields the (structural) schema does not declare: the API server would prune them."""
    out = []
    if isinstance(doc, dict) and isinstance(schema, dict):
        props = schema.get("properties")
        extra = schema.get("additionalProperties")
        if schema.get("x-kubernetes-preserve-unknown-fields"):
            return out
        for k, v in doc.items():
            if props is not None and k in props:
                out += unknown_fields(v, props[k], f"{path}/{k}")
            elif isinstance(extra, dict):
                out += unknown_fields(v, extra, f"{path}/{k}")
            elif props is not None:
                out.append(f"{path}/{k}")
    elif isinstance(doc, list) and isinstance(schema, dict) and isinstance(schema.get("items"), dict):
        for i, v in enumerate(doc):
            out += unknown_fields(v, schema["items"], f"{path}/{i}")
    return out


def schema_errors(doc, schema):
    v = jsonschema.Draft4Validator(schema)
    errs = [f"/{'/'.join(str(p) for p in e.path)}: {e.message}" for e in v.iter_errors(doc)]
    errs += [f"{p}: unknown field" for p in unknown_fields(doc, schema)]
    return errs


def mpijob_errors(doc, crd):
    errs = schema_errors(doc, crd)
    if errs:
        return errs
    name = doc.get("metadata", {}).get("name", "")
    if not re.fullmatch(r"[a-z]([-a-z0-9]*[a-z0-9])?", name) or len(name) > 63:
        errs.append(f"/metadata/name: {name!r} is not a DNS-1035 label")
    spec = doc["spec"]
    specs = spec["mpiReplicaSpecs"]
    launcher, worker = specs.get("Launcher"), specs.get("Worker")
    if launcher is None or launcher.get("replicas", 1) != 1:
        errs.append("/spec/mpiReplicaSpecs/Launcher: exactly one replica is required")
    if worker is None or worker.get("replicas", 0) < 1:
        errs.append("/spec/mpiReplicaSpecs/Worker: at least one replica is required")
        return errs
    for role, rs in specs.items():
        if not rs["template"]["spec"].get("containers"):
            errs.append(f"/spec/mpiReplicaSpecs/{role}: no container")
    slots = spec.get("slotsPerWorker", 1)
    cmd = launcher["template"]["spec"]["containers"][0]
    argv = cmd.get("command", []) + cmd.get("args", [])
    np_ = int(argv[argv.index("-np") + 1]) if "-np" in argv else None
    if np_ != worker["replicas"] * slots:
        errs.append(f"launcher: mpirun -np {np_} but {worker['replicas']} workers x "
                    f"{slots} slots = {worker['replicas'] * slots} ranks")
    for c in worker["template"]["spec"]["containers"]:
        gpus = c.get("resources", {}).get("limits", {}).get("nvidia.com/gpu")
        if gpus != slots:
            errs.append(f"worker {c['name']}: nvidia.com/gpu {gpus} != slotsPerWorker {slots}")
    if "gpusizer" not in " ".join(argv) or "run" not in argv:
        errs.append("launcher: does not run `gpusizer run`")
    return errs


def job_errors(doc, pod_template):
    errs = []
    if doc.get("apiVersion") != "batch/v1" or doc.get("kind") != "Job":
        errs.append("not a batch/v1 Job")
    for k in doc.get("spec", {}):
        if k not in JOB_SPEC_FIELDS:
            errs.append(f"/spec/{k}: unknown field")
    tmpl = doc.get("spec", {}).get("template")
    if tmpl is None:
        return errs + ["/spec/template: required"]
    errs += [f"/spec/template{e}" for e in schema_errors(tmpl, pod_template)]
    pod = tmpl.get("spec", {})
    if pod.get("restartPolicy") not in ("Never", "OnFailure"):
        errs.append("/spec/template/spec/restartPolicy: a Job needs Never or OnFailure")
    limits = [c.get("resources", {}).get("limits", {}) for c in pod.get("containers", [])]
    if not any(k == "nvidia.com/gpu" or k.startswith("nvidia.com/mig-") for l in limits for k in l):
        errs.append("no container asks for a GPU or a MIG slice")
    return errs


def main():
    src = sys.argv[1]
    here = os.path.dirname(os.path.abspath(__file__))
    crd = json.load(open(os.path.join(here, "schemas", "mpijob-v2beta1.openapi.json")))
    pod_template = crd["properties"]["spec"]["properties"]["mpiReplicaSpecs"][
        "additionalProperties"]["properties"]["template"]
    launchers = os.path.join(src, "scripts", "launchers")
    mpijob = yaml.safe_load(open(os.path.join(launchers, "k8s-mpijob.yaml")))
    job_text = open(os.path.join(launchers, "k8s-job.yaml")).read()
    job = yaml.safe_load(job_text)
    mig_text = re.sub(r"(\n\s*)nvidia\.com/gpu: 8\n\s*# (nvidia\.com/mig-1g\.18gb: 1)[^\n]*",
                      r"\1\2", job_text)
    assert mig_text != job_text, "k8s-job.yaml lost its MIG line"
    mig_job = yaml.safe_load(mig_text)
    assert "nvidia.com/mig-1g.18gb" in mig_job["spec"]["template"]["spec"]["containers"][0][
        "resources"]["limits"], mig_text

    failures = []
    for name, errs in (("k8s-mpijob.yaml", mpijob_errors(mpijob, crd)),
                       ("k8s-job.yaml", job_errors(job, pod_template)),
                       ("k8s-job.yaml (MIG slice)", job_errors(mig_job, pod_template))):
        for e in errs:
            failures.append(f"{name}: {e}")

    # Broken copies must be rejected: each with the message expected.
    def broken(doc, edit):
        d = copy.deepcopy(doc)
        edit(d)
        return d
    w = lambda d: d["spec"]["mpiReplicaSpecs"]["Worker"]
    cases = [
        ("replicas not an integer", broken(mpijob, lambda d: w(d).update(replicas="two")),
         mpijob_errors, crd, "is not of type 'integer'"),
        ("no mpiReplicaSpecs", broken(mpijob, lambda d: d["spec"].pop("mpiReplicaSpecs")),
         mpijob_errors, crd, "'mpiReplicaSpecs' is a required property"),
        ("bad mpiImplementation", broken(mpijob, lambda d: d["spec"].update(
            mpiImplementation="LAM")), mpijob_errors, crd, "is not one of"),
        ("misspelt field", broken(mpijob, lambda d: d["spec"].update(slotPerWorker=8)),
         mpijob_errors, crd, "/spec/slotPerWorker: unknown field"),
        ("two launchers", broken(mpijob, lambda d: d["spec"]["mpiReplicaSpecs"]["Launcher"].update(
            replicas=2)), mpijob_errors, crd, "exactly one replica"),
        ("-np disagrees", broken(mpijob, lambda d: w(d).update(replicas=4)), mpijob_errors, crd,
         "mpirun -np 16 but 4 workers x 8 slots = 32 ranks"),
        ("job: misspelt field", broken(job, lambda d: d["spec"].update(backofLimit=0)),
         job_errors, pod_template, "/spec/backofLimit: unknown field"),
        ("job: bad container", broken(job, lambda d: d["spec"]["template"]["spec"]["containers"][
            0].update(imagePullPolicy=3)), job_errors, pod_template, "is not of type 'string'"),
        ("job: no GPU", broken(job, lambda d: d["spec"]["template"]["spec"]["containers"][0][
            "resources"].update(limits={"cpu": 1})), job_errors, pod_template,
         "no container asks for a GPU"),
    ]
    for what, doc, check, schema, expected in cases:
        errs = check(doc, schema)
        if not any(expected in e for e in errs):
            failures.append(f"broken copy ({what}) not rejected with {expected!r}: {errs[:3]}")
    for f in failures:
        print(f, file=sys.stderr)
    if not failures:
        print(f"manifests: ok (MPIJob, Job, Job with a MIG slice; {len(cases)} broken copies "
              "rejected)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
