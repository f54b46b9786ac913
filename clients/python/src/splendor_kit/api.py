"""The server's HTTP API as a kit bot uses it: its games, its
invitations, the programs online, the catalogue of cards and nobles."""

from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Optional

DEFAULT_URL = "ws://127.0.0.1:8080/ws"


class KitError(Exception):
    """The server refused something the kit cannot recover from."""


def _api(token: str, method: str, path: str, url: Optional[str]) -> Any:
    """One call of the server's HTTP API with the session's token; the
    answer's JSON (None for an empty one). Raises :class:`KitError` when
    the server refuses."""
    import urllib.error
    import urllib.parse
    import urllib.request

    ws = urllib.parse.urlsplit(url or os.environ.get("SPLENDOR_URL") or DEFAULT_URL)
    scheme = {"ws": "http", "wss": "https"}.get(ws.scheme, ws.scheme)
    api = urllib.parse.urlunsplit((scheme, ws.netloc, path, "", ""))
    request = urllib.request.Request(api, method=method, headers={"Authorization": f"Bearer {token}",
                                                                   "Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            body = response.read()
            return json.loads(body) if body else None
    except urllib.error.HTTPError as e:
        raise KitError(f"{method} {path}: HTTP {e.code}: {e.read()[:200]!r}") from e


def my_games(token: str, url: Optional[str] = None) -> List[Dict[str, Any]]:
    """Every game the session of ``token`` sits in (``GET /api/me/games``),
    those waiting for it first: a bot with many turn-based games picks the
    next one to play from it (each has ``room``, ``your_turn``,
    ``deadline`` in Unix ms for a turn-based one, and the players).
    ``url`` is the server's WebSocket URL, as for :func:`run`.
    Raises :class:`KitError` when the server refuses (a bad token: 401).
    """
    return _api(token, "GET", "/api/me/games", url)["games"]


def invitations(token: str, url: Optional[str] = None) -> List[Dict[str, Any]]:
    """The invitations of the session of ``token`` (issue 25), newest
    first: each has ``id``, ``room`` (play it with ``run(..., room=...)``:
    joining accepts), ``from`` (``name``, ``player_id``), ``seats`` and
    ``players``. Only rooms that still wait for players are listed."""
    return _api(token, "GET", "/api/me/games", url)["invitations"]


def decline_invitation(token: str, invitation: str, url: Optional[str] = None, reason: str = "generic") -> None:
    """Declines the invitation with id ``invitation``, telling the
    challenger ``reason`` (one of :data:`DECLINE_REASONS`); :class:`KitError`
    (404) when the session has none such."""
    import urllib.parse

    query = urllib.parse.urlencode({"reason": reason})
    _api(token, "DELETE", f"/api/me/invitations/{urllib.parse.quote(invitation)}?{query}", url)


def bots_online(url: Optional[str] = None) -> List[Dict[str, Any]]:
    """The programs connected now that take challenges (``GET
    /api/bots/online``), longest online first: each has ``name``,
    ``player_id`` (what a challenge names), ``rated_games`` and, once it
    played a rated game, ``rating``."""
    import urllib.parse
    import urllib.request

    ws = urllib.parse.urlsplit(url or os.environ.get("SPLENDOR_URL") or DEFAULT_URL)
    scheme = {"ws": "http", "wss": "https"}.get(ws.scheme, ws.scheme)
    api = urllib.parse.urlunsplit((scheme, ws.netloc, "/api/bots/online", "", ""))
    with urllib.request.urlopen(api, timeout=30) as response:
        return json.loads(response.read())["bots"]


# The server's catalogue of cards and nobles (GET /api/catalogue), by
# server: fixed, so fetched once.
_CATALOGUES: Dict[str, Dict[str, Any]] = {}


def catalogue(url: Optional[str] = None) -> Dict[str, Any]:
    """The server's cards and nobles by id (``GET /api/catalogue``), what a
    lean state names by id; fetched once per server."""
    import urllib.parse
    import urllib.request

    ws = urllib.parse.urlsplit(url or os.environ.get("SPLENDOR_URL") or DEFAULT_URL)
    scheme = {"ws": "http", "wss": "https"}.get(ws.scheme, ws.scheme)
    api = urllib.parse.urlunsplit((scheme, ws.netloc, "/api/catalogue", "", ""))
    if api not in _CATALOGUES:
        with urllib.request.urlopen(api, timeout=30) as response:
            _CATALOGUES[api] = json.loads(response.read())
    return _CATALOGUES[api]
