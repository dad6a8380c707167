"""Every legal document, by the static page it fills (models/routes.STATIC_PAGES): the pages
draw them (app/pages/static_pages.py) and load the legal catalogue part (app/document_head.py)."""

from models.legal.cookies import COOKIES
from models.legal.document import LegalDocument
from models.legal.faq import FAQ
from models.legal.privacy import PRIVACY
from models.legal.return_policy import RETURN_POLICY
from models.legal.terms import TERMS

LEGAL_DOCUMENTS: dict[str, LegalDocument] = {
    document.slug: document for document in (TERMS, RETURN_POLICY, FAQ, PRIVACY, COOKIES)
}
LEGAL_SLUGS = frozenset(LEGAL_DOCUMENTS)
