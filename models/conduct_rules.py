"""The numbered rules of conduct of our terms: what a decision on the terms cites as its ground
(`Decision.ground` holds the rule's number, e.g. "3", when `ground_type` is terms). Numbers
never change meaning once published: a new rule takes the next number (the terms text around
them is issue 30's)."""

from dataclasses import dataclass

from translations.catalog import N_


@dataclass(frozen=True)
class ConductRule:
    number: int
    title: str  # msgid, translated where shown


CONDUCT_RULES = (
    ConductRule(1, N_("Only adults: every member is at least 18 years old")),
    ConductRule(2, N_("Be yourself: no fake profiles and no pretending to be someone else")),
    ConductRule(3, N_("No scams: never ask members for money, gifts or bank details")),
    ConductRule(4, N_("Photos show yourself, without nudity or sexual acts")),
    ConductRule(5, N_("Respect: no harassment, threats or insults")),
    ConductRule(6, N_("No hate or discrimination")),
    ConductRule(7, N_("No spam, advertising or paid services")),
    ConductRule(8, N_("Respect privacy: no one else's personal data or images")),
    ConductRule(9, N_("Nothing illegal")),
    ConductRule(10, N_("One account per person: no new account after a suspension or ban")),
)
_BY_GROUND = {str(rule.number): rule for rule in CONDUCT_RULES}


def conduct_rule(ground: str) -> ConductRule | None:
    """The rule a terms ground names ("3"), or None."""
    return _BY_GROUND.get(ground.strip())
