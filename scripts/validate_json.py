#!/usr/bin/env python3
"""Validate JSON files against one of gpusizer's JSON Schemas (draft 2020-12).

usage: validate_json.py SCHEMA FILE [FILE...]   exit 0 when all are valid, 1 otherwise.
Uses Debian's python3-jsonschema (run with /usr/bin/python3).
"""
import json
import sys

import jsonschema


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    bad = 0
    for path in sys.argv[2:]:
        with open(path) as f:
            doc = json.load(f)
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
        for e in errors[:10]:
            print(f"{path}: /{'/'.join(str(p) for p in e.path)}: {e.message}", file=sys.stderr)
        bad += bool(errors)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
