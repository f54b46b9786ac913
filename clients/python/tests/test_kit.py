"""The kit against the real server: a whole game, every frame checked
against the protocol's JSON Schema when it is there.

Needs the server binary: SPLENDOR_SERVER_BIN, or target/debug/splendor-server
from the repository root (`cargo build -p splendor-server`).
"""

import asyncio
import json
import logging
import os
import pathlib
import re
import subprocess
import tempfile
import threading
import unittest

import splendor_kit

ROOT = pathlib.Path(__file__).resolve().parents[3]
SCHEMA = ROOT / "docs" / "protocol.schema.json"


def server_binary() -> str:
    path = os.environ.get("SPLENDOR_SERVER_BIN") or str(ROOT / "target" / "debug" / "splendor-server")
    if not os.path.exists(path):
        raise RuntimeError(f"{path} is missing: run `cargo build -p splendor-server` first")
    return path


class Server:
    """The server binary on a free port; `env` adds settings (e.g. its limits)."""

    def __init__(self, db_dir=None, **env):
        """`db_dir`: keep the database there (a restart finds it again)."""
        self.env = env
        self.db_dir = db_dir

    def __enter__(self):
        self.dir = tempfile.TemporaryDirectory()
        if self.db_dir is not None:
            self.dir.name = self.db_dir
        env = dict(os.environ, SPLENDOR_BOT_DELAY_MS="0", **self.env)
        env["SPLENDOR_DATABASE_URL"] = f"sqlite://{self.dir.name}/kit.db"
        self.proc = subprocess.Popen(
            [server_binary(), "--listen", "127.0.0.1:0"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
        )
        for line in self.proc.stdout:
            m = re.search(r"listening on (\S+)", line) or re.search(r'"message":"listening","addr":"([^"]+)"', line)
            if m:
                self.url = f"ws://{m.group(1)}/ws"
                # Keep reading the server's log: a full pipe would block it.
                self.drain = threading.Thread(target=lambda: [None for _ in self.proc.stdout], daemon=True)
                self.drain.start()
                return self
        raise RuntimeError("the server did not start")

    def __exit__(self, *exc):
        self.proc.kill()
        self.proc.wait()
        self.drain.join(timeout=5)
        self.proc.stdout.close()
        if self.db_dir is None:
            self.dir.cleanup()


def frame_checker():
    """Validates a frame against docs/protocol.schema.json (when it exists)."""
    if not SCHEMA.exists():
        return lambda frame: None
    import jsonschema

    schema = json.loads(SCHEMA.read_text())
    validator = jsonschema.Draft202012Validator(schema)

    def check(frame):
        errors = sorted(validator.iter_errors(frame), key=str)
        if errors:
            raise AssertionError(f"frame does not match the schema: {errors[0].message}\n{json.dumps(frame)[:400]}")

    return check


def buyer(pick, buy_every=1):
    """Buys when possible (games end), else takes tokens, else anything.
    With buy_every=n it buys at one chance in n only and takes tokens
    otherwise: longer games, more messages."""
    chances = [0]

    def choose(state):
        legal = state.legal_actions
        buys = [a for a in legal if isinstance(a, dict) and "buy" in a]
        takes = [a for a in legal if isinstance(a, dict) and ("take" in a or "take_two" in a)]
        if buys:
            chances[0] += 1
            if chances[0] % buy_every:
                buys = []
        return pick(buys or takes or legal)

    return choose


def quick_play_pair(url, buy_every=1, timeout=120):
    """Two kit bots queue for the same rated game and play it to the end,
    at once (no delay of their own): their results and every frame each got."""
    frames = {"first": [], "last": []}

    async def both():
        return await asyncio.wait_for(
            asyncio.gather(
                splendor_kit.play(buyer(lambda p: p[0], buy_every), url=url, name="first", queue=2,
                                  on_frame=frames["first"].append),
                splendor_kit.play(buyer(lambda p: p[-1], buy_every), url=url, name="last", queue=2,
                                  on_frame=frames["last"].append),
            ),
            timeout,
        )

    return asyncio.run(both()), frames


def refusals(frames):
    return [f for f in frames if f["type"] == "error" and f.get("code") == "rate_limited"]


class KitTest(unittest.TestCase):
    def test_a_whole_game_against_the_greedy_bot(self):
        seen = []
        check = frame_checker()

        rooms = []

        lean = []

        def on_frame(frame):
            check(frame)
            seen.append(frame["type"])
            if frame["type"] == "room":
                rooms.append(frame)
            if frame["type"] == "state" and frame.get("lean"):
                lean.append(frame)

        def choose(state):
            self.assertTrue(state.my_turn)
            self.assertEqual(state.me.seat, state.you)
            # Lean states (issue 24) read back whole: every face-up card
            # with its cost, every noble, every player's name.
            for level in state.levels:
                for card in level.cards:
                    self.assertTrue(card is None or (card.level == level.level and card.bonus), card)
            self.assertTrue(all(n.requires for n in state.nobles))
            self.assertTrue(all(p.name for p in state.players), state.players)
            self.assertTrue(state.raw.get("game"))
            return state.legal_actions[-1]

        with Server() as server, tempfile.TemporaryDirectory() as tmp:
            token_file = os.path.join(tmp, "token")
            result = splendor_kit.run(
                choose, url=server.url, name="pykit", token_file=token_file,
                create={"seats": 2, "bots": ["greedy"], "listed": True,
                        "turn_based": {"per_move_s": 86400}}, on_frame=on_frame,
            )
            # Every create option goes to the server (issue 24): listed.
            self.assertTrue(rooms and all(r.get("listed") for r in rooms), rooms[:1])
            self.assertTrue(all(r.get("turn_based", {}).get("per_move_s") == 86400 for r in rooms), rooms[:1])
            self.assertEqual(len(result.ranking), 2)
            self.assertIn("pykit", [r["name"] for r in result.ranking])
            self.assertTrue(result.game)
            # The token is kept: the bot's identity.
            with open(token_file) as f:
                self.assertEqual(len(f.read().strip()), 64)
        for kind in ("welcome", "room", "state", "events", "result"):
            self.assertIn(kind, seen)
        # The kit asks for lean states, what bots are meant to use.
        self.assertTrue(lean, "no lean state came")

    def test_an_illegal_move_is_refused_by_the_server_and_reported_to_the_bot(self):
        # Issue 24, defect 3: choose() passes when it may not (R11.1), at
        # its first three turns; the kit sends it, the server refuses it
        # with its rule, the bot is told and the refusals are counted; the
        # kit plays a legal move instead, and the game goes on to its end.
        refusals = []
        turns = []

        def choose(state):
            turns.append(state.version)
            return "pass" if len(turns) <= 3 else state.legal_actions[-1]

        quiet = logging.getLogger("splendor_kit")
        level = quiet.level
        quiet.setLevel(logging.ERROR)  # the refusals' warnings are expected
        self.addCleanup(quiet.setLevel, level)
        with Server() as server:
            result = splendor_kit.run(
                choose, url=server.url, name="stubborn",
                create={"seats": 2, "bots": ["greedy"]}, on_refused=refusals.append,
            )
        self.assertEqual(result.refused, 3)
        self.assertEqual(result.refused, len(refusals))
        self.assertEqual(refusals[0]["code"], "pass_not_allowed")
        self.assertEqual(refusals[0]["rule"], "R11.1")
        self.assertEqual(len(result.ranking), 2)

    def test_a_result_says_how_the_game_ended_even_from_a_server_of_before(self):
        from splendor_kit.models import Result

        base = {"type": "result", "game": "g", "winners": [0], "ranking": []}
        self.assertEqual(Result.parse({**base, "end": "no_progress", "deadlock": False}).end, "no_progress")
        # A server of before 2026-11-29 sent no `end`: `deadlock` says.
        self.assertEqual(Result.parse({**base, "deadlock": True}).end, "deadlock")
        self.assertEqual(Result.parse({**base, "deadlock": False}).end, "points")

    def test_a_bot_resigns_and_gets_the_result(self):
        # R13: choose() returns RESIGN at its second turn; against one bot
        # the game ends at once (only bots would be left, R13.2).
        check = frame_checker()
        turns = []

        def choose(state):
            turns.append(state.version)
            return splendor_kit.RESIGN if len(turns) == 2 else state.legal_actions[0]

        with Server() as server:
            result = splendor_kit.run(
                choose, url=server.url, name="quitter",
                create={"seats": 2, "bots": ["greedy"]}, on_frame=check,
            )
        me = [r for r in result.ranking if r["name"] == "quitter"][0]
        self.assertEqual(result.resigned, [me["seat"]])
        self.assertEqual(result.ranking[-1]["name"], "quitter")
        self.assertNotIn(me["seat"], result.winners)
        self.assertEqual(len(turns), 2)
        # How it ended is one field (R13.2: only bots were left).
        self.assertEqual(result.end, "resigned")

    def test_quick_play_two_kit_bots_play_a_rated_game(self):
        check = frame_checker()
        ids = {}

        def frames(name):
            def on_frame(frame):
                check(frame)
                if frame["type"] == "welcome":
                    self.assertTrue(frame.get("bot"))
                    ids[name] = frame["player_id"]
            return on_frame

        async def both(url):
            return await asyncio.wait_for(asyncio.gather(
                splendor_kit.play(buyer(lambda p: p[0]), url=url, name="first", queue=2, on_frame=frames("first")),
                splendor_kit.play(buyer(lambda p: p[-1]), url=url, name="last", queue=2, on_frame=frames("last")),
            ), 120)

        with Server() as server:
            a, b = asyncio.run(both(server.url))
            self.assertEqual(a.ranking, b.ranking, "both played the same game")
            http = server.url.replace("ws://", "http://").removesuffix("/ws")
            import urllib.request

            places = {r["name"]: r["rank"] for r in a.ranking}
            for name, other in (("first", "last"), ("last", "first")):
                with urllib.request.urlopen(f"{http}/api/players/{ids[name]}") as response:
                    player = json.load(response)
                self.assertEqual(player["games"], 1)
                self.assertTrue(player["bot"])
                if places[name] < places[other]:
                    self.assertGreater(player["rating"], 1500)
                elif places[name] > places[other]:
                    self.assertLess(player["rating"], 1500)
            with urllib.request.urlopen(f"{http}/api/leaderboard?kind=bots") as response:
                self.assertEqual(json.load(response)["total"], 2)

    def test_two_kit_bots_without_delay_finish_a_game_at_the_default_rate_limit(self):
        """Two kit bots answering at once, in games long enough (they buy at
        one chance in three) that each sends more than the default burst of
        40 faster than 20 a second: a refused move is sent again after the
        wait, never lost (a kit that only logged the refusal froze here)."""
        with Server() as server:
            (a, b), frames = quick_play_pair(server.url, buy_every=3, timeout=60)
        self.assertEqual(a.ranking, b.ranking, "both played the same game to the end")
        self.assertEqual(len(a.ranking), 2)
        check = frame_checker()
        for name, got in frames.items():
            self.assertEqual(got[-1]["type"], "result", name)
            for frame in got:
                check(frame)

    def test_a_refused_kit_waits_sends_again_and_finishes_the_game(self):
        """At 5 messages a second in bursts of 5, two kit bots answering at
        once are refused (rate_limited) and still play the game to the end:
        each refusal names a message the kit sent and the wait, the kit
        sends it again after the wait and spaces its messages out, so it is
        refused a few times only and never closed (4003)."""
        with Server(SPLENDOR_MAX_MESSAGES_PER_SECOND="5", SPLENDOR_MESSAGE_BURST="5") as server, \
                self.assertLogs("splendor_kit", level="WARNING") as logs:
            (a, b), frames = quick_play_pair(server.url, timeout=120)
        # Issue 51: each slowdown is a WARNING its author sees.
        self.assertTrue(any("rate_limited" in line for line in logs.output), logs.output)
        self.assertEqual(a.ranking, b.ranking, "both played the same game to the end")
        check = frame_checker()
        for got in frames.values():
            for frame in got:
                check(frame)
        refused = {name: refusals(got) for name, got in frames.items()}
        self.assertGreaterEqual(sum(map(len, refused.values())), 1, "the low limit refused the kit at least once")
        for name, errors in refused.items():
            self.assertEqual(frames[name][-1]["type"], "result", name)
            for error in errors:
                self.assertIsInstance(error.get("id"), int, error)
                self.assertGreater(error.get("retry_after_ms"), 0, error)
            # Spacing its messages out after a refusal, the kit is not
            # refused at every move (a game has over 25 moves a player).
            self.assertLessEqual(len(errors), 10, f"{name} kept going over the rate: {errors}")

    def test_one_process_plays_several_games_at_once_as_several_bots(self):
        """Issue 51, as docs/BOTS.md shows it: several games at once from
        one process are several bots (each its name and token file), one
        owner, one connection each, gathered by asyncio."""
        def buy_first(state):
            legal = state.legal_actions
            buys = [a for a in legal if isinstance(a, dict) and "buy" in a]
            return (buys or legal)[0]

        async def all_at_once(url, tmp):
            return await asyncio.gather(*(splendor_kit.play(
                buy_first, url=url, name=f"many-{i}", token_file=os.path.join(tmp, f"many-{i}.token"),
                owner="one author's secret", create={"seats": 2, "bots": ["greedy"]},
            ) for i in range(3)))

        with Server() as server, tempfile.TemporaryDirectory() as tmp:
            results = asyncio.run(asyncio.wait_for(all_at_once(server.url, tmp), 120))
        self.assertEqual(len({r.game for r in results}), 3, "three games")
        for i, r in enumerate(results):
            self.assertIn(f"many-{i}", [p["name"] for p in r.ranking])

    def test_an_invalid_token_file_says_hello_anew_as_a_bot(self):
        """A token the server does not know is refused; the kit says hello
        with its name instead, still as a bot, and keeps the new token."""
        welcomes = []
        with Server() as server, tempfile.TemporaryDirectory() as tmp:
            token_file = os.path.join(tmp, "token")
            with open(token_file, "w") as f:
                f.write("ab" * 32)

            def on_frame(frame):
                if frame["type"] == "welcome":
                    welcomes.append(frame)

            result = asyncio.run(asyncio.wait_for(splendor_kit.play(
                lambda s: s.legal_actions[-1], url=server.url, name="renewed", token_file=token_file,
                create={"seats": 2, "bots": ["greedy"]}, on_frame=on_frame,
            ), 60))
            self.assertIn("renewed", [r["name"] for r in result.ranking])
            with open(token_file) as f:
                self.assertEqual(f.read().strip(), welcomes[0]["token"])
        self.assertEqual(len(welcomes), 1)
        self.assertIs(welcomes[0].get("bot"), True, welcomes[0])

    def test_the_schema_refuses_what_the_server_never_sends(self):
        check = frame_checker()
        if not SCHEMA.exists():
            self.skipTest("docs/protocol.schema.json is not there")
        check({"type": "pong", "id": 3})
        for bad in (
            {"type": "pong", "id": [1]},
            {"type": "dance"},
            {"type": "error", "message": "no code"},
            {"type": "room_closed", "room": "ABCDE", "reason": 7},
        ):
            with self.assertRaises(AssertionError, msg=json.dumps(bad)):
                check(bad)

    def test_lean_states_of_a_bot_game_match_the_schema(self):
        """A spectator without `verbose` gets lean states (cards by id)."""
        if not SCHEMA.exists():
            self.skipTest("docs/protocol.schema.json is not there")
        check = frame_checker()
        import websockets

        async def watch(url):
            kinds = []
            async with websockets.connect(url) as ws:
                async def send(m):
                    await ws.send(json.dumps(m))

                await send({"type": "hello", "name": "watcher"})
                await send({"type": "create", "seats": 2, "as": "spectator"})
                await send({"type": "add_bot", "level": "random"})
                await send({"type": "add_bot", "level": "greedy"})
                await send({"type": "start"})
                async for text in ws:
                    frame = json.loads(text)
                    check(frame)
                    kinds.append((frame["type"], frame.get("lean", False)))
                    if frame["type"] == "result":
                        return kinds

        with Server() as server:
            kinds = asyncio.run(asyncio.wait_for(watch(server.url), 120))
        self.assertIn(("state", True), kinds, "lean states were checked")
        self.assertIn(("result", False), kinds)

    def test_the_same_token_file_plays_a_new_game_each_time(self):
        """A session still in its finished game plays the next one, not the old result again."""
        with Server() as server, tempfile.TemporaryDirectory() as tmp:
            token_file = os.path.join(tmp, "token")
            settings = dict(url=server.url, name="again", token_file=token_file,
                            create={"seats": 2, "bots": ["greedy"]})
            first = splendor_kit.run(lambda s: s.legal_actions[-1], **settings)
            second = splendor_kit.run(lambda s: s.legal_actions[-1], **settings)
            self.assertNotEqual(first.game, second.game)

    def test_my_games_lists_the_turn_based_games_a_bot_sits_in(self):
        """Issue 25: a bot keeps several turn-based games going; my_games says which wait for it."""
        import websockets

        async def two_games(url):
            async with websockets.connect(url) as ws:
                async def request(m, kind):
                    await ws.send(json.dumps(m))
                    while True:
                        frame = json.loads(await ws.recv())
                        if frame["type"] == "error":
                            raise AssertionError(frame)
                        if frame["type"] == kind:
                            return frame

                token = (await request({"type": "hello", "name": "many"}, "welcome"))["token"]
                codes = []
                for _ in range(2):
                    room = await request({"type": "create", "seats": 2,
                                          "turn_based": {"per_move_s": 86400}}, "room")
                    codes.append(room["code"])
                    await request({"type": "add_bot", "level": "greedy"}, "room")
                    await request({"type": "start", "seat_order": "joined"}, "state")
                    await request({"type": "leave"}, "left")
                return token, codes

        with Server() as server:
            token, codes = asyncio.run(asyncio.wait_for(two_games(server.url), 60))
            games = splendor_kit.my_games(token, url=server.url)
            self.assertEqual(sorted(g["room"] for g in games), sorted(codes))
            self.assertTrue(all(g["your_turn"] and g["deadline"] for g in games), games)
            with self.assertRaises(splendor_kit.KitError) as caught:
                splendor_kit.my_games("not-a-token", url=server.url)
            self.assertIn("401", str(caught.exception))

    def test_a_kit_bot_invites_another_which_finds_the_invitation_and_plays(self):
        """Issue 25: create={"invite": [player_id]} invites; invitations() lists it; joining accepts."""
        import websockets

        async def new_session(url, name):
            async with websockets.connect(url) as ws:
                await ws.send(json.dumps({"type": "hello", "name": name, "bot": True}))
                welcome = json.loads(await ws.recv())
                return welcome["token"], welcome["player_id"]

        async def game(url):
            token, player_id = await new_session(url, "guest")
            invited = asyncio.Event()
            host_frames = []

            def on_host_frame(frame):
                host_frames.append(frame)
                if frame["type"] == "invited":
                    invited.set()

            # Buyers, so that the game ends (two bots that only take
            # tokens could go on for ever).
            host = asyncio.create_task(splendor_kit.play(
                buyer(lambda p: p[-1]), url=url, name="host",
                create={"seats": 2, "turn_based": {"per_move_s": 86400}, "invite": [player_id]},
                on_frame=on_host_frame))
            await asyncio.wait_for(invited.wait(), 30)
            found = await asyncio.to_thread(splendor_kit.invitations, token, url)
            self.assertEqual(len(found), 1, found)
            self.assertEqual(found[0]["from"]["name"], "host")
            guest = await splendor_kit.play(buyer(lambda p: p[0]), url=url, room=found[0]["room"],
                                            session={"token": token})
            first = await host
            self.assertEqual(first.game, guest.game)
            # Joined: the invitation is gone; a declined unknown one is a 404.
            self.assertEqual(await asyncio.to_thread(splendor_kit.invitations, token, url), [])
            with self.assertRaises(splendor_kit.KitError) as caught:
                await asyncio.to_thread(splendor_kit.decline_invitation, token, found[0]["id"], url)
            self.assertIn("404", str(caught.exception))
            # An unknown player id: the host's kit says so rather than wait.
            with self.assertRaises(splendor_kit.KitError) as caught:
                await splendor_kit.play(lambda s: s.legal_actions[0], url=url, name="lonely",
                                        create={"seats": 2, "invite": ["0000000000"]})
            self.assertIn("player_not_found", str(caught.exception))

        with Server() as server:
            asyncio.run(asyncio.wait_for(game(server.url), 120))

    def test_a_kit_bot_takes_challenges_declines_with_a_reason_and_plays_the_one_it_accepts(self):
        """Issue 24: on_challenge lists the bot online and decides; a decline
        reaches the challenging kit as a KitError with the reason."""
        check = frame_checker()
        seen = []

        def decide(challenge):
            seen.append(challenge)
            clock = challenge["terms"].get("clock")
            return "too_fast" if clock and clock["initial_s"] < 120 else True

        async def game(url):
            waiting = asyncio.create_task(splendor_kit.play(
                buyer(lambda p: p[0]), url=url, name="waiter", on_challenge=decide, on_frame=check))
            online = []
            for _ in range(300):
                online = await asyncio.to_thread(splendor_kit.bots_online, url)
                if online:
                    break
                await asyncio.sleep(0.05)
            self.assertEqual([b["name"] for b in online], ["waiter"])
            target = online[0]["player_id"]
            with self.assertRaises(splendor_kit.KitError) as caught:
                await splendor_kit.play(
                    lambda s: s.legal_actions[0], url=url, name="hasty",
                    create={"seats": 2, "clock": {"initial_s": 30, "increment_s": 0}, "invite": [target]},
                    on_frame=check)
            self.assertIn("waiter", str(caught.exception))
            self.assertIn("too_fast", str(caught.exception))
            # A slower challenge is accepted and played to its end by both.
            challenger = await splendor_kit.play(
                buyer(lambda p: p[-1]), url=url, name="patient",
                create={"seats": 2, "clock": {"initial_s": 600, "increment_s": 5}, "invite": [target]},
                on_frame=check)
            accepted = await waiting
            self.assertEqual(challenger.game, accepted.game)
            self.assertEqual([c["from"]["name"] for c in seen], ["hasty", "patient"])

        with Server() as server:
            asyncio.run(asyncio.wait_for(game(server.url), 120))

    def test_a_challenge_taker_stays_when_its_challenger_is_only_away(self):
        """Issue 24 (second review): a challenger who reloads or closes the
        page keeps their seat, and the bot keeps its own; one who gives the
        seat up leaves the bot alone, and it leaves too (the room closes)."""
        import websockets

        async def game(url):
            waiting = asyncio.create_task(splendor_kit.play(
                lambda s: s.legal_actions[0], url=url, name="stayer", on_challenge=lambda c: True))
            bot = None
            for _ in range(300):
                online = await asyncio.to_thread(splendor_kit.bots_online, url)
                if online:
                    bot = online[0]["player_id"]
                    break
                await asyncio.sleep(0.05)
            self.assertIsNotNone(bot)

            async def frames(ws, until):
                while True:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), 30))
                    if until(frame):
                        return frame

            def both_seated(f):
                return f.get("type") == "room" and all(f["seats"])

            async with websockets.connect(url) as ws:
                await ws.send(json.dumps({"type": "hello", "name": "ann"}))
                token = (await frames(ws, lambda f: f.get("type") == "welcome"))["token"]
                await ws.send(json.dumps({"type": "create", "seats": 2, "turn_based": {"per_move_s": 86400}}))
                code = (await frames(ws, lambda f: f.get("type") == "room"))["code"]
                await ws.send(json.dumps({"type": "invite", "player_id": bot}))
                await frames(ws, both_seated)
            # Ann's page went away and came back: the bot is still there.
            async with websockets.connect(url) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                room = await frames(ws, lambda f: f.get("type") == "room")
                self.assertEqual(room["code"], code)
                self.assertTrue(all(room["seats"]), room)
                self.assertEqual(room["seats"][1]["name"], "stayer", room)
                # She gives her seat up: the bot, alone, leaves; the room closes.
                await ws.send(json.dumps({"type": "leave", "give_up": True}))
                await frames(ws, lambda f: f.get("type") == "left")
                await ws.send(json.dumps({"type": "join", "code": code, "as": "spectator", "id": "again"}))
                answer = await frames(ws, lambda f: f.get("id") == "again")
                for _ in range(100):
                    if answer.get("code") == "room_not_found":
                        break
                    await ws.send(json.dumps({"type": "leave", "id": "out"}))
                    await frames(ws, lambda f: f.get("id") == "out")
                    await asyncio.sleep(0.05)
                    await ws.send(json.dumps({"type": "join", "code": code, "as": "spectator", "id": "again"}))
                    answer = await frames(ws, lambda f: f.get("id") == "again")
                self.assertEqual(answer.get("code"), "room_not_found", answer)
            waiting.cancel()

        with Server() as server:
            asyncio.run(asyncio.wait_for(game(server.url), 120))

    def test_a_programs_name_is_its_own_on_a_server(self):
        """Issue 24: a name given that another program holds is a KitError;
        a name the kit made up is made again."""
        async def game(url):
            first = await splendor_kit.play(buyer(lambda p: p[0]), url=url, name="unique-one")
            self.assertTrue(first.game)
            with self.assertRaises(splendor_kit.KitError) as caught:
                await splendor_kit.play(lambda s: s.legal_actions[0], url=url, name="Unique-One")
            self.assertIn("name_taken", str(caught.exception))
            # Two bots with no name given: each gets one of its own.
            a = await splendor_kit.play(buyer(lambda p: p[0]), url=url)
            b = await splendor_kit.play(buyer(lambda p: p[0]), url=url)
            names = {r["name"] for r in a.ranking} | {r["name"] for r in b.ranking}
            made_up = [n for n in names if n.startswith("pybot-")]
            self.assertEqual(len(made_up), 2, names)

        with Server() as server:
            asyncio.run(asyncio.wait_for(game(server.url), 120))

    def test_ladder_bots_of_one_owner_never_meet_and_wait_their_turn(self):
        """Issue 24: ladder=2 plays rated games in quick play; two bots of
        one owner never share a table, and the second waits (too_many_games,
        then asks again) while the first plays, the server's cap being 1."""
        frames = {}

        def watcher(name):
            frames[name] = []
            return frames[name].append

        async def ladder(url, name, owner, games):
            return await asyncio.to_thread(
                splendor_kit.run, buyer(lambda p: p[0]), url=url, name=name, ladder=2, games=games,
                owner=owner, on_frame=watcher(name))

        async def game(url):
            # Alice's two can only play Bob, who plays two games in a row.
            results = await asyncio.gather(
                ladder(url, "alice-1", "alice's secret", 1),
                ladder(url, "alice-2", "alice's secret", 1),
                ladder(url, "bob", "bob's secret", 2),
            )
            for result in results[:2]:
                names = {r["name"] for r in result.ranking}
                self.assertEqual(len(names & {"alice-1", "alice-2"}), 1, names)
                self.assertIn("bob", names)
            # Alice's two played one after the other: whichever queued
            # second was told too_many_games (her first was waiting or
            # playing) and queued again by itself.
            self.assertNotEqual(results[0].game, results[1].game)
            self.assertIn(results[2].game, {results[0].game, results[1].game})
            waits = [f for name in ("alice-1", "alice-2") for f in frames[name]
                     if f.get("type") == "error" and f.get("code") == "too_many_games"]
            self.assertTrue(all(f["retry_after_ms"] == 200 for f in waits), waits)

        with Server(SPLENDOR_LADDER_GAMES_PER_OWNER="1", SPLENDOR_LADDER_RETRY_MS="200") as server:
            asyncio.run(asyncio.wait_for(game(server.url), 120))

    def test_a_bot_whose_old_name_is_taken_keeps_its_identity_under_a_new_name(self):
        """Issue 24 (review): bots of the old kits all shared the default
        name; when names became unique, the second to come back was told
        name_taken and the kit started a new session, losing its rating.
        It now renames the session it resumes."""
        import websockets

        async def session(url, hello):
            async with websockets.connect(url) as ws:
                await ws.send(json.dumps(hello))
                return json.loads(await ws.recv())

        with tempfile.TemporaryDirectory() as db:
            with Server(db_dir=db, SPLENDOR_SHARED_PROGRAM_NAMES="true") as server:
                first = asyncio.run(session(server.url, {"type": "hello", "name": "pybot", "bot": True}))
                second = asyncio.run(session(server.url, {"type": "hello", "name": "pybot", "bot": True}))
                self.assertEqual(second["type"], "welcome", second)
            with Server(db_dir=db) as server:
                back = asyncio.run(session(server.url, {"type": "hello", "token": first["token"], "bot": True}))
                self.assertEqual((back["type"], back["name"]), ("welcome", "pybot"), back)
                welcomes = []
                result = splendor_kit.run(
                    buyer(lambda p: p[0]), url=server.url, session={"token": second["token"]},
                    on_frame=lambda f: welcomes.append(f) if f.get("type") == "welcome" else None)
                self.assertTrue(result.game)
                self.assertEqual(welcomes[-1]["player_id"], second["player_id"], welcomes)
                self.assertTrue(welcomes[-1]["name"].startswith("pybot-"), welcomes)

    def test_a_room_that_does_not_exist_is_an_error(self):
        with Server() as server:
            with self.assertRaises(splendor_kit.KitError) as caught:
                splendor_kit.run(lambda s: s.legal_actions[0], url=server.url, room="QQQQQ")
            self.assertIn("room_not_found", str(caught.exception))

    def test_the_template_bot_plays_a_game(self):
        example = ROOT / "clients" / "python" / "examples" / "template_bot.py"
        with Server() as server:
            # No token file beside the example in the source tree.
            out = subprocess.run(
                ["python3", str(example)],
                env=dict(os.environ, SPLENDOR_URL=server.url, SPLENDOR_TOKEN_FILE="none"),
                capture_output=True, text=True, timeout=120,
            )
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertIn("winners:", out.stdout)
            self.assertFalse(example.with_suffix(".token").exists())

    def test_a_bot_script_keeps_its_identity_beside_itself_with_no_setting(self):
        """Issue 24: `python3 my_bot.py` keeps `my_bot.token` and says so once."""
        example = ROOT / "clients" / "python" / "examples" / "template_bot.py"
        with Server() as server, tempfile.TemporaryDirectory() as tmp:
            bot = pathlib.Path(tmp) / "my_bot.py"
            bot.write_text(example.read_text())
            env = {k: v for k, v in os.environ.items() if k != "SPLENDOR_TOKEN_FILE"}
            env["SPLENDOR_URL"] = server.url
            runs = []
            for _ in range(2):
                out = subprocess.run(["python3", str(bot)], env=env, capture_output=True,
                                     text=True, timeout=120)
                self.assertEqual(out.returncode, 0, out.stderr)
                token = (pathlib.Path(tmp) / "my_bot.token").read_text().strip()
                runs.append((token, out.stderr))
            self.assertEqual(len(runs[0][0]), 64)
            # The second run played as the same session: the same token.
            self.assertEqual(runs[0][0], runs[1][0])
            self.assertIn("keeping this bot's identity", runs[0][1])
            self.assertNotIn("keeping this bot's identity", runs[1][1])


if __name__ == "__main__":
    unittest.main()
