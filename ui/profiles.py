"""The page's project profile: a ``.yaml`` upload whose answers fill a file's question sheet, the page's
preferences read the same way, and the answers given, as a profile a team downloads and commits.

An uploaded profile is checked as ``--profile`` checks one (``load_profile``: its size, UTF-8, its sections
and bounds), and named by its own name, never by the server's upload path. Its ``glossary`` line names a
file beside the profile on the person's disk, which the server never reads: the page's glossary is the
upload under Preferences.
"""

from __future__ import annotations

from pathlib import Path

from assistant.ambiguity import FOR_SESSION, get_type, word_key
from assistant.errors import InputError
from assistant.profile import Profile, load_profile, save_profile

from .file_store import FileStore
from .handlers import ChatOptions, preferences_from
from .messages import upload_error

PROFILE_TYPES = (".yaml", ".yml")
DOWNLOAD_NAME = "intercpt-profile.yaml"


def read_profile_upload(upload: str | Path) -> Profile:
    """The uploaded profile, checked; an ``InputError`` that names the file by its own name."""
    path = Path(upload)
    if path.suffix.lower() not in PROFILE_TYPES:
        raise InputError(f"“{path.name}” is not a project profile; upload a .yaml file")
    try:
        return load_profile(path)
    except InputError as err:
        raise upload_error(err, path) from None


def profile_markdown(profile: Profile, name: str) -> str:
    """The line beside an accepted profile upload."""
    count = profile.entry_count()
    return f"✓ “{name}”: {count} answer{'s' if count != 1 else ''}, filled in on the file's questions"


def preferences_profile(options: ChatOptions) -> Profile:
    """The page's preferences (register, people) as a profile's answers into ``options.lang``: they fill a
    file's sheet the way a profile does, and go into the profile downloaded."""
    profile = Profile()
    for turn in preferences_from(options.register, options.people).answered.values():
        kind = get_type(turn.ambiguity)
        profile.put(kind.family, options.lang if kind.remember == FOR_SESSION else word_key(turn.span), turn.answer)
    return profile


def profile_download(profile: Profile, files: FileStore) -> Path:
    """``profile`` written to a file of its own in ``files``, to download."""
    out = files.new_path(DOWNLOAD_NAME)
    save_profile(profile, out)
    return out
