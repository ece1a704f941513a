"""The page's glossary: an uploaded CSV, TSV or TBX file kept for the browser session, applied to
every translation of that session (chat and files), in whichever language the page asks for.

The file is read once on upload, so a bad one is refused beside the upload, and its term matcher
is built then, once; a TBX file is read again for each target language (it may hold several),
and an error names the file by its own name, never by the server's upload path. Besides this
page's own size bound, ``Glossary.load`` applies the bounds of every glossary.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from assistant.errors import InputError
from assistant.glossary import Glossary

from .messages import upload_error

MAX_GLOSSARY_BYTES = 1_000_000
GLOSSARY_TYPES = (".csv", ".tsv", ".tbx")


@dataclass
class GlossaryUpload:
    """An uploaded glossary: its path on the server, the glossary read (and its matcher built) on
    upload, and one ``Glossary`` per target language asked for so far."""

    path: Path
    uploaded: Glossary
    _by_lang: dict[str, Glossary] = field(default_factory=dict, repr=False)

    @property
    def entries(self) -> int:
        return len(self.uploaded.entries)

    @property
    def target_lang(self) -> str | None:
        return self.uploaded.target_lang

    @property
    def name(self) -> str:
        return self.path.name

    @classmethod
    def read(cls, upload: str | Path) -> "GlossaryUpload":
        """The upload checked: its type, its size, UTF-8 text with at least one entry (``Glossary.load``)."""
        path = Path(upload)
        if path.suffix.lower() not in GLOSSARY_TYPES:
            raise InputError(f"“{path.name}” is not a glossary; upload a .csv, .tsv or .tbx file")
        if path.stat().st_size > MAX_GLOSSARY_BYTES:
            raise InputError(f"“{path.name}” is larger than {MAX_GLOSSARY_BYTES // 1_000_000} MB")
        return cls(path, _load(path, None).prepare())

    def for_lang(self, lang: str) -> Glossary:
        """The glossary into ``lang``; an ``InputError`` when the file is a glossary into another language.
        A CSV or TSV file holds the same terms whatever the language: the upload's matcher serves them all."""
        if lang not in self._by_lang:
            if self.path.suffix.lower() == ".tbx":
                self._by_lang[lang] = _load(self.path, lang)
            else:
                self._by_lang[lang] = self.uploaded.into(lang, f"“{self.name}”")
        return self._by_lang[lang]

    def describe(self) -> str:
        into = f" into {self.target_lang}" if self.target_lang else ""
        return f"{self.entries} term{'s' if self.entries != 1 else ''}{into} from “{self.name}”"


def _load(path: Path, lang: str | None) -> Glossary:
    try:
        return Glossary.load(path, lang)
    except InputError as err:
        raise upload_error(err, path) from None


def glossary_markdown(upload: GlossaryUpload | None) -> str:
    """The glossary line of the preferences view."""
    if upload is None:
        return "_No glossary: upload one to keep your terms in every translation._"
    return f"**Glossary:** {upload.describe()}, applied to every translation"
