#!/usr/bin/env python3
"""Throw junk at every operation of the server's own OpenAPI document; report any 5xx or non-JSON error."""
import json, random, sys, urllib.request, urllib.error
start = json.loads(open(sys.argv[1]).readline())
base, tokens = start["baseUrl"], start["tokens"]
random.seed(int(sys.argv[2]) if len(sys.argv) > 2 else 7)
def call(m, path, tok, body=None, raw=None):
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    req = urllib.request.Request(base + path, data=data, method=m)
    if tok: req.add_header("Authorization", "Bearer " + tok)
    if data is not None: req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=20) as r: return r.status, r.read(), r.headers.get("Content-Type", "")
    except urllib.error.HTTPError as e: return e.code, e.read(), e.headers.get("Content-Type", "")
st, body, _ = call("GET", "/api/v1/spec", tokens["admin"])
spec = json.loads(body)
junk_ids = ["120340", "120357", "0", "-1", "99999999999999999999", "abc", "%FF", "caf%C3%A9", "1e5", "%2F", "null", "730010", "main"]
junk_vals = [None, True, -1, 0, 1.5, 10**30, "", "x" * 300, "é☕", [], {}, [1, "a"], {"a": {"b": None}}, "1.7.13", "TABS_CONTAINER", "null"]
junk_q = ["first=0", "first=-5", "first=abc", "after=zz", "after=ck_WzEsMl0", "limit=0", "offset=-1", "folderId=abc", "folderId=-3", "type=x",
          "sortBy=lastViewedAt&first=2", "start=2026-13-45", "end=x", "first=99999999999999999999999", "first[]=1", "branchName=%00", "search=%E2%98%95"]
bad = 0; n = 0
for path, ops in spec["paths"].items():
    for m, op in ops.items():
        for _ in range(12):
            p = path
            while "{" in p:
                a, b = p.index("{"), p.index("}")
                p = p[:a] + random.choice(junk_ids) + p[b + 1:]
            if random.random() < 0.5: p += "?" + "&".join(random.sample(junk_q, 2))
            tok = tokens["admin"] if random.random() < 0.5 else random.choice(list(tokens.values()) + [None, "garbage"])
            props = {}
            rb = op.get("requestBody")
            if rb:
                ref = rb["content"]["application/json"]["schema"]["$ref"].split("/")[-1]
                for k in spec["components"]["schemas"][ref].get("properties", {}) or {}:
                    if random.random() < 0.7: props[k] = random.choice(junk_vals)
            raw = random.choice([None, None, b"{", b"[]", b"\xff\xfe", b"null", b'"s"', b"{" * 700]) if random.random() < 0.3 else None
            code, out, ct = call(m.upper(), p, tok, props if rb else None, raw)
            n += 1
            if code >= 500 or ("json" not in ct and code != 200):
                bad += 1; print(m.upper(), p, code, out[:200])
print(f"fuzz: {n} requests, {bad} problems")
sys.exit(1 if bad else 0)
