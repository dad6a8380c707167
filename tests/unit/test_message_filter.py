"""The chat's message filter: in every language it flags insults, explicit requests and scams,
and contact details until the recipient writes back, and leaves ordinary language alone;
folding (case, diacritics, digits for letters, stretched letters, dots inside a word) and word
boundaries."""

import pytest

from models.message_filter import (
    EVERY_LANGUAGE,
    Reason,
    fold,
    languages_in_play,
    parse,
    screen,
    word_list,
)
from translations.locales import LOCALES

INSULT, SEXUAL, SCAM, CONTACT = Reason.INSULT, Reason.SEXUAL, Reason.SCAM, Reason.CONTACT

# (locale, text, the reason it must be flagged for)
FLAGGED = [
    ("en", "You are a stupid bitch", INSULT),
    ("en", "Fuck off, loser", INSULT),
    ("en", "send me your nudes", SEXUAL),
    ("en", "Can you send me money for my flight?", SCAM),
    ("en", "I only accept a Steam card", SCAM),
    ("nl", "Wat een kutwijf ben jij", INSULT),
    ("nl", "Rot op, klootzak", INSULT),
    ("nl", "Zin om te neuken?", SEXUAL),
    ("nl", "Kun je me een cadeaukaart sturen?", SCAM),
    ("nl", "Stuur me geld via Tikkie", SCAM),
    ("de", "Du bist eine Schlampe", INSULT),
    ("de", "Verpiss dich, Hurensohn", INSULT),
    ("de", "Schick mir Nacktbilder", SEXUAL),
    ("de", "Kannst du mir Geld leihen? Meine Kontonummer schicke ich dir", SCAM),
    ("it", "Sei una troia", INSULT),
    ("it", "Vaffanculo, stronzo", INSULT),
    ("it", "Voglio scoparti, ti voglio scopare stasera", SEXUAL),
    ("it", "Mandami soldi con una ricarica Postepay", SCAM),
    ("fr", "Espèce de connard", INSULT),
    ("fr", "Ferme ta gueule", INSULT),
    ("fr", "Envoie-moi des nudes", SEXUAL),
    ("fr", "Achète-moi des coupons PCS", SCAM),
    ("es", "Eres un gilipollas", INSULT),
    ("es", "Vete a la mierda", INSULT),
    ("es", "Te quiero follar", SEXUAL),
    ("es", "Mándame dinero por transferencia bancaria", SCAM),
    ("pl", "Spierdalaj", INSULT),
    ("pl", "Ty kurwo", INSULT),
    ("pl", "Wyślij nagie zdjęcia", SEXUAL),
    ("pl", "Pożycz mi 500 zł, wyślij blika", SCAM),
    ("da", "Du er en luder", INSULT),
    ("da", "Skal vi kneppe?", SEXUAL),
    ("da", "Send mig penge på MobilePay", SCAM),
    ("fi", "Haista vittu", INSULT),
    ("fi", "Olet huora", INSULT),
    ("fi", "Lähetä alastonkuvia", SEXUAL),
    ("fi", "Lähetä minulle rahaa, tilinumero tulee", SCAM),
    ("nb", "Din jævla hore", INSULT),
    ("nb", "Vil du knulle?", SEXUAL),
    ("nb", "Send meg penger på Vipps", SCAM),
    ("sv", "Din fitta", INSULT),
    ("sv", "Ska vi knulla?", SEXUAL),
    ("sv", "Swisha mig 500 kr", SCAM),
    ("sv", "Kan du köpa ett presentkort åt mig?", SCAM),
    # review findings: obvious misses
    ("en", "can you send me 200 euros for the ticket", SCAM),
    ("en", "I need money for my flight", SCAM),
    ("en", "send me $300", SCAM),
    ("en", "you are a fucking idiot", INSULT),
    ("en", "you idiot", INSULT),
    ("en", "send nudez", SEXUAL),
    ("nl", "kun je 100 euro overmaken", SCAM),
    ("nl", "Ik stuur je een tikkie van 50 euro", SCAM),
    ("nl", "jij idioot", INSULT),
    ("de", "kannst du mir 100 euro schicken", SCAM),
    ("de", "Geld per Überweisung, bitte", SCAM),
    ("de", "du Idiot", INSULT),
    ("de", "Du bist so dumm", INSULT),
    ("it", "Mi mandi 100 euro per il biglietto?", SCAM),
    ("it", "Sei un idiota", INSULT),
    ("it", "Sei un ritardato", INSULT),
    ("fr", "Tu peux m’envoyer 200 € pour le billet ?", SCAM),
    ("fr", "Espèce d’idiot", INSULT),
    ("es", "¿Me envías 200 euros para el billete?", SCAM),
    ("es", "Eres un idiota", INSULT),
    ("es", "Eres una puta", INSULT),
    ("pl", "Przelej mi 300 zł na konto", SCAM),
    ("pl", "Ty idioto", INSULT),
    ("pl", "Ty kurwo", INSULT),
    ("da", "Kan du overføre 500 kr til mig?", SCAM),
    ("da", "MobilePay mig 200 kr", SCAM),
    ("da", "Din idiot", INSULT),
    ("fi", "Voitko lähettää 100 euroa?", SCAM),
    ("fi", "Senkin idiootti", INSULT),
    ("fi", "Senkin vitun huora", INSULT),
    ("nb", "Kan du sende meg 1000 kr?", SCAM),
    ("nb", "Kan du vippse meg?", SCAM),
    ("nb", "Du er en idiot", INSULT),
    ("sv", "Kan du skicka 500 kronor?", SCAM),
    ("sv", "Du är en idiot", INSULT),
]

# Ordinary flirting and small talk, in each language: never flagged, first message or not.
ORDINARY = [
    ("en", "Hi! Your smile is lovely. Fancy a drink this weekend?"),
    ("en", "You look really sexy in that photo, and I love your cat"),
    ("en", "Sorry for the late reply, I was at the bank"),
    ("en", "My sister Dickens reads Kiss me Kate"),
    ("en", "Call me old-fashioned, but I love to ride my bike on Sundays"),
    ("nl", "Hoi! Snap je dat ik je profiel zo leuk vind? Dikke kus"),
    ("nl", "Wat een mooie foto, zullen we eens koffie drinken?"),
    ("nl", "Mijn opa had kanker, daarom loop ik mee met de wandeltocht"),
    ("de", "Dicke Umarmung und viele Küsse!"),
    ("de", "Heute Abend gibt es Putenbrust, magst du mitessen?"),
    ("de", "Du hast ein tolles Lächeln, wollen wir uns treffen?"),
    ("it", "Che figa questa foto! Ti va un aperitivo?"),
    ("it", "Ciao bella, hai degli occhi stupendi"),
    ("it", "Prima devo scopare casa, poi ci vediamo"),
    ("fr", "Gros baisers, j'ai hâte de te voir"),
    ("fr", "Tu as un très joli sourire, un verre samedi ?"),
    ("fr", "Désolé pour le retard, je finis à 18 h"),
    ("es", "¿A qué hora quedamos? Tengo el pelo negro"),
    ("es", "Me encanta tu sonrisa, ¿tomamos un café?"),
    ("pl", "Jesteś zajebista! Pójdziemy na kawę?"),
    ("pl", "Moja suka ma na imię Luna, a ja lubię jeździć na rowerze"),
    ("da", "Jeg kan slet ikke vente med at se dig. Kys!"),
    ("da", "Til slut fandt jeg en sød pige"),
    ("fi", "Hei! Sinulla on ihana hymy, lähdetäänkö kahville?"),
    ("fi", "Syön vitamiineja joka aamu"),
    ("nb", "Det er slutt på jobben, skal vi ta en kaffe?"),
    ("nb", "Du har et nydelig smil"),
    ("sv", "Till slut hittade jag någon trevlig! Ses vi på fika?"),
    ("sv", "Du har ett underbart leende, puss"),
    # review findings: everyday language that was flagged
    ("en", "Oh snap, I forgot my keys"),
    ("en", "Text me on here when you are free"),
    ("en", "I paid 30 euros for dinner and sent my sister 3 postcards"),
    ("en", "I'm such an idiot, I forgot my umbrella"),
    ("nl", "Ik gebruik Tikkie altijd na een etentje"),
    ("de", "Ich habe eine Überweisung zum Orthopäden"),
    ("de", "Ich sende dir 1000 Küsse"),
    ("it", "Il volo ritardato di due ore, che noia"),
    ("es", "La fiesta estuvo de puta madre"),
    ("pl", "Kurwa, ale fajny koncert!"),
    ("pl", "Aż mnie kurwica bierze w tym korku"),
    ("da", "Jeg betaler altid med MobilePay"),
    ("fi", "Tää on vitun hyvä biisi"),
    ("fi", "Voi vittu, myöhästyin bussista"),
    ("nb", "Jeg er homse og liker fjellturer"),
    ("nb", "Vi delte regningen med Vipps"),
    ("sv", "Jag swishade för pizzan igår"),
    ("en", "Thank you stupid autocorrect"),
    ("it", "Ma sei scemo? Mi fai morire dal ridere"),
    ("es", "Eres tonto, me haces reír mucho"),
    ("pl", "Ty, kurwa, widziałeś ten zachód słońca?"),
    ("nb", "Din tulling, du glemte jakken din"),
    ("sv", "Din dumma hund åt upp min sko"),
]


@pytest.mark.parametrize(("locale", "text", "reason"), FLAGGED)
def test_each_language_flags_its_insults_requests_and_scams(locale, text, reason) -> None:
    assert reason in screen(text, [locale], first=False)


@pytest.mark.parametrize(("locale", "text"), ORDINARY)
def test_ordinary_flirting_is_never_flagged(locale, text) -> None:
    assert screen(text, [locale], first=True) == frozenset()


def test_every_language_has_tests_and_a_list_of_each_kind() -> None:
    for locale in LOCALES:
        assert {row[0] for row in FLAGGED} >= {locale}
        assert {row[0] for row in ORDINARY} >= {locale}
        assert set(word_list(locale).patterns) >= {INSULT, SEXUAL, SCAM}


def test_contact_details_count_in_a_first_message_only() -> None:
    for text in (
        "Add me on WhatsApp",
        "Text me: +31 6 12345678",
        "Bel me op 06-12345678",
        "Write to anna.b@example.com",
        "My insta is @anna_b92",
        "wa.me/31612345678",
        "Mein Telegram: annab",
    ):
        assert screen(text, ["nl", "de"], first=True) == {CONTACT}, text
        assert screen(text, ["nl", "de"], first=False) == frozenset(), text


def test_a_national_number_is_read_in_the_home_country_of_a_language_in_play() -> None:
    assert screen("Ring mig på 20 12 34 56", ["da"], first=True) == {CONTACT}
    assert screen("Born in 1990, 1.85 m, 2 kids", ["da"], first=True) == frozenset()


def test_an_amount_near_a_verb_that_sends_or_lends_it_is_a_scam_sign() -> None:
    assert screen("Could you lend me €150?", [], first=False) == {SCAM}
    assert screen("Wire 1.000,50 EUR please", [], first=False) == {SCAM}
    assert screen("The concert costs 80 euros", [], first=False) == frozenset()
    assert screen("I sent it. The tickets cost 200 euros", [], first=False) == frozenset()
    assert screen("Send me 3 photos", [], first=False) == frozenset()


def test_a_valid_iban_is_a_scam_sign_in_any_message() -> None:
    assert screen("NL91 ABNA 0417 1643 00 please", [], first=False) == {SCAM}
    assert screen("de89370400440532013000", [], first=False) == {SCAM}
    assert screen("NL91 ABNA 0417 1643 01", [], first=False) == frozenset()  # check digits


def test_folding_reads_signs_diacritics_stretching_and_dots() -> None:
    assert fold("Fü©K ÆØß Łódź") == "fü©k aeoss lodz".replace("ü", "u")
    assert screen("B1TCH", [], first=False) == {INSULT}
    assert screen("fuuuuck you", [], first=False) == {INSULT}
    assert screen("f.u.c.k off", [], first=False) == {INSULT}
    assert screen("Spierdalaj", ["pl"], first=False) == screen("SPIERDALAJ", ["pl"], False)
    assert screen("jebać", ["pl"], first=False) == screen("jebac", ["pl"], first=False) == {INSULT}


def test_terms_match_whole_words_only() -> None:
    assert screen("Scunthorpe and Sussex", [], first=False) == frozenset()
    assert screen("Kutoarjo is a town", ["nl"], first=False) == frozenset()
    assert screen("pojebany", ["pl"], first=False) == {INSULT}  # pojeb*: every form


def test_another_languages_word_is_flagged_only_where_it_is_not_ordinary() -> None:
    assert screen("din hora", ["sv"], first=False) == {INSULT}
    assert screen("¿a qué hora?", ["sv", "es"], first=False) == frozenset()
    assert screen("till slut", ["sv"], first=False) == frozenset()
    assert screen("you slut", ["en"], first=False) == {INSULT}
    assert screen("Küsse", ["de", "da"], first=False) == frozenset()
    assert screen("kusse", ["da"], first=False) == {INSULT}
    assert screen("Wij willen een huis huren", ["nl", "de"], first=False) == frozenset()
    assert screen("Désolé pour le retard", ["fr"], first=False) == frozenset()
    assert screen("Meine Zelle im Labor", ["de"], first=False) == frozenset()


def test_the_lists_in_play_are_english_and_the_members_languages() -> None:
    assert languages_in_play("de", "nl", "de", "xx") == ("en", "de", "nl")
    assert screen("Fick dich", ["nl"], first=False) == frozenset()
    assert screen("Fick dich", ["nl", "de"], first=False) == {INSULT}


def test_every_list_parses_and_the_format_is_checked() -> None:
    for name in (*LOCALES, EVERY_LANGUAGE):
        assert word_list(name).patterns
    assert parse("[insult]\nfoo  # a note\n\n[ordinary]\nbar") == {
        "insult": ["foo"],
        "sexual": [],
        "scam": [],
        "contact": [],
        "ordinary": ["bar"],
        "money_verb": [],
        "currency": [],
    }
    with pytest.raises(ValueError):
        parse("foo")
