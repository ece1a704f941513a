"""Project profiles kept on the server, per key, addressed by id the way DeepL addresses glossaries: a CAT tool
or Weblate set up with a key and a ``profile_id`` gets the project's answers on every request, without asking."""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timezone

from assistant.errors import InputError
from assistant.profile import Profile, parse_profile

from . import ApiError

MAX_PROFILES_PER_KEY = 20
MAX_NAME_CHARS = 200


@dataclass(frozen=True)
class StoredProfile:
    profile_id: str
    name: str
    creation_time: str
    profile: Profile

    def info(self) -> dict:
        return {"profile_id": self.profile_id, "name": self.name, "creation_time": self.creation_time,
                "entry_count": self.profile.entry_count()}


class ProfileStore:
    """Each key's profiles, in memory (as its glossaries are), at most ``MAX_PROFILES_PER_KEY`` a key."""

    def __init__(self) -> None:
        self._by_key: dict[str | None, OrderedDict[str, StoredProfile]] = {}
        self._lock = threading.Lock()

    def create(self, key: str | None, name: str, text: str) -> StoredProfile:
        """Keep the profile written in ``text``: 400 for one that does not read (the reason said), 456 when the
        key keeps as many as it may."""
        if not name.strip() or len(name) > MAX_NAME_CHARS:
            raise ApiError(400, f"a profile needs a name of 1 to {MAX_NAME_CHARS} characters")
        try:
            profile = parse_profile(text, "the profile")
        except InputError as err:
            raise ApiError(400, str(err)) from None
        stored = StoredProfile(uuid.uuid4().hex, name.strip(), datetime.now(timezone.utc).isoformat(timespec="seconds"),
                               profile)
        with self._lock:
            mine = self._by_key.setdefault(key, OrderedDict())
            if len(mine) >= MAX_PROFILES_PER_KEY:
                raise ApiError(456, f"profile limit reached: at most {MAX_PROFILES_PER_KEY} a key; delete one")
            mine[stored.profile_id] = stored
        return stored

    def get(self, key: str | None, profile_id: str) -> StoredProfile:
        found = self._by_key.get(key, {}).get(profile_id)
        if found is None:
            raise ApiError(404, f"no profile {profile_id[:64]!r}")
        return found

    def named(self, key: str | None, profile_id: str | None) -> Profile | None:
        """The answers of the profile a translation request names, if it names one (404 for none of that id,
        in the error format of the API asked)."""
        return self.get(key, profile_id).profile if profile_id else None

    def all(self, key: str | None) -> list[StoredProfile]:
        return list(self._by_key.get(key, {}).values())

    def delete(self, key: str | None, profile_id: str) -> None:
        self.get(key, profile_id)
        with self._lock:
            del self._by_key[key][profile_id]
