"""The admins' discount codes (/staff/discounts, docs/admin.md): the codes newest first with how
often each was used (redemptions by paid orders), a new code, and disabling one. A disabled
code is as if it did not exist for members (models/discount_codes.check_code); an order that
already holds it keeps its price. Both writes are audited with the reason."""

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import func
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from actions.audit import audit
from actions.paging import Page, page_of
from actions.runner import Done
from actions.staff_viewer import StaffViewer
from models.account_errors import AccountError
from models.account_rules import clean_email
from models.discount_codes import (
    DISABLED,
    NEVER,
    TIME_BONUS_CODE,
    DiscountCode,
    DiscountRedemption,
    find_code,
)
from models.discount_form import NewCode
from models.member import Member, MemberStatus, as_utc
from models.orders import Order
from models.setting_kinds import bundle_currencies
from services.database import db_session, transaction
from services.site_settings import current_settings
from translations.catalog import N_

CODE_TAKEN = N_("This code exists already.")
NO_MEMBER = N_("No member with this e-mail address or number.")
PAGE_SIZE = 25


@dataclass(frozen=True)
class Choices:
    """What a new code may be limited to: the site's countries and its bundles' currencies."""

    countries: tuple[str, ...]
    currencies: tuple[str, ...]


def code_choices() -> Choices:
    settings = current_settings()
    return Choices(tuple(settings.countries), bundle_currencies(settings))


def code_page(page: int) -> Page:
    """A page of codes, newest first, each with its uses and its member's e-mail address."""
    uses = (
        select(func.count())
        .select_from(DiscountRedemption)
        .join(Order, Order.id == DiscountRedemption.order_id)
        .where(
            DiscountRedemption.code_id == DiscountCode.id,
            Order.paid_at.is_not(None),  # type: ignore[union-attr]
        )
        .scalar_subquery()
    )
    query = (
        select(DiscountCode, uses, Member.email)
        .outerjoin(Member, Member.id == DiscountCode.member_id)
        .order_by(DiscountCode.created_at.desc(), DiscountCode.id.desc())  # type: ignore[union-attr]
    )
    with db_session() as db:
        return page_of(db, query, page, lambda found: [_row(*r) for r in found], PAGE_SIZE)


def _row(code: DiscountCode, uses: int, email: str | None) -> dict[str, Any]:
    expires = as_utc(code.expires_at)
    return {
        "id": code.id,
        "code": code.code,
        "percentage": code.value_percentage,
        "member_id": code.member_id or 0,
        "member": email or "",
        "country": code.country or "",
        "currency": code.currency or "",
        "minimum": code.minimum_order_value,
        "validity": code.validity,
        "last_day": ""
        if expires >= NEVER
        else (expires - timedelta(microseconds=1)).date().isoformat(),
        "methods": list(code.paymentmethods or []),
        "status": code.status,
        "uses": uses,
    }


def _member_id(db: Session, typed: str) -> int | None:
    """The member an admin named by e-mail address or number; None for everyone."""
    if not typed:
        return None
    if typed.isdigit():
        member = db.get(Member, int(typed)) if len(typed) < 10 else None
    else:
        try:
            email = clean_email(typed)
        except AccountError:
            raise AccountError(NO_MEMBER, "member") from None
        member = db.exec(select(Member).where(Member.email == email)).first()
    if member is None or member.status == MemberStatus.DELETED:
        raise AccountError(NO_MEMBER, "member")
    return member.id


def create_code(staff: StaffViewer, new: NewCode, reason: str) -> Done[str]:
    """The new code (its text, made up when none was typed); AccountError when it is taken or
    its member unknown."""
    try:
        with transaction() as db:
            if find_code(db, new.code) is not None:
                raise AccountError(CODE_TAKEN, "code")
            code = DiscountCode(
                code=new.code,
                member_id=_member_id(db, new.member),
                value_percentage=new.value_percentage,
                validity=new.validity,
                country=new.country,
                currency=new.currency,
                minimum_order_value=new.minimum_order_value,
                expires_at=new.expires_at,
                paymentmethods=new.paymentmethods,
            )
            db.add(code)
            db.flush()
            after = code.model_dump(mode="json", exclude={"id", "created_at"})
            audit(db, staff, "discount.create", ("discount_code", code.id), reason, after=after)
    except IntegrityError:  # the same code typed by two admins at once
        raise AccountError(CODE_TAKEN, "code") from None
    return Done(new.code)


def disable_code(staff: StaffViewer, code_id: int, reason: str) -> Done[bool]:
    """Disable the code; False when there is none, it already is, or it is the welcome
    countdown's TIMEBONUS25 (which the countdown applies whatever its status)."""
    with transaction() as db:
        code = db.get(DiscountCode, code_id)
        if code is None or code.status == DISABLED or code.code == TIME_BONUS_CODE:
            return Done(False)
        before = {"status": code.status}
        code.status = DISABLED
        db.add(code)
        target = ("discount_code", code_id)
        audit(db, staff, "discount.disable", target, reason, before, {"status": DISABLED})
    return Done(True)
