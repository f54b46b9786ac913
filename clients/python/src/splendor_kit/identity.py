"""Who a kit bot is when nothing says (issue 24): its token file beside
its script, and a name of its own among the server's programs."""

from __future__ import annotations

import os
import random
import sys
from typing import Optional


def default_name() -> str:
    """A new bot's name when none is given: its script's name (``pybot``
    for none) and four random letters, since programs' names are unique
    on a server (issue 24)."""
    main = sys.modules.get("__main__")
    script = main is not None and getattr(main, "__spec__", None) is None
    path = getattr(main, "__file__", None) if script else None
    stem = os.path.splitext(os.path.basename(path))[0] if path and path.endswith(".py") else "pybot"
    stem = "".join(c for c in stem if c.isalnum() or c in "-_")[:16] or "pybot"
    return f"{stem}-{''.join(random.choice('abcdefghjkmnpqrstuvwxyz23456789') for _ in range(4))}"


def default_token_file() -> Optional[str]:
    """Where a bot keeps its identity when nothing says (issue 24):
    ``<bot>.token`` beside the script run directly (``python3 my_bot.py``
    keeps ``my_bot.token``), so that it plays as the same rated player on
    every run. ``None`` for anything else (``python -m ...``, a test
    runner, an interactive session): those keep the token in memory only.
    ``SPLENDOR_TOKEN_FILE`` names another file, or ``none`` for none."""
    main = sys.modules.get("__main__")
    if main is None or getattr(main, "__spec__", None) is not None:
        return None
    path = getattr(main, "__file__", None)
    if not path or not path.endswith(".py"):
        return None
    return os.path.splitext(os.path.abspath(path))[0] + ".token"
