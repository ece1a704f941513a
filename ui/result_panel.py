"""The page's result column: the translation box, its account, the cards of the alternatives, the
answered questions (each with its menu to change the answer) and the transcript.

``ResultPanel`` lays the components out where ``build_demo`` creates it and turns a transcript
(or none) into their updates.
"""

from __future__ import annotations

import gradio as gr

from assistant.transcript import Transcript

from .labels import SKIP, answer_options
from .messages import account_markdown, checks_markdown, translation_label, variants_note

MAX_ALTERNATIVES = 2   # the chain offers the first two options of a skipped question
MAX_ANSWER_ROWS = 5    # the settings allow at most 5 questions
WHO_ANSWERED = {"human": "your answer", "none": "skipped", "simulated": "the simulated user",
                "setting": "your setting", "picked": "the card you picked"}
TOUCH = ["touch-target"]  # a button at least 44 px tall on a phone (page.css)


class ResultPanel:
    """The components of the result column, and what each shows of a finished translation."""

    def __init__(self) -> None:
        self.translation = gr.Textbox(label="Translation", buttons=["copy"], interactive=False, lines=3,
                                      elem_id="translation")
        self.note = gr.Markdown(elem_id="translation-note")
        self.account = gr.Markdown(elem_id="account")
        self.cards, self.card_texts, self.card_uses, self.card_notes = [], [], [], []
        for i in range(MAX_ALTERNATIVES):
            with gr.Group(visible=False, elem_id=f"alternative-{i}") as card:
                self.card_texts.append(gr.Textbox(buttons=["copy"], interactive=False))  # the label: its option
                self.card_notes.append(gr.Markdown())
                self.card_uses.append(gr.Button("Use this one", size="sm", elem_id=f"use-{i}", elem_classes=TOUCH))
            self.cards.append(card)
        self.rows, self.row_notes, self.row_choices, self.row_changes = [], [], [], []
        for i in range(MAX_ANSWER_ROWS):
            # The answer above its menu: the menu as wide as the column, so no answer's label is cut.
            with gr.Column(visible=False, elem_id=f"answer-{i}", variant="panel") as row:
                self.row_notes.append(gr.Markdown())
                with gr.Row(equal_height=True):
                    self.row_choices.append(gr.Dropdown(allow_custom_value=True, show_label=False, container=False,
                                                        scale=3, min_width=300, elem_id=f"answer-choice-{i}"))
                    self.row_changes.append(gr.Button("Change answer", size="sm", scale=1, min_width=120,
                                                      elem_id=f"change-{i}", elem_classes=TOUCH))
            self.rows.append(row)
        with gr.Accordion("Transcript (JSON)", open=False):
            self.transcript = gr.JSON(label="Transcript")

    @property
    def parts(self) -> list:
        """Every component ``shown`` updates."""
        return [self.translation, self.account, self.transcript, self.note, *self.cards, *self.card_notes,
                *self.card_texts, *self.rows, *self.row_notes, *self.row_choices]

    def shown(self, t: Transcript | None) -> dict:
        """The translation box, labelled with the text it translates, its account, cards and answered
        questions: those of ``t``, or cleared."""
        return {self.translation: gr.update(value=t.translation if t else "", label=translation_label(t)),
                self.account: account_markdown(t) if t else "", self.transcript: t.to_dict() if t else None,
                **self._alternatives(t), **self._answers(t)}

    def drafting(self, draft: str, source: str | None) -> dict:
        """The translation box while the translation of ``source`` streams."""
        return {self.translation: gr.update(value=draft, label=translation_label(source))}

    def _alternatives(self, t: Transcript | None) -> dict:
        """The alternative cards and what the translation box holds beside them (hidden without them)."""
        updates: dict = {self.note: variants_note(t)}
        alternatives = t.alternatives if t else []
        for i in range(MAX_ALTERNATIVES):
            alt = alternatives[i] if i < len(alternatives) else None
            updates[self.cards[i]] = gr.update(visible=alt is not None)
            updates[self.card_notes[i]] = checks_markdown(alt.checks, t.target_lang) if alt else ""
            updates[self.card_texts[i]] = gr.update(value=alt.translation, label=f"If {alt.assumption}") if alt else ""
        return updates

    def _answers(self, t: Transcript | None) -> dict:
        """The answered questions of a finished translation, each with its menu (hidden without one)."""
        updates: dict = {}
        turns = t.turns if t else []
        for i in range(MAX_ANSWER_ROWS):
            turn = turns[i] if i < len(turns) else None
            updates[self.rows[i]] = gr.update(visible=turn is not None)
            if turn is None:
                continue
            who = WHO_ANSWERED.get(turn.answered_by, turn.answered_by)
            updates[self.row_notes[i]] = f"“{turn.span}” → **{turn.answer or 'not answered'}** ({who})"
            updates[self.row_choices[i]] = gr.update(choices=answer_options(turn.ambiguity, turn.options, t.target_lang),
                                                     value=turn.answer or SKIP)
        return updates
