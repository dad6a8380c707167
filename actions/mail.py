"""Mail as an effect: an action that mails returns `MailOut(mail)`, sent once it committed.

The handler lives here rather than in `services/`: services sit below actions and must not
import them."""

from dataclasses import dataclass

from actions.effects import handles
from services.mail import OutgoingMail, delivered


@dataclass(frozen=True)
class MailOut:
    mail: OutgoingMail


@handles(MailOut)
async def _send(effect: MailOut) -> None:
    """A failure is logged by `delivered`; the member carries on (the reminder can re-send)."""
    await delivered(effect.mail)
