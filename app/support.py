"""Support's command line: `python -m app.support withdraw ORDER_ID` withdraws a purchase for
a member who asked by mail or phone, with the same rules and pro rata refund as /transactions."""

import argparse
import asyncio

from actions.effects import settle
from actions.payment_flow import withdraw_by_support
from translations.catalog import gettext


async def _withdraw(order_id: int) -> str:
    error = await withdraw_by_support(order_id)
    await settle()  # the member's open tabs hear of it before the process ends
    return error


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m app.support")
    commands = parser.add_subparsers(dest="command", required=True)
    withdraw = commands.add_parser("withdraw", help="refund a purchase's unused credits")
    withdraw.add_argument("order_id", type=int)
    arguments = parser.parse_args()
    error = asyncio.run(_withdraw(arguments.order_id))
    print(gettext("en", error) if error else f"order {arguments.order_id}: refund requested")
    raise SystemExit(1 if error else 0)


if __name__ == "__main__":
    main()
