#!/usr/bin/env python3
"""Analytics Platform Management API - independent in-memory implementation (stdlib only).

Usage: python3 server.py [--port N]   (port 0 = any free port)
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.setrecursionlimit(5000)

import core  # noqa: E402
import api  # noqa: E402,F401
import e14  # noqa: E402,F401
import e14b  # noqa: E402,F401
from store import TOKENS  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--host", default="127.0.0.1")
    a = ap.parse_args()

    def ready(port):
        base = "http://127.0.0.1:%d" % port
        e14.BASE_URL[0] = base
        sys.stdout.write(json.dumps({"baseUrl": base, "token": TOKENS["admin"], "tokens": TOKENS}) + "\n")
        sys.stdout.flush()

    try:
        core.serve(a.port, ready)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
