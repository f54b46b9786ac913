"""Sending, paced (issue 24, defect 1): every message the kit sends has an
id; messages wait in an outbox and one writer task sends them, spaced out
once the server has refused one for going over its message rate
(`rate_limited`), which is then sent again."""

from __future__ import annotations

import asyncio
import bisect
import json
import logging
from typing import Any, Dict, List, Optional

import websockets

log = logging.getLogger("splendor_kit")

# rate_limited without retry_after_ms: wait this long (seconds) before sending again.
RATE_LIMIT_FALLBACK_S = 1.0
# After a refusal the kit spaces its messages at least this far apart
# (seconds), more if the server's wait says so, doubling while still refused,
# up to RATE_LIMIT_MAX_GAP_S.
RATE_LIMIT_MIN_GAP_S = 0.05
RATE_LIMIT_MAX_GAP_S = 1.0
# How many sent messages are remembered, to send one again when refused.
REMEMBERED_MESSAGES = 64


class Pacer:
    """The outbox and its writer. A subclass says which messages still
    mean something (`meaningful`) and how to ask for the state again
    (`resync`)."""

    def __init__(self) -> None:
        self.next_id = 1
        # Sending: messages wait in `outbox` (in id order) and one writer task
        # sends them, none before `send_at` (loop time), each `gap` seconds
        # after the last one; `sent` remembers them by id, with when they
        # left, so that a rate_limited refusal can send one again.
        self.outbox: List[Dict[str, Any]] = []
        self.outbox_ready = asyncio.Event()
        self.sent: Dict[Any, Any] = {}
        self.send_at = 0.0
        self.gap = 0.0
        self.last_refusal_at: Optional[float] = None
        # rate_limited refusals met by this game (every connection).
        self.refusals = 0

    def meaningful(self, message: Dict[str, Any]) -> bool:
        return True

    def resync(self) -> None:
        """Asks for the state again, when a refused message cannot be told."""

    def send(self, message: Dict[str, Any]) -> int:
        """Queues a message for the writer, with the next id; returns the id."""
        message = dict(message, id=self.next_id)
        self.next_id += 1
        self.queue_message(message)
        return message["id"]

    def queue_message(self, message: Dict[str, Any]) -> None:
        # In id order: a message sent again goes before those queued after it.
        ids = [m["id"] for m in self.outbox]
        self.outbox.insert(bisect.bisect_right(ids, message["id"]), message)
        self.outbox_ready.set()

    async def writer(self, ws) -> None:
        """Sends the queued messages in order, paced (see `rate_limited`)."""
        loop = asyncio.get_running_loop()
        try:
            while True:
                await self.outbox_ready.wait()
                # A refusal met while waiting may push send_at further.
                while (delay := self.send_at - loop.time()) > 0:
                    await asyncio.sleep(delay)
                if not self.outbox:
                    self.outbox_ready.clear()
                    continue
                message = self.outbox.pop(0)
                if not self.outbox:
                    self.outbox_ready.clear()
                if not self.meaningful(message):
                    log.info("not sending %s %s again: the game moved on", message["type"], message["id"])
                    continue
                now = loop.time()
                self.sent[message["id"]] = (message, now)
                while len(self.sent) > REMEMBERED_MESSAGES:
                    del self.sent[next(iter(self.sent))]
                self.send_at = now + self.gap
                await ws.send(json.dumps(message))
        except websockets.ConnectionClosed:
            pass  # the reading loop sees the close and decides

    def rate_limited(self, msg: Dict[str, Any]) -> None:
        """The server did not handle a message: it was over the message rate.
        Wait what the server says, send that message again (or `sync` if it
        cannot be told which), and space messages out from now on. Logged at
        WARNING (issue 51): the bot is slowed, which its author should see."""
        self.refusals += 1
        loop = asyncio.get_running_loop()
        now = loop.time()
        wait = msg.get("retry_after_ms")
        wait = min(60.0, wait / 1000) if isinstance(wait, (int, float)) and wait >= 0 else RATE_LIMIT_FALLBACK_S
        refused = self.sent.pop(msg.get("id"), None) if msg.get("id") is not None else None
        # Each refusal of a message sent after the last refusal was known
        # means the spacing is still too short: double it. Refusals of
        # messages already on their way then say nothing new.
        paced = refused is not None and self.last_refusal_at is not None and refused[1] > self.last_refusal_at
        self.gap = min(max(self.gap * 2 if paced else self.gap, wait, RATE_LIMIT_MIN_GAP_S), max(RATE_LIMIT_MAX_GAP_S, wait))
        self.last_refusal_at = now
        self.send_at = max(self.send_at, now + wait)
        if refused is not None:
            message = refused[0]
            log.warning("rate_limited: sending %s %s again in %d ms", message["type"], message["id"], wait * 1000)
            self.queue_message(message)
        else:
            log.warning("rate_limited (%s); asking for the state again in %d ms", msg.get("message"), wait * 1000)
            self.resync()
