"""API keys and what each key may do: off on loopback unless keys are configured, required off loopback.

Each key is an account with a request rate (per minute) and a character quota (per server run);
going past the rate answers 429 and past the quota 456, DeepL's codes, which its clients understand.
A wrong key answers 403; an address that keeps sending wrong keys is made to wait, with 429 and
Retry-After, because 429 is what DeepL's clients back off on (they give up at once on a 403).
Only delivered work is billed: a request's characters are reserved while it runs and given back
when it fails (``KeyRing.billed``).
"""

from __future__ import annotations

import hmac
import ipaddress
import math
import os
import threading
import time
from collections import OrderedDict, deque
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from starlette.requests import Request

from assistant.errors import InputError

from . import ApiError

KEYS_ENV_VAR = "INTERCPT_API_KEYS"
WINDOW_SECONDS = 60.0
FREE_FAILURES = 5  # wrong keys an address may send before it is made to wait
FIRST_WAIT_SECONDS = 2.0  # the wait after the next wrong key; it doubles with each one after that
LONGEST_WAIT_SECONDS = 600.0
FAILURE_MEMORY_SECONDS = 900.0  # an address that sent no wrong key for this long starts afresh
MAX_ADDRESSES = 10_000  # addresses with recent wrong keys that are remembered, the oldest forgotten first


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address the server binds) is reachable from this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def client_address(request: Request) -> str | None:
    """The address a request came from (the client's own behind a proxy uvicorn trusts)."""
    return request.client.host if request.client else None


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
class _Failures:
    count: int = 0
    last: float = 0.0
    wait_until: float = 0.0


class WrongKeyThrottle:
    """Per client address: the wrong keys it sent lately, and until when it must wait.

    While an address waits, every request from it is answered 429 before its key is looked at (so
    waiting is not a way to keep guessing); each wrong key past ``FREE_FAILURES`` doubles the wait."""

    def __init__(self) -> None:
        self._addresses: OrderedDict[str, _Failures] = OrderedDict()

    def check(self, address: str | None, now: float) -> None:
        """429 while ``address`` must wait."""
        failures = self._addresses.get(address or "")
        if failures is not None and now < failures.wait_until:
            raise _wait_error(failures.wait_until - now)

    def failed(self, address: str | None, now: float) -> None:
        """Count one wrong key; 429 when this one makes the address wait."""
        failures = self._addresses.pop(address or "", None)
        if failures is None or now - failures.last > FAILURE_MEMORY_SECONDS:
            failures = _Failures()
        failures.count += 1
        failures.last = now
        self._addresses[address or ""] = failures
        while len(self._addresses) > MAX_ADDRESSES:
            self._addresses.popitem(last=False)
        if failures.count > FREE_FAILURES:
            wait = min(FIRST_WAIT_SECONDS * 2 ** (failures.count - FREE_FAILURES - 1), LONGEST_WAIT_SECONDS)
            failures.wait_until = now + wait
            raise _wait_error(wait)


def _wait_error(seconds: float) -> ApiError:
    wait = max(1, math.ceil(seconds))
    return ApiError(429, f"too many wrong API keys from this address; try again in {wait} s",
                    {"Retry-After": str(wait)})


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
        self._wrong_keys = WrongKeyThrottle()
        self._lock = threading.Lock()

    def account(self, key: str | None, client: str | None) -> Account:
        """The account of ``key`` sent from the address ``client`` after one more request; 403 for a bad key,
        429 past the rate or while the address waits after too many bad keys."""
        if self.keys is None:
            if self.required:
                raise ApiError(403, "this server is reachable beyond this machine and has no API keys configured; "
                               f"start it with --api-keys FILE or set {KEYS_ENV_VAR}")
            key = None  # open on loopback: one shared account
        else:
            with self._lock:
                self._wrong_keys.check(client, time.monotonic())
            if not key or not any(hmac.compare_digest(key, known) for known in self.keys):
                with self._lock:
                    self._wrong_keys.failed(client, time.monotonic())
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
