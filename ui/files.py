"""The page's file uploads: the session's glossary, a project profile, and a localisation file to translate.

A file goes through the same document driver as ``intercpt translate --file``: one memory of
answers for the whole file, placeholders masked and checked, the same structure written back.
On upload the file's question sheet is read (every segment, as ``--plan`` reads it), with the answers
of the uploaded profile and of the page's preferences filled in; the person answers the rest with a
click each, and the translation applies every answer wherever it holds and asks nothing. A question
skipped is left to the model's best guess, and the units it touched are flagged for review (PO
``fuzzy``, XLIFF state) and listed in the summary. With the simulated user, or a method that does not
ask, no sheet is read: the file is translated as before, with the preferences only.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from assistant.ambiguity import get_type
from assistant.chain import User
from assistant.document import DocumentTranslator, noted
from assistant.errors import InputError
from assistant.formats import FORMATS, Document, FileTranslation, read_document, translate_document, translator_segments
from assistant.formats.pace import PaceReport
from assistant.languages import language_name
from assistant.profile import Profile
from assistant.sheet import Sheet, prepared_sheet
from assistant.transcript import Transcript, Turn

from .file_store import FileStore
from .glossaries import GlossaryUpload, glossary_markdown
from .handlers import ChatHandlers, ChatOptions, preferences_from, read_context
from .messages import describe_error, upload_error
from .profiles import preferences_profile, profile_download, profile_markdown, read_profile_upload
from .sessions import FileSheet, Session
from .sheet_panel import replies

MAX_FILE_BYTES = 2_000_000
FILE_TYPES = tuple(FORMATS)


@dataclass
class FileResult:
    """A translated file to download (None when it failed), what the page says about it, and the
    project's answers as a profile to download (where a sheet was answered)."""

    out: Path | None
    summary: str
    profile: Path | None = None


@dataclass
class SheetRead:
    """An uploaded file's question sheet (None where the file is translated without one) and the line
    beside the upload."""

    sheet: Sheet | None
    note: str


def read_file_upload(upload: str | Path) -> Document:
    """The uploaded file's units, checked as ``translate --file`` checks them, plus a size bound."""
    path = Path(upload)
    try:
        if path.suffix.lower() in FORMATS and path.stat().st_size > MAX_FILE_BYTES:
            raise InputError(f"“{path.name}” is larger than {MAX_FILE_BYTES // 1_000_000} MB")
        document = read_document(path)
    except InputError as err:
        raise upload_error(err, path) from None
    if not document.units:
        raise InputError(f"“{path.name}”: nothing to translate (every unit is empty or already translated)")
    return document


class FileHandlers:
    """The glossary and profile uploads, a file's question sheet and its translation, on the chat's
    assistant and sessions."""

    def __init__(self, chat: ChatHandlers):
        self.chat = chat

    # -- the glossary ------------------------------------------------------------------------
    def set_glossary(self, upload: str | None, session_id: str | None) -> tuple[str, str | None, str]:
        """Keep the uploaded glossary for the session: (the session id, the upload or None when
        refused, the preferences view's glossary line)."""
        session_id = session_id or uuid.uuid4().hex
        session = self.chat.sessions.get(session_id)
        if not upload:
            session.glossary = None
            return session_id, None, glossary_markdown(None)
        try:
            session.glossary = GlossaryUpload.read(upload)
        except InputError as err:
            session.glossary = None
            return session_id, None, f"⚠️ {err}\n\n{glossary_markdown(None)}"
        return session_id, upload, f"✓ {glossary_markdown(session.glossary)}"

    def clear_glossary(self, session_id: str | None) -> str:
        """Forget the session's glossary (the upload was cleared)."""
        if session_id:
            self.chat.sessions.get(session_id).glossary = None
        return glossary_markdown(None)

    # -- the project profile -----------------------------------------------------------------
    def set_profile(self, upload: str | None, session_id: str | None) -> tuple[str, str | None, str, Sheet | None]:
        """Keep the uploaded profile for the session and fill in the open questions of the file's sheet
        it answers: (the session id, the upload or None when refused, the line beside it, the sheet)."""
        session_id = session_id or uuid.uuid4().hex
        session = self.chat.sessions.get(session_id)
        sheet = session.file_sheet.sheet if session.file_sheet else None
        if not upload:
            session.profile = None
            return session_id, None, "", sheet
        try:
            session.profile = read_profile_upload(upload)
        except InputError as err:
            session.profile = None
            return session_id, None, f"⚠️ {err}", sheet
        if sheet is not None:
            sheet.apply_profile(session.profile)
        return session_id, upload, profile_markdown(session.profile, Path(upload).name), sheet

    # -- a file to translate -----------------------------------------------------------------
    @staticmethod
    def check_file(upload: str | None) -> tuple[str | None, str]:
        """The upload kept or refused, and the line beside it."""
        if not upload:
            return None, ""
        try:
            document = read_file_upload(upload)
        except InputError as err:
            return None, f"⚠️ {err}"
        kind = FORMATS[Path(upload).suffix.lower()]
        count = len(document.units)
        return upload, f"✓ “{Path(upload).name}”: {count} unit{'s' if count != 1 else ''} to translate ({kind})"

    def read_sheet(self, upload: str | None, options: ChatOptions, session_id: str, *,
                   progress: bool = False) -> SheetRead:
        """Read the uploaded file's question sheet for the session, the profile's and the preferences'
        answers filled in; none where nobody answers on the page (the simulated user, a baseline method).
        ``progress`` shows a tqdm bar (the page tracks it)."""
        session = self.chat.sessions.get(session_id)
        session.file_sheet = None
        if not upload or options.simulate or options.chain.method != "intercpt":
            return SheetRead(None, "")
        try:
            segments = translator_segments(read_file_upload(upload))
            sheet = prepared_sheet(self.chat.assistant.steps.under(options.chain), segments, options.lang,
                                   known_answers(session, options), progress=progress)
        except Exception as err:  # noqa: BLE001 - every failure reaches the person as a short message
            return SheetRead(None, f"⚠️ {describe_error(err)}")
        session.file_sheet = FileSheet(upload, sheet)
        return SheetRead(sheet, "")

    def translate_file(self, upload: str | None, options: ChatOptions, session_id: str | None,
                       picked: Sequence[str | None] = (), *, report: PaceReport | None = None) -> FileResult:
        """Translate the uploaded file with the page's settings, glossary and the sheet's answers as
        ``picked`` in its slots (the preferences alone where no sheet was read); ``report`` hears the
        segments done and the pace (the page's progress bar)."""
        try:
            if not upload:
                raise InputError("upload a file to translate first")
            document = read_file_upload(upload)
            session = self.chat.sessions.get(session_id)
            assistant = self.chat.assistant
            background = read_context(options.context, options.upload)
            translator = DocumentTranslator(assistant, options.lang, options.chain, background=background,
                                            glossary=session.glossary_for(options.lang))
            sheet = answered_sheet(session, upload, options.lang, picked)
            if sheet is not None:
                known = known_answers(session, options)
                user, preferences = sheet.user(known), sheet.memory(known)
            else:
                user, preferences = None, preferences_from(options.register, options.people)
                if options.simulate:
                    user = assistant.user("simulated", options.lang, options.chain, context=background)
            transcripts: list[Transcript] = []
            segments = translator.segment_translator(user, transcripts, preferences, sheet)
            source = Path(upload)
            out = self.chat.files.new_path(f"{source.stem}.{options.lang}{source.suffix}")
            report = translate_document(document, out, noted(segments, transcripts),
                                        target_lang=options.lang, progress=False, report=report)
            summary = file_summary(report, out, transcripts, options.lang, user, sheet is not None)
            profile = answers_profile(session, options, sheet, self.chat.files) if sheet else None
            return FileResult(out, summary, profile)
        except Exception as err:  # noqa: BLE001 - every failure reaches the person as a short message
            return FileResult(None, f"⚠️ {describe_error(err)}")


def known_answers(session: Session, options: ChatOptions) -> Profile:
    """What the project already answered: the page's preferences, then the uploaded profile (which wins)."""
    return preferences_profile(options).updated_with(session.profile or Profile())


def answered_sheet(session: Session, upload: str, lang: str, picked: Sequence[str | None]) -> Sheet | None:
    """The sheet read for ``upload`` with the person's ``picked`` answers recorded; None where none was read."""
    read = session.file_sheet
    if read is None or read.upload != upload:
        return None
    if read.sheet.target_lang != lang:
        raise InputError(f"the file's questions were read for {language_name(read.sheet.target_lang)}; upload the "
                         f"file again to answer them for {language_name(lang)}")
    read.sheet.answer_all(replies(read.sheet, picked))
    return read.sheet


def answers_profile(session: Session, options: ChatOptions, sheet: Sheet, files: FileStore) -> Path:
    """The project's answers, the uploaded profile's and the preferences' with the sheet's new ones, as a
    file to download. A question skipped keeps the uploaded profile's answer as it was (the skip holds for
    this file) and adds no preference's answer (the person set it aside)."""
    profile = sheet.without_skipped(preferences_profile(options)).updated_with(session.profile or Profile())
    sheet.record_in(profile)
    return profile_download(profile, files)


def file_summary(report: FileTranslation, out: Path, transcripts: list[Transcript], lang: str,
                 user: User | None, sheet: bool = False) -> str:
    """What the page says about a translated file: the answers it used (the sheet's, or the preferences'),
    what it guessed, the checks."""
    units = report.document.units
    lines = [f"✓ {len(units)} unit{'s' if len(units) != 1 else ''} of “{report.document.path.name}” translated "
             f"into {language_name(lang)}: "
             f"**{out.name}**"]
    turns = [turn for t in transcripts for turn in t.turns]
    applied = "applied your answers to the whole file" if sheet else "applied your setting"
    for what, chosen in ((applied, [t for t in turns if t.answered_by == "preference"]),
                         ("answered by the simulated user", [t for t in turns if t.answered_by == "simulated"])):
        if chosen:
            lines.append(f"{what}: " + "; ".join(f"“{t.span}” → {t.answer}" for t in _distinct(chosen)))
    guessed = [t for t in turns if t.answer is None]
    if guessed:
        asked = "; ".join(f"“{t.span}” ({t.question})" for t in _distinct(guessed))
        if sheet:
            lines.append(f"best guess, flagged for review (skipped on the sheet): {asked}")
        else:
            who = "the simulated user could not answer" if user is not None else "a file is translated without asking"
            lines.append(f"best guess, flagged for review ({who}): {asked}. Set a preference (Address people, "
                         "People) to decide it for the whole file")
    terms = [c for t in transcripts for c in t.checks if c.name == "terms"]
    if terms:
        kept = sum(c.status == "pass" for c in terms)
        lines.append(f"terms from your glossary: {kept} of {len(terms)} kept")
    for unit, check in zip(units, report.checks):
        if check.status == "fail":
            lines.append(f"unit {unit.id}: placeholders {check.observed}; flagged for review")
    return "\n".join(f"- {line}" for line in lines)


def _distinct(turns: list[Turn]) -> list[Turn]:
    """One turn per question: per ambiguity and word, and one per type remembered for the session (a
    file keeps one register for every "you")."""
    seen: dict[tuple[str, str], Turn] = {}
    for turn in turns:
        seen.setdefault((turn.ambiguity, get_type(turn.ambiguity).same_question_key(turn.span)), turn)
    return list(seen.values())
