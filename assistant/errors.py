"""Errors a user can act on; the CLI prints them as one line instead of a traceback."""


class IntercptError(Exception):
    """Base class: the message is complete, actionable and fits on one line."""


class InputError(IntercptError):
    """The text, language or file the user gave cannot be used."""


class ModelSpecError(IntercptError):
    """A model spec string is malformed or names an unknown backend."""


class ModelLoadError(IntercptError):
    """A model could not be loaded (missing file, offline without a cache, bad format)."""


class BackendError(IntercptError):
    """A model server is down, never became healthy, or answered something unusable."""


class DataError(IntercptError):
    """An evaluation data set is missing, cannot be downloaded or fails its checksum."""


class OutageError(BackendError):
    """The model server cannot be reached or went away mid-run: not the item's fault, so an
    evaluation stops (keeping what finished) and its next start retries the item."""


class GarbageReplyError(BackendError):
    """The model server answered a request with something that is not a chat completion (an HTML error
    page from a proxy, a body that is not JSON): the server's failure, not the item's or the text's."""


class DeadlineExceeded(IntercptError):
    """A request ran out of time (waiting for the model or in its calls): its work stops at the next
    model call, and its client hears it at once instead of waiting without end."""


class RequestCancelled(IntercptError):
    """The client of a request went away: the work done for it stops at the next model call."""
