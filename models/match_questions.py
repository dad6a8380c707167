"""The matchfinder's few questions: each member answers for themselves, says which answers they
hope for from the other and how much that matters (as OkCupid asks). Only questions both members
answered count, and only as much as the asking side says they matter."""

from collections.abc import Mapping
from dataclasses import dataclass

from translations.catalog import N_


@dataclass(frozen=True)
class Question:
    key: str
    text: str  # msgid
    topic: str  # msgid: the question as a reason names it ("Children")
    answers: dict[str, str]  # value: label msgid


QUESTIONS = (
    Question(
        "looking_for",
        N_("What are you looking for?"),
        N_("What you are looking for"),
        {
            "relationship": N_("A steady relationship"),
            "casual": N_("Something casual"),
            "friendship": N_("Friendship first"),
            "open": N_("I'll see what happens"),
        },
    ),
    Question(
        "children",
        N_("Would you like children?"),
        N_("Children"),
        {"yes": N_("Yes"), "maybe": N_("Maybe"), "no": N_("No"), "have": N_("I have children")},
    ),
    Question(
        "smoking",
        N_("Do you smoke?"),
        N_("Smoking"),
        {"no": N_("No"), "sometimes": N_("Sometimes"), "yes": N_("Yes")},
    ),
    Question(
        "weekend",
        N_("Your ideal weekend?"),
        N_("Weekends"),
        {
            "out": N_("Going out"),
            "home": N_("Cosy at home"),
            "outdoors": N_("Outdoors"),
            "mix": N_("A bit of everything"),
        },
    ),
)
QUESTION_KEYS = tuple(question.key for question in QUESTIONS)
BY_KEY = {question.key: question for question in QUESTIONS}

# How much a question counts beside the age range (3), the place (2) and the interests (2).
IMPORTANCE = {"none": 0.0, "little": 1.0, "somewhat": 2.0, "very": 3.0}
IMPORTANCE_LABELS = {
    "none": N_("Doesn't matter to me"),
    "little": N_("Matters a little"),
    "somewhat": N_("Matters"),
    "very": N_("Matters a lot"),
}
NOT_ANSWERED = ""


@dataclass(frozen=True)
class QuestionWish:
    """One member's side of one question."""

    answer: str  # NOT_ANSWERED or one of the question's answers
    accepted: frozenset[str]  # the answers hoped for from the other
    importance: str  # a key of IMPORTANCE

    @property
    def weight(self) -> float:
        """What the other's answer counts for in this member's satisfaction (0: nothing)."""
        return IMPORTANCE[self.importance] if self.accepted else 0.0

    def accepts(self, answer: str) -> bool:
        return self.weight == 0.0 or answer in self.accepted


QuestionWishes = Mapping[str, QuestionWish]
NO_WISH = QuestionWish(NOT_ANSWERED, frozenset(), "none")  # a question the member left alone


def clean_question_wishes(raw: object) -> dict[str, QuestionWish]:
    """What the browser (or the stored JSON) says, made safe: known questions, answers and
    importances only; a question with nothing said is left out."""
    if not isinstance(raw, Mapping):
        return {}
    wishes = {}
    for question in QUESTIONS:
        wish = _clean_wish(question, raw.get(question.key))
        if wish is not None:
            wishes[question.key] = wish
    return wishes


def known(value: object, vocabulary: Mapping[str, object]) -> bool:
    """A string that is one of the vocabulary's keys (a list or dict from a forged request is
    not, and cannot be looked up)."""
    return isinstance(value, str) and value in vocabulary


def _clean_wish(question: Question, raw: object) -> QuestionWish | None:
    if not isinstance(raw, Mapping):
        return None
    answer = raw.get("answer")
    answer = answer if known(answer, question.answers) else NOT_ANSWERED
    listed = raw.get("accepted")
    accepted = frozenset(
        value
        for value in (listed if isinstance(listed, list) else [])
        if known(value, question.answers)
    )
    importance = raw.get("importance")
    importance = importance if known(importance, IMPORTANCE) else "none"
    if importance == "none" or not accepted:
        accepted, importance = frozenset(), "none"
    if answer == NOT_ANSWERED and not accepted:
        return None
    return QuestionWish(answer, accepted, importance)


def stored_question_wishes(wishes: QuestionWishes) -> dict[str, dict]:
    """The JSON kept on the member's matchfinder row (and read back by clean_question_wishes)."""
    return {
        key: {
            "answer": wish.answer,
            "accepted": sorted(wish.accepted),
            "importance": wish.importance,
        }
        for key, wish in wishes.items()
    }


def agreed_questions(mine: QuestionWishes, theirs: QuestionWishes) -> list[str]:
    """The questions both answered where neither minds the other's answer and at least one of
    them cares: a reason to show."""
    agreed = []
    for key in QUESTION_KEYS:
        my_wish, their_wish = mine.get(key, NO_WISH), theirs.get(key, NO_WISH)
        if NOT_ANSWERED in (my_wish.answer, their_wish.answer):
            continue
        cares = my_wish.weight + their_wish.weight > 0
        if cares and my_wish.accepts(their_wish.answer) and their_wish.accepts(my_wish.answer):
            agreed.append(key)
    return agreed
