"""Every table holding a member's data is in the data export or explained in
docs/data-rights.md, and erasing an account leaves nothing of the member in any of them but
what that page says is kept, and why."""

from datetime import timedelta

from sqlalchemy import or_, select

from models.deletion import GRACE_PERIOD, erase_expired_accounts
from models.export_datasets import DATASETS
from models.member import Member, MemberStatus, utcnow
from models.tables import metadata
from tests.data_rights import documented, member_tables, member_with_everything

NOT_EXPORTED = "Not in the export"
KEPT = "Kept after erasure"


def test_every_member_table_is_exported_or_explained() -> None:
    exported = {table for dataset in DATASETS for table in dataset.tables}
    missing = set(member_tables()) - exported - documented(NOT_EXPORTED)
    assert not missing, f"add a dataset (models/export_datasets.py) or explain: {missing}"


def test_the_lists_name_only_real_tables() -> None:
    named = {t for d in DATASETS for t in d.tables} | documented(NOT_EXPORTED) | documented(KEPT)
    assert named <= set(metadata.tables)
    assert not {t for d in DATASETS for t in d.tables} & documented(NOT_EXPORTED)


def test_the_datasets_have_distinct_names() -> None:
    names = [dataset.name for dataset in DATASETS]
    assert len(names) == len(set(names))


def _rows_naming(db, member_id: int) -> dict[str, int]:
    """Per member table, how many rows name the member in one of its member columns."""
    counts = {}
    for name, columns in member_tables().items():
        table = metadata.tables[name]
        key = [table.c.id] if name == "member" else [table.c[c] for c in columns]
        found = db.exec(select(table).where(or_(*(column == member_id for column in key))))
        counts[name] = len(found.all())
    return counts


def test_the_test_member_has_data_in_every_member_table(db) -> None:
    """So that the erasure test below covers every table: a new one needs a row in
    tests/data_rights.py."""
    counts = _rows_naming(db, member_with_everything(db).me.id)
    assert not {name for name, count in counts.items() if count == 0}


def test_erasure_leaves_only_what_the_page_says_is_kept(db) -> None:
    everything = member_with_everything(db)
    me = db.get(Member, everything.me.id)
    me.status, me.deleted_at = MemberStatus.DELETED_PENDING, utcnow() - GRACE_PERIOD
    db.add(me)
    db.commit()
    erase_expired_accounts(db, utcnow() + timedelta(seconds=1))
    db.commit()
    left = {name for name, count in _rows_naming(db, me.id).items() if count}
    assert left <= documented(KEPT), (
        f"erase these (models/deletion.py) or explain: {left - documented(KEPT)}"
    )
    assert db.get(Member, me.id).email == f"deleted-{me.id}@deleted.invalid"
