"""Statement budgets of the discovery pages, pinned as Zulip pins its query counts: a page
load (the frame's session load, then the page's own events) costs the same whether it shows 3
cards or 20."""

import pytest
from sqlmodel import Session

from models.auth_session import start_session
from models.likes import Like
from models.member import Member
from services.site_settings import current_settings
from state.likes import LikeModalState, LikesState
from state.profile_view import ProfileViewState
from state.search import SearchState
from state.session import SessionState
from tests.factories import committed, make_member
from tests.queries import statements
from tests.state.conftest import run, substate

PAGE_EVENTS = {
    "/likes": [(LikesState, "load_page"), (LikeModalState, "check")],
    "/members": [(SearchState, "load_search"), (LikeModalState, "check")],
    "/members/{id}": [(ProfileViewState, "load_profile"), (LikeModalState, "check")],
}


def liked_by_many(db: Session, count: int) -> tuple[Member, Member]:
    """A member liked by `count` others, every like announced (today's automatic one too),
    the last liker's still new."""
    me = make_member(db)
    others = [make_member(db, f"m{i}@example.com") for i in range(count)]
    for other in others:
        db.add(Like(liker_id=other.id, liked_id=me.id, announced=True))
    db.get(Like, (others[0].id, me.id)).automatic = True
    db.commit()
    return me, others[-1]


async def page_load(make_root, db: Session, me: Member, url: str, path: str) -> int:
    root = make_root(url=url, cookie=f"auth.session={committed(db, start_session, me.id)}")
    current_settings()  # a worker has them cached
    with statements() as seen:
        await substate(root, SessionState)._load()
        for cls, event in PAGE_EVENTS[path]:
            await run(getattr(substate(root, cls), event)())
    return len(seen)


async def counts(make_root, db: Session, likes: int) -> dict[str, int]:
    me, other = liked_by_many(db, likes)
    urls = {"/likes": "/likes", "/members": "/members", "/members/{id}": f"/members/{other.id}"}
    return {path: await page_load(make_root, db, me, url, path) for path, url in urls.items()}


@pytest.mark.parametrize("likes", [3, 20])
async def test_page_loads_stay_within_budget_however_many_cards(make_root, db, likes) -> None:
    # the frame's session load is 1 of each, each event's viewer check 1; opening a liker's
    # profile clears the new like (2)
    assert await counts(make_root, db, likes) == {"/likes": 5, "/members": 8, "/members/{id}": 8}
