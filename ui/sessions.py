"""Each browser session's state on the server, kept apart from Gradio's state copies.

A model never travels through ``gr.State``: the page keeps only a session id, and this store
maps it to the pending dialogue and the last transcript. Gradio serves several events at once
(up to 8 threads on a model server), so the store is locked; idle sessions expire by age.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from assistant.dialogue import Dialogue
from assistant.glossary import Glossary
from assistant.profile import Profile
from assistant.sheet import Sheet
from assistant.transcript import Transcript

from .glossaries import GlossaryUpload

MAX_SESSIONS = 256
SESSION_IDLE_S = 3600.0


@dataclass
class FileSheet:
    """The question sheet of the file last uploaded, and the upload it was read from: a translation of
    another file, or into another language, cannot use its answers."""

    upload: str
    sheet: Sheet


@dataclass
class Session:
    """The dialogue waiting for the person's answer, the transcript last shown, and ``run``: the
    number of the newest request. Stop, Clear and a new text bump it, so a superseded request
    (still finishing a model call in its thread) sees that it is stale and writes nothing.
    ``glossary`` is a preference: Stop and Clear keep it, only clearing the upload removes it; so are the
    uploaded project ``profile`` and the ``file_sheet``."""

    dialogue: Dialogue | None = None
    last: Transcript | None = None
    source: str | None = None  # the text of the newest dialogue, which Retry runs again
    run: int = 0
    activity: tuple[str, float] | None = None
    glossary: GlossaryUpload | None = None
    profile: Profile | None = None
    file_sheet: FileSheet | None = None
    touched: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def begin(self) -> int:
        """Start a request that supersedes any running one; its number."""
        with self.lock:
            self.run += 1
            return self.run

    def current(self, run: int) -> bool:
        return self.run == run

    def doing(self, what: str | None) -> None:
        """What the running request is doing now (None: nothing), timed from now."""
        self.activity = (what, time.monotonic()) if what else None

    def activity_text(self) -> str:
        """"Translating… 12 s": what runs and for how long, for the page's ticking status line."""
        if self.activity is None:
            return ""
        what, since = self.activity
        return f"⏳ {what} {time.monotonic() - since:.0f} s"

    def glossary_for(self, lang: str) -> Glossary | None:
        """The session's glossary into ``lang`` (None without one)."""
        return self.glossary.for_lang(lang) if self.glossary else None

    def reset(self) -> None:
        """Forget the pending dialogue and supersede whatever is running."""
        with self.lock:
            self.run += 1
            self.dialogue = None
            self.activity = None


class SessionStore:
    """Sessions by browser session id: idle ones expire after ``max_idle_s``, and beyond
    ``capacity`` the least recently used is dropped. Safe to use from several threads."""

    def __init__(self, capacity: int = MAX_SESSIONS, max_idle_s: float = SESSION_IDLE_S,
                 clock: Callable[[], float] = time.monotonic):
        self.capacity = capacity
        self.max_idle_s = max_idle_s
        self.clock = clock
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()

    def peek(self, session_id: str | None) -> Session | None:
        """The session if it is stored, without creating it or marking it as used."""
        with self._lock:
            return self._sessions.get(session_id) if session_id else None

    def get(self, session_id: str | None) -> Session:
        """The session's state (a fresh one for an unknown or expired id), marked as just used."""
        with self._lock:
            now = self.clock()
            while self._sessions:
                oldest_id, oldest = next(iter(self._sessions.items()))
                if now - oldest.touched <= self.max_idle_s:
                    break
                del self._sessions[oldest_id]
            session = self._sessions.pop(session_id, None) if session_id else None
            session = session or Session()
            session.touched = now
            if session_id:
                self._sessions[session_id] = session
                while len(self._sessions) > self.capacity:
                    self._sessions.popitem(last=False)
            return session
