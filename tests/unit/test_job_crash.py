"""A crash after a purchase committed (issue 32): the process that applied the payment is killed
before the receipt went out; a worker started afterwards (`python -m app.worker`) sends the
receipt, once. PostgreSQL only: the embedded SQLite default runs jobs in the process that
committed them, so a crash there loses them (docs/background-work.md)."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import Engine, text
from sqlmodel import Session

from models.orders import Order
from services.config import get_config
from tests.factories import make_member

ROOT = Path(__file__).resolve().parents[2]
WORKER_WAIT_SECONDS = 90  # a cold interpreter on a busy 2-core machine, then a poll
# Applies the payment through the actions layer, then dies at once, as a killed process does.
CRASHING = """
import asyncio, os, signal, sys
import app.job_modules
from actions.payments import apply_payment
from actions.runner import act
from services.payments.types import Money, PaymentStatus, ProviderPayment
payment = ProviderPayment(sys.argv[1], PaymentStatus.PAID, Money(1995, "EUR"), "ideal", None)
assert asyncio.run(act(apply_payment, payment))
os.kill(os.getpid(), signal.SIGKILL)
"""


def _environment(engine: Engine) -> dict[str, str]:
    url = engine.url.render_as_string(hide_password=False)
    data = str(get_config().data_dir)
    return {**os.environ, "DATABASE_URL": url, "DATA_DIR": data, "PYTHONPATH": str(ROOT)}


def _open_order(db: Session) -> Order:
    member = make_member(db, "crash@example.com")
    order = Order(
        member_id=member.id, tier="p0", credits=100, list_cents=1995, amount_cents=1995,
        currency="EUR", country="NL", method="ideal", provider="testpay",
        provider_payment_id="tr_crash", status="open",
    )  # fmt: skip
    db.add(order)
    db.commit()
    return order


def _waiting_mails(engine: Engine) -> int:
    with engine.connect() as connection:
        return connection.execute(
            text("SELECT count(*) FROM procrastinate_jobs WHERE task_name = 'send_mail'")
        ).scalar_one()


def test_a_receipt_committed_before_a_crash_is_sent_once_by_the_next_worker(
    engine: Engine, db: Session, outbox
) -> None:
    if engine.dialect.name != "postgresql":
        pytest.skip("SQLite runs jobs in the committing process: nothing survives a crash")
    order = _open_order(db)
    env = _environment(engine)
    crashed = subprocess.run(
        [sys.executable, "-c", CRASHING, "tr_crash"], cwd=ROOT, env=env, timeout=120
    )
    assert crashed.returncode == -signal.SIGKILL
    db.refresh(order)
    assert order.status == "paid" and outbox() == [] and _waiting_mails(engine) == 1

    worker = subprocess.Popen([sys.executable, "-m", "app.worker"], cwd=ROOT, env=env)
    try:
        deadline = time.monotonic() + WORKER_WAIT_SECONDS
        while _waiting_mails(engine) and time.monotonic() < deadline:
            time.sleep(0.2)
    finally:
        worker.terminate()
        worker.wait(timeout=30)
    (receipt,) = outbox()
    assert receipt["To"] == "crash@example.com" and _waiting_mails(engine) == 0
