"""Reading the asked-about person's gender off a translation, and the Japanese register."""

import pytest

from assistant.checks import person_gender_reading
from assistant.nlp.people import find_person_mentions
from assistant.nlp.japanese_register import japanese_register
from assistant.nlp.target_gender import gender_of_mention

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


# CoCoA-MT train en-ja (topical_chat, lines 1-3): professional translations of one English source each,
# the formal reference polite (teineigo) and the informal one plain (kudaketa), as the data set labels them.
COCOA_REFERENCES = [
    ("今、話は私のスピードの方に移っています...笑。はい、私は、他のウォルト・ディズニー映画だけでなくジャングル・ブックも好きでした。",
     "polite"),
    ("今、話は私のスピードの方に移っているね...笑。はい、私は、他のウォルト・ディズニー映画だけでなくジャングル・ブックも好きだったんだ。",
     "plain"),
    ("正直なところ彼はおそらく少し負けています。これは特に驚くべきことではありませんが。", "polite"),
    ("正直なところ彼はおそらく少し負けているね。これは特に驚くべきことではないが。", "plain"),
    ("はい、私も！明らかに5000年前の靴の方が現代の靴よりも機能が優れています。彼らがどうやってその技を見つけたのか知りたいです。", "polite"),
    ("はい、私も！明らかに5000年前の靴の方が現代の靴よりも機能が優れている。彼らがどうやってその技を見つけたのか知りたいよ。", "plain"),
]


@pytest.mark.parametrize("morphology", [False, True])
@pytest.mark.parametrize("text, label", COCOA_REFERENCES)
def test_japanese_register_of_real_references(monkeypatch, text, label, morphology):
    from assistant.nlp import japanese_register as reader

    if morphology:
        pytest.importorskip("sudachipy", reason="the ja extra is not installed")
    monkeypatch.setattr(reader, "morphology_available", lambda: morphology)
    reading = reader.japanese_register(text)
    assert reading.label == label
    assert reading.evidence and all(sentence in text for sentence in reading.evidence)  # the sentences it read


def test_japanese_register_is_read_from_each_sentence_s_predicate_by_morphology():
    from assistant.nlp.japanese_register import POLITE, PLAIN, sentence_registers

    pytest.importorskip("sudachipy", reason="the ja extra is not installed")
    # the same references: a clause-final が is looked through to the predicate before it
    assert sentence_registers("これは特に驚くべきことではありませんが。")[0][0] == POLITE
    assert sentence_registers("これは特に驚くべきことではないが。")[0][0] == PLAIN
    # "...笑": the parse splits the sentence at the dots; "笑" (lol) marks no register
    assert [label for label, _ in sentence_registers("今、話は私のスピードの方に移っているね...笑。")] == [PLAIN, None]


def test_sentences_in_two_registers_read_as_none_with_both_named():
    from assistant.nlp.japanese_register import japanese_register

    mixed = COCOA_REFERENCES[2][0].split("。")[0] + "。" + COCOA_REFERENCES[5][0]   # polite, then plain
    reading = japanese_register(mixed)
    assert reading.label is None and "正直なところ彼はおそらく少し負けています。" in reading.evidence


# GATE dev half, French feminine references, and their English sources (the question's words).
@pytest.mark.parametrize("source, span, reference, label", [
    ("Americans were 84% more likely to experience burnout.", "Americans",
     "Les Américaines étaient 84% plus susceptibles d'éprouver de l'épuisement.", "feminine"),  # a plural feminine
    ("Each has worked hard on the background to give the show a realistic side.", "Each",
     "Chacune a beaucoup travaillé sur l'arrière-plan pour donner au spectacle un coté réaliste.", "feminine"),
    ("The artist presented a very graphic play of taps and trickles of water, with breathtaking rhythm.", "The artist",
     "L'artiste a présenté un jeu très graphique de robinets et de filets d'eau, avec un rythme à couper le souffle.",
     None),  # epicene, and no word of hers shows it
    ("In the 20th century, architects used innovative construction techniques.", "architects",
     "Au cours du XXe siècle, les architectes recoururent à des techniques de construction innovantes.", None),
])
def test_french_genders_come_from_the_lexicon_and_an_epicene_person_reads_as_none(source, span, reference, label):
    assert person_gender_reading(reference, "fr", source, span).label == label


# GATE dev half, French references whose words the lexicon read wrong before: a pronoun the Lefff lists with
# the wrong gender, a verb read as the noun it is also ("doit", "devons"), a subject pronoun read as the
# participle of "taire", a ligature, an impersonal "il", a hyphen.
@pytest.mark.parametrize("source, span, reference, label", [
    ("In December, a few had seen the scene.", "a few", "En décembre, quelques-uns avaient vu la scène.", "masculine"),
    ("A few give tips about the surrounding area.", "A few",
     "Quelques-uns donnent des conseils sur la région environnante.", "masculine"),
    ("We all should have meaningful friendships.", "We", "Nous devons toutes avoir des amitiés importantes.",
     "feminine"),
    ("The pupil should learn how to work faster.", "The pupil", "L'élève doit apprendre à travailler plus vite.", None),
    ("You were willing to keep company just to take advantage of those things.", "You",
     "Tu étais partante pour tenir compagnie uniquement pour profiter de ces choses-là.", "feminine"),
    ("Two siblings had identical clinical features, with a late childhood onset of symptoms and slow progression, "
     "requiring crutches to walk.", "Two siblings",
     "Deux sœurs avaient des caractéristiques cliniques identiques, avec un début de symptômes au cours de l'enfance "
     "tardive et une progression lente, nécessitant des béquilles pour marcher.", "feminine"),
    ("There is no kin to file claims for the money.", "no kin",
     "Il n'y a pas de proches pour déposer des réclamations pour l'argent.", None),
    ("A lot are busy planning their marriage.", "A lot", "Beaucoup sont occupées à organiser leur mariage.",
     "feminine"),  # "Beaucoup" tagged as a name, with the tagger's guess of a gender
])
def test_french_words_that_show_no_gender_of_the_person_are_not_read(source, span, reference, label):
    assert person_gender_reading(reference, "fr", source, span).label == label


# A noun whose gender is the word's whoever it names, and the words agreeing with it: AmbigMT dev half (es), a
# django-allauth string (the .po sheet benchmark, fr), and a nurse as the control.
@pytest.mark.parametrize("lang, source, span, translation, label", [
    ("es", "[pr] is an Honorary Fellow of the American College of Surgeons (ACS).", "[pr]",
     "Es miembro honorífico del Colegio Estadounidense de Cirujanos (American College of Surgeons, ACS).", None),
    ("fr", "Please enter a valid email for at least one person.", "one person",
     "Veuillez saisir une adresse e-mail valide pour au moins une personne.", None),
    ("es", "The victim was injured.", "The victim", "La víctima fue herida.", None),
    ("es", "The nurse was injured.", "The nurse", "La enfermera fue herida.", "feminine"),
])
def test_a_noun_whose_gender_is_the_word_s_shows_nothing_of_the_person(lang, source, span, translation, label):
    assert person_gender_reading(translation, lang, source, span).label == label


def test_a_word_found_only_by_its_place_is_not_the_person_s_when_it_names_another_thing():
    """A real 0.5B translation of a django-postman string (tests/data/formats/accounts_200.po) that leaves the
    sender out: "la date" translates the source's "date", "suppression" names an act; neither is the sender."""
    source = "Deletion date by sender must be later than sending date."
    reading = person_gender_reading("La date de suppression doit être après la date de l'envoi.", "fr", source, "sender")
    assert reading.label is None
    kept = person_gender_reading("La date de suppression par l'expéditrice doit être postérieure à la date d'envoi.",
                                 "fr", source, "sender")
    assert kept.label == "feminine" and kept.evidence == ("expéditrice",)


@pytest.mark.parametrize("translation, label", [
    ("Dépôt non défini.", None),  # the 1.5B model's, in the .po sheet benchmark: « dépôt » is "depot", no one
    ("Expéditeur non défini.", "masculine"),
    ("Expéditrice non définie.", "feminine"),
])
def test_a_word_found_by_its_place_that_is_an_english_thing_shows_no_one_s_gender(translation, label):
    """A django-postman string of the .po sheet (tests/data/formats/accounts_200.po): where the translator wrote a
    thing for the person, neither it nor its adjective says the person's gender; the person's own noun does."""
    assert person_gender_reading(translation, "fr", "Undefined sender.", "Undefined sender").label == label


@pytest.mark.parametrize("lang, source, span, translation, label", [
    # GATE's dev half, its feminine and masculine references
    ("es", "Be determined to have a great day, and you will.", "Be determined",
     "Esté decidida a tener un gran día, y lo tendrá.", "feminine"),
    ("es", "Be determined to have a great day, and you will.", "Be determined",
     "Esté decidido a tener un gran día, y lo tendrá.", "masculine"),
    # GATE's dev half (fr): « grand » is the noun's, « meilleure » the friend's; nothing is the addressee's
    ("fr", "Be supportive if your bosom buddy is not well.", "Be supportive",
     "Soyez d'un grand soutien si votre meilleure amie ne va pas bien.", None),
])
def test_the_person_an_imperative_addresses_is_read_from_what_it_says_of_them(lang, source, span, translation, label):
    assert person_gender_reading(translation, lang, source, span).label == label


@pytest.mark.parametrize("reference, label", [
    # GATE's dev half (es), its feminine and masculine references: "us" after a preposition is « nosotras », « nosotros »
    ("¿De qué manera podrían los ángeles tener responsabilidad sobre nosotras?", "feminine"),
    ("¿De qué manera podrían los ángeles tener responsabilidad sobre nosotros?", "masculine"),
])
def test_us_after_a_preposition_is_read_from_its_own_pronoun(reference, label):
    assert person_gender_reading(reference, "es", "In what ways might angels have charge over us?", "us").label == label


@pytest.mark.parametrize("source, span, reference", [
    # GATE's dev half (es): « lo que » is the neuter article, whatever the tagger says ("the workers" shows in
    # « las trabajadoras », which the check does not take for the person's, the subject being « Espinas »)
    ("The workers of my country are finding only thorns, and resting on thorns is not very easy.", "The workers",
     "Espinas es lo que encuentran las trabajadoras de mi país, y sobre ellas es un tanto difícil dormirse."),
    # CoCoA-MT train (en-es), written for a woman: a participle after « has » stays masculine (« Has jugado »)
    ("Have you ever played the game yourself, I have not, I'm not originally from the US.", "you",
     "¿Has jugado alguna vez al juego? Yo no lo he hecho, no soy originaria de los Estados Unidos."),
])
def test_words_whose_form_shows_no_one_s_gender_are_not_read_as_masculine(source, span, reference):
    assert person_gender_reading(reference, "es", source, span).label != "masculine"


_LOGIC = "That is a little surprising. I would have thought gran prix or something like that.... I bet Logic would " \
         "beat you in Mario Kart!"
_SHOES = "Yes exactly. There are Wizard of Oz inspired shoes that actually guide you home when you click your heels " \
         "together using a GPS system."
_SCARES = "Well, im not really an expert on such matters, anything that scares you enough. Anyway, great chat! good " \
          "luck with your foxhole!"


@pytest.mark.parametrize("source, reference, label", [
    # CoCoA-MT train (en-es, topical chat), the formal references and those written for a woman: a formal "you" as a
    # verb's only object is « lo » or « la », before the verb or at its end
    (_LOGIC, "Sorprende un poco. Pensaba que Grand Prix o algo así... ¡Fijo que Logic lo ganaría en Mario Kart!",
     "masculine"),
    (_LOGIC, "Sorprende un poco. Pensaba que Grand Prix o algo así... ¡Fijo que Logic la ganaría en Mario Kart!",
     "feminine"),
    (_SHOES, "Sí, exactamente. Hay unos zapatos inspirados en El mago de Oz que la guían hasta casa al hacer clic con "
             "los talones juntos mediante un sistema de GPS.", "feminine"),
    ("Probably, make up can really transform you into almost anyone",
     "Probablemente, el maquillaje puede convertirla en casi cualquiera", "feminine"),
    # « lo suficiente » is no clitic, and « la asuste » (« la » tagged an article, its verb a noun) goes unread
    (_SCARES, "Bueno, la verdad es que no soy experta en estos temas, cualquier cosa que la asuste lo suficiente. En "
              "fin, gran charla, suerte con su trinchera.", None),
])
def test_a_formal_you_as_the_only_object_is_read_from_its_clitic(source, reference, label):
    assert person_gender_reading(reference, "es", source, "you").label == label


_LYING = "Yep. And especially if you're lying too, and then you are intentionally getting caught in your lies. Then " \
         "you also make yourself, you look not smart."
_RAISED = "(honestly take care of) my kids my parents know that. So that's just how they raised me. If you could " \
          "think about the best thing, how you was raised by your parents and stuff would you."


@pytest.mark.parametrize("reference", [
    # CoCoA-MT train (en-fr, topical chat), the formal reference and the one written for a woman: « faites » and
    # « fais » right after « vous », « tu » and the pronouns between are the verb, whatever the tagger read (« malin »,
    # « maligne » are tagged as a name and the noun's adjective: nothing is read)
    "Oui. Et surtout si vous mentez aussi, et que vous vous faites prendre intentionnellement dans vos mensonges. "
    "Ensuite, vous le faites aussi, vous n'avez pas l'air malin.",
    "Oui. Et surtout si tu mens aussi, et que tu te fais prendre intentionnellement dans tes mensonges. Ensuite, tu "
    "le fais aussi, tu n'as pas l'air maligne.",
])
def test_a_french_verb_after_its_subject_pronoun_shows_no_gender(reference):
    reading = person_gender_reading(reference, "fr", _LYING, "you")
    assert not {"faites", "fais", "le", "tu"} & set(reading.evidence)


@pytest.mark.parametrize("source, span, reference, label", [
    # CoCoA-MT train (en-fr, topical chat), the references written for a woman: a participle said with « avoir » and « été » agrees (a passive), read at the "you" something agrees with
    (_RAISED, "you", "(honnêtement prendre soin de) mes enfants, mes parents savent le faire. C'est ainsi qu'ils m'ont "
                     "élevée. Si vous pouviez penser au meilleur dans la façon dont vous avez été élevée par vos parents "
                     "etc.", "feminine"),
    (_RAISED, "you", "(honnêtement prendre soin de) mes enfants, mes parents savent le faire. C'est ainsi qu'ils m'ont "
                     "élevée. Si tu pouvais penser au meilleur dans la façon dont tu as été élevée par tes parents etc.",
     "feminine"),
    # a greeting names no one: the friend called is « l'amie »
    ("Hi friend! What do you enjoy doing with your free time these days?", "friend",
     "Bonjour l'amie ! Comment occupez-vous votre temps libre actuellement ?", "feminine"),
])
def test_the_gender_of_i_or_you_is_read_from_the_words_that_agree_with_them(source, span, reference, label):
    assert person_gender_reading(reference, "fr", source, span).label == label


@pytest.mark.parametrize("source, span, reference, label", [
    # GATE's dev half: the person's word is no cognate (Islandais, policière), and another noun stands nearer to
    # the person's place; the translation keeps the person the subject
    ("For some years, Icelanders have been turning the natural resources of the country into a real gastronomy.",
     "Icelanders", "Depuis quelques années, les Islandais transforment les ressources du pays en une gastronomie.",
     "masculine"),
    ("A call to order, then a second, and the police officer picked up the corner of the sheet.", "the police officer",
     "Un rappel à l'ordre, puis un deuxième, et la policière ramasse le coin du drap.", "feminine"),
    # a possessor becomes a « de » complement at the end of its noun phrase
    ("Relationship between writing and creativity from the author's point of view.", "the author",
     "Relation entre écriture et créativité du point de vue de l'autrice.", "feminine"),
])
def test_a_word_found_by_its_place_is_read_in_the_person_s_role(source, span, reference, label):
    assert person_gender_reading(reference, "fr", source, span).label == label


def test_a_relative_clause_said_of_the_person_is_read_with_its_noun():
    """GATE's dev half: « geek » has one form; « qui était très attachée » says she is a woman. The masculine
    tag the tagger gives the bare noun then disagrees with it, and the check is left unchecked, not failed."""
    source = "For example, as a geek who in the past has been very attached to screens, there are new tools for me."
    reading = person_gender_reading("Par exemple, en tant que geek qui par le passé était très attachée aux écrans, il y "
                                    "a de nouveaux outils.", "fr", source, "a geek")
    assert "attachée" in reading.evidence and reading.label != "masculine"


# Words of people as translations wrote them (the test models' .po and GATE runs), put in the other gender.
@pytest.mark.parametrize("phrase, gender, other", [
    ("l'utilisateur", "feminine", "l'utilisatrice"),
    ("Le destinataire", "feminine", "La destinataire"),  # one form for both: the article alone
    ("du destinataire", "feminine", "de la destinataire"),
    ("cet utilisateur", "feminine", "cette utilisatrice"),
    ("l'utilisateur actuel", "feminine", "l'utilisatrice actuelle"),
    ("au directeur", "feminine", "à la directrice"),
    ("Votre correspondant", "feminine", "Votre correspondante"),
    ("L'avocate", "masculine", "L'avocat"),
    ("La comptable", "masculine", "Le comptable"),
    ("l'utilisatrice", "feminine", None),  # already so
    ("un", "feminine", None),  # an article read alone: which word it goes with is not known
    ("quelqu'un", "feminine", "quelqu'une"),
    # a word the same in both numbers takes its determiner's (GATE, the 1.5B model: « Les chinois »)
    ("Les chinois", "feminine", "Les chinoises"),
    ("un Anglais heureux", "feminine", "une Anglaise heureuse"),
    ("chinois", "feminine", None),  # neither the phrase nor the text before it says which number
])
def test_a_person_s_words_are_put_in_the_answered_gender_by_the_lexicon(phrase, gender, other):
    from assistant.nlp.french_lexicon import phrase_in_gender

    assert phrase_in_gender(phrase, gender) == other


def test_a_word_the_same_in_both_numbers_takes_the_number_of_the_word_before_it_in_the_translation():
    from assistant.nlp.french_lexicon import phrase_in_gender

    assert phrase_in_gender("chinois", "feminine", before="Les") == "chinoises"
    assert phrase_in_gender("Chinois", "feminine", before="un") == "Chinoise"


# AmbigMT dev half (neutral_names, neutral_professions): references whose words were read for a person they are
# not about, and the control whose words are (tests/data/ambigmt_reference_readings.yaml: a person's reading).
@pytest.mark.parametrize("lang, source, span, reference, label", [
    # a masked pronoun is read in its English role: an object shows only after a preposition, a possessor never
    ("fr", "Tell [pr] she has to be different with Jessie.", "[pr]",
     "Dis lui qu'elle doit être différente avec Jessie.", None),
    ("es", "Remy is displaying an unusual combination of sleep symptoms, but i'm more concerned about what the stress "
     "is doing to [pr] physically.", "[pr]", "Remy tiene una combinación inusual de síntomas del sueño, pero creo que "
     "es más el estrés lo que hace que actúe así.", None),
    ("es", "Julia campbell asked permission to go to the prom with [pr] girlfriend, and [pr] was denied.", "[pr]",
     "Julia campbell pidió permiso para ir al baile con su novia y le fue denegado.", None),
    ("es", "Campbell mentioned another guy, somebody [pr] met at a bar last night.", "[pr]",
     "Campbell mencionó a otro tipo. estuvo anoche con él en un bar.", None),
    # every [pr] is the same person: the possessor first, the subject after
    ("es", "Following an untimely demise of [pr] mother, [pr] was adopted by Madhusudan Das.", "[pr]",
     "Tras la inesperada muerte de su madre, fue adoptada por Madhusudan Das.", "feminine"),
    # a subject says its gender in a predicate whose subject is left out where the English says something of it that
    # agrees, or where the predicate heads the sentence: not in a clause inside another, whose subject is the ball
    ("es", "Like the peyton manning football i gave [pr] that wasn't really signed by peyton manning, [pr] just "
     "doesn't need to know.", "[pr]", "Como la pelota de fútbol firmada por peyton manning que le dí que no estaba "
     "firmada por peyton manning, simplemente no necesitaba saber.", None),
    ("es", "[pr] was head of the Banking Department from September 1986 through May 1989.", "[pr]",
     "Fue director del Departamento de Banca desde septiembre de 1986 hasta mayo de 1989.", "masculine"),
    ("es", "In 1962, [pr] was the first Bahamian to become matron of the public hospital.", "[pr]",
     "En 1962, fue la primera bahameña en convertirse en matrona del hospital público.", "feminine"),
    # « haberse ido » keeps the participle masculine; « pueda verte » is a verb, not a noun
    ("es", "Brother landry thinks [pr] may have gone outside the gate.", "[pr]",
     "El hermano landry piensa que pudo haberse ido fuera del portón.", None),
    ("es", "Yeah, well, robbie's fine as long as [pr] can see you.", "[pr]",
     "Robbie está tranquilo mientras pueda verte.", None),
    # a name is said of its subject, never agrees with it; a plural takes in someone else
    ("fr", "It's like the diminutive of Emerson is Emma.", "Emma", "Tout comme le diminutif d'Emerson est Emma.", None),
    ("fr", "Since when did you and Roy Carlin become so friendly?", "Roy Carlin",
     "Depuis quand Roy Carlin et toi êtes devenus de si bons amis ?", None),
    ("fr", "Perhaps Naples is afraid you cannot beat Milan.", "Naples",
     "Naples craint que vous ne puissiez battre Milan.", None),  # « craint » tagged a present participle
    ("fr", "I know Blair came here to see you.", "Blair", "Je sais que Blair est venue vous voir..", "feminine"),
    # German: « sie » with a plural verb, « ihr » as the plural "you", the infinitive « sein »
    ("de", "You sound just like Jackie Sharp.", "Jackie Sharp", "Sie klingen wie Jackie Sharp.", None),
    ("de", "You know what Pete Campbell just said to me?", "Pete Campbell",
     "Wisst ihr, was Pete Campbell gerade zu mir gesagt hat?", None),
    ("de", "You shouldn't be caught between Blair and me.", "Blair",
     "Du solltest nicht zwischen Blair und mir gefangen sein.", None),
    ("de", "In the Olympic marathon race [pr] placed fortieth in the rankings.", "[pr]",
     "Beim olympischen Marathonlauf erreichte sie den vierzigsten Platz.", "feminine"),
    # German: a pronoun in the name's own clause is someone else; « ihr » after a plural "you" verb is "you"
    ("de", "It was Remy who alerted them to the footage.", "Remy", "Remy hat sie auf das Videomaterial gebracht.", None),
    ("de", "If Artie trusts him, that's good enough for me.", "Artie", "Wenn Artie ihm vertraut, reicht mir das.", None),
    ("de", "-Have you found Vince Larkin?", "Vince Larkin", "- Habt ihr Vince Larkin gefunden?", None),
    # a name with a definite article is a ship's; an adverb before a name is no adjective of it; a noun beside a name
    # is its apposition only where the source says who the person is with a noun
    ("fr", "Natividad is not a prize ship, Mr. Bush.", "Natividad", "Le Natividad n'est pas une prise de guerre.", None),
    ("fr", "So then why not rape Vanessa Campbell for the second time?", "Vanessa Campbell",
     "Pourquoi ne pas avoir violé de nouveau Vanessa Campbell ?", None),
    ("fr", 'Here\'s a kid writes, "Kris Kringle, New York County Courthouse. "', "Kris Kringle",
     'Cet enfant a écrit : "Kris Kringle, Cour suprême. "', None),
    ("fr", "Fortunately, it doesn't look like Dr. Sutton will be doing much of that anymore.", "Dr. Sutton",
     "Heureusement, il semble que le Dr Sutton ne fera plus subir cela.", "masculine"),  # the title's article
    ("fr", "By Jack Campbell speaking The President of the University of Montana.", "Jack Campbell",
     "Ici Jack Campbell, président de l'université du Montana.", "masculine"),
    ("es", "Jessie, i really appreciate you doing that for me, but i just... i-i haven't made up my mind yet.", "Jessie",
     "Jessie, aprecio muchísimo lo que estás haciendo por mí, pero... no me he decidido todavía.", None),
    # a masked pronoun before a noun is its possessor, shown only by « de él »; a span ending on a quote is found
    ("fr", "I thought you said that James' letter named Riley as [pr] killer.", "[pr]",
     "Je pensais que vous avez dit que la lettre de James nommait Riley comme étant le tueur.", None),
    ("es", "He's just minding [pr] business, kerry.", "[pr]", "Eso es cosa de él, kerry.", "masculine"),
    ("fr", "'But what we don't have is direct testimony' 'that someone saw Andrew Campbell' 'at the scene of a crime.'",
     "Andrew Campbell' '", "Mais nous n'avons pas de déposition directe stipulant que quelqu'un ait vu Andrew Campbell sur "
     "la scène de crime.", None),
    # Spanish: a form whose ending says the other gender than the tagger, a bare noun one form serves both genders
    # for; what "as" says of someone is the predicate with its copula
    ("es", "[pr] is a native of Diyarbakır, southeastern Turkey.", "[pr]",
     "Es oriunda de Diyarbakir, una región al sudeste de Turquía.", None),
    ("es", "In 2004, [pr] made the Finnish National Team.", "[pr]", "En 2004 fue parte del equipo nacional finlandés.",
     None),
    ("es", "Lyder served as dean of the UCLA School of Nursing from 2008 till 2015.", "dean",
     "Fue decano de la Escuela de Enfermería de UCLA de 2008 a 2015.", "masculine"),
    ("es", "But my brother, who knows the boss better thinks that if you get another piece of that category the boss is "
     "able to pay you with two suitcases.", "the boss", "Pero mi hermano, que conoce mejor al jefe piensa que si "
     "consigues otra pieza de aquella categoría el jefe es capaz de pagarte con dos maletas.", "masculine"),
])
def test_words_that_are_someone_else_s_or_no_one_s_are_not_read(lang, source, span, reference, label):
    assert person_gender_reading(reference, lang, source, span).label == label


def test_a_noun_right_after_a_pronoun_that_only_stands_before_verbs_is_a_misread_verb():
    # AmbigMT dev, French reference: the tagger reads « mets » (tu te mets) as the noun « mets », a dish
    source = "Officer Landry, you'll partner up with officer Rinaldi for the time being."
    assert person_gender_reading("Landry, tu te mets avec Rinaldi.", "fr", source, "officer Rinaldi").label is None
