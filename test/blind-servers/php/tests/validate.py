#!/usr/bin/env python3
"""Validate recorded responses against the server's own OpenAPI document.
usage: validate.py spec.json log   (log lines: METHOD\tPATH\tSTATUS\tFILE\tCONTENT_TYPE)"""
import json, re, sys
from jsonschema import Draft202012Validator, FormatChecker
from openapi_spec_validator import validate as validate_spec

spec = json.load(open(sys.argv[1]))
validate_spec(spec)
routes = []
for tpl, ops in spec["paths"].items():
    rx = re.compile("^" + re.sub(r"\\\{[A-Za-z]+\\\}", "[^/]+", re.escape(tpl)) + "$")
    for m, op in ops.items():
        routes.append((rx, m.upper(), op, tpl))
bad = 0; n = 0
for line in open(sys.argv[2]):
    m, path, status, f, ct = (line.rstrip("\n").split("\t") + [""] * 5)[:5]
    path = path.split("?")[0]
    cands = [r for r in routes if r[0].match(path) and r[1] == (m if m != "HEAD" else "GET")]
    if not cands:  # served on the other trailing-slash spelling
        alt = path[:-1] if path.endswith("/") else path + "/"
        cands = [r for r in routes if r[0].match(alt) and r[1] == m]
    lit = [r for r in cands if "{" not in r[3]]
    if not cands:
        if status not in ("404", "405", "401", "302"):
            print(f"NO-OPERATION {m} {path} {status}"); bad += 1
        continue
    op = (lit or cands)[0][2]
    resp = op["responses"].get(status) or op["responses"].get("default")
    n += 1
    if resp is None:
        print(f"UNDECLARED-STATUS {op['operationId']} {status}"); bad += 1; continue
    content = resp.get("content")
    if not content or m == "HEAD":
        continue
    if "application/json" in content:
        if "json" not in ct:
            print(f"NOT-JSON {op['operationId']} {status} {ct}"); bad += 1; continue
        try:
            body = json.load(open(f))
        except Exception as e:
            print(f"BAD-JSON {op['operationId']} {status}: {e}"); bad += 1; continue
        schema = dict(spec); schema["$ref"] = content["application/json"]["schema"]["$ref"]
        errs = list(Draft202012Validator(schema, format_checker=FormatChecker()).iter_errors(body))
        for e in errs[:3]:
            print(f"SCHEMA {op['operationId']} {status} {list(e.absolute_path)}: {e.message[:200]}")
        if errs: bad += 1
    elif "text/csv" in content and "text/csv" not in ct:
        print(f"NOT-CSV {op['operationId']} {status} {ct}"); bad += 1
print(f"validated {n} responses against the OpenAPI document, {bad} problems")
sys.exit(1 if bad else 0)
