"""SMS as an effect: an action that texts returns `SmsOut(to, text)`, sent once it committed.

The handler lives here rather than in `services/`: services sit below actions and must not
import them."""

from dataclasses import dataclass

from actions.effects import handles
from services.sms import send_sms


@dataclass(frozen=True)
class SmsOut:
    to: str  # E.164
    text: str


@handles(SmsOut)
async def _send(effect: SmsOut) -> None:
    """A failure is logged by `send_sms`; the member can ask for a new code."""
    await send_sms(effect.to, effect.text)
