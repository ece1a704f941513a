"""Person mentions in real sentences: WordNet nouns, names, groups, and which pronoun settles whom."""

import pytest

from assistant.nlp.people import find_person_mentions, group_mentions, unsettled


def heads(mentions):
    return {m.head.lower(): m for m in mentions}


def test_pronoun_in_a_subordinate_clause_settles_the_main_subject_only():
    found = heads(find_person_mentions("The accountant met the lawyer because she needed advice."))
    assert found["accountant"].settled == "feminine" and "she" in found["accountant"].evidence
    assert found["lawyer"].settled is None
    assert [m.head for m in unsettled(list(found.values()))] == ["lawyer"]


def test_object_pronoun_is_not_its_own_clause_subject():
    found = heads(find_person_mentions("The manager called the plumber and asked him to come early."))
    assert found["plumber"].settled == "masculine"
    assert found["manager"].settled is None


def test_possessive_in_a_relative_clause_goes_to_the_noun_it_modifies():
    found = heads(find_person_mentions("The journalist interviewed the mayor, who defended her record."))
    assert found["mayor"].settled == "feminine" and found["journalist"].settled is None


def test_groups_and_relatives_from_wordnet():
    found = heads(find_person_mentions("My cousin told our fellow citizens that the users and the winners were angry."))
    assert {"cousin", "citizens", "users", "winners"} <= set(found)
    assert found["citizens"].number == "plural" and found["cousin"].number == "singular"
    assert found["users"].agreement == ("angry",)


def test_inherently_gendered_nouns_and_titles_are_settled():
    found = heads(find_person_mentions("Mrs Carter and the waitress thanked the mother of a colleague."))
    assert found["carter"].settled == "feminine" and "Mrs" in found["carter"].evidence
    assert found["waitress"].settled == found["mother"].settled == "feminine"
    assert found["colleague"].settled is None


def test_first_names_from_the_name_list():
    found = heads(find_person_mentions("John met Blair at the station."))
    assert found["john"].settled == "masculine" and found["john"].kind == "name"
    assert found["blair"].settled is None


@pytest.mark.parametrize("text, head, agreeing", [
    ("Consolation is available to all concerned.", "concerned", None),
    ("The injured were taken to hospital.", "injured", "taken"),
    ("Please call anyone present for the job interview.", "anyone", "present"),
    ("We are Japanese.", "we", "Japanese"),
])
def test_pronouns_quantifiers_and_nominalised_adjectives_that_something_agrees_with(text, head, agreeing):
    found = heads(find_person_mentions(text))
    assert head in found and found[head].settled is None
    assert agreeing is None or agreeing in found[head].agreement


def test_plain_pronoun_without_agreement_is_no_mention():
    assert find_person_mentions("We went to the market.") == []


def test_coordinated_plurals_form_one_group():
    groups = group_mentions(unsettled(find_person_mentions("The doctors and nurses worked all night.")))
    assert [g.text for g in groups] == ["The doctors / nurses"]


def test_placeholder_keeps_source_offsets():
    text = "Blair said [pr] would come."
    placeholder = next(m for m in find_person_mentions(text) if m.kind == "placeholder")
    assert text[placeholder.start:placeholder.end] == "[pr]"
