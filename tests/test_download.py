"""AmbigMT download and verification against a real HTTP server on localhost serving dev files."""

from __future__ import annotations

import functools
import hashlib
import http.server
import json
import threading

import pytest

from assistant.errors import DataError
from evaluation.download import CHECKSUMS_FILE, Manifest, ManifestFile, ambigmt_folder, load_manifest

FILES = ("formality/formality_en_fr.tsv", "polysemy/polysemy_en_de.tsv")


@pytest.fixture
def upstream(dev_data):
    """A local web server serving two AmbigMT dev files, and a manifest pinned to them."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(dev_data))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    files = tuple(ManifestFile(p, len((dev_data / p).read_text(encoding="utf-8")), None) for p in FILES)
    manifest = Manifest("example/ambigmt", "0" * 40, f"http://127.0.0.1:{server.server_port}/{{path}}", files)
    yield manifest, dev_data
    server.shutdown()


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("INTERCPT_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("INTERCPT_AMBIGMT_DIR", raising=False)


def test_shipped_manifest_pins_a_commit_and_all_fourteen_files():
    manifest = load_manifest()
    assert len(manifest.commit) == 40 and len(manifest.files) == 14
    assert all(f.chars > 0 for f in manifest.files)
    assert manifest.url_of(manifest.files[0]).startswith("https://raw.githubusercontent.com/")


def test_download_is_verified_recorded_and_reused(upstream):
    manifest, dev_data = upstream
    folder = ambigmt_folder(manifest)
    for path in FILES:
        assert (folder / path).read_bytes() == (dev_data / path).read_bytes()
    recorded = json.loads((folder / CHECKSUMS_FILE).read_text())
    assert recorded[FILES[0]] == hashlib.sha256((dev_data / FILES[0]).read_bytes()).hexdigest()
    mtime = (folder / FILES[0]).stat().st_mtime_ns
    assert ambigmt_folder(manifest) == folder
    assert (folder / FILES[0]).stat().st_mtime_ns == mtime  # not fetched again


def test_a_damaged_copy_is_fetched_again(upstream):
    manifest, dev_data = upstream
    folder = ambigmt_folder(manifest)
    (folder / FILES[1]).write_text("tampered", encoding="utf-8")
    ambigmt_folder(manifest)
    assert (folder / FILES[1]).read_bytes() == (dev_data / FILES[1]).read_bytes()


def test_a_download_that_does_not_match_the_manifest_is_refused(upstream):
    manifest, _ = upstream
    wrong = Manifest(manifest.repository, manifest.commit, manifest.url,
                     (ManifestFile(FILES[0], 12, None), ManifestFile(FILES[1], 1, "ab" * 32)))
    with pytest.raises(DataError, match="does not match the manifest"):
        ambigmt_folder(wrong)


def test_no_network_says_how_to_work_offline():
    manifest = Manifest("example/ambigmt", "0" * 40, "http://127.0.0.1:9/{path}", (ManifestFile(FILES[0], 1, None),))
    with pytest.raises(DataError, match="--data DIR"):
        ambigmt_folder(manifest)


def test_the_environment_variable_names_a_local_copy(dev_data, monkeypatch):
    monkeypatch.setenv("INTERCPT_AMBIGMT_DIR", str(dev_data))
    assert ambigmt_folder() == dev_data
