#!/usr/bin/env python3
"""Two players of a game, from outside the containers, for
docker/engine-test.sh: the standard library only (a host checking its own
deployment needs nothing installed), a WebSocket client of RFC 6455's
plainest kind.

  play.py begin URL STATE [MOVES]   two new players make a room, start, play
                                    MOVES moves (default 6), save the
                                    tokens, the room and the version to STATE
  play.py resume URL STATE [MOVES]  both come back with their tokens (after a
                                    restart, a kill, a node's loss), check
                                    that the game is where it was, play MOVES
                                    more (default: to the end) and save again

Exits 1 with the reason when anything is not as it must be.
"""

import base64
import json
import os
import socket
import struct
import sys
import time
import urllib.parse

TIMEOUT = 60
# How long coming back may take: a node killed or cut off, its rooms taken
# over by another after their leases lapse, the proxy's checks noticing.
COME_BACK_S = 90


class Retry(Exception):
    """A failure that coming back again may cure (a connection refused or
    cut, a room between two owners); anything else ends the script."""


def fail(why):
    print(f"play.py: {why}", file=sys.stderr)
    sys.exit(1)


class Conn:
    def __init__(self, url, name):
        self.name = name
        u = urllib.parse.urlparse(url)
        try:
            self.sock = socket.create_connection((u.hostname, u.port or 80), timeout=TIMEOUT)
        except OSError as e:
            raise Retry(f"{name}: cannot connect: {e}")
        key = base64.b64encode(os.urandom(16)).decode()
        path = u.path + ("?" + u.query if u.query else "")
        self.sock.sendall(
            (f"GET {path} HTTP/1.1\r\nHost: {u.hostname}:{u.port}\r\nUpgrade: websocket\r\n"
             f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            try:
                chunk = self.sock.recv(1)
            except OSError as e:
                raise Retry(f"{name}: the handshake failed: {e}")
            if not chunk:
                raise Retry(f"{name}: the handshake was cut")
            head += chunk
        status = head.split(b"\r\n", 1)[0]
        if b" 101 " not in status:
            raise Retry(f"{name}: handshake answered {status.decode(errors='replace')}")
        self.buf = b""
        self.next_id = 0
        self.unread = []
        self.welcome = {}

    def _exact(self, n):
        while len(self.buf) < n:
            try:
                chunk = self.sock.recv(65536)
            except OSError as e:
                raise Retry(f"{self.name}: {e}")
            if not chunk:
                raise Retry(f"{self.name}: the connection closed")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def _frame(self, opcode, payload):
        mask = os.urandom(4)
        n = len(payload)
        if n < 126:
            head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
        elif n < 65536:
            head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
        else:
            head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(head + mask + masked)

    def send(self, message):
        self.next_id += 1
        message = dict(message, id=f"{self.name}{self.next_id}")
        self._frame(1, json.dumps(message).encode())
        return message["id"]

    def recv(self):
        if self.unread:
            return self.unread.pop(0)
        data = b""
        while True:
            b0, b1 = self._exact(2)
            n = b1 & 0x7F
            if n == 126:
                (n,) = struct.unpack("!H", self._exact(2))
            elif n == 127:
                (n,) = struct.unpack("!Q", self._exact(8))
            payload = self._exact(n)
            opcode = b0 & 0x0F
            if opcode == 8:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                raise Retry(f"{self.name}: closed by the server ({code}) {payload[2:].decode(errors='replace')}")
            if opcode == 9:
                self._frame(10, payload)
                continue
            if opcode in (0, 1):
                data += payload
                if b0 & 0x80:
                    return json.loads(data)

    def until(self, pred, what):
        while True:
            m = self.recv()
            if m.get("type") == "error":
                raise Retry(f"{self.name}: refused while waiting for {what}: {m}")
            if pred(m):
                return m

    def request(self, message):
        rid = self.send(message)
        return self.until(lambda m: m.get("id") == rid, message["type"])


def pick(legal):
    buys = [a for a in legal if isinstance(a, dict) and "buy" in a]
    return (buys or legal)[0]


def state_at(c, version):
    """The state at `version` (older copies skipped), or the result."""
    m = c.until(lambda m: m.get("type") == "result" or
                (m.get("type") == "state" and m.get("version", -1) >= version), f"version {version}")
    if m.get("type") == "state" and m["version"] != version:
        fail(f"{c.name}: the game is at version {m['version']}, expected {version}")
    return m


def play(conns, version, moves):
    """Plays up to `moves` moves from `version` (None: to the end); the
    version reached, and the result if the game ended."""
    done = 0
    while moves is None or done < moves:
        states = [state_at(c, version) for c in conns]
        results = [s for s in states if s.get("type") == "result"]
        if results:
            return version, results[0]
        actor = next((i for i, s in enumerate(states) if s.get("legal_actions")), None)
        if actor is None:
            # Nobody may act: the game is over and its result follows.
            return version, conns[0].until(lambda m: m.get("type") == "result", "the result")
        conns[actor].send({"type": "act", "action": pick(states[actor]["legal_actions"]),
                           "expect_version": version})
        version += 1
        done += 1
    return version, None


def come_back(url, ta, tb, code, version):
    """Both players back with their tokens in room `code`, which must be at
    `version`: not one acknowledged move lost (a fatal failure), whatever
    node they and the room are on now."""
    a, b = Conn(url, "a"), Conn(url, "b")
    a.welcome = a.request({"type": "hello", "token": ta})
    b.welcome = b.request({"type": "hello", "token": tb})
    node = None
    for c in (a, b):
        room = c.request({"type": "join", "code": code})
        if room.get("code") != code:
            fail(f"{c.name}: back in {room.get('code')}, not {code}")
        node = room.get("node", node)
        state = c.until(lambda m: m.get("type") == "state", "the state")
        if state.get("version") != version:
            fail(f"{c.name}: the game is at version {state.get('version')} after coming back, "
                 f"it was at {version}")
        c.unread.append(state)
    return a, b, node, [a.welcome, b.welcome]


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ("begin", "resume"):
        fail(__doc__)
    verb, url, path = sys.argv[1:4]
    moves = int(sys.argv[4]) if len(sys.argv) > 4 else None
    if verb == "begin":
        a, b = Conn(url, "a"), Conn(url, "b")
        a.welcome = a.request({"type": "hello", "name": "engine-a"})
        b.welcome = b.request({"type": "hello", "name": "engine-b"})
        ta, tb = a.welcome["token"], b.welcome["token"]
        welcomes = [a.welcome, b.welcome]
        room = a.request({"type": "create", "seats": 2})
        code, node = room["code"], room.get("node")
        b.request({"type": "join", "code": code})
        a.request({"type": "start"})
        version, result = play([a, b], 0, moves if moves is not None else 6)
    else:
        saved = json.load(open(path))
        ta, tb, code = saved["tokens"][0], saved["tokens"][1], saved["room"]
        give_up = time.time() + COME_BACK_S
        tries = 0
        while True:
            tries += 1
            try:
                a, b, node, welcomes = come_back(url, ta, tb, code, saved["version"])
                break
            except Retry as e:
                if time.time() > give_up:
                    fail(f"not back in the game within {COME_BACK_S} s ({tries} tries): {e}")
                time.sleep(0.5)
        if tries > 1:
            print(f"back in room {code} after {tries} tries")
        version, result = play([a, b], saved["version"], moves)
    json.dump({"tokens": [ta, tb], "room": code, "version": version, "node": node,
               "players_on": [w.get("node") for w in welcomes], "result": result},
              open(path, "w"))
    if node is not None:
        print(f"room {code} runs on node {node}; the players are on nodes "
              f"{[w.get('node') for w in welcomes]}")
    if result:
        print(f"room {code}: the game ended at version {version}: {json.dumps(result)[:200]}")
    else:
        print(f"room {code}: at version {version}")


if __name__ == "__main__":
    try:
        main()
    except Retry as e:
        fail(str(e))
