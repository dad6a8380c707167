"""The configured database engine and a session context for handlers and scripts."""

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache

from sqlalchemy import Engine
from sqlmodel import Session

from models.db import make_engine
from services.config import get_config


@cache
def get_engine() -> Engine:
    return make_engine(get_config().database_url)


@contextmanager
def db_session() -> Iterator[Session]:
    with Session(get_engine(), expire_on_commit=False) as session:
        yield session
