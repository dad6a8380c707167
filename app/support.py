"""Support's command line, for a member who asked by mail or phone:

python -m app.support withdraw ORDER_ID      refund a purchase's unused credits (the same
                                             rules and pro rata refund as /transactions)
python -m app.support unblock-sdd MEMBER_ID  let a member pay by direct debit again
python -m app.support grant-role EMAIL ROLE  make a member staff: moderator, support or admin
python -m app.support revoke-role EMAIL ROLE take a role back; staff access ends at once
python -m app.support reset-totp EMAIL       forget a lost authenticator: the member enrols
                                             again at /staff (password first)
"""

import argparse
import asyncio

from actions.direct_debit import lift_direct_debit_block
from actions.effects import settle
from actions.payment_flow import withdraw_by_support
from actions.runner import act
from actions.staff_roles import grant_role, reset_authenticator, revoke_role
from models.staff import Role
from translations.catalog import gettext


async def _withdraw(order_id: int) -> str:
    error = await withdraw_by_support(None, order_id)
    await settle()  # the member's open tabs hear of it before the process ends
    return error


async def _unblock(member_id: int) -> str:
    return "" if await act(lift_direct_debit_block, None, member_id) else "no direct debit block"


_ROLE_COMMANDS = {"grant-role": (grant_role, "granted"), "revoke-role": (revoke_role, "revoked")}


def _run(arguments: argparse.Namespace) -> tuple[str, str]:
    """The error ("" for none) and what was done."""
    if arguments.command in _ROLE_COMMANDS:
        change, done = _ROLE_COMMANDS[arguments.command]
        error = asyncio.run(act(change, arguments.email, Role(arguments.role)))
        return error, f"{arguments.email}: {arguments.role} {done}"
    if arguments.command == "reset-totp":
        error = asyncio.run(act(reset_authenticator, arguments.email))
        return error, f"{arguments.email}: authenticator reset, to be enrolled again"
    if arguments.command == "withdraw":
        error = asyncio.run(_withdraw(arguments.id))
        return gettext("en", error) if error else "", f"order {arguments.id}: refund requested"
    return asyncio.run(_unblock(arguments.id)), f"member {arguments.id}: direct debit allowed"


def _role_command(commands: argparse._SubParsersAction, name: str, summary: str) -> None:
    command = commands.add_parser(name, help=summary)
    command.add_argument("email", metavar="EMAIL")
    command.add_argument("role", choices=[role.value for role in Role], metavar="ROLE")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m app.support")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("withdraw", help="refund a purchase's unused credits").add_argument(
        "id", type=int, metavar="ORDER_ID"
    )
    commands.add_parser("unblock-sdd", help="lift a direct debit block").add_argument(
        "id", type=int, metavar="MEMBER_ID"
    )
    _role_command(commands, "grant-role", "give a member a staff role (audited)")
    _role_command(commands, "revoke-role", "take a staff role back (audited)")
    commands.add_parser(
        "reset-totp", help="forget a staff member's lost authenticator (audited)"
    ).add_argument("email", metavar="EMAIL")
    error, done = _run(parser.parse_args())
    print(error or done)
    raise SystemExit(1 if error else 0)


if __name__ == "__main__":
    main()
