"""The page's file panels: the glossary upload among the preferences, and "Translate a file" with its
question sheet and project profile.

Each builder lays out its components where ``build_demo`` calls it and wires their events to
``FileHandlers``; reading the sheet and the file translation take the page's settings and show Gradio's
progress bar.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any, Callable

import gradio as gr

from .files import FILE_TYPES, FileHandlers
from .glossaries import GLOSSARY_TYPES, glossary_markdown
from .handlers import ChatOptions
from .profiles import PROFILE_TYPES
from .sheet_panel import SheetPanel

ReadSettings = Callable[[dict], ChatOptions]  # the page's settings from an event's values


def glossary_panel(files: FileHandlers, session: gr.State) -> None:
    """The glossary upload and its line in the preferences view; clearing the upload removes it."""
    upload = gr.File(label="Glossary (.csv or .tsv as DeepL writes them: source,target a line; or .tbx)",
                     file_types=list(GLOSSARY_TYPES), type="filepath", elem_id="glossary-upload")
    view = gr.Markdown(glossary_markdown(None), elem_id="glossary-view")
    upload.upload(files.set_glossary, [upload, session], [session, upload, view], api_visibility="private")
    upload.clear(files.clear_glossary, session, view, api_visibility="private")


def file_panel(files: FileHandlers, read_settings: ReadSettings, settings: list[gr.components.Component],
               session: gr.State, events: dict[str, Any]) -> list[gr.events.Dependency]:
    """Upload a file (and a project profile), answer its question sheet, translate it with the page's
    ``settings`` (read by ``read_settings``) and the answers, download the result and the answers as a
    profile; the events that run the model (for Stop to cancel). ``events``: the model queue's event options."""
    with gr.Accordion("Translate a file", open=False, elem_id="file-area"):
        gr.Markdown("A gettext .po/.pot, XLIFF, .srt, Word .docx or .txt file, translated with the settings, "
                    "preferences and glossary above into a file of the same structure, placeholders kept. "
                    "Its questions are asked once, for the whole file, before it is translated.")
        with gr.Row():
            source = gr.File(label="File to translate", file_types=list(FILE_TYPES), type="filepath",
                             elem_id="file-upload")
            profile = gr.File(label="Project profile (.yaml, optional): answers already given", type="filepath",
                              file_types=list(PROFILE_TYPES), elem_id="profile-upload")
        note = gr.Markdown(elem_id="file-note")
        profile_note = gr.Markdown(elem_id="profile-note")
        sheet = SheetPanel()
        translate = gr.Button("Translate the file", variant="primary", elem_id="translate-file")
        summary = gr.Markdown(elem_id="file-summary")
        with gr.Row():
            download = gr.DownloadButton("Download the translation", visible=False, elem_id="file-download")
            profile_out = gr.DownloadButton("Download the profile", visible=False, elem_id="profile-download")

    def read(values: dict, progress=gr.Progress(track_tqdm=True)) -> dict:
        session_id = values[session] or uuid.uuid4().hex
        found = files.read_sheet(values[source], read_settings(values), session_id, progress=True)
        return {session: session_id, **({note: found.note} if found.note else {}), **sheet.shown(found.sheet)}

    def run(values: dict, progress=gr.Progress()) -> tuple:
        session_id = values[session] or uuid.uuid4().hex
        picked = [values[choice] for choice in sheet.choices]

        def report(done: int, total: int, pace: str) -> None:
            progress((done, total), desc=f"translating: {pace}", unit="segments")

        result = files.translate_file(values[source], read_settings(values), session_id, picked, report=report)
        return session_id, result.summary, shown(result.out), shown(result.profile)

    def set_profile(upload: str | None, session_id: str | None) -> dict:
        session_id, kept, line, read = files.set_profile(upload, session_id)
        return {session: session_id, profile: kept, profile_note: line, **sheet.shown(read, refill=True)}

    def cleared() -> dict:
        return {note: "", download: shown(None), profile_out: shown(None), **sheet.shown(None)}

    reading = source.upload(files.check_file, source, [source, note], api_visibility="private").then(
        read, {source, *settings, session}, {session, note, *sheet.parts}, **events)
    source.clear(cleared, None, {note, download, profile_out, *sheet.parts}, api_visibility="private")
    profile.upload(set_profile, [profile, session], {session, profile, profile_note, *sheet.parts},
                   api_visibility="private")
    profile.clear(set_profile, [profile, session], {session, profile, profile_note, *sheet.parts},
                  api_visibility="private")
    translating = translate.click(run, {source, *settings, session, *sheet.choices},
                                  [session, summary, download, profile_out], **events)
    return [reading, translating]


def shown(path: Path | None) -> dict:
    """A download button with ``path``, or hidden without one."""
    return gr.update(value=str(path), visible=True) if path else gr.update(value=None, visible=False)
