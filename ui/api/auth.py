"""API keys and what each key may do: off on loopback unless keys are configured, required off loopback.

Each key is an account with a request rate (per minute) and a character quota (per server run);
going past the rate answers 429 and past the quota 456, DeepL's codes, which its clients understand.
Only delivered work is billed: a request's characters are reserved while it runs and given back
when it fails (``KeyRing.billed``).
"""

from __future__ import annotations

import hmac
import ipaddress
import os
import threading
import time
from collections import deque
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from assistant.errors import InputError

from . import ApiError

KEYS_ENV_VAR = "INTERCPT_API_KEYS"
WINDOW_SECONDS = 60.0


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address the server binds) is reachable from this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def load_keys(path: Path | None) -> frozenset[str] | None:
    """The configured API keys: the file (one a line, ``#`` comments), else $INTERCPT_API_KEYS
    (comma-separated), else None (no keys configured)."""
    if path is not None:
        try:
            lines = Path(path).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as err:
            raise InputError(f"cannot read the API key file {path}: {getattr(err, 'strerror', None) or err}") from None
        keys = frozenset(line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#"))
        if not keys:
            raise InputError(f"the API key file {path} has no keys (one a line)")
        return keys
    listed = os.environ.get(KEYS_ENV_VAR, "")
    keys = frozenset(key.strip() for key in listed.split(",") if key.strip())
    return keys or None


@dataclass
class Account:
    """One API key's use: characters translated so far and the times of its recent requests."""

    key: str | None
    characters: int = 0
    recent: deque = field(default_factory=deque)


class KeyRing:
    """Checks a request's key and applies its account's rate and quota."""

    def __init__(self, keys: frozenset[str] | None, *, required: bool, rate_limit: int, character_limit: int):
        self.keys = keys
        self.required = required
        self.rate_limit = rate_limit
        self.character_limit = character_limit
        self._accounts: dict[str | None, Account] = {}
        self._lock = threading.Lock()

    def account(self, key: str | None) -> Account:
        """The account of ``key`` after one more request; 403 for a bad key, 429 past the rate."""
        if self.keys is None:
            if self.required:
                raise ApiError(403, "this server is reachable beyond this machine and has no API keys configured; "
                               f"start it with --api-keys FILE or set {KEYS_ENV_VAR}")
            key = None  # open on loopback: one shared account
        elif not key or not any(hmac.compare_digest(key, known) for known in self.keys):
            raise ApiError(403, "missing or unknown API key")
        with self._lock:
            account = self._accounts.setdefault(key, Account(key))
            now = time.monotonic()
            while account.recent and now - account.recent[0] > WINDOW_SECONDS:
                account.recent.popleft()
            if len(account.recent) >= self.rate_limit:
                wait = int(WINDOW_SECONDS - (now - account.recent[0])) + 1
                raise ApiError(429, f"too many requests: at most {self.rate_limit} a minute; try again in {wait} s",
                               {"Retry-After": str(wait)})
            account.recent.append(now)
        return account

    @contextmanager
    def billed(self, account: Account, characters: int) -> Iterator[None]:
        """Charge ``characters`` for the work of the ``with`` block, reserved before it starts (456, quota
        exceeded, when they would pass the quota) and given back when the block fails: nothing delivered."""
        self._charge(account, characters)
        try:
            yield
        except BaseException:
            with self._lock:
                account.characters -= characters
            raise

    def _charge(self, account: Account, characters: int) -> None:
        with self._lock:
            if self.character_limit and account.characters + characters > self.character_limit:
                raise ApiError(456, f"quota exceeded: this key may translate {self.character_limit} characters "
                               f"and has {self.character_limit - account.characters} left")
            account.characters += characters
