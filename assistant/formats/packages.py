"""Zip packages (Word's ``.docx``) unpacked within bounds before a library reads them.

A zip states each member's unpacked size, and ``ZipFile.read`` inflates a member whole before it
cuts it to that size and checks its CRC: a few hundred KB that state 1 KB can unpack to gigabytes
in memory (a zip bomb) before the read fails. So the members are counted and their stated sizes
summed against the bounds, then each member is inflated a chunk at a time (zipfile stops a member
at its stated size, and one that holds more fails its CRC) into a fresh uncompressed package that
python-docx reads. Word deflates or stores its members; other methods (bzip2 and LZMA inflate a
chunk without a size limit) are refused.
"""

from __future__ import annotations

import io
import shutil
import zlib
from pathlib import Path
from zipfile import ZIP_DEFLATED, ZIP_STORED, BadZipFile, ZipFile

from ..errors import InputError

MAX_MEMBERS = 2000
MAX_UNPACKED_BYTES = 32 * 1024 * 1024
CHUNK = 64 * 1024


def unpacked_package(path: Path, kind: str) -> io.BytesIO:
    """``path``'s members in an uncompressed zip in memory; an ``InputError`` for a package that is not
    a zip, is damaged or encrypted, or passes ``MAX_MEMBERS`` or ``MAX_UNPACKED_BYTES`` once unpacked."""
    limit = f"a {kind} file holds at most {MAX_MEMBERS} parts and {MAX_UNPACKED_BYTES // (1024 * 1024)} MB unpacked"
    plain = io.BytesIO()
    try:
        with ZipFile(path) as packed, ZipFile(plain, "w", ZIP_STORED) as copy:
            members = packed.infolist()
            if len(members) > MAX_MEMBERS:
                raise InputError(f"{path} has {len(members)} parts; {limit}")
            stated = sum(member.file_size for member in members)
            if stated > MAX_UNPACKED_BYTES:
                raise InputError(f"{path} unpacks to {stated // (1024 * 1024)} MB; {limit}")
            for member in members:
                if member.compress_type not in (ZIP_STORED, ZIP_DEFLATED):
                    raise InputError(f"{path}: part {member.filename} is compressed with method "
                                     f"{member.compress_type}; a {kind} file is deflated or stored")
                with packed.open(member) as source, copy.open(member.filename, "w") as target:
                    shutil.copyfileobj(source, target, CHUNK)
    except (BadZipFile, zlib.error, EOFError, RuntimeError) as err:
        raise InputError(f"{path} is not a readable {kind} file (a damaged or encrypted zip: {err})") from None
    plain.seek(0)
    return plain
