#!/usr/bin/python3
"""Validate the JSON outputs of linkscope against the schemas in docs/.

usage: validate-json.py DOCS_DIR [--expect SCHEMA | --expect-by-name] FILE...
Each FILE is one output (a check of several records: a JSON array). Its
schema is the one whose title is the output's "schema" field
(linkscope-report/2 -> docs/report.schema.json, ...): an output that names
no schema linkscope has is an error too. Prints one line per invalid file
(the file, the JSON path, the first error) and exits 1 when any is.
--expect SCHEMA: the outputs must name that schema (what the command gives).
--expect-by-name: each file's name says it, linkscope-report_2.N.json for
linkscope-report/2 (tests/integ/linkscope-json-check saves them so, with
the command line in N.cmd beside, printed with an error).
Uses Debian's python3-jsonschema, as tests/validate-record.py does.
"""
import glob
import json
import os
import re
import sys

import jsonschema


def load_schemas(docs):
    by_title = {}
    for path in glob.glob(os.path.join(docs, "*.schema.json")):
        schema = json.load(open(path))
        if schema.get("title", "").startswith("linkscope-") and "record" not in os.path.basename(path):
            by_title[schema["title"]] = (path, jsonschema.Draft202012Validator(schema))
    return by_title


def schema_name(doc):
    first = doc[0] if isinstance(doc, list) and doc else doc
    return first.get("schema") if isinstance(first, dict) else None


def main():
    by_title = load_schemas(sys.argv[1])
    files = sys.argv[2:]
    expect = by_name = None
    if files[:1] == ["--expect"]:
        expect, files = files[1], files[2:]
    elif files[:1] == ["--expect-by-name"]:
        by_name, files = True, files[1:]
    bad = 0
    for path in files:
        if by_name:
            m = re.match(r"(linkscope-[a-z]+)_([0-9]+)\.", os.path.basename(path))
            expect = f"{m.group(1)}/{m.group(2)}" if m else "?"
            cmd = re.sub(r"\.json$", ".cmd", path)
            if os.path.exists(cmd):
                path_shown = f"{path} ({open(cmd).read().strip()})"
            else:
                path_shown = path
        else:
            path_shown = path
        try:
            doc = json.load(open(path))
        except (OSError, ValueError) as e:
            print(f"{path_shown}: not JSON: {e}")
            bad += 1
            continue
        name = schema_name(doc)
        if expect and name != expect:
            print(f"{path_shown}: names schema {name!r}, not {expect!r}")
            bad += 1
            continue
        if name not in by_title:
            print(f"{path_shown}: no schema in docs/ for {name!r}")
            bad += 1
            continue
        errors = sorted(by_title[name][1].iter_errors(doc), key=lambda e: list(e.path))
        for e in errors[:3]:
            print(f"{path_shown}: {os.path.basename(by_title[name][0])}: "
                  f"{'/'.join(map(str, e.path))}: {e.message[:300]}")
        bad += bool(errors)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
