"""The page's file panels: the glossary upload among the preferences, and "Translate a file".

Each builder lays out its components where ``build_demo`` calls it and wires their events to
``FileHandlers``; the file translation takes the page's settings and shows Gradio's progress bar.
"""

from __future__ import annotations

import uuid
from typing import Any, Callable

import gradio as gr

from .files import FILE_TYPES, FileHandlers
from .glossaries import GLOSSARY_TYPES, glossary_markdown
from .handlers import ChatOptions

ReadSettings = Callable[[dict], ChatOptions]  # the page's settings from an event's values


def glossary_panel(files: FileHandlers, session: gr.State) -> None:
    """The glossary upload and its line in the preferences view; clearing the upload removes it."""
    upload = gr.File(label="Glossary (.csv or .tsv as DeepL writes them: source,target a line; or .tbx)",
                     file_types=list(GLOSSARY_TYPES), type="filepath", elem_id="glossary-upload")
    view = gr.Markdown(glossary_markdown(None), elem_id="glossary-view")
    upload.upload(files.set_glossary, [upload, session], [session, upload, view], api_visibility="private")
    upload.clear(files.clear_glossary, session, view, api_visibility="private")


def file_panel(files: FileHandlers, read_settings: ReadSettings, settings: list[gr.components.Component],
               session: gr.State, events: dict[str, Any]) -> gr.events.Dependency:
    """Upload a file, translate it with the page's ``settings`` (read by ``read_settings``), download the
    result; the event of the translation (for Stop to cancel). ``events``: the model queue's event options."""
    with gr.Accordion("Translate a file", open=False, elem_id="file-area"):
        gr.Markdown("A gettext .po/.pot, XLIFF, .srt, Word .docx or .txt file, translated with the settings, "
                    "preferences and glossary above into a file of the same structure, placeholders kept.")
        source = gr.File(label="File to translate", file_types=list(FILE_TYPES), type="filepath",
                         elem_id="file-upload")
        note = gr.Markdown(elem_id="file-note")
        translate = gr.Button("Translate the file", variant="primary", elem_id="translate-file")
        summary = gr.Markdown(elem_id="file-summary")
        download = gr.DownloadButton("Download the translation", visible=False, elem_id="file-download")

    def run(values: dict, progress=gr.Progress(track_tqdm=True)) -> tuple:
        session_id = values[session] or uuid.uuid4().hex
        result = files.translate_file(values[source], read_settings(values), session_id, progress=True)
        shown = gr.update(value=str(result.out), visible=True) if result.out else gr.update(value=None, visible=False)
        return session_id, result.summary, shown

    source.upload(files.check_file, source, [source, note], api_visibility="private")
    source.clear(lambda: ("", gr.update(value=None, visible=False)), None, [note, download],
                 api_visibility="private")
    return translate.click(run, {source, *settings, session}, [session, summary, download], **events)
