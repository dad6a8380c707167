"""The links mailed to a member: confirming the address, undoing a pending deletion.
Neither logs anyone in: whoever holds the link only learns whether it worked."""

from actions.conversions import note_conversion
from actions.runner import Done
from actions.signup_chat import first_message, send_first_message
from models.activation import activate, already_activated
from models.deletion import reactivate
from models.postback import ConversionEvent
from services.database import transaction


def confirm_address(token: str) -> Done[bool]:
    """Whether the address is confirmed (now, or by an earlier click on the same link). Once
    confirmed, the first message written at signup goes to the member it was aimed at."""
    with transaction() as db:
        if (member := activate(db, token)) is None:
            return Done(already_activated(db, token))
        note_conversion(db, member.id, ConversionEvent.CONFIRMED)
        outgoing = first_message(db, member)
    return Done(True, send_first_message(member, outgoing) if outgoing else ())


def undo_deletion(token: str) -> Done[bool]:
    with transaction() as db:
        return Done(reactivate(db, token) is not None)
