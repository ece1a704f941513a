"""AmbigMT from a local folder, or downloaded once from the upstream repository at a pinned commit.

The manifest (``datasets/ambigmt/manifest.json``) pins the commit and, per file, its length
in characters and its SHA-256 where one has been published. A download is accepted only if it
matches; the SHA-256 of every accepted file is written to ``checksums.json`` beside it, and
later runs re-check the files against that record, so a damaged copy is never evaluated.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import httpx

from assistant.errors import DataError
from assistant.paths import cache_dir, shipped_dir

AMBIGMT_ENV_VAR = "INTERCPT_AMBIGMT_DIR"
CHECKSUMS_FILE = "checksums.json"


@dataclass(frozen=True)
class ManifestFile:
    path: str
    chars: int
    sha256: str | None


@dataclass(frozen=True)
class Manifest:
    repository: str
    commit: str
    url: str
    files: tuple[ManifestFile, ...]

    def url_of(self, file: ManifestFile) -> str:
        return self.url.format(repository=self.repository, commit=self.commit, path=file.path)


def load_manifest(path: Path | None = None) -> Manifest:
    path = path or shipped_dir("datasets") / "ambigmt" / "manifest.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    files = tuple(ManifestFile(f["path"], int(f["chars"]), f.get("sha256")) for f in data["files"])
    return Manifest(data["repository"], data["commit"], data["url"], files)


def ambigmt_folder(manifest: Manifest | None = None, client: httpx.Client | None = None) -> Path:
    """``$INTERCPT_AMBIGMT_DIR`` if set; otherwise the verified cached copy, downloading what is missing."""
    if os.environ.get(AMBIGMT_ENV_VAR):
        folder = Path(os.environ[AMBIGMT_ENV_VAR])
        if not folder.is_dir():
            raise DataError(f"${AMBIGMT_ENV_VAR} points to {folder}, which is not a folder")
        return folder
    manifest = manifest or load_manifest()
    folder = cache_dir() / "ambigmt" / manifest.commit
    recorded = _read_checksums(folder)
    missing = [f for f in manifest.files if not _verified(folder, f, recorded)]
    if missing:
        with client or httpx.Client(timeout=60, follow_redirects=True) as http:
            for file in missing:
                recorded[file.path] = _download(http, manifest, file, folder)
        (folder / CHECKSUMS_FILE).write_text(json.dumps(recorded, indent=2, sort_keys=True) + "\n")
    return folder


def _read_checksums(folder: Path) -> dict[str, str]:
    try:
        return json.loads((folder / CHECKSUMS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _verified(folder: Path, file: ManifestFile, recorded: dict[str, str]) -> bool:
    target = folder / file.path
    if not target.is_file():
        return False
    expected = file.sha256 or recorded.get(file.path)
    if expected and hashlib.sha256(target.read_bytes()).hexdigest() == expected:
        return True
    target.unlink()  # damaged or unrecorded: fetch it again
    return False


def _download(http: httpx.Client, manifest: Manifest, file: ManifestFile, folder: Path) -> str:
    """Fetch one file, check it against the manifest, write it atomically; return its SHA-256."""
    url = manifest.url_of(file)
    try:
        response = http.get(url)
        response.raise_for_status()
    except httpx.HTTPError as err:
        raise DataError(f"cannot download AmbigMT ({url}): {err}. Offline? Put the 14 AmbigMT files in a folder "
                        f"and pass it with --data DIR or ${AMBIGMT_ENV_VAR}") from None
    payload = response.content
    digest = hashlib.sha256(payload).hexdigest()
    try:
        chars = len(payload.decode("utf-8"))
    except UnicodeDecodeError:
        chars = -1
    if (file.sha256 and digest != file.sha256) or (not file.sha256 and chars != file.chars):
        wanted = f"SHA-256 {file.sha256}" if file.sha256 else f"{file.chars} characters"
        got = f"SHA-256 {digest}" if file.sha256 else f"{chars} characters"
        raise DataError(f"{url} does not match the manifest (expected {wanted}, got {got}); not using it")
    target = folder / file.path
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=target.parent, delete=False) as tmp:
        tmp.write(payload)
    os.replace(tmp.name, target)
    return digest
