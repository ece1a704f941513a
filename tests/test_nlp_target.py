"""Reading the asked-about person's gender off a translation, and the Japanese register."""

import pytest

from assistant.nlp.people import find_person_mentions
from assistant.nlp.target_gender import gender_of_mention, japanese_register

SOURCE = "The accountant met the director because she needed advice."


def director():
    return next(m for m in find_person_mentions(SOURCE) if m.head == "director")


@pytest.mark.parametrize("lang, translation, label", [
    ("fr", "La comptable a rencontré le directeur parce qu'elle avait besoin de conseils.", "masculine"),
    ("fr", "La comptable a rencontré la directrice parce qu'elle avait besoin de conseils.", "feminine"),
    ("es", "La contadora se reunió con el director porque necesitaba consejo.", "masculine"),
    ("es", "La contadora se reunió con la directora porque necesitaba consejo.", "feminine"),
    ("de", "Die Buchhalterin traf den Direktor, weil sie Rat brauchte.", "masculine"),
    ("de", "Die Buchhalterin traf die Direktorin, weil sie Rat brauchte.", "feminine"),
])
def test_gender_is_read_for_the_asked_about_person_not_the_other(lang, translation, label):
    assert gender_of_mention(translation, lang, director(), SOURCE).label == label


def test_nothing_gendered_reads_none():
    assert gender_of_mention("Wir fahren morgen um acht Uhr ab.", "de").label is None


@pytest.mark.parametrize("text, label", [
    ("窓を閉めてください。", "polite"),
    ("今夜のパーティーに来ますか。", "polite"),
    ("今夜のパーティーに来る？", "plain"),
    ("昨日は手伝ってくれてありがとう！", "plain"),
    ("金曜日までに報告書を送ってくれる？", "plain"),
    ("ここで少々お待ちください。社長がいらっしゃいます。", "honorific"),
])
def test_japanese_register(text, label):
    assert japanese_register(text).label == label
