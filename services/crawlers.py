"""Whether a User-Agent is a known crawler, bot or script, by the patterns of the maintained
crawler-user-agents project (the PyPI package `crawler-user-agents`, MIT, from
github.com/monperrus/crawler-user-agents; updating the pinned version updates the list). Browsers
always send a User-Agent: a request without one counts as a bot."""

from crawleruseragents import is_crawler


def is_bot(user_agent: str) -> bool:
    return not user_agent.strip() or is_crawler(user_agent)
