"""The legal documents (terms, privacy, cookies, return policy, FAQ): texts as Python data, facts
from the site's settings (docs/legal.md)."""
