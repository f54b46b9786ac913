"""The schema as strict as the server (issue 24): every client message
among docs/PROTOCOL.md's examples, every action of its table, and a set of
broken ones are sent to the real server, which refuses each exactly when
docs/protocol.schema.json (`$defs/ClientFrame`) refuses it.

What "refuses" means for the server: it answers with an error whose code
says the frame itself is wrong (its shape, a field, an action that names
no action), before anything about the session, the room or the game. A
frame it reads is answered otherwise: `not_identified` on a connection
that has not said hello, `pong`, `rooms`, or (for `hello`) `welcome` or an
error about the session (an unknown token, a name taken).

Needs the server binary (as test_kit.py) and `jsonschema`.
"""

import asyncio
import json
import pathlib
import re
import unittest

import websockets

from test_kit import ROOT, SCHEMA, Server

PROTOCOL = ROOT / "docs" / "PROTOCOL.md"

# The codes of a frame refused as written (docs/PROTOCOL.md, Error codes).
SHAPE = {
    "invalid_json", "bad_message", "unknown_type", "missing_field", "invalid_field", "invalid_action",
    "frame_too_large",
}


def client_examples():
    """The frames of docs/PROTOCOL.md's client messages, and each action of
    its table inside an `act`."""
    text = PROTOCOL.read_text()
    client = text[text.index("\n## Client messages"):text.index("\n## Actions")]
    frames = []
    for block in re.findall(r"```json\n(.*?)```", client, re.S):
        for line in block.splitlines():
            line = line.strip()
            if line.startswith("{"):
                frames.append(json.loads(line))
    actions = text[text.index("\n## Actions"):text.index("\n## Server messages")]
    for action in re.findall(r"\| `(\{.*?\}|\"[a-z_]+\")` \|", actions):
        frames.append({"type": "act", "action": json.loads(action)})
    return frames


# Frames the schema and the server both refuse, each for one reason.
BROKEN = [
    "not json",
    "[1, 2]",
    '{"id": 1}',
    '{"type": 7}',
    '{"type": "dance"}',
    '{"type": "hello", "name": "ann", "colour": "red"}',
    # Issue 22: a block or report names a player exactly one way.
    '{"type": "block"}',
    '{"type": "unblock", "seat": 1, "line": 2}',
    '{"type": "report", "seat": 1}',
    '{"type": "report", "reason": "spam"}',
    '{"type": "report", "seat": 1, "player_id": "7c01d9e4aa", "reason": "spam"}',
    '{"type": "report", "line": -1, "reason": "spam"}',
    '{"type": "report", "seat": null, "line": 3, "reason": "spam"}',
    '{"type": "hello", "name": 5}',
    '{"type": "hello", "name": "ann", "lang": "es"}',
    '{"type": "hello", "name": "ann", "lang": " nl"}',
    '{"type": "hello", "name": "ann", "liveness_s": 0}',
    '{"type": "hello", "name": "ann", "liveness_s": 61}',
    '{"type": "hello", "name": "ann", "challenges": true}',
    '{"type": "hello", "name": "ann", "bot": false, "challenges": true}',
    '{"type": "hello", "name": "ann", "id": {"x": 1}}',
    '{"type": "hello", "name": "ann", "owner": "a secret of mine"}',
    '{"type": "hello", "name": "ann", "bot": true, "owner": "short"}',
    '{"type": "hello", "name": "ann", "bot": true, "owner": 12345678}',
    '{"type": "create", "seats": "two"}',
    '{"type": "create", "colour": "red"}',
    '{"type": "join"}',
    '{"type": "join", "code": "ABCDE", "as": "referee"}',
    '{"type": "leave", "now": true}',
    '{"type": "start", "seat_order": "alphabetical"}',
    '{"type": "add_bot", "level": 2.5}',
    '{"type": "act"}',
    '{"type": "act", "action": {"fly": 1}}',
    '{"type": "act", "action": {"take": ["red", "red"]}}',
    '{"type": "act", "action": {"take": ["red", "white", "blue", "green"]}}',
    '{"type": "act", "action": {"take": ["purple"]}}',
    '{"type": "act", "action": {"buy": 90}}',
    '{"type": "act", "action": {"buy": 200}}',
    '{"type": "act", "action": {"buy": {"card": 90, "gold": {}}}}',
    '{"type": "act", "action": {"buy": {"card": 1}}}',
    '{"type": "act", "action": {"reserve": -1}}',
    '{"type": "act", "action": {"reserve": 95}}',
    '{"type": "act", "action": {"reserve_deck": 0}}',
    '{"type": "act", "action": {"reserve_deck": 4}}',
    '{"type": "act", "action": {"noble": 10}}',
    '{"type": "act", "action": "fold"}',
    '{"type": "act", "action": {"take_two": "blue"}, "expect_version": "x"}',
    '{"type": "resign", "why": "tired"}',
    '{"type": "chat", "text": 5}',
    '{"type": "mute", "seat": "one", "muted": true}',
    '{"type": "queue", "players": 2, "pool": "everyone"}',
    '{"type": "unqueue", "now": true}',
    '{"type": "invite"}',
    '{"type": "block"}',
    '{"type": "unblock", "player_id": "7c01d9e4aa", "why": "sorry"}',
    '{"type": "decline", "invitation": "x", "reason": "boring"}',
    '{"type": "decline", "reason": "later"}',
    '{"type": "ping", "payload": 1}',
    '{"type": "ping", "id": "%s"}' % ("x" * 129),
    '{"type": "ping", "id": [1]}',
    '{"type": "ping", "id": "%s"}' % ("é" * 129),
]

# Frames both accept that are near the edges of what the schema allows.
EDGES = [
    # Issue 51: a bot level by its number.
    {"type": "add_bot", "level": 3},
    {"type": "report", "line": 3, "reason": "x" * 500},
    {"type": "unblock", "seat": 0},
    {"type": "hello", "name": "ann", "lang": "NL-be", "liveness_s": 60},
    {"type": "hello", "name": "bot-x", "bot": True, "challenges": True, "liveness_s": 1},
    {"type": "hello", "name": "ann", "challenges": False},
    {"type": "hello", "name": "bot-y", "bot": True, "owner": "8 chars!"},
    {"type": "hello", "name": "bot-z", "bot": True, "owner": "x" * 128},
    {"type": "act", "action": {"buy": 89}},
    {"type": "act", "action": {"reserve": 0}},
    {"type": "act", "action": {"reserve_deck": 3}},
    {"type": "act", "action": {"noble": 9}},
    {"type": "act", "action": {"take": []}},
    {"type": "act", "action": {"take": ["black", "green", "white"]}},
    {"type": "decline", "invitation": "9b1f", "reason": "only_bot"},
    {"type": "ping", "id": "a-string-id"},
    {"type": "ping", "id": "x" * 128},
    {"type": "ping", "id": "é" * 128},
    {"type": "ping", "id": 2.5},
    {"type": "ping", "id": None},
]


class SchemaAgreesWithTheServer(unittest.TestCase):
    def test_every_example_and_every_broken_frame_is_judged_alike(self):
        import jsonschema

        schema = json.loads(SCHEMA.read_text())
        frame_schema = dict(schema, **{"$ref": "#/$defs/ClientFrame"})
        frame_schema.pop("oneOf", None)
        frame_schema.pop("anyOf", None)
        validator = jsonschema.Draft202012Validator(frame_schema)

        examples = client_examples()
        # The documentation shows every client message type.
        types = {f["type"] for f in examples}
        for kind in ("hello", "create", "join", "leave", "start", "add_bot", "remove_bot", "act", "resign",
                     "hint", "sync", "chat", "mute", "rematch", "queue", "unqueue", "invite", "decline", "block", "unblock", "report",
                     "list_rooms", "ping"):
            self.assertIn(kind, types)

        cases = [(json.dumps(f), True) for f in examples + EDGES] + [(text, False) for text in BROKEN]

        def schema_accepts(text):
            try:
                frame = json.loads(text)
            except ValueError:
                return False
            return not list(validator.iter_errors(frame))

        async def server_accepts(url, text):
            # A connection of its own for each frame: hello answers differ
            # after a first one, and none of these says hello first.
            async with websockets.connect(url) as ws:
                await ws.send(text)
                answer = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if answer["type"] != "error":
                return True, answer
            return answer["code"] not in SHAPE, answer

        async def judge(url):
            disagreements = []
            for text, documented_valid in cases:
                by_schema = schema_accepts(text)
                by_server, answer = await server_accepts(url, text)
                if by_schema != by_server:
                    disagreements.append(f"{text}: schema {by_schema}, server {by_server} ({answer})")
                elif by_schema != documented_valid:
                    disagreements.append(f"{text}: both {'accept' if by_schema else 'refuse'} it ({answer})")
            return disagreements

        env = {
            "SPLENDOR_MAX_CONNECTS_PER_IP_PER_MINUTE": "100000",
            "SPLENDOR_MAX_CONNECTIONS_PER_IP": "100000",
        }
        with Server(**env) as server:
            disagreements = asyncio.run(judge(server.url))
        self.assertEqual(disagreements, [], "\n".join(disagreements))
        self.assertGreater(len(cases), 80)


if __name__ == "__main__":
    unittest.main()
