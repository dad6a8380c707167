"""Direct debit (SEPA core, one-off): the form, the mandate the member reviews, the code by SMS
that signs it, and the order it pays. Every step checks the member, their own draft mandate and
the code on the server; the full IBAN never leaves this layer after the form."""

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from sqlmodel import Session, select

from actions.audit import audit
from actions.checkout import HeldElsewhere, Quote, place_in, quote_in
from actions.mail import mailed
from actions.payment_views import BundleView
from actions.price_list import bundle_view
from actions.runner import Done
from actions.sms import SmsOut
from actions.staff_viewer import StaffViewer
from actions.support import refuse_target
from actions.viewer import Viewer
from models.banned_identities import BAN_KEY, PHONE, REFUSED_PHONE, is_banned
from models.direct_debit import (
    DEBIT_LEASE,
    MandateStatus,
    SddMandate,
    check_code,
    claim_debit,
    forms_throttled,
    iban_limits,
    lock_code_counts,
    mandate_reference,
    masked_iban,
    masked_phone,
    new_code,
    order_mandate,
    purge_stale,
)
from models.discount_codes import release
from models.member import Member, Profile, as_utc, utcnow
from models.orders import UNSETTLED, Order, OrderStatus
from models.payment_methods import DIRECT_DEBIT
from models.pricing import format_money
from models.sdd_form import SEPA_COUNTRIES, SddForm, check_form
from models.sdd_mandate_text import mandate_text
from models.site_settings import creditor_address
from services.database import db_session, transaction
from services.payments.types import Money
from services.receipt_mail import prenotification_mail
from services.server_keys import derived_key
from services.site_settings import current_settings
from translations.catalog import N_, gettext
from translations.errors import (
    DISCOUNT_CODE_IN_USE,
    GENERIC_ERROR,
    SDD_ACCOUNT_BLOCKED,
    SDD_AMOUNT_CHANGED,
)

SMS_TEXT = N_(
    "{code} is your {site} code to confirm your direct debit. It is valid for 10 minutes."
)
GIVE_UP_AFTER = timedelta(days=1)  # then only a payment the provider already has counts
RETRY_BATCH = 50
NOT_OFFERED = N_("Direct debit is available for payments in euros from a SEPA country.")


@dataclass(frozen=True)
class SddStart:
    blocked: bool
    offered: bool
    bundle: BundleView | None
    country: str


@dataclass(frozen=True)
class MandateView:
    """The mandate to review, in no language: the page writes the amount, the creditor's
    country and the mandate's wording (models/sdd_mandate_text.py) in its own, and again after a
    switch of language; `_as_seen` writes them in the language it was signed in."""

    reference: str
    creditor_name: str
    creditor_identifier: str
    creditor_address: str  # street and city
    creditor_country: str  # a country code
    holder: str
    address: str
    iban_masked: str
    phone_masked: str
    amount_cents: int
    currency: str


@dataclass(frozen=True)
class Prepared:
    mandate_id: int = 0
    errors: dict[str, str] = field(default_factory=dict)  # field -> msgid
    error: str = ""  # a msgid for the whole form
    error_params: tuple[tuple[str, str], ...] = ()
    mandate: MandateView | None = None


@dataclass(frozen=True)
class Confirmed:
    """A signed mandate and its order, with what the provider needs; or why not."""

    order_id: int = 0
    mandate_id: int = 0
    error: str = ""
    error_params: tuple[tuple[str, str], ...] = ()


def sdd_start(viewer: Viewer, tier: str, country: str | None) -> SddStart:
    with db_session() as db:
        member = db.get(Member, viewer.member_id)
        offer = quote_in(db, viewer, tier, country, None, DIRECT_DEBIT, utcnow())
        blocked = member is None or member.sdd_blocked_at is not None
        shown = bundle_view(offer.bundle) if offer.bundle else None
        return SddStart(blocked, not blocked and _offered(offer), shown, offer.country)


def _offered(offer: Quote) -> bool:
    bundle = offer.bundle
    return bundle is not None and bundle.currency == "EUR" and offer.country in SEPA_COUNTRIES


def prepare_mandate(
    viewer: Viewer, tier: str, country: str | None, code: str | None, values: dict[str, str]
) -> Done[Prepared]:
    """Check the form; a draft mandate to review, or the errors beside their fields."""
    with transaction() as db:
        member = db.get(Member, viewer.member_id)
        if member is None or member.sdd_blocked_at is not None:
            return Done(Prepared(error=SDD_ACCOUNT_BLOCKED))
        now = utcnow()
        offer = quote_in(db, viewer, tier, country, code, DIRECT_DEBIT, now)
        if not _offered(offer):
            return Done(Prepared(error=offer.error or NOT_OFFERED, error_params=offer.error_params))
        form, errors = check_form(values, offer.country)
        if form is None:
            return Done(Prepared(errors=errors))
        if is_banned(db, PHONE, form.phone, derived_key(BAN_KEY)):  # the phone of a banned account
            return Done(Prepared(errors={"phone": REFUSED_PHONE}))
        assert offer.bundle is not None
        settings = current_settings()
        refusal = forms_throttled(db, member.id, now) or iban_limits(
            db, form.iban, member.id, offer.bundle.cents, now, settings
        )
        if refusal:
            return Done(Prepared(error=refusal))
        mandate = _draft(db, viewer, offer, code, form)
        return Done(Prepared(mandate.id, mandate=_view(mandate, offer.amount)))


def _draft(
    db: Session, viewer: Viewer, offer: Quote, code: str | None, form: SddForm
) -> SddMandate:
    assert offer.bundle is not None
    mandate = SddMandate(
        member_id=viewer.member_id,
        tier=offer.bundle.tier,
        payment_country=offer.country,
        amount_cents=offer.bundle.cents,
        discount_code=(code or "").strip()[:40] or None,
        account_holder=form.account_holder,
        iban=form.iban,
        street=form.street,
        house_number=form.house_number,
        zip=form.zip,
        city=form.city,
        country=offer.country,
        phone_e164=form.phone,
        mandate_text="",  # written when it is signed, in the language it is signed in
        language=viewer.language,
    )
    db.add(mandate)
    db.flush()
    mandate.reference = mandate_reference(mandate.id)
    db.add(mandate)
    return mandate


def _view(mandate: SddMandate, amount: Money) -> MandateView:
    settings = current_settings()
    return MandateView(
        reference=mandate.reference,
        creditor_name=settings.creditor_name,
        creditor_identifier=settings.creditor_identifier,
        creditor_address=settings.creditor_address,
        creditor_country=settings.creditor_country,
        holder=mandate.account_holder,
        address=f"{mandate.street} {mandate.house_number}, {mandate.zip} {mandate.city}",
        iban_masked=masked_iban(mandate.iban),
        phone_masked=masked_phone(mandate.phone_e164),
        amount_cents=amount.cents,
        currency=amount.currency,
    )


def _as_seen(view: MandateView, language: str) -> str:
    """The mandate as the member read it when they signed it, in the page's language then:
    stored with the signed mandate."""
    text = mandate_text(language, view.creditor_name)
    address = creditor_address(current_settings(), language)
    return "\n".join(
        (
            view.reference,
            f"{view.creditor_name}, {view.creditor_identifier}, {address}",
            f"{view.holder}, {view.address}, {view.iban_masked}",
            format_money(view.amount_cents, view.currency, language),
            text.authorisation,
            text.refund_right,
            text.payment_type,
        )
    )


def send_code(viewer: Viewer, mandate_id: int) -> Done[str]:
    """A new code by SMS for the member's own draft mandate: "" once sent, else why not."""
    with transaction() as db:
        mandate = _own_draft(db, viewer, mandate_id)
        if mandate is None:
            return Done(GENERIC_ERROR)
        now, settings = utcnow(), current_settings()
        lock_code_counts(db, mandate)  # before the IBAN's lock; held for new_code too
        # A code that could not sign (the IBAN was taken or filled since the form) is not sent.
        limit = iban_limits(
            db, mandate.iban, mandate.member_id, mandate.amount_cents, now, settings
        )
        if limit:
            return Done(limit)
        sent = new_code(db, mandate, now)
        if not isinstance(sent, str):
            return Done(sent.error)
        text = gettext(viewer.language, SMS_TEXT, code=sent, site=settings.name)
        return Done("", (SmsOut(mandate.phone_e164, text),))


def _own_draft(db: Session, viewer: Viewer, mandate_id: int) -> SddMandate | None:
    mandate = db.get(SddMandate, mandate_id, with_for_update=True)
    member = db.get(Member, viewer.member_id)
    if mandate is None or member is None or member.sdd_blocked_at is not None:
        return None
    own = mandate.member_id == viewer.member_id and mandate.status == MandateStatus.DRAFT
    return mandate if own else None


class _NotPlaced(Exception):
    def __init__(self, error: str, params: tuple[tuple[str, str], ...] = ()) -> None:
        super().__init__(error)
        self.error, self.params = error, params


def confirm_code(
    viewer: Viewer, mandate_id: int, code: str, ip: str, user_agent: str
) -> Done[Confirmed]:
    """The right code signs the mandate and places its order, together; a wrong one counts as
    a try (and is stored as such). An order that cannot be placed leaves the code unused."""
    try:
        with transaction() as db:
            return Done(_confirmed(db, viewer, mandate_id, code, ip, user_agent, utcnow()))
    except HeldElsewhere:
        return Done(Confirmed(error=DISCOUNT_CODE_IN_USE))
    except _NotPlaced as refused:
        return Done(Confirmed(error=refused.error, error_params=refused.params))


def _confirmed(
    db: Session,
    viewer: Viewer,
    mandate_id: int,
    code: str,
    ip: str,
    user_agent: str,
    now: datetime,
) -> Confirmed:
    mandate = _own_draft(db, viewer, mandate_id)
    if mandate is None:
        return Confirmed(error=GENERIC_ERROR)
    checked = check_code(db, mandate.id, viewer.member_id, code, now)
    if checked.error:
        return Confirmed(error=checked.error)
    placed = place_in(
        db, viewer, mandate.tier, DIRECT_DEBIT, mandate.payment_country, mandate.discount_code
    )
    if placed.error:
        raise _NotPlaced(placed.error, placed.error_params)
    if placed.amount.cents != mandate.amount_cents:  # a discount ran out since the review
        raise _NotPlaced(SDD_AMOUNT_CHANGED)
    # again under the IBAN's lock: two signings cannot both pass it
    limit = iban_limits(
        db, mandate.iban, viewer.member_id, placed.amount.cents, now, current_settings()
    )
    if limit:
        raise _NotPlaced(limit)
    mandate.status, mandate.order_id = MandateStatus.SIGNED, placed.order_id
    # the signer's page language: the record says what they read, the provider speaks it too
    mandate.mandate_text = _as_seen(_view(mandate, placed.amount), viewer.language)
    mandate.language = viewer.language
    mandate.signed_at, mandate.signed_ip, mandate.signed_user_agent = now, ip[:45], user_agent[:300]
    mandate.debit_claimed_at = now  # the signing request asks the provider first
    db.add(mandate)
    return Confirmed(placed.order_id, mandate.id)


@dataclass(frozen=True)
class SddPlan:
    """What the provider needs for a signed mandate's payment."""

    order_id: int
    customer_name: str
    email: str
    holder: str
    iban: str
    signed_at: datetime
    reference: str
    amount: Money
    idempotency_key: str
    language: str
    customer_id: str | None  # the member's customer at the provider, from an earlier mandate
    mandate_id: str | None  # the provider's mandate, once registered


def sdd_plan(mandate_id: int) -> SddPlan | None:
    with db_session() as db:
        mandate = db.get(SddMandate, mandate_id)
        order = db.get(Order, mandate.order_id) if mandate and mandate.order_id else None
        member = db.get(Member, mandate.member_id) if mandate else None
        if mandate is None or order is None or member is None or mandate.signed_at is None:
            return None
        return SddPlan(
            order.id,
            mandate.account_holder,
            member.email,
            mandate.account_holder,
            mandate.iban,
            as_utc(mandate.signed_at),
            mandate.reference,
            Money(order.amount_cents, order.currency),
            order.idempotency_key,
            mandate.language,
            mandate.provider_customer_id or _member_customer(db, member.id),
            mandate.provider_mandate_id,
        )


def _member_customer(db: Session, member_id: int) -> str | None:
    """The provider customer of the member's latest registered mandate: one per member."""
    return db.exec(
        select(SddMandate.provider_customer_id)
        .where(
            SddMandate.member_id == member_id,
            SddMandate.provider_customer_id.is_not(None),  # type: ignore[union-attr]
        )
        .order_by(SddMandate.id.desc())  # type: ignore[union-attr]
    ).first()


def record_provider_mandate(
    mandate_id: int, customer_id: str, provider_mandate_id: str
) -> Done[None]:
    with transaction() as db:
        mandate = db.get(SddMandate, mandate_id)
        if mandate is not None:
            mandate.provider_customer_id, mandate.provider_mandate_id = (
                customer_id,
                provider_mandate_id,
            )
            db.add(mandate)
    return Done(None)


def prenotify(order_id: int, due_date: date | None) -> Done[None]:
    """The pre-notification of an order whose debit is on its way (`due_date` when the provider
    said): amount, date, mandate reference, creditor identifier and the masked IBAN. A
    transaction: its mail is deferred in it."""
    with transaction() as db:
        order = db.get(Order, order_id)
        mandate = order_mandate(db, order_id)
        member = db.get(Member, order.member_id) if order else None
        if order is None or order.status not in UNSETTLED or mandate is None or member is None:
            return Done(None)
        profile = db.get(Profile, member.id)
        mail = prenotification_mail(
            order,
            member,
            profile.name if profile else "",
            current_settings(),
            mandate.reference or "",
            masked_iban(mandate.iban),
            due_date,
        )
        out = mailed(db, mail)
    return Done(None, (out,))


def abandon_order(order_id: int) -> Done[bool]:
    """The provider never took the debit: the order fails and frees the discount it held, and
    its mandate is revoked (it signs nothing more). False when the order has a payment after
    all (another request got the provider's answer): then nothing changes."""
    with transaction() as db:
        order = db.get(Order, order_id, with_for_update=True)
        if order is None or order.status != OrderStatus.OPEN or order.provider_payment_id:
            return Done(False)
        order.status = OrderStatus.FAILED
        release(db, order.id)
        db.add(order)
        mandate = order_mandate(db, order_id)
        if mandate is not None:
            mandate.status = MandateStatus.REVOKED
            db.add(mandate)
    return Done(True)


def unanswered_debits(now: datetime) -> list[int]:
    """Signed mandates whose order is still open with no payment and whose lease has run out
    (the provider did not answer, or the process asking stopped), oldest first."""
    with db_session() as db:
        return list(
            db.exec(
                select(SddMandate.id)
                .join(Order, Order.id == SddMandate.order_id)  # type: ignore[arg-type]
                .where(
                    SddMandate.status == MandateStatus.SIGNED,
                    Order.status == OrderStatus.OPEN,
                    Order.provider_payment_id.is_(None),  # type: ignore[union-attr]
                    SddMandate.debit_claimed_at < now - DEBIT_LEASE,  # type: ignore[operator]
                )
                .order_by(SddMandate.signed_at)  # type: ignore[arg-type]
                .limit(RETRY_BATCH)
            ).all()
        )


def claim_debit_for(mandate_id: int) -> Done[bool]:
    """The lease to ask the provider for this mandate's debit (see `claim_debit`)."""
    with transaction() as db:
        return Done(claim_debit(db, mandate_id, utcnow()))


def purge_stale_drafts() -> Done[None]:
    """Drafts and codes the throttles no longer look at."""
    with transaction() as db:
        purge_stale(db, utcnow())
    return Done(None)


def lift_direct_debit_block(
    staff: StaffViewer | None, member_id: int, reason: str = ""
) -> Done[bool]:
    """Support lifts a member's direct debit block, from the console (`staff`) or the command
    line (None), audited; False when there was none."""
    with transaction() as db:
        refuse_target(db, staff, member_id)
        member = db.get(Member, member_id, with_for_update=True)
        if member is None or member.sdd_blocked_at is None:
            return Done(False)
        before = {"blocked_at": member.sdd_blocked_at.isoformat(), "why": member.sdd_block_reason}
        member.sdd_blocked_at, member.sdd_block_reason = None, None
        db.add(member)
        audit(db, staff, "support.lift_sdd_block", ("member", member_id), reason, before=before)
    return Done(True)
