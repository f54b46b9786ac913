"""Starter kit for Splendor server bots (docs/BOTS.md).

Write one function, ``choose(state) -> action``, returning one entry of
``state.legal_actions``; the kit does the rest: it connects, says hello (or
resumes the session whose token it kept), joins or creates the room, sends
your action with ``expect_version``, reconnects and resumes after a server
restart (close code 1012) or a dropped connection, and returns the result.

    import splendor_kit

    def choose(state):
        return state.legal_actions[0]

    splendor_kit.run(choose)

Settings come from arguments or the environment (the arena sets the first
three): ``SPLENDOR_URL`` (default ws://127.0.0.1:8080/ws), ``SPLENDOR_ROOM``
(the room to join as a player), ``SPLENDOR_BOT_NAME`` and
``SPLENDOR_TOKEN_FILE`` (where the session token is kept: it is the bot's
identity, keep it to keep your seat and your rating), ``SPLENDOR_QUEUE``
(2, 3 or 4: quick play, a rated game with whoever is waiting) and
``SPLENDOR_GAMES`` (games in a row, default 1). A room to join wins over the
queue, the queue over creating a room with a bot. The kit says
``"bot": true`` in hello: it is ranked with the bots.

The kit sends what ``choose`` returns, as it is: a move that is not legal
is the server's to refuse, with the rule it breaks (``pass_not_allowed``,
R11.1, ...). The kit then tells the bot (``on_refused(error)`` if given,
and a warning in the log), counts it (``Result.refused``; the arena's
table shows it too) and plays the first legal action on the state sent
again, so that the game goes on.

To resign (RULES.md R13), ``choose`` returns ``splendor_kit.RESIGN``: the
kit sends ``{"type": "resign"}``. The game ends at once when only one
person (or only bots) would be left, else the server's stand-in plays the
seat to the end; either way the kit returns the result, where the bot
ranks below everyone who did not resign.

Challenges (issue 24): ``run(choose, on_challenge=decide)`` (or
``SPLENDOR_CHALLENGES=accept``) says ``"challenges": true`` in hello, so
the bot is listed by ``GET /api/bots/online`` (:func:`bots_online`), and
waits for a challenge instead of making a room: ``decide(challenge)``
returns True to accept (the kit joins the room and plays it), or a
reason to decline (``"later"``, ``"too_fast"``, ``"rated"``, ... or False
for ``"generic"``); while it plays, other challenges are declined
``"later"``. To challenge a bot: ``create={"seats": 2, "invite":
[its_player_id], "rated": True}``; a declined challenge is a
:class:`KitError` saying why.

The ladder (issue 24): ``run(choose, ladder=2)`` (or ``SPLENDOR_LADDER=2``)
plays rated games of 2 (3, 4) with the other bots in quick play, one after
the other, for ever (or ``games`` of them), waiting when the server says
the owner's or the address's bots already play as many as it allows
(``too_many_games``). ``owner=`` (``SPLENDOR_OWNER``) names the author: a
secret of 8 to 128 characters given to all one's bots, so that they never
play each other and are capped together.

Names: a program's name is unique among programs on a server. Without
``SPLENDOR_BOT_NAME`` the kit names a new bot after its script with a few
random letters (``my_bot-k3f9``), kept with the token; a name given that
another program holds is a :class:`KitError` saying so.

Every message the kit sends has an ``id``. When the server refuses one for
going over its message rate (``rate_limited``), the kit waits the error's
``retry_after_ms`` (1 s if absent), then sends that message again (a move
only if it still answers the latest state), and from then on spaces its
messages out so as not to be refused again.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
from typing import Any, Callable, Dict, List, Optional

import websockets

from .api import DEFAULT_URL, KitError, bots_online, catalogue, decline_invitation, invitations, my_games
from .identity import default_name, default_token_file
from .models import COLORS, TOKENS, Action, Card, Noble, Player, Result, State, expand_lean
from .pacing import Pacer

__all__ = [
    "run", "play", "my_games", "invitations", "decline_invitation", "bots_online", "catalogue", "State", "Result",
    "Card", "Noble",
    "Player", "Action", "COLORS", "TOKENS", "KitError", "RESIGN", "DECLINE_REASONS",
]

log = logging.getLogger("splendor_kit")

# What choose() returns to resign the game (R13): never a legal action.
RESIGN = "resign"
# A server restarting closes with 1012: come back after a short random pause.
SERVICE_RESTART = 1012
# Why a challenge may be declined (docs/PROTOCOL.md, `decline`).
DECLINE_REASONS = (
    "generic", "later", "too_fast", "too_slow", "time_control", "rated", "casual", "no_bot", "only_bot",
)


def run(
    choose: Callable[[State], Action],
    games: Optional[int] = None,
    ladder: Optional[int] = None,
    **settings: Any,
) -> Result:
    """Plays ``games`` games in a row (``SPLENDOR_GAMES``, default 1; with
    a queue, each is a new rated game) with ``choose``, and returns the last
    result; see :func:`play`. ``ladder`` (2, 3 or 4; ``SPLENDOR_LADDER``):
    the bots' ladder, rated games of that size in quick play one after the
    other, for ever unless ``games`` says how many."""
    ladder = ladder or int(os.environ.get("SPLENDOR_LADDER") or 0) or None
    if ladder is not None:
        settings["queue"] = ladder
    games = games or int(os.environ.get("SPLENDOR_GAMES") or 0) or (None if ladder else 1)
    session = settings.pop("session", None) or {}

    async def series() -> Result:
        result = None
        played = 0
        while games is None or played < games:
            result = await play(choose, session=session, **settings)
            played += 1
            # How it ended when not on points (R11.6's no_progress, R12.6's
            # deserted, R13.2's resigned, R11.2's deadlock; issue 51).
            how = f" (ended: {result.end})" if result.end != "points" else ""
            log.info("game %d%s over%s", played, f" of {games}" if games else "", how)
        return result

    return asyncio.run(series())


async def play(
    choose: Callable[[State], Action],
    *,
    url: Optional[str] = None,
    room: Optional[str] = None,
    name: Optional[str] = None,
    token_file: Optional[str] = None,
    create: Optional[Dict[str, Any]] = None,
    queue: Optional[int] = None,
    on_frame: Optional[Callable[[Dict[str, Any]], None]] = None,
    on_refused: Optional[Callable[[Dict[str, Any]], None]] = None,
    on_challenge: Optional[Callable[[Dict[str, Any]], Any]] = None,
    owner: Optional[str] = None,
    max_reconnects: int = 8,
    session: Optional[Dict[str, Any]] = None,
) -> Result:
    """Plays one game and returns its result.

    ``room``: the code to join as a player. Without one, ``create`` makes a
    room: ``{"seats": 2, "bots": ["greedy"], "clock": {...}}`` (the bots are
    seated with ``add_bot``; the game starts when the seats are full);
    ``"invite": ["3fa9c01d2e", ...]`` invites those players by their
    ``player_id`` once the room is made (they find the invitation in their
    My games: :func:`invitations`), and the game starts when they came.
    ``queue`` (2, 3 or 4): quick play instead, a rated game with whoever is
    waiting; the server seats the bot when enough are there.
    ``on_frame`` sees every frame the server sends (tests validate them).
    ``on_refused`` sees the server's ``error`` for each move of ``choose``
    it refused (an illegal move: ``code``, ``rule``, ``message``).
    ``on_challenge``: take challenges (issue 24; see the module's notes):
    without a room, queue or ``create``, wait for one and play it.
    ``owner``: the author's secret (``SPLENDOR_OWNER``), so that one's
    bots never play each other in quick play.
    ``session``: a dict shared between games, keeping the token in memory.
    """
    url = url or os.environ.get("SPLENDOR_URL") or DEFAULT_URL
    room = room or os.environ.get("SPLENDOR_ROOM") or None
    given_name = name or os.environ.get("SPLENDOR_BOT_NAME") or None
    name = given_name or default_name()
    if on_challenge is None and (os.environ.get("SPLENDOR_CHALLENGES") or "").lower() == "accept":
        on_challenge = _accept_all
    token_file = token_file or os.environ.get("SPLENDOR_TOKEN_FILE") or default_token_file()
    if token_file == "none":
        token_file = None
    if room is None:
        queue = queue or int(os.environ.get("SPLENDOR_QUEUE") or 0) or None
    else:
        queue = None
    if queue is not None and queue not in (2, 3, 4):
        raise KitError(f"quick play has games of 2, 3 or 4 players, not {queue}")
    if room is None and queue is None and create is None and on_challenge is None:
        create = {"seats": 2, "bots": ["greedy"]}
    game = _Game(choose, room, name, token_file, create, on_frame)
    game.on_refused = on_refused
    game.on_challenge = on_challenge
    game.name_given = given_name is not None
    game.owner = owner or os.environ.get("SPLENDOR_OWNER") or None
    game.queue = queue
    game.shared = session if session is not None else {}
    game.token = game.shared.get("token") or game.token
    attempts = 0
    while True:
        try:
            if not game.catalogue["cards"]:
                game.catalogue = await asyncio.to_thread(catalogue, url)
            async with websockets.connect(url, max_size=2**22) as ws:
                result = await game.session(ws)
                if result is not None:
                    return result
        except websockets.ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd else None
            if code not in (SERVICE_RESTART, 1006, None):
                raise KitError(f"the server closed the connection ({code}: {closed.rcvd.reason if closed.rcvd else ''})")
            log.info("connection closed (%s); resuming", code)
        except OSError as e:
            log.info("cannot connect (%s); retrying", e)
        attempts += 1
        if attempts > max_reconnects:
            raise KitError("gave up reconnecting")
        await asyncio.sleep(min(60.0, (1 + 4 * random.random()) * 2 ** min(attempts - 1, 5)))


def _accept_all(challenge: Dict[str, Any]) -> bool:
    return True


def _alone(room: Dict[str, Any]) -> bool:
    """Whether we are the only one seated."""
    seat = room["you"].get("seat")
    return not any(s for i, s in enumerate(room["seats"]) if s and i != seat)


def _hosting(room: Dict[str, Any]) -> bool:
    seat = room["you"].get("seat")
    return seat is not None and bool((room["seats"][seat] or {}).get("host"))


class _Game(Pacer):
    def __init__(self, choose, room, name, token_file, create, on_frame):
        super().__init__()
        self.choose = choose
        # The room this game is in: given (join), or learnt from the answer
        # to our `create`. Frames of any other room (an old game the
        # session was still in) are ignored.
        self.room = room
        self.name = name
        self.token_file = token_file
        self.create = dict(create) if create else None
        self.on_frame = on_frame
        self.token: Optional[str] = None
        if token_file and os.path.exists(token_file):
            with open(token_file) as f:
                self.token = f.read().strip() or None
        self.bots_to_add: List[str] = list((self.create or {}).get("bots", []))
        self.to_invite: List[str] = list((self.create or {}).get("invite", []))
        self.invite_ids: set = set()
        self.started = False
        self.create_id: Optional[int] = None
        self.entry_id: Optional[int] = None
        self.act_id: Optional[int] = None
        self.refused = False
        self.queue: Optional[int] = None
        self.queue_id: Optional[int] = None
        self.shared: Dict[str, Any] = {}
        # The latest state of our game: its version, and whether we must act on it.
        self.version: Optional[int] = None
        self.my_turn = False
        # Moves of choose() the server refused (illegal), and who hears of them.
        self.refused_moves = 0
        self.on_refused: Optional[Callable[[Dict[str, Any]], None]] = None
        # Challenges (issue 24): who decides, and whether the name was ours
        # to choose again when another program holds it.
        self.on_challenge: Optional[Callable[[Dict[str, Any]], Any]] = None
        self.name_given = True
        # The room we went to on a challenge, until its game starts, and
        # the challenges answered (one may be told twice).
        self.challenge_room: Optional[str] = None
        self.answered: set = set()
        # The connection now (a timer set on an earlier one does nothing).
        self.ws = None
        # The author's secret (issue 24), said in every hello.
        self.owner: Optional[str] = None
        # Lean states are read with the server's catalogue and the last
        # full state of our game (its names and fixed fields).
        self.catalogue: Dict[str, Any] = {"cards": [], "nobles": []}
        self.last_full: Optional[Dict[str, Any]] = None

    def meaningful(self, message: Dict[str, Any]) -> bool:
        """A move is sent only while it answers the latest state (the
        version it was chosen on, our turn); anything else always."""
        if message.get("type") != "act":
            return True
        return self.my_turn and message.get("expect_version") == self.version

    def resync(self) -> None:
        if self.room is not None and self.started:
            self.send({"type": "sync"})

    def hello(self) -> Dict[str, Any]:
        """Resumes the session of our token (keeping its name, unless the
        author gave one) or starts one under our name."""
        # Lean states after actions (protocol 2, what bots are meant to
        # use): the kit reads them back with the server's catalogue.
        hello: Dict[str, Any] = {"type": "hello", "bot": True}
        if self.token:
            hello["token"] = self.token
            if self.name_given:
                hello["name"] = self.name
        else:
            hello["name"] = self.name
        if self.on_challenge is not None:
            hello["challenges"] = True
        if self.owner:
            hello["owner"] = self.owner
        return hello

    def challenged(self, msg: Dict[str, Any]) -> None:
        """A challenge (issue 24): the bot decides while it has no game;
        with one, the kit declines it for later."""
        who = msg.get("from", {}).get("name")
        if msg.get("invitation") in self.answered:
            return  # told again (after a resume): answered already
        self.answered.add(msg.get("invitation"))
        if self.on_challenge is None or self.room is not None or self.create is not None or self.queue:
            log.info("challenge from %s declined: busy", who)
            self.send({"type": "decline", "invitation": msg["invitation"], "reason": "later"})
            return
        try:
            answer = self.on_challenge(msg)
        except Exception:  # a bug in the hook must not leave the challenger waiting
            log.exception("on_challenge() failed; declining")
            answer = "generic"
        if answer is True:
            log.info("challenge from %s accepted: room %s", who, msg["room"])
            self.room = msg["room"]
            self.challenge_room = msg["room"]
            self.enter()
            return
        reason = answer if isinstance(answer, str) and answer in DECLINE_REASONS else "generic"
        log.info("challenge from %s declined: %s", who, reason)
        self.send({"type": "decline", "invitation": msg["invitation"], "reason": reason})

    def enter_again(self, ws) -> None:
        """`enter` once more, if still on connection `ws` and still waiting."""
        if self.ws is ws and self.room is None:
            self.enter()

    def enter(self) -> None:
        """Joins the room, or creates one (once); with challenges and
        nothing else to do, waits for one."""
        if not self.room and not self.queue and self.create is None:
            log.info("waiting for a challenge")
            return
        if self.room:
            self.entry_id = self.send({"type": "join", "code": self.room})
        elif self.queue:
            self.queue_id = self.send({"type": "queue", "players": self.queue})
            self.entry_id = self.queue_id
        elif self.create_id is None:
            c = self.create or {}
            req = {"type": "create", "seats": c.get("seats", 2)}
            # Every option `create` takes (docs/PROTOCOL.md), passed as given.
            for key in ("clock", "turn_based", "listed", "rated", "stand_in_when_away"):
                if c.get(key) is not None:
                    req[key] = c[key]
            self.create_id = self.send(req)
            self.entry_id = self.create_id

    def ours(self, msg: Dict[str, Any]) -> bool:
        code = msg.get("code") if msg.get("type") == "room" else msg.get("room")
        return self.room is not None and code == self.room

    async def session(self, ws) -> Optional[Result]:
        # A new connection: nothing of the last one is sent on this one.
        self.outbox.clear()
        self.outbox_ready.clear()
        self.sent.clear()
        self.send_at = 0.0
        writer = asyncio.create_task(self.writer(ws))
        try:
            return await self.read(ws)
        finally:
            writer.cancel()
            try:
                await writer
            except asyncio.CancelledError:
                pass

    async def read(self, ws) -> Optional[Result]:
        self.ws = ws
        self.send(self.hello())
        async for text in ws:
            msg = json.loads(text)
            if self.on_frame:
                self.on_frame(msg)
            kind = msg.get("type")
            if kind == "welcome":
                self.token = msg["token"]
                self.shared["token"] = self.token
                if self.token_file:
                    if not os.path.exists(self.token_file):
                        log.warning("keeping this bot's identity (its rating) in %s: "
                                    "delete the file to start as a new player", self.token_file)
                    with open(self.token_file, "w") as f:
                        f.write(self.token)
                if not self.shared.get("announced"):
                    self.shared["announced"] = True
                    log.info("playing as %s #%s (rated with the bots)", msg.get("name"), msg.get("player_id"))
                if not (msg.get("resumed") and self.started):
                    self.enter()
            elif kind == "invited":
                log.info("invited %s (#%s) to room %s", msg.get("name"), msg.get("player_id"), msg.get("room"))
            elif kind == "challenge":
                self.challenged(msg)
            elif kind == "room_closed" and self.challenge_room is not None and msg.get("room") == self.room:
                log.info("challenge room %s closed; waiting for another challenge", self.room)
                self.room = None
                self.challenge_room = None
            elif kind == "challenge_declined":
                if self.create is not None and msg.get("room") == self.room and not self.started:
                    by = msg.get("by", {})
                    raise KitError(f"{by.get('name')} (#{by.get('player_id')}) declined the challenge: {msg.get('reason')}")
            elif kind == "matched":
                # Quick play: the server seats us; room and state follow.
                if self.queue and self.room is None:
                    self.room = msg["room"]
            elif kind == "room":
                if self.room is None and self.create_id is not None and msg.get("id") == self.create_id:
                    self.room = msg["code"]
                # Matched while the connection was down: the resume seats us there.
                if (
                    self.room is None
                    and self.queue
                    and msg.get("rated")
                    and msg.get("status") == "playing"
                    and msg["you"].get("role") == "player"
                ):
                    self.room = msg["code"]
                if not self.ours(msg):
                    continue
                if self.challenge_room is not None and msg["status"] == "waiting" and _alone(msg):
                    # The challenger gave their seat up before the start
                    # (one merely away keeps it): this room is nobody's
                    # game; leave it and wait for another.
                    log.info("the challenger left room %s; waiting for another challenge", self.room)
                    self.send({"type": "leave", "give_up": True})
                    self.room = None
                    self.challenge_room = None
                    continue
                if msg["status"] != "waiting":
                    self.challenge_room = None
                    self.started = True
                elif self.create is not None and _hosting(msg):
                    # Invitations first (issue 25), once: the invitees
                    # take seats the bots leave free.
                    while self.to_invite:
                        self.invite_ids.add(self.send({"type": "invite", "player_id": self.to_invite.pop(0)}))
                    if self.bots_to_add and None in msg["seats"]:
                        self.send({"type": "add_bot", "level": self.bots_to_add.pop(0)})
                    elif None not in msg["seats"] and not self.started:
                        self.started = True
                        self.send({"type": "start"})
            elif kind == "state":
                if not self.ours(msg):
                    continue
                if msg.get("lean"):
                    msg = expand_lean(msg, self.catalogue, self.last_full)
                else:
                    self.last_full = msg
                state = State.parse(msg)
                self.version = state.version
                self.my_turn = state.my_turn
                if state.my_turn:
                    self.act(state)
            elif kind == "result":
                if self.ours(msg):
                    result = Result.parse(msg)
                    result.refused = self.refused_moves
                    return result
            elif kind == "error":
                code = msg.get("code")
                if code == "rate_limited":
                    self.rate_limited(msg)
                elif msg.get("id") in self.invite_ids:
                    # Nobody would come to the seat: say so rather than wait.
                    raise KitError(f"invite: {code}: {msg.get('message')}")
                elif code == "invalid_token":
                    self.token = None
                    self.send(self.hello())
                elif code == "name_taken":
                    # Programs' names are unique (issue 24): a name of the
                    # kit's own making is made again; a given one is the
                    # author's to change.
                    # A resumed session keeps its token (its identity and
                    # rating): the new name goes with it.
                    if self.name_given:
                        raise KitError(f"name_taken: {msg.get('message')} (set SPLENDOR_BOT_NAME or name=)")
                    self.name = default_name()
                    self.send(dict(self.hello(), name=self.name))
                elif code == "already_queued" and msg.get("id") == self.queue_id:
                    pass  # queued from an earlier connection of this session: wait on
                elif code == "too_many_games" and msg.get("id") == self.queue_id:
                    # The ladder's caps (issue 24): this owner's (or this
                    # address's) bots play as many games as the server
                    # allows; ask again when it says.
                    wait = msg.get("retry_after_ms")
                    wait = min(300.0, wait / 1000) if isinstance(wait, (int, float)) and wait >= 0 else 15.0
                    log.info("too_many_games: queueing again in %d s", wait)
                    asyncio.get_running_loop().call_later(max(wait, 0.05), self.enter_again, ws)
                elif code == "already_in_room" and msg.get("id") == self.entry_id:
                    # The session still sits in an earlier game: leave it
                    # (its seat there stays its own), then try again.
                    log.warning("leaving an earlier room to play this one")
                    if self.create_id == self.entry_id:
                        self.create_id = None
                    self.send({"type": "leave"})
                    self.enter()
                elif msg.get("id") is not None and msg.get("id") == self.act_id and code not in ("stale_version", "stand_in_turn"):
                    # Our move was refused: tell the bot, count it, and play
                    # the first legal action on the state sent again.
                    self.refused_moves += 1
                    log.warning(
                        "move refused (%s%s: %s); playing the first legal action",
                        code, f", {msg['rule']}" if msg.get("rule") else "", msg.get("message"),
                    )
                    if self.on_refused:
                        try:
                            self.on_refused(msg)
                        except Exception:  # a bug in the hook must not lose the game
                            log.exception("on_refused() failed")
                    self.refused = True
                    self.send({"type": "sync"})
                elif code in ("stale_version", "stand_in_turn"):
                    log.info("%s: %s", code, msg.get("message"))
                elif (
                    self.challenge_room is not None
                    and msg.get("id") == self.entry_id
                    and code in ("room_not_found", "room_full", "game_already_started", "room_closed")
                ):
                    # The challenge's room went on without us: wait for another.
                    log.info("challenge room %s: %s; waiting for another challenge", self.room, code)
                    self.room = None
                    self.challenge_room = None
                elif code in (
                    "room_not_found",
                    "room_full",
                    "game_already_started",
                    "invalid_name",
                    "banned",
                ):
                    raise KitError(f"{code}: {msg.get('message')}")
                else:
                    log.warning("server error %s: %s", code, msg.get("message"))
        return None

    def act(self, state: State) -> None:
        if self.refused:
            self.refused = False
            action = state.legal_actions[0]
        else:
            try:
                action = self.choose(state)
            except Exception:  # a bug in choose() must not lose the game
                log.exception("choose() failed; playing the first legal action")
                action = state.legal_actions[0]
            if action == RESIGN:
                log.info("resigning (R13)")
                self.act_id = self.send({"type": "resign"})
                return
            try:
                json.dumps(action)
            except (TypeError, ValueError):
                log.warning("choose() returned %r, which is not JSON; playing the first legal action", action)
                action = state.legal_actions[0]
            # An illegal move is sent all the same: the server's refusal
            # says which rule it breaks, and the bot is told (see read()).
        self.act_id = self.send({"type": "act", "action": action, "expect_version": state.version})
