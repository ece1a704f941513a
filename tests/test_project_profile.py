"""The project profile: answers saved as a small YAML file a person can edit, read back and bounded."""

import pytest

from assistant.errors import InputError
from assistant.profile import MAX_ENTRIES, Profile, glossary_path, load_profile, parse_profile, save_profile

WRITTEN = """\
register:
  fr: informal
  de: formal
people:
  Alex: a woman
  the administrator: a man
referents:
  Delete it?: the message
glossary: terms.csv
"""


def test_a_written_profile_is_read_and_saved_back_the_same(tmp_path):
    profile = parse_profile(WRITTEN)
    assert profile.get("formality", "fr") == "informal" and profile.get("gender", "alex") == "a woman"
    assert profile.get("referent", "Delete it?") == "the message" and profile.get("sense", "bank") is None
    path = tmp_path / "project.yaml"
    save_profile(profile, path)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# intercpt project profile") and "alex: a woman" in text
    again = load_profile(path)
    assert again == profile and glossary_path(again, path) == tmp_path / "terms.csv"


def test_a_missing_profile_is_a_new_project_only_where_allowed(tmp_path):
    assert load_profile(tmp_path / "new.yaml", missing_ok=True) == Profile()
    with pytest.raises(InputError, match="no such profile file"):
        load_profile(tmp_path / "new.yaml")


@pytest.mark.parametrize(("text", "message"), [
    ("register: [fr", "is not valid YAML \\(line 1\\)"),
    ("- formal", "must be a mapping of sections"),
    ("voice: formal", "unknown section 'voice'"),
    ("register: formal", "register must map each language to its answer"),
    ("register:\n  it: formal", "register is per target language"),
    ("people:\n  Alex: [a, woman]", "the answer for 'Alex' in people must be a text, not list"),
    ("people:\n  Alex: ''", "the answer for 'Alex' in people is empty"),
    ("people:\n  Alex: " + "x" * 400, "has 400 characters; at most 300"),
    ("glossary: {a: b}", "glossary must be a text"),
])
def test_malformed_profiles_get_a_clear_message(text, message):
    with pytest.raises(InputError, match=message):
        parse_profile(text, "project.yaml")


def test_a_profile_is_bounded_in_size_and_entries(tmp_path):
    many = "people:\n" + "".join(f"  person{n}: a man\n" for n in range(MAX_ENTRIES + 1))
    with pytest.raises(InputError, match=f"holds {MAX_ENTRIES + 1} answers"):
        parse_profile(many)
    big = tmp_path / "big.yaml"
    big.write_text("people:\n" + "  alex: a woman\n" * 20_000, encoding="utf-8")
    with pytest.raises(InputError, match="larger than 256 KB"):
        load_profile(big)
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(InputError, match="not UTF-8 text"):
        load_profile(binary)
