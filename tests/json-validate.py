#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""json-validate.py SCHEMA JSON...: validate each JSON file against the
JSON Schema (draft 7) SCHEMA with Debian's python3-jsonschema; print one
line per error, "FILE: PATH: MESSAGE", and exit 1 when there is any, 2
when a file cannot be read."""

import json
import sys

import jsonschema


def main():
    if len(sys.argv) < 3:
        print("usage: json-validate.py SCHEMA JSON...", file=sys.stderr)
        return 2
    try:
        with open(sys.argv[1]) as f:
            schema = json.load(f)
        jsonschema.Draft7Validator.check_schema(schema)
    except (OSError, ValueError, jsonschema.SchemaError) as e:
        print(f"{sys.argv[1]}: {e}", file=sys.stderr)
        return 2
    validator = jsonschema.Draft7Validator(schema)
    bad = 0
    for name in sys.argv[2:]:
        try:
            with open(name) as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            print(f"{name}: {e}", file=sys.stderr)
            return 2
        for err in sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path)):
            path = "/".join(str(p) for p in err.absolute_path)
            print(f"{name}: /{path}: {err.message}")
            bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main())
