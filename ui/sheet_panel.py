"""The file panel's question sheet: every open question of an uploaded file, answered with one click each
before the file is translated.

A sheet holds few questions (one register, one per person, a few words), so the panel lays out a fixed
number of hidden slots and shows one per question: the question, how many segments it affects, one or two
example segments with the words asked about marked, and its options as a radio group with a skip. A
question the project profile (or a preference) answered comes picked.
"""

from __future__ import annotations

from collections.abc import Sequence

import gradio as gr

from assistant.sheet import Example, Sheet, SheetQuestion

from .labels import SKIP, answer_options, option_label

MAX_SHEET_QUESTIONS = 10  # the slots laid out; a sheet's further questions are guessed and flagged
EXAMPLES_SHOWN = 2
IN_QUESTION = "in question"
SHEET_SKIP_LABEL = "skip — the model guesses, flagged for review"
FROM_PROFILE = "from your profile or preferences"


def marked(example: Example) -> list[tuple[str, str | None]]:
    """An example segment as ``gr.HighlightedText`` pieces, its words asked about marked, after its number."""
    pieces: list[tuple[str, str | None]] = [(f"segment {example.segment}: ", None)]
    at = 0
    for start, end in sorted(example.words):
        pieces += [(example.text[at:start], None), (example.text[start:end], IN_QUESTION)]
        at = end
    pieces.append((example.text[at:], None))
    return [piece for piece in pieces if piece[0]]


def examples_shown(question: SheetQuestion) -> list[tuple[str, str | None]]:
    """The first examples of a question, one after another."""
    pieces: list[tuple[str, str | None]] = []
    for example in question.examples[:EXAMPLES_SHOWN]:
        pieces += ([("  ·  ", None)] if pieces else []) + marked(example)
    return pieces


def choices(question: SheetQuestion, lang: str) -> list[tuple[str, str]]:
    """The options as labelled radio choices, an answer of the profile's own words among them, skip last."""
    options = answer_options(question.ambiguity, question.options, lang)[:-1]
    if question.answer and question.answer not in question.options:
        options.append((f"{question.answer} ({FROM_PROFILE})", question.answer))
    return options + [(SHEET_SKIP_LABEL, SKIP)]


def question_markdown(number: int, question: SheetQuestion, lang: str) -> str:
    count = len(question.segments)
    said = f" · **{option_label(question.ambiguity, question.answer, lang)}** {FROM_PROFILE}" \
        if question.answered_by == "profile" else ""
    return f"**{number}. {question.question}**  \n_{count} segment{'s' if count != 1 else ''}{said}_"


def sheet_markdown(sheet: Sheet) -> str:
    count = len(sheet.questions)
    reviewed = len(sheet.for_review)
    review = f" {reviewed} question{'s' if reviewed != 1 else ''} about one string only (what “it” stands for) " \
        "are left to the model's guess and flagged for review in the file." if reviewed else ""
    if not count:
        return f"_No open questions in the file's {sheet.segment_count} segments: it is translated as it reads._" \
            f"{review}"
    more = count - MAX_SHEET_QUESTIONS
    rest = f" The first {MAX_SHEET_QUESTIONS} are shown; the {more} others are left to the model's guess " \
        "and flagged for review (answer them in a profile)." if more > 0 else ""
    return (f"**{count} question{'s' if count != 1 else ''} for the whole file** ({sheet.segment_count} segments): "
            f"each answer is applied everywhere it holds, and nothing is asked again.{rest}{review}")


class SheetPanel:
    """The sheet's components, and what each shows of a sheet (or none)."""

    def __init__(self) -> None:
        self.header = gr.Markdown(elem_id="sheet-header")
        self.slots, self.texts, self.examples, self.choices = [], [], [], []
        for i in range(MAX_SHEET_QUESTIONS):
            with gr.Column(visible=False, variant="panel", elem_id=f"sheet-question-{i}") as slot:
                self.texts.append(gr.Markdown())
                self.examples.append(gr.HighlightedText(label="For example", color_map={IN_QUESTION: "orange"},
                                                        show_legend=False, show_inline_category=False))
                self.choices.append(gr.Radio(show_label=False, elem_id=f"sheet-choice-{i}"))
            self.slots.append(slot)

    @property
    def parts(self) -> list:
        """Every component ``shown`` updates."""
        return [self.header, *self.slots, *self.texts, *self.examples, *self.choices]

    def shown(self, sheet: Sheet | None, *, refill: bool = False) -> dict:
        """The slots of ``sheet``'s questions (all hidden without one). ``refill``: only the questions a
        profile answered change their pick, so the picks a person made stay."""
        questions = sheet.questions if sheet else []
        updates: dict = {self.header: sheet_markdown(sheet) if sheet else ""}
        for i in range(MAX_SHEET_QUESTIONS):
            question = questions[i] if i < len(questions) else None
            updates[self.slots[i]] = gr.update(visible=question is not None)
            if question is None:
                continue
            lang = sheet.target_lang
            updates[self.texts[i]] = question_markdown(i + 1, question, lang)
            updates[self.examples[i]] = examples_shown(question)
            keep = refill and question.answered_by != "profile"
            updates[self.choices[i]] = gr.update(choices=choices(question, lang),
                                                 **({} if keep else {"value": question.answer}))
        return updates


def replies(sheet: Sheet, picked: Sequence[str | None]) -> dict[str, str | None]:
    """The slots' picks as answers by question id: skip, or no pick, leaves a question to the model's guess."""
    return {question.id: None if pick in (None, SKIP) else pick for question, pick in zip(sheet.questions, picked)}
