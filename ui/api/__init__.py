"""The HTTP APIs beside the web app: DeepL's v2 subset, LibreTranslate's, and ``/v1/clarify`` (ours, it asks).

Every router takes one ``TranslationService`` (``service.py``): the model, its bounded queue, the
per-key accounts and glossaries, and the request bounds.
"""

from __future__ import annotations


class ApiError(Exception):
    """A request the server refuses: the HTTP status and a one-line message for the client."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers
