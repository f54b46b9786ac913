#!/usr/bin/env python3
"""Checks that every docker/compose*.yml keeps /metrics off the public port
(issue 12): the server service sets SPLENDOR_METRICS_LISTEN to a port of its
own, and publishes only other ports. With --self-test, also shows that the
check fails on a compose file that puts /metrics on the public port.

Used by docker/check.sh (run by CI)."""
import copy
import glob
import sys

import yaml


def container_port(mapping):
    """The container side of a `ports` entry ("8080:8080", "9090", dicts)."""
    if isinstance(mapping, dict):
        return str(mapping.get("target"))
    text = str(mapping).split("/")[0]
    return text.rsplit(":", 1)[-1]


def problems(doc):
    server = doc.get("services", {}).get("server")
    if server is None:
        return ["no `server` service"]
    env = server.get("environment") or {}
    if isinstance(env, list):
        env = dict(item.split("=", 1) for item in env)
    metrics = env.get("SPLENDOR_METRICS_LISTEN")
    if not metrics:
        return ["SPLENDOR_METRICS_LISTEN is not set: /metrics is served on the public port"]
    metrics_port = str(metrics).rsplit(":", 1)[-1]
    listen_port = str(env.get("SPLENDOR_LISTEN", "0.0.0.0:8080")).rsplit(":", 1)[-1]
    found = []
    if metrics_port == listen_port:
        found.append(f"/metrics listens on the public port {listen_port}")
    published = [container_port(p) for p in server.get("ports") or []]
    if metrics_port in published:
        found.append(f"the metrics port {metrics_port} is published")
    return found


def main():
    failed = False
    for path in sorted(glob.glob("docker/compose*.yml")):
        with open(path) as f:
            doc = yaml.safe_load(f)
        for problem in problems(doc):
            print(f"{path}: {problem}", file=sys.stderr)
            failed = True
        if "--self-test" in sys.argv:
            # The check must catch the two ways to get it wrong.
            unset = copy.deepcopy(doc)
            del unset["services"]["server"]["environment"]["SPLENDOR_METRICS_LISTEN"]
            published = copy.deepcopy(doc)
            port = str(doc["services"]["server"]["environment"]["SPLENDOR_METRICS_LISTEN"]).rsplit(":", 1)[-1]
            published["services"]["server"].setdefault("ports", []).append(f"{port}:{port}")
            for bad in (unset, published):
                if not problems(bad):
                    print(f"{path}: the self-test's broken variant passed the check", file=sys.stderr)
                    failed = True
        print(f"{path}: /metrics stays off the public port")
    sys.exit(1 if failed else 0)


main()
