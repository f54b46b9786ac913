#!/usr/bin/env python3
"""Checks every docker/compose*.yml, for every service that runs the server
(built from the Dockerfile or the splendor-server image):

- /metrics stays off the public port (issue 12): SPLENDOR_METRICS_LISTEN is a
  port of its own, which is not published;
- a cluster (issue 21: services with SPLENDOR_NATS_URL) is consistent: every
  node has its own SPLENDOR_NODE_ID, all share one NATS URL and one
  postgres:// database; behind the HAProxy service the nodes publish no port,
  read the player's address from X-Forwarded-For, and docker/haproxy.cfg
  names exactly these nodes (its default addresses) on their public port,
  node id N as server nodeN with the use-server line that sends ?node=N
  there (issue 44: clients following their room to its node).

With --self-test, also shows that the check fails on broken variants of each
file. Used by docker/check.sh (run by CI)."""
import copy
import glob
import re
import sys

import yaml


def container_port(mapping):
    """The container side of a `ports` entry ("8080:8080", "9090", dicts)."""
    if isinstance(mapping, dict):
        return str(mapping.get("target"))
    text = str(mapping).split("/")[0]
    return text.rsplit(":", 1)[-1]


def environment(service):
    env = service.get("environment") or {}
    if isinstance(env, list):
        env = dict(item.split("=", 1) for item in env)
    return {k: str(v) for k, v in env.items()}


def runs_server(service):
    build = service.get("build") or {}
    dockerfile = build.get("dockerfile") if isinstance(build, dict) else None
    return dockerfile == "Dockerfile" or str(service.get("image", "")).startswith("splendor-server")


def listen_port(env):
    return env.get("SPLENDOR_LISTEN", "0.0.0.0:8080").rsplit(":", 1)[-1]


def metrics_problems(name, service):
    env = environment(service)
    metrics = env.get("SPLENDOR_METRICS_LISTEN")
    if not metrics:
        return [f"{name}: SPLENDOR_METRICS_LISTEN is not set: /metrics is served on the public port"]
    metrics_port = metrics.rsplit(":", 1)[-1]
    found = []
    if metrics_port == listen_port(env):
        found.append(f"{name}: /metrics listens on the public port {metrics_port}")
    published = [container_port(p) for p in service.get("ports") or []]
    if metrics_port in published:
        found.append(f"{name}: the metrics port {metrics_port} is published")
    return found


def haproxy_servers(path="docker/haproxy.cfg"):
    """The `server` lines of haproxy.cfg: {name: default address}."""
    text = open(path).read()
    return dict(re.findall(r'^\s*server\s+(\S+)\s+"\$\{[A-Z0-9_]+-([^}]+)\}"', text, re.M))


def haproxy_nodes(path="docker/haproxy.cfg"):
    """The default addresses of the `server` lines of haproxy.cfg."""
    return list(haproxy_servers(path).values())


def haproxy_routes(path="docker/haproxy.cfg"):
    """The `use-server` lines that follow `?node=N`: {N: server name}."""
    text = open(path).read()
    pattern = r'^\s*use-server\s+(\S+)\s+if\s+\{\s*url_param\(node\)\s+-m\s+str\s+(\d+)\s*\}'
    return {n: name for name, n in re.findall(pattern, text, re.M)}


def cluster_problems(services, nodes):
    found = []
    envs = {name: environment(services[name]) for name in nodes}
    ids = [env.get("SPLENDOR_NODE_ID") for env in envs.values()]
    for name, env in envs.items():
        if not env.get("SPLENDOR_NODE_ID"):
            found.append(f"{name}: a cluster node without SPLENDOR_NODE_ID")
        if not env.get("SPLENDOR_DATABASE_URL", "").startswith("postgres://"):
            found.append(f"{name}: a cluster node needs a postgres:// SPLENDOR_DATABASE_URL")
    if len(set(ids)) != len(ids):
        found.append(f"two nodes share a SPLENDOR_NODE_ID: {ids}")
    for var in ("SPLENDOR_NATS_URL", "SPLENDOR_DATABASE_URL"):
        if len({env.get(var) for env in envs.values()}) != 1:
            found.append(f"the nodes do not share one {var}")
    proxy = services.get("haproxy")
    if proxy is None:
        return found + ["a cluster without the haproxy service in front of it"]
    mounts = [str(v) for v in proxy.get("volumes") or []]
    if not any(m.startswith("./haproxy.cfg:") for m in mounts):
        found.append("haproxy: does not mount ./haproxy.cfg")
    for name, env in envs.items():
        if services[name].get("ports"):
            found.append(f"{name}: publishes a port: players reach the nodes through HAProxy only")
        if env.get("SPLENDOR_CLIENT_IP_HEADER", "").lower() != "x-forwarded-for":
            found.append(f"{name}: SPLENDOR_CLIENT_IP_HEADER must be X-Forwarded-For behind HAProxy")
    expected = sorted(f"{name}:{listen_port(env)}" for name, env in envs.items())
    if sorted(haproxy_nodes()) != expected:
        found.append(f"docker/haproxy.cfg names {sorted(haproxy_nodes())}, the compose file runs {expected}")
    # A client following its room asks for ?node=N (issue 44): node id N
    # must be server nodeN, and a use-server line must send N there.
    servers, routes = haproxy_servers(), haproxy_routes()
    for name, env in envs.items():
        node = env.get("SPLENDOR_NODE_ID")
        address = f"{name}:{listen_port(env)}"
        if servers.get(f"node{node}") != address:
            found.append(f"{name}: SPLENDOR_NODE_ID {node} but haproxy.cfg's node{node} is {servers.get(f'node{node}')}, not {address}")
        if routes.get(str(node)) != f"node{node}":
            found.append(f"{name}: haproxy.cfg sends ?node={node} to {routes.get(str(node))}, not node{node}")
    return found


def problems(doc):
    services = doc.get("services", {})
    servers = [name for name, s in services.items() if runs_server(s)]
    if "server" not in servers:
        return ["no `server` service"]
    found = []
    for name in servers:
        found += metrics_problems(name, services[name])
    nodes = [n for n in servers if "SPLENDOR_NATS_URL" in environment(services[n])]
    if nodes:
        found += cluster_problems(services, nodes)
    return found


def broken_variants(doc):
    """Ways to get a file wrong that the check must catch."""
    services = doc["services"]
    servers = [name for name, s in services.items() if runs_server(s)]
    for name in servers:
        unset = copy.deepcopy(doc)
        del unset["services"][name]["environment"]["SPLENDOR_METRICS_LISTEN"]
        yield f"{name} without SPLENDOR_METRICS_LISTEN", unset
        published = copy.deepcopy(doc)
        port = environment(services[name])["SPLENDOR_METRICS_LISTEN"].rsplit(":", 1)[-1]
        published["services"][name].setdefault("ports", []).append(f"{port}:{port}")
        yield f"{name} publishing {port}", published
    nodes = [n for n in servers if "SPLENDOR_NATS_URL" in environment(services[n])]
    if len(nodes) >= 2:
        twin = copy.deepcopy(doc)
        twin["services"][nodes[1]]["environment"]["SPLENDOR_NODE_ID"] = environment(services[nodes[0]])["SPLENDOR_NODE_ID"]
        yield "two nodes with one id", twin
        swapped = copy.deepcopy(doc)
        first, second = (swapped["services"][n]["environment"] for n in nodes[:2])
        first["SPLENDOR_NODE_ID"], second["SPLENDOR_NODE_ID"] = second["SPLENDOR_NODE_ID"], first["SPLENDOR_NODE_ID"]
        yield "two nodes' ids swapped (?node=N would reach the wrong one)", swapped
        exposed = copy.deepcopy(doc)
        exposed["services"][nodes[1]]["ports"] = ["8081:8080"]
        yield f"{nodes[1]} published beside the proxy", exposed
        no_header = copy.deepcopy(doc)
        del no_header["services"][nodes[2 % len(nodes)]]["environment"]["SPLENDOR_CLIENT_IP_HEADER"]
        yield "a node without the client address header", no_header
        extra = copy.deepcopy(doc)
        extra["services"]["server-4"] = copy.deepcopy(services[nodes[0]])
        extra["services"]["server-4"]["environment"]["SPLENDOR_NODE_ID"] = "4"
        yield "a node haproxy.cfg does not name", extra
        sqlite = copy.deepcopy(doc)
        sqlite["services"][nodes[0]]["environment"]["SPLENDOR_DATABASE_URL"] = "sqlite:///data/splendor.db"
        yield "a node on SQLite", sqlite


def main():
    failed = False
    for path in sorted(glob.glob("docker/compose*.yml")):
        with open(path) as f:
            doc = yaml.safe_load(f)
        for problem in problems(doc):
            print(f"{path}: {problem}", file=sys.stderr)
            failed = True
        if "--self-test" in sys.argv:
            for what, bad in broken_variants(doc):
                if not problems(bad):
                    print(f"{path}: the self-test's broken variant ({what}) passed the check", file=sys.stderr)
                    failed = True
        print(f"{path}: checked")
    sys.exit(1 if failed else 0)


main()
