"""Build tests/data/formats/accounts_200.po from the gettext catalogues of three PyPI wheels, by the selection
rule of its data card (accounts_200.md): strings with "you" or a person, 70 from each file in turn.

    pip download --no-deps django-allauth==65.21.1 flask-security-too==5.9.2 django-postman==4.6 -d wheels/
    python benchmarks/build_accounts_po.py wheels/django_allauth-65.21.1-py3-none-any.whl \
        wheels/flask_security_too-5.9.2-py3-none-any.whl wheels/django_postman-4.6-py3-none-any.whl
"""

from __future__ import annotations

import argparse
import re
import zipfile
from pathlib import Path

import polib

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "formats" / "accounts_200.po"
CATALOGUES = {"django_allauth": "allauth/locale/fr/LC_MESSAGES/django.po",
              "flask_security_too": "flask_security/translations/fr_FR/LC_MESSAGES/flask_security.po",
              "django_postman": "postman/locale/fr/LC_MESSAGES/django.po"}
WANTED = re.compile(r"\b(you|your|yours|yourself|users?|members?|administrators?|admin|owners?|friends?|person|"
                    r"people|someone|somebody|anyone|anybody|customers?|recipient|sender)\b", re.IGNORECASE)
TOTAL, PER_FILE = 200, 70
KEPT_FLAGS = ("python-format", "python-brace-format")


def qualifying(catalogue: polib.POFile) -> list[polib.POEntry]:
    """The entries the rule takes, in file order."""
    return [entry for entry in catalogue if entry.msgid and not entry.obsolete
            and WANTED.search(f"{entry.msgid} {entry.msgid_plural or ''}")]


def blank(entry: polib.POEntry) -> polib.POEntry:
    """The entry as a translation job: its source, context, format flags and references; no French."""
    return polib.POEntry(msgid=entry.msgid, msgid_plural=entry.msgid_plural, msgctxt=entry.msgctxt,
                         msgstr="" if not entry.msgid_plural else None,
                         msgstr_plural={0: "", 1: ""} if entry.msgid_plural else {},
                         flags=[flag for flag in entry.flags if flag in KEPT_FLAGS], occurrences=entry.occurrences)


def chosen(files: list[list[polib.POEntry]]) -> list[polib.POEntry]:
    """Up to ``PER_FILE`` from each file in turn, a msgid once; the others fill in where one runs short."""
    taken: dict[str, polib.POEntry] = {}
    for quota in (PER_FILE, TOTAL):
        for entries in files:
            for entry in entries:
                from_file = sum(e in entries for e in taken.values())
                if len(taken) >= TOTAL or from_file >= quota:
                    break
                taken.setdefault(entry.msgid, entry)
    return list(taken.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("wheels", nargs=len(CATALOGUES), type=Path,
                        help="the django-allauth, Flask-Security-Too and django-postman wheels, in this order")
    args = parser.parse_args()
    files = []
    for wheel in args.wheels:
        inside = next(path for prefix, path in CATALOGUES.items() if wheel.name.lower().startswith(prefix))
        with zipfile.ZipFile(wheel) as archive:
            files.append(qualifying(polib.pofile(archive.read(inside).decode("utf-8"))))
    out = polib.POFile()
    out.metadata = {"Project-Id-Version": "accounts_200", "Language": "fr", "MIME-Version": "1.0",
                    "Content-Type": "text/plain; charset=UTF-8", "Content-Transfer-Encoding": "8bit",
                    "Plural-Forms": "nplurals=2; plural=(n > 1);"}
    out.header = ("200 English strings of django-allauth 65.21.1 (MIT), Flask-Security-Too 5.9.2 (MIT) and "
                  "django-postman 4.6 (BSD-3-Clause); see accounts_200.md")
    out.extend(blank(entry) for entry in chosen(files))
    out.save(str(OUT))
    print(f"{len(out)} entries ({', '.join(str(len(f)) for f in files)} qualifying per file) -> {OUT}")


if __name__ == "__main__":
    main()
