"""The US privacy notice (the spec: "English also has a US variant of the privacy text"): the
California notice at collection (CCPA as amended by the CPRA), shown at
/pages/privacy?region=us, the English footer's link; its section "opt-out" is the footer's "Do
not sell or share" link. English only, so its texts are not marked for translation: the page
writes them as they are (components/i18n.browser_text), with the facts filled in. What it says
about data, recipients and retention is what models/legal/privacy.py says for the EU."""

from models.legal.document import Bullets, LegalDocument, LegalSection, Paragraph, Table

_CATEGORIES = Table(
    ("Category of personal information", "What we collect", "Disclosed for a business purpose to"),
    (
        (
            "Identifiers",
            "E-mail address, profile name, account number, IP address, device cookie",
            "Our hosting, e-mail and payment providers",
        ),
        (
            "Personal records (Cal. Civ. Code § 1798.80(e))",
            "Name, address, phone number and bank account (IBAN) of a direct-debit payer",
            "Our payment provider (Mollie) and SMS gateway (Twilio)",
        ),
        (
            "Characteristics of protected classifications",
            "Age and date of birth, gender, the gender you are looking for",
            "Other members see your age and gender on your profile",
        ),
        (
            "Commercial information",
            "Credit bundles bought, payments, refunds and how credits were spent",
            "Our payment provider",
        ),
        (
            "Internet or other electronic network activity",
            "Log-ins with time and device, messages, likes, matches, blocks and reports",
            "Our hosting provider; messages go only to the member you write to",
        ),
        (
            "Internet or other electronic network activity",
            "When a partner's link brought you: the partner, its reference codes and click id, "
            "the page you arrived on, a hash of your IP address and your browser's user agent",
            "That partner, to pay its commission: it is told of your signup, your confirmed "
            "e-mail address, your first purchase (amount and currency) and its refund or "
            "chargeback, by its own click id and codes only, never by your name, e-mail "
            "address or profile",
        ),
        (
            "Geolocation data",
            "Your city and region; never your precise location",
            "Other members see your city on your profile",
        ),
        (
            "Audio, electronic or visual information",
            "Your photos",
            "Other members, and visitors of our landing pages near you, see your approved "
            "photos unless privacy mode is on",
        ),
        (
            "Inferences",
            "The matchfinder's score of how well you fit other members",
            "Nobody: it only orders the members suggested to you",
        ),
        (
            "Sensitive personal information",
            "Your log-in (e-mail and password), your bank account for direct debit, and what "
            "your profile and chats reveal about your sex life or sexual orientation",
            "Our payment provider (bank account only)",
        ),
    ),
)

PRIVACY_US = LegalDocument(
    "privacy",
    "US privacy notice",
    (
        LegalSection(
            "notice-at-collection",
            "Notice at collection",
            (
                Paragraph(
                    "This notice is for residents of California and of other US states with "
                    "similar privacy laws. It adds to our privacy statement and describes how "
                    "{company}, {address}, {city}, {country}, the company that runs {site}, "
                    "collects, uses and discloses personal information, as the California "
                    "Consumer Privacy Act as amended by the California Privacy Rights Act (CCPA) "
                    "requires."
                ),
                Paragraph(
                    "We collect the categories of personal information below when you sign up, "
                    "fill in your profile, use the site and buy credits, and we use them for the "
                    "purposes listed further on. We do not sell your personal information and we "
                    "do not share it for cross-context behavioral advertising."
                ),
            ),
        ),
        LegalSection(
            "categories",
            "Categories we collect and disclose",
            (
                _CATEGORIES,
                Paragraph(
                    "In the past 12 months we disclosed these categories only to the service "
                    "providers named, under contracts that forbid them to use the information "
                    "for anything else, to other members as far as your profile shows it, and "
                    "to the partner whose link brought you, as the table says."
                ),
            ),
        ),
        LegalSection(
            "sources",
            "Where the information comes from",
            (
                Bullets(
                    (
                        "From you: your account, profile, photos, messages and payments.",
                        "From your browser: IP address, device and the cookies listed in our "
                        "cookie policy.",
                        "From our payment provider: whether a payment succeeded, was refunded or "
                        "charged back.",
                        "From the partner whose link brought you to {site}: its reference codes "
                        "and its click id.",
                        "From other members: messages they send you and reports about your "
                        "profile or messages.",
                    )
                ),
            ),
        ),
        LegalSection(
            "purposes",
            "Why we use it",
            (
                Bullets(
                    (
                        "To run your account and let you search, match and chat with members.",
                        "To sell credits, take payments, refund them and keep tax records.",
                        "To check that members are at least {min_age} years old.",
                        "To keep accounts safe and prevent fraud and payment abuse.",
                        "To moderate profiles, photos and messages and to handle reports.",
                        "To send you the e-mails and push notifications you asked for.",
                        "To answer your questions and complaints.",
                    )
                ),
                Paragraph(
                    "We use sensitive personal information only for these purposes, which the "
                    "CCPA allows without offering a right to limit its use, and never to infer "
                    "characteristics about you."
                ),
            ),
        ),
        LegalSection(
            "opt-out",
            "Do not sell or share my personal information",
            (
                Paragraph(
                    "{company} does not sell personal information and does not share it for "
                    "cross-context behavioral advertising, and has not done so in the past 12 "
                    "months. There are no advertising or analytics cookies of other companies on "
                    "{site}. We do not knowingly sell or share the personal information of anyone "
                    "under 16; the site is for adults only."
                ),
                Paragraph(
                    "You can still opt out, for example to be sure that this never changes "
                    "without your consent: write to {support_email} with the subject “Do not "
                    "sell or share” from the e-mail address of your account, or call "
                    "{support_phone}. We record your choice and will not sell or share your "
                    "information unless you later allow it. A Global Privacy Control signal from "
                    "your browser needs no action: there is nothing we sell or share."
                ),
            ),
        ),
        LegalSection(
            "your-rights",
            "Your rights",
            (
                Bullets(
                    (
                        "Right to know and access: the categories and the specific pieces of "
                        "personal information we hold about you. “Download my data” in your "
                        "account settings e-mails you a link to an archive of all of it.",
                        "Right to delete: delete your account in your account settings; it is "
                        "hidden at once and erased after 14 days. We keep payment records as long "
                        "as tax law requires.",
                        "Right to correct: change your profile on your profile page and your "
                        "e-mail address and password in your account settings; write to us for "
                        "anything else.",
                        "Right to opt out of sale and sharing: see above.",
                        "Right to non-discrimination: using any of these rights never changes "
                        "the prices you pay, the credits you get or the service you receive.",
                    )
                ),
            ),
        ),
        LegalSection(
            "requests",
            "How to make a request",
            (
                Paragraph(
                    "Use the tools in your account, write to {support_email} or call "
                    "{support_phone}. We verify a request by your log-in or by a reply from the "
                    "e-mail address of the account, and answer within 45 days. An authorized "
                    "agent may make a request for you with your signed permission; we may ask you "
                    "to confirm it with us directly."
                ),
            ),
        ),
        LegalSection(
            "retention",
            "How long we keep it",
            (
                Paragraph(
                    "Your account, profile, photos and chats are kept while your account exists "
                    "and erased 14 days after you delete it. Log-in history is kept for 12 "
                    "months, server logs for 30 days, and orders and payments for 7 years, as tax "
                    "law requires. The privacy statement lists every period."
                ),
            ),
        ),
        LegalSection(
            "contact",
            "Contact and changes",
            (
                Paragraph(
                    "Questions about this notice: {company}, {address}, {city}, {country}; "
                    "{support_email}; {support_phone}. This notice is the version of "
                    "{version_date}; a new version is published here with its date."
                ),
            ),
        ),
    ),
    written_in="en",
)
