"""Count the gender questions the pre-pass raises on real gettext catalogues, before and after a change.

    python benchmarks/catalogue_questions.py --po cms.po filer.po [--lang fr] [--list] [--out questions.json]
    python benchmarks/catalogue_questions.py --compare before.json after.json

Catalogues of web applications are the text a localisation team feeds the assistant, and the place where words
of an interface pass for people ("Voucher created", "Show all", "Save and add another", "its descendants"). Each
msgid is masked as the file formats mask it and read by the pre-pass alone (no model call); a question counts when
its type is of the gender family. ``--out`` keeps every message's questions, and ``--compare`` prints what one file
asks that the other does not, message by message, for a person to read: the counts say how many questions a
change removed, not whether each was needless. The catalogues ship in the wheels on PyPI, e.g.
``pip download django-cms==5.1.3 --no-deps`` and unzip ``cms/locale/fr/LC_MESSAGES/django.po``; to measure an
older revision, copy this script into a worktree of it (``git worktree add``) and run it there: it reads the
assistant of the tree it sits in.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.ambiguity import family_of  # noqa: E402
from assistant.detection import find_candidates  # noqa: E402
from assistant.formats.placeholders import mask  # noqa: E402


def questions(po: Path, lang: str) -> dict[str, list[str]]:
    """Each msgid (masked) with the words of the gender questions the pre-pass raises on it."""
    found: dict[str, list[str]] = {}
    for entry in polib.pofile(str(po)):
        if entry.msgid.strip():
            text = mask(entry.msgid).text
            found[text] = [c.span for c in find_candidates(text, lang) if family_of(c.ambiguity) == "gender"]
    return found


def compare(before: dict, after: dict) -> None:
    for name in before:
        old, new = before[name], after.get(name, {})
        gone = {text: sorted(set(spans) - set(new.get(text, []))) for text, spans in old.items()}
        added = {text: sorted(set(spans) - set(old.get(text, []))) for text, spans in new.items()}
        print(f"## {name}: {sum(map(len, gone.values()))} gone, {sum(map(len, added.values()))} new")
        for label, changes in (("gone", gone), ("new", added)):
            for text, spans in changes.items():
                if spans:
                    print(f"- {label}: {spans} in {text[:100]!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--po", type=Path, nargs="+", help="gettext catalogues (English msgids)")
    parser.add_argument("--lang", default="fr", help="the target language (default fr)")
    parser.add_argument("--list", action="store_true", help="print every question, message by message")
    parser.add_argument("--out", type=Path, help="keep every message's questions as JSON, for --compare")
    parser.add_argument("--compare", type=Path, nargs=2, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args()
    if args.compare:
        compare(*(json.loads(path.read_text(encoding="utf-8")) for path in args.compare))
        return
    if not args.po:
        parser.error("give --po or --compare")
    found = {str(po): questions(po, args.lang) for po in args.po}
    print(f"| catalogue | messages | gender questions ({args.lang}) | messages with one |\n|---|---|---|---|")
    for name, asked in found.items():
        print(f"| {name} | {len(asked)} | {sum(map(len, asked.values()))} | {sum(map(bool, asked.values()))} |")
        if args.list:
            for text, spans in asked.items():
                if spans:
                    print(f"|  | {text[:100]!r} | {spans} | |")
    if args.out:
        args.out.write_text(json.dumps(found, indent=1, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    main()
