"""Typed views of the server's messages (docs/PROTOCOL.md).

Only what a bot reads is modelled; every object keeps its raw JSON in
``raw`` for anything else. Colour names are the protocol's: white, blue,
green, red, black, gold.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Union

COLORS = ("white", "blue", "green", "red", "black")
TOKENS = COLORS + ("gold",)

# An action exactly as `act` sends it and `legal_actions` lists it:
# {"take": [...]}, {"take_two": c}, {"reserve": id}, {"reserve_deck": level},
# {"buy": id} or {"buy": {"card": id, "gold": {...}}}, {"return": {...}},
# {"noble": id}, or "pass".
Action = Union[str, Dict[str, Any]]


def _counts(raw: Optional[Dict[str, int]], keys=TOKENS) -> Dict[str, int]:
    raw = raw or {}
    return {k: int(raw.get(k, 0)) for k in keys}


@dataclass
class Card:
    id: int
    level: int
    bonus: str
    points: int
    cost: Dict[str, int]

    @staticmethod
    def parse(raw: Dict[str, Any]) -> "Card":
        return Card(raw["id"], raw["level"], raw["bonus"], raw.get("points", 0), _counts(raw.get("cost"), COLORS))


@dataclass
class Noble:
    id: int
    points: int
    requires: Dict[str, int]

    @staticmethod
    def parse(raw: Dict[str, Any]) -> "Noble":
        return Noble(raw["id"], raw.get("points", 3), _counts(raw.get("requires"), COLORS))


@dataclass
class Reserved:
    level: int
    from_deck: bool
    # None for another seat's blind reserve (R6.4).
    card: Optional[Card]


@dataclass
class Player:
    seat: int
    name: str
    points: int
    tokens: Dict[str, int]
    bonuses: Dict[str, int]
    cards: List[Card]
    nobles: List[Noble]
    reserved: List[Reserved]


@dataclass
class Level:
    level: int
    deck: int
    # None marks an empty slot.
    cards: List[Optional[Card]]


@dataclass
class State:
    """The game as your seat may see it (a full state: the kit asks for them)."""

    room: str
    version: int
    phase: str
    you: Optional[int]
    to_act: Optional[int]
    turn: int
    supply: Dict[str, int]
    levels: List[Level]
    nobles: List[Noble]
    players: List[Player]
    legal_actions: List[Action]
    return_count: Optional[int] = None
    end_triggered: bool = False
    # The seats whose players resigned, first to resign first (R13.1).
    resigned: List[int] = field(default_factory=list)
    raw: Dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def me(self) -> Optional[Player]:
        return None if self.you is None else self.players[self.you]

    @property
    def my_turn(self) -> bool:
        return self.you is not None and self.to_act == self.you and bool(self.legal_actions)

    @staticmethod
    def parse(raw: Dict[str, Any]) -> "State":
        def card(c):
            return None if c is None else Card.parse(c)

        players = [
            Player(
                p["seat"],
                p.get("name", ""),
                p.get("points", 0),
                _counts(p.get("tokens")),
                _counts(p.get("bonuses"), COLORS),
                [Card.parse(c) for c in p.get("cards", [])],
                [Noble.parse(n) for n in p.get("nobles", [])],
                [Reserved(r["level"], bool(r.get("from_deck")), card(r.get("card"))) for r in p.get("reserved", [])],
            )
            for p in raw.get("players", [])
        ]
        return State(
            room=raw["room"],
            version=raw["version"],
            phase=raw["phase"],
            you=raw.get("you"),
            to_act=raw.get("to_act"),
            turn=raw.get("turn", 0),
            supply=_counts(raw.get("supply")),
            levels=[Level(l["level"], l["deck"], [card(c) for c in l["cards"]]) for l in raw.get("levels", [])],
            nobles=[Noble.parse(n) for n in raw.get("nobles", [])],
            players=players,
            legal_actions=list(raw.get("legal_actions") or []),
            return_count=raw.get("return_count"),
            end_triggered=bool(raw.get("end_triggered")),
            resigned=list(raw.get("resigned") or []),
            raw=raw,
        )


@dataclass
class Result:
    game: str
    winners: List[int]
    ranking: List[Dict[str, Any]]
    raw: Dict[str, Any] = field(default_factory=dict, repr=False)
    # The seats whose players resigned, first to resign first (R13.1).
    resigned: List[int] = field(default_factory=list)
    # This bot's moves the server refused in the game (illegal ones).
    refused: int = 0
    # How the game ended: "points", "deadlock" (R11.2), "no_progress"
    # (R11.6), "resigned" (R13.2), "deserted" (R12.6) or "operators". A
    # server of before 2026-11-29 sent none: read from `deadlock` then.
    end: str = "points"

    @staticmethod
    def parse(raw: Dict[str, Any]) -> "Result":
        end = raw.get("end") or ("deadlock" if raw.get("deadlock") else "points")
        return Result(
            raw.get("game", ""), list(raw.get("winners", [])), list(raw.get("ranking", [])), raw,
            list(raw.get("resigned") or []), end=end,
        )


def expand_lean(raw: Dict[str, Any], catalogue: Dict[str, Any], full: Optional[Dict[str, Any]]) -> Dict[str, Any]:
    """A lean ``state`` (docs/PROTOCOL.md, Lean states: cards and nobles by
    id, the game's fixed fields left out) read back into the full one, with
    the server's catalogue (``GET /api/catalogue``) and the last full state
    of the same game (``full``: its names, game id, commitment, first seat).
    A state that is not lean is returned as it is."""
    if not raw.get("lean"):
        return raw
    cards, nobles = catalogue["cards"], catalogue["nobles"]

    def card(c):
        return cards[c] if isinstance(c, int) else c

    def noble(n):
        return nobles[n] if isinstance(n, int) else n

    out = {k: v for k, v in raw.items() if k != "lean"}
    for key in ("game", "commitment", "first_seat"):
        if full is not None and key in full and key not in out:
            out[key] = full[key]
    names = {p["seat"]: p.get("name", "") for p in (full or {}).get("players", [])}
    out["levels"] = [dict(l, cards=[card(c) for c in l.get("cards", [])]) for l in raw.get("levels", [])]
    out["nobles"] = [noble(n) for n in raw.get("nobles", [])]
    if "noble_choices" in raw:
        out["noble_choices"] = [noble(n) for n in raw["noble_choices"]]
    out["players"] = [
        dict(
            p,
            name=p.get("name", names.get(p["seat"], "")),
            cards=[card(c) for c in p.get("cards", [])],
            nobles=[noble(n) for n in p.get("nobles", [])],
            reserved=[dict(r, card=card(r.get("card"))) for r in p.get("reserved", [])],
        )
        for p in raw.get("players", [])
    ]
    return out

