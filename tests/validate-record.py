#!/usr/bin/python3
"""Validate linkscope records against docs/record.schema.json.

usage: validate-record.py SCHEMA RECORD...
Exits 1 and names each record and the first error when any is invalid.
Uses Debian's python3-jsonschema (installed by scripts/install-deps.sh).
"""
import json
import sys

import jsonschema


def main():
    schema = json.load(open(sys.argv[1]))
    validator = jsonschema.Draft202012Validator(schema)
    bad = 0
    for path in sys.argv[2:]:
        try:
            record = json.load(open(path))
        except (OSError, ValueError) as e:
            print(f"{path}: cannot read: {e}")
            bad += 1
            continue
        errors = sorted(validator.iter_errors(record), key=lambda e: list(e.path))
        for e in errors[:3]:
            print(f"{path}: {'/'.join(map(str, e.path))}: {e.message[:300]}")
        bad += bool(errors)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
