#!/usr/bin/env python3
"""Issue 22's benchmark: a person's `strong` opponent beside bots-only tables.

Starts the given server binary itself (127.0.0.1, a free port, a fresh
SQLite file in a temporary directory), then measures one person's game
against one `strong` bot twice:

  idle    only the person's game runs;
  loaded  beside as many bots-only tables (4 `strong` bots each, started
          by a spectating host) as the caps allow from ten client
          addresses, 127.0.0.2 .. 127.0.0.11 (Linux routes all of 127/8 to
          lo, and the server keys its per-address caps on the TCP peer's
          address, so each is a client of its own). A table that finishes
          is replaced at once, so the load stays the same throughout.

The person (127.0.0.1) plays the first entry of `legal_actions` as soon as
it is their turn. For each bot move, the time from sending the person's
`act` to receiving the `state` in which it is the person's turn again is
recorded ("turn": what the person waits; the bot's think time, the bots'
delay, which the think overlaps, and a little overhead); a bot turn of
two actions (take, then return tokens) is one turn and two actions, and
per action the time from the previous state to the bot's is recorded too
("action"). p50, p90, p99 and max of each, idle and loaded, and the ratio
of the p99s (issue 22: loaded within 1.5x of idle). Compare the per-action
ratio: a two-action bot turn waits the bots' delay twice (2 s by default),
and those turns alone set the turn p99 whatever the load.

Each bots-only table is one connection (one session) from its address
that creates a room as a spectator, seats four `strong` bots, starts it
and watches it to its `result`, then makes the next one (a game of bots
goes on without its host too; watching is how the slot sees the end).
Once every table runs, one more start from the first address checks that
the cap refuses it (too_many_bot_tables).

The load runs in a process of its own, so its frames do not delay the
person's clock readings.

    python3 tests/bench/fair_thinking.py --server /tmp/fair-target-after/release/splendor-server

Options: --addresses 10, --tables-per-address K (default: the cap),
--bot-table-cap N (passes --max-bot-tables-per-ip; default the servers'
own, 4), --moves N (200 bot turns per phase), --warmup S, --bot-delay-ms,
--bot-threads, --server-arg=ARG (repeatable), --phases, --log FILE (the
server's log), --json FILE. Environment variables SPLENDOR_* of the caller
are not passed to the server (only what this script sets), so both
binaries run alike. Needs Python 3.11 and the `websockets` package (13 or
later).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import math
import multiprocessing as mp
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

from websockets.asyncio.client import connect

# The server's default --max-bot-tables-per-ip, at the "before" commit
# (ee663b4~1) and at the "after" one alike.
DEFAULT_BOT_TABLE_CAP = 4
# The server's default --max-connections-per-ip.
DEFAULT_CONNECTIONS_PER_IP = 16

# Counters the load process shares with the main one (mp.Array of int64).
RUNNING, STARTED, FINISHED, REFUSED_CAP, BOT_MOVES, ERRORS, RECONNECTS, CLOSED = range(8)
COUNTER_NAMES = [
    "running",
    "started",
    "finished",
    "refused_too_many_bot_tables",
    "bot_moves",
    "errors",
    "reconnects",
    "room_closed",
]


# ---------------------------------------------------------------------------
# The server


class Server:
    """The server binary on a free port with a fresh SQLite database."""

    def __init__(self, binary: str, args: list[str], env: dict[str, str], log_path: str | None):
        self.binary = binary
        self.args = args
        self.env = env
        self.log_path = log_path
        self.lines = collections.deque(maxlen=200)
        self.warnings = collections.Counter()

    def __enter__(self) -> "Server":
        self.dir = tempfile.TemporaryDirectory(prefix="fair-thinking-")
        env = {k: v for k, v in os.environ.items() if not k.startswith("SPLENDOR_")}
        env.update(self.env)
        env["SPLENDOR_DATABASE_URL"] = f"sqlite://{self.dir.name}/bench.db"
        cmd = [self.binary, "--listen", "127.0.0.1:0", *self.args]
        self.cmd = cmd
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        self.log = open(self.log_path, "w") if self.log_path else None
        for line in self.proc.stdout:
            self._keep(line)
            m = re.search(r"listening on (\S+)", line) or re.search(r'"message":"listening","addr":"([^"]+)"', line)
            if m:
                self.addr = m.group(1)
                self.url = f"ws://{self.addr}/ws"
                # Keep reading its log: a full pipe would block the server.
                self.drain = threading.Thread(target=self._drain, daemon=True)
                self.drain.start()
                return self
        raise RuntimeError("the server did not start:\n" + "".join(self.lines))

    def _keep(self, line: str) -> None:
        self.lines.append(line)
        if self.log:
            self.log.write(line)
        if "WARN" in line or '"level":"WARN"' in line:
            if "time cap" in line:
                self.warnings["strong time cap hit (logged at the 1st and every 100th)"] += 1
            else:
                self.warnings[re.sub(r"\s+", " ", line.strip())[-160:]] += 1

    def _drain(self) -> None:
        for line in self.proc.stdout:
            self._keep(line)

    def metrics(self) -> dict[str, float]:
        """The few figures of /metrics this benchmark reports."""
        wanted = (
            "splendor_bot_think_seconds_sum",
            "splendor_bot_think_seconds_count",
            "splendor_bot_actions_total",
            "splendor_games_started_total",
            "splendor_games_finished_total",
            "splendor_process_cpu_seconds_total",
        )
        out: dict[str, float] = {}
        try:
            with urllib.request.urlopen(f"http://{self.addr}/metrics", timeout=5) as r:
                text = r.read().decode()
        except Exception:
            return out
        for line in text.splitlines():
            if line.startswith("#"):
                continue
            parts = line.split()
            if len(parts) < 2:
                continue
            name = parts[0].split("{")[0]
            if name in wanted and "{" not in parts[0]:
                try:
                    out[name] = float(parts[1])
                except ValueError:
                    pass
            elif name == "splendor_intents_rejected_total" and "too_many_bot_tables" in parts[0]:
                out["rejected_too_many_bot_tables"] = float(parts[-1])
        return out

    def __exit__(self, *exc) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.drain.join(timeout=5)
        self.proc.stdout.close()
        if self.log:
            self.log.close()
        self.dir.cleanup()


# ---------------------------------------------------------------------------
# A connection


class ServerError(Exception):
    def __init__(self, frame: dict):
        super().__init__(f"{frame.get('code')}: {frame.get('message')}")
        self.code = frame.get("code")
        self.frame = frame


class Client:
    """One WebSocket; requests answered by id, pushes kept in order with
    the time each frame arrived."""

    def __init__(self, ws):
        self.ws = ws
        self.next_id = 0
        self.pushed: collections.deque = collections.deque()

    async def send(self, msg: dict) -> int:
        self.next_id += 1
        msg = dict(msg, id=self.next_id)
        await self.ws.send(json.dumps(msg))
        return self.next_id

    async def _read(self) -> tuple[float, dict]:
        text = await self.ws.recv()
        return time.monotonic(), json.loads(text)

    async def recv(self) -> tuple[float, dict]:
        """The next frame: a push kept while waiting for a reply first."""
        if self.pushed:
            return self.pushed.popleft()
        return await self._read()

    async def request(self, msg: dict, timeout: float = 30) -> dict:
        """Sends `msg` and returns its answer; frames that arrive meanwhile
        are kept for `recv`. An `error` answer raises ServerError."""
        rid = await self.send(msg)
        deadline = time.monotonic() + timeout
        while True:
            t, frame = await asyncio.wait_for(self._read(), max(0.1, deadline - time.monotonic()))
            if frame.get("id") == rid:
                if frame.get("type") == "error":
                    raise ServerError(frame)
                # The answer to `act` is its `events`; its `state` follows as a push.
                return frame
            self.pushed.append((t, frame))


def open_ws(url: str, local_ip: str):
    # websockets hands extra keyword arguments to loop.create_connection:
    # local_addr binds the client socket's source address.
    return connect(
        url,
        local_addr=(local_ip, 0),
        ping_interval=None,  # the server pings; the library answers
        max_size=2**22,
        compression=None,
        open_timeout=30,
    )


# ---------------------------------------------------------------------------
# The load: bots-only tables from many addresses (a process of its own)


async def make_table(c: Client, counters, stop) -> str | None:
    """Creates a room as its spectating host, seats four `strong` bots and
    starts it, retrying the start while the address's cap is reached.
    Returns the room's code, or None when stopped."""
    room = await c.request({"type": "create", "seats": 4, "as": "spectator"})
    for _ in range(4):
        room = await c.request({"type": "add_bot", "level": "strong"})
    while not stop.is_set():
        try:
            room = await c.request({"type": "start"})
            return room.get("code")
        except ServerError as e:
            if e.code == "too_many_bot_tables":
                with counters.get_lock():
                    counters[REFUSED_CAP] += 1
                await asyncio.sleep(0.5)
                continue
            raise
    return None


async def table_slot(url: str, ip: str, slot: int, counters, stop, verbose: bool) -> None:
    """One bots-only table from `ip`, kept going: a new one as soon as one
    ends. One connection (one session) per slot; the host spectates, so
    it sees the end (`result`)."""
    first = True
    while not stop.is_set():
        if not first:
            with counters.get_lock():
                counters[RECONNECTS] += 1
            await asyncio.sleep(1)
        first = False
        try:
            async with open_ws(url, ip) as ws:
                c = Client(ws)
                await c.request({"type": "hello", "name": f"load-{ip.split('.')[-1]}-{slot}"})
                while not stop.is_set():
                    code = await make_table(c, counters, stop)
                    if code is None:
                        return
                    with counters.get_lock():
                        counters[RUNNING] += 1
                        counters[STARTED] += 1
                    try:
                        while not stop.is_set():
                            try:
                                _, frame = await asyncio.wait_for(c.recv(), 1.0)
                            except asyncio.TimeoutError:
                                continue
                            kind = frame.get("type")
                            if kind == "events" and frame.get("by") == "bot":
                                with counters.get_lock():
                                    counters[BOT_MOVES] += 1
                            elif kind == "result":
                                with counters.get_lock():
                                    counters[FINISHED] += 1
                                break
                            elif kind == "room_closed":
                                with counters.get_lock():
                                    counters[CLOSED] += 1
                                if verbose:
                                    print(f"[load {ip}#{slot}] room_closed: {frame.get('reason')}", file=sys.stderr)
                                break
                    finally:
                        with counters.get_lock():
                            counters[RUNNING] -= 1
        except ServerError as e:
            with counters.get_lock():
                counters[ERRORS] += 1
            if verbose or counters[ERRORS] <= 20:
                print(f"[load {ip}#{slot}] error {e}", file=sys.stderr)
        except Exception as e:  # a refused or closed connection: again
            if stop.is_set():
                return
            with counters.get_lock():
                counters[ERRORS] += 1
            if verbose or counters[ERRORS] <= 20:
                print(f"[load {ip}#{slot}] {type(e).__name__}: {e}", file=sys.stderr)


async def probe_cap(url: str, ip: str) -> str:
    """One table more than the cap from `ip` (which runs as many as the
    cap allows): its start should be refused with too_many_bot_tables.
    The probe's room is then emptied and left. (Were it started, it would
    run on without its host: one table more than asked for.)"""
    async with open_ws(url, ip) as ws:
        c = Client(ws)
        await c.request({"type": "hello", "name": "cap-probe"})
        await c.request({"type": "create", "seats": 4, "as": "spectator"})
        for _ in range(4):
            await c.request({"type": "add_bot", "level": "strong"})
        try:
            await c.request({"type": "start"})
            outcome = "STARTED (the cap did not hold)"
            await c.request({"type": "leave"})
        except ServerError as e:
            outcome = f"refused: {e.code}"
            for seat in range(3, -1, -1):
                try:
                    await c.request({"type": "remove_bot", "seat": seat})
                except ServerError:
                    pass
            try:
                await c.request({"type": "leave"})
            except ServerError:
                pass
        return outcome


def load_process(url, ips, per_address, cap, counters, stop, probe_q, verbose) -> None:
    async def main():
        tasks = [
            asyncio.create_task(table_slot(url, ip, k, counters, stop, verbose))
            for k in range(per_address)
            for ip in ips
        ]
        probed = False
        while not stop.is_set():
            await asyncio.sleep(0.2)
            if not probed and counters[RUNNING] >= len(tasks):
                probed = True
                if per_address < cap:
                    probe_q.put(f"not run: {per_address} tables an address, below the cap of {cap}")
                    continue
                try:
                    probe_q.put(await probe_cap(url, ips[0]))
                except Exception as e:
                    probe_q.put(f"probe failed: {type(e).__name__}: {e}")
        await asyncio.sleep(0.5)
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(main())


# ---------------------------------------------------------------------------
# The person


async def person(url: str, moves: int, label: str) -> dict:
    """Plays against one `strong` bot from 127.0.0.1 until `moves` bot
    turns are timed; a finished game is followed by a new one."""
    turns: list[float] = []
    actions: list[float] = []
    games = 0
    errors = collections.Counter()
    async with open_ws(url, "127.0.0.1") as ws:
        c = Client(ws)
        await c.request({"type": "hello", "name": f"person-{label}"})
        while len(turns) < moves:
            # A new game: two seats, the person and a strong bot. (`create`
            # from a finished room leaves it first.)
            await c.request({"type": "create", "seats": 2})
            await c.request({"type": "add_bot", "level": "strong"})
            await c.request({"type": "start"})
            games += 1
            t_send = None  # when the person's act went out
            t_last = None  # the last state seen since
            bot_actions = 0
            last_by = None
            while len(turns) < moves:
                t, frame = await asyncio.wait_for(c.recv(), 120)
                kind = frame.get("type")
                if kind == "events":
                    last_by = frame.get("by")
                    continue
                if kind == "result" or kind == "room_closed":
                    break
                if kind == "error":
                    errors[frame.get("code")] += 1
                    if frame.get("code") == "stale_version":
                        await c.send({"type": "sync"})
                    continue
                if kind != "state":
                    continue
                if frame.get("phase") == "game_over":
                    # The result follows.
                    continue
                me = frame.get("you")
                if t_send is not None and last_by == "bot":
                    actions.append(t - t_last)
                    t_last = t
                    bot_actions += 1
                last_by = None
                if frame.get("to_act") == me and frame.get("legal_actions"):
                    if t_send is not None and bot_actions > 0:
                        turns.append(t - t_send)
                        if len(turns) >= moves:
                            break
                    action = frame["legal_actions"][0]
                    t_send = time.monotonic()
                    t_last = t_send
                    bot_actions = 0
                    await c.send({"type": "act", "action": action, "expect_version": frame["version"]})
        # Ends the game it left unfinished (the bot then stops thinking).
        try:
            await c.request({"type": "resign"}, timeout=10)
        except Exception:
            pass
    return {"turns": turns, "actions": actions, "games": games, "errors": dict(errors)}


# ---------------------------------------------------------------------------
# Figures


def pct(xs: list[float], p: float) -> float:
    """Nearest-rank percentile."""
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[max(0, math.ceil(p / 100 * len(s)) - 1)]


def summary(xs: list[float]) -> dict:
    return {
        "count": len(xs),
        "p50": pct(xs, 50),
        "p90": pct(xs, 90),
        "p99": pct(xs, 99),
        "max": max(xs) if xs else float("nan"),
        "mean": sum(xs) / len(xs) if xs else float("nan"),
    }


def row(name: str, s: dict) -> str:
    return (
        f"| {name:<16} | {s['count']:>5} | {s['p50']:>7.3f} | {s['p90']:>7.3f} | "
        f"{s['p99']:>7.3f} | {s['max']:>7.3f} | {s['mean']:>7.3f} |"
    )


def delta(after: dict, before: dict, key: str) -> float:
    return after.get(key, 0.0) - before.get(key, 0.0)


def think_mean(after: dict, before: dict) -> str:
    n = delta(after, before, "splendor_bot_think_seconds_count")
    s = delta(after, before, "splendor_bot_think_seconds_sum")
    return f"{1000 * s / n:.1f} ms over {int(n)} thinks" if n else "n/a"


# ---------------------------------------------------------------------------


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--server", required=True, help="the splendor-server binary")
    ap.add_argument("--addresses", type=int, default=10, help="client addresses of the bots-only tables (127.0.0.2 on)")
    ap.add_argument(
        "--tables-per-address",
        type=int,
        default=None,
        help=f"bots-only tables from each address (default: the cap, --bot-table-cap or the servers' default {DEFAULT_BOT_TABLE_CAP})",
    )
    ap.add_argument("--bot-table-cap", type=int, default=None, help="pass --max-bot-tables-per-ip N to the server (default: the server's own, 4)")
    ap.add_argument("--moves", type=int, default=200, help="bot turns timed per phase (200)")
    ap.add_argument("--warmup", type=float, default=10.0, help="seconds of load before the loaded phase is timed (10)")
    ap.add_argument("--bot-delay-ms", type=int, default=None, help="pass --bot-delay-ms (default: the server's own, 1000)")
    ap.add_argument("--bot-threads", type=int, default=None, help="pass --bot-threads (default: the server's own, cores - 1)")
    ap.add_argument("--server-arg", action="append", default=[], help="one more server argument (repeatable)")
    ap.add_argument("--phases", choices=["both", "idle", "loaded"], default="both")
    ap.add_argument("--log", default=None, help="write the server's log here")
    ap.add_argument("--json", default=None, help="write the figures here as JSON")
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()

    if a.addresses < 1 or a.addresses > 250:
        ap.error("--addresses must be 1..250")
    ips = [f"127.0.0.{i + 2}" for i in range(a.addresses)]
    cap = a.bot_table_cap if a.bot_table_cap is not None else DEFAULT_BOT_TABLE_CAP
    if a.tables_per_address is None:
        a.tables_per_address = cap
    server_args: list[str] = []
    if a.bot_table_cap is not None:
        server_args += ["--max-bot-tables-per-ip", str(a.bot_table_cap)]
    if a.bot_delay_ms is not None:
        server_args += ["--bot-delay-ms", str(a.bot_delay_ms)]
    if a.bot_threads is not None:
        server_args += ["--bot-threads", str(a.bot_threads)]
    # One connection per table, and the probe: lift the per-address
    # connection cap only when the default would refuse some.
    if a.tables_per_address + 1 > DEFAULT_CONNECTIONS_PER_IP:
        server_args += ["--max-connections-per-ip", str(a.tables_per_address + 4)]
    server_args += a.server_arg

    result: dict = {
        "server": os.path.abspath(a.server),
        "server_args": server_args,
        "addresses": ips,
        "tables_per_address": a.tables_per_address,
        "moves": a.moves,
        "cpus": os.cpu_count(),
    }
    with Server(a.server, server_args, {}, a.log) as srv:
        print(f"server {a.server} {' '.join(server_args)} on {srv.addr}", flush=True)
        phases: dict[str, dict] = {}

        if a.phases in ("both", "idle"):
            m0 = srv.metrics()
            t0 = time.monotonic()
            phases["idle"] = asyncio.run(person(srv.url, a.moves, "idle"))
            phases["idle"]["seconds"] = time.monotonic() - t0
            m1 = srv.metrics()
            phases["idle"]["server_think_mean"] = think_mean(m1, m0)
            print(f"idle: {len(phases['idle']['turns'])} bot turns in {phases['idle']['seconds']:.0f} s", flush=True)

        if a.phases in ("both", "loaded"):
            counters = mp.Array("q", len(COUNTER_NAMES))
            stop = mp.Event()
            probe_q = mp.Queue()
            total = a.addresses * a.tables_per_address
            load = mp.Process(
                target=load_process,
                args=(srv.url, ips, a.tables_per_address, cap, counters, stop, probe_q, a.verbose),
                daemon=True,
            )
            t_load = time.monotonic()
            load.start()
            # Every table running (or a minute passed), then the warm-up.
            while counters[RUNNING] < total and time.monotonic() - t_load < 60:
                time.sleep(0.2)
            ramp = time.monotonic() - t_load
            print(f"load: {counters[RUNNING]} of {total} bots-only tables running after {ramp:.1f} s", flush=True)
            try:
                probe = probe_q.get(timeout=30)
            except Exception:
                probe = "probe did not run"
            print(f"cap probe (one table more from {ips[0]}, cap {cap}): {probe}", flush=True)
            time.sleep(a.warmup)
            before = list(counters)
            m0 = srv.metrics()
            running_seen = []

            async def measured():
                task = asyncio.create_task(person(srv.url, a.moves, "loaded"))
                while not task.done():
                    running_seen.append(counters[RUNNING])
                    await asyncio.sleep(1)
                return await task

            t0 = time.monotonic()
            phases["loaded"] = asyncio.run(measured())
            secs = time.monotonic() - t0
            m1 = srv.metrics()
            after = list(counters)
            stop.set()
            load.join(timeout=30)
            if load.is_alive():
                load.terminate()
            d = {n: after[i] - before[i] for i, n in enumerate(COUNTER_NAMES)}
            phases["loaded"].update(
                seconds=secs,
                server_think_mean=think_mean(m1, m0),
                load={
                    "tables_target": total,
                    "running_min": min(running_seen) if running_seen else None,
                    "running_max": max(running_seen) if running_seen else None,
                    "ramp_seconds": ramp,
                    "cap_probe": probe,
                    "during": d,
                    "totals": {n: after[i] for i, n in enumerate(COUNTER_NAMES)},
                    "bots_only_moves_per_s": d["bot_moves"] / secs if secs else None,
                    "server_cpu_share": delta(m1, m0, "splendor_process_cpu_seconds_total") / secs if secs else None,
                },
            )
            print(f"loaded: {len(phases['loaded']['turns'])} bot turns in {secs:.0f} s", flush=True)
        warnings = dict(srv.warnings)

    # The figures.
    print()
    print("Seconds from the person's act to their turn again (turn), and per bot action (action):")
    print()
    print("| phase            | count |     p50 |     p90 |     p99 |     max |    mean |")
    print("|------------------|-------|---------|---------|---------|---------|---------|")
    figures = {}
    for name, ph in phases.items():
        figures[name] = {"turn": summary(ph["turns"]), "action": summary(ph["actions"])}
        print(row(f"{name} turn", figures[name]["turn"]))
        print(row(f"{name} action", figures[name]["action"]))
    print()
    for name, ph in phases.items():
        extra = f"games {ph['games']}, server think mean {ph['server_think_mean']}"
        if ph["errors"]:
            extra += f", errors {ph['errors']}"
        print(f"{name}: {extra}")
    if "loaded" in phases:
        ld = phases["loaded"]["load"]
        d = ld["during"]
        print(
            f"load: {ld['tables_target']} tables targeted ({a.addresses} addresses x {a.tables_per_address}); "
            f"running during the timing min {ld['running_min']} max {ld['running_max']}; "
            f"{ld['bots_only_moves_per_s']:.1f} bots-only moves/s; "
            f"started {d['started']}, finished {d['finished']}, refused (too_many_bot_tables, retried) {d['refused_too_many_bot_tables']}, "
            f"closed by the server {d['room_closed']}, errors {d['errors']}, reconnects {d['reconnects']}; "
            f"server CPU {100 * (ld['server_cpu_share'] or 0):.0f}% of a core"
        )
        print(f"cap probe: {ld['cap_probe']}")
    if "idle" in figures and "loaded" in figures:
        for k, what in (("action", "per bot move"), ("turn", "act to the person's turn again")):
            i, l = figures["idle"][k]["p99"], figures["loaded"][k]["p99"]
            ratio = l / i if i else float("nan")
            figures.setdefault("ratio_p99", {})[k] = ratio
            print(f"p99 loaded/idle, {k} ({what}): {ratio:.2f}  (issue 22: at most 1.5)")
        print(
            "(a bot turn of two actions, such as taking then returning tokens, waits the bots' delay twice:"
            " such turns set the turn p99, so the per-action figure is the one to compare)"
        )
    if warnings:
        print("server warnings:")
        for w, n in warnings.items():
            print(f"  {n} x {w}")
    result["phases"] = {
        n: {k: v for k, v in ph.items() if k not in ("turns", "actions")} | {"turns": ph["turns"], "actions": ph["actions"]}
        for n, ph in phases.items()
    }
    result["figures"] = figures
    result["warnings"] = warnings
    if a.json:
        with open(a.json, "w") as f:
            json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
