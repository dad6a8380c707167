"""The privacy statement (GDPR Art. 13): who decides about the data, what for and on which
basis, who receives it, how long it is kept (the periods the code keeps: models/deletion.py,
models/auth_session.py, models/login_history.py, models/tickets.py, models/data_export.py,
models/traffic.py, docs/direct-debit.md, docs/data-rights.md "Kept after erasure"), the
partner's click and the conversions reported to it (docs/acquisition.md), the automated screens
(models/match_score.py, models/message_filter.py, services/photo_classifier.py) and how each
right is used in the site."""

from models.legal.document import Bullets, LegalDocument, LegalSection, Paragraph, Table
from translations.catalog import N_

_CONTROLLER = LegalSection(
    "controller",
    N_("Who is responsible for your data"),
    (
        Paragraph(
            N_(
                "{site} is run by {company}, {address}, {city}, {country}, registered with the "
                "Dutch Chamber of Commerce under number {kvk}. {company} decides why and how your "
                "personal data is processed and is therefore the controller under the General "
                "Data Protection Regulation (GDPR)."
            )
        ),
        Paragraph(
            N_(
                "For every question about your data, or to use one of your rights, write to "
                "{support_email} or call {support_phone}. Please mention the e-mail address of "
                "your account, so that we can find it."
            )
        ),
    ),
)

_DATA = LegalSection(
    "data-we-process",
    N_("What data we process"),
    (
        Paragraph(
            N_("We process the data you give us and the data that arises when you use {site}:")
        ),
        Bullets(
            (
                N_(
                    "Account: your e-mail address, your password (stored only as a hash we cannot "
                    "read back), your date of birth, your gender and who you are looking for."
                ),
                N_(
                    "Profile: your profile name, photos, place of residence (city and region; your "
                    "exact location is never stored), appearance, about-me text, interests and "
                    "your answers to the matchfinder's questions."
                ),
                N_(
                    "Contacts with other members: messages, gifts, likes, matches, blocks and "
                    "reports, with their date and time."
                ),
                N_(
                    "Purchases: orders, credit bundles, your credits balance and what you spent "
                    "credits on, payment method and payment status, refunds and chargebacks."
                ),
                N_(
                    "Direct debit: the name, address, phone number and IBAN of the account holder, "
                    "the mandate you signed with its time, IP address and browser, and the code we "
                    "send by SMS."
                ),
                N_(
                    "Use and security: log-ins with time, IP address, device and country, your "
                    "sessions, the device cookie of browsers you logged in with, and the "
                    "notification settings and push subscriptions of your devices."
                ),
                N_(
                    "Origin: when you arrive through a partner's link, the partner, the reference "
                    "codes and the partner's click id of that link, the time, the page you arrived "
                    "on and its language, a hash of your IP address, your browser's "
                    "identification (user agent) and whether it looks like a robot. A cookie "
                    "remembers that visit for 30 days; if you sign up within that time, the "
                    "visit is kept with your account."
                ),
                N_(
                    "Customer service: what you write to us and what we answer, and the decisions "
                    "we take on reports, with the evidence they are based on."
                ),
            )
        ),
        Paragraph(
            N_(
                "Photos are stripped of hidden data, such as the GPS position of the camera, as "
                "soon as you upload them."
            )
        ),
    ),
)

_CONTRACT = N_("Performance of the contract (Art. 6(1)(b) GDPR)")
_LEGAL_DUTY = N_("Legal obligation (Art. 6(1)(c) GDPR)")
_INTEREST = N_("Legitimate interest (Art. 6(1)(f) GDPR)")
_CONSENT = N_("Consent (Art. 6(1)(a) GDPR), which you can withdraw at any time")

_PURPOSES = LegalSection(
    "purposes",
    N_("Purposes and legal bases"),
    (
        Paragraph(
            N_("We use your data only for the following purposes, each on its own legal basis:")
        ),
        Table(
            (N_("Purpose"), N_("Data"), N_("Legal basis")),
            (
                (
                    N_("Your account, your profile, searching, matching and chatting"),
                    N_("Account, profile, contacts with other members"),
                    _CONTRACT,
                ),
                (
                    N_("Selling credits, taking payments and refunding them"),
                    N_("Purchases, direct debit"),
                    _CONTRACT,
                ),
                (
                    N_("Keeping accounting and tax records"),
                    N_("Purchases, direct debit mandates"),
                    _LEGAL_DUTY,
                ),
                (
                    N_("Checking that members are adults"),
                    N_("Date of birth"),
                    _CONTRACT,
                ),
                (
                    N_(
                        "Keeping accounts safe: sessions, blocking repeated wrong log-ins, "
                        "recognising your devices, preventing fraud and payment abuse"
                    ),
                    N_("Use and security, purchases"),
                    _INTEREST,
                ),
                (
                    N_(
                        "Moderation: handling reports and notices, screening messages and photos, "
                        "decisions with a statement of reasons"
                    ),
                    N_("Profile, contacts with other members, customer service"),
                    N_(
                        "Legal obligation under the Digital Services Act and our legitimate "
                        "interest in a safe site"
                    ),
                ),
                (
                    N_("E-mails about new messages, likes and matches"),
                    N_("E-mail address, notification settings"),
                    N_(
                        "Legitimate interest; you can switch them off on the Notifications page "
                        "or with the link in every mail"
                    ),
                ),
                (
                    N_("Push notifications on your device"),
                    N_("Push subscriptions"),
                    _CONSENT,
                ),
                (
                    N_(
                        "Knowing which partner and campaign brought you to us, and telling that "
                        "partner of your signup and first purchase so that we can pay its "
                        "commission"
                    ),
                    N_("Origin, purchases"),
                    _INTEREST,
                ),
                (
                    N_("Answering your questions and complaints"),
                    N_("Customer service, account"),
                    _CONTRACT,
                ),
            ),
        ),
        Paragraph(
            N_(
                "Where we rely on a legitimate interest, we have weighed it against your "
                "interests; you can object to it (see “Your rights”). We do not use your "
                "data for advertising by others and we do not sell it."
            )
        ),
    ),
)

_SENSITIVE = LegalSection(
    "sensitive-data",
    N_("Sensitive data"),
    (
        Paragraph(
            N_(
                "{site} is a dating site for adults. Who you are looking for, what you write in "
                "your profile and your chats can reveal your sexual orientation or sex life. "
                "That is a special category of personal data (Art. 9 GDPR). We process it only "
                "because you enter it yourself in order to meet other members, with your explicit "
                "consent (Art. 9(2)(a) GDPR). You can withdraw that consent at any time by "
                "changing or removing these details, or by deleting your account."
            )
        ),
    ),
)

_RECIPIENTS = LegalSection(
    "recipients",
    N_("Who receives your data"),
    (
        Paragraph(
            N_(
                "Only the staff who need it for their work can see your data. Besides them, "
                "the following receive data from us:"
            )
        ),
        Bullets(
            (
                N_(
                    "Other members and visitors see your profile (profile name, age, place, "
                    "photos, about-me text and interests), never your e-mail address or date of "
                    "birth. Your messages are seen only by the member you write to."
                ),
                N_(
                    "Visitors of our landing pages, which invite them to sign up, see the "
                    "profiles of members near them (profile name, age, place and photo). One of "
                    "these pages shows members who were active on {site} in the last 24 hours or "
                    "7 days, never when each of them was; another shows when a member joined or "
                    "added a photo, such as “3 hours ago”. With privacy mode on, your profile "
                    "does not appear there."
                ),
                N_(
                    "Mollie B.V. in Amsterdam, our payment provider, receives the amount, the "
                    "order number and, for a direct debit, the account holder's name and IBAN. "
                    "What you enter on Mollie's pages falls under Mollie's own privacy statement."
                ),
                N_(
                    "Our SMS gateway (Twilio) receives your phone number and the code we send you "
                    "when you sign a direct-debit mandate."
                ),
                N_(
                    "Our e-mail provider receives your e-mail address and the content of the "
                    "e-mails we send you."
                ),
                N_(
                    "The push service of your browser (Google, Mozilla, Microsoft or Apple) "
                    "passes our notifications to your device. They are encrypted, so the push "
                    "service cannot read them."
                ),
                N_(
                    "The partner whose link brought you to us is told, from our server to its "
                    "server, when you sign up, when you confirm your e-mail address, when you make "
                    "your first purchase (with its amount and currency) and when that purchase is "
                    "refunded or charged back. Each report names you only by the partner's own "
                    "click id and the reference codes of its link, never by your name, e-mail "
                    "address or profile."
                ),
                N_("Our hosting provider stores the site and its database on our behalf."),
                N_(
                    "Police, courts and other authorities, only when the law obliges us to "
                    "provide data."
                ),
            )
        ),
        Paragraph(
            N_(
                "The providers that process data on our behalf do so under a data processing "
                "agreement and only on our instructions."
            )
        ),
    ),
)

_TRANSFERS = LegalSection(
    "transfers",
    N_("Transfers outside the European Economic Area"),
    (
        Paragraph(
            N_(
                "Twilio and the push services of Google, Microsoft and Apple are American "
                "companies, so your phone number or an encrypted notification can reach the "
                "United States. Such a transfer takes place under the European Commission's "
                "adequacy decision for the EU-US Data Privacy Framework, for companies certified "
                "under it, and otherwise under the European Commission's standard contractual "
                "clauses (Art. 46 GDPR). You can ask us for a copy of these safeguards."
            )
        ),
    ),
)

_RETENTION = LegalSection(
    "retention",
    N_("How long we keep your data"),
    (
        Table(
            (N_("Data"), N_("How long")),
            (
                (
                    N_("Account, profile, photos, likes and blocks"),
                    N_(
                        "As long as your account exists. When you delete it, it is hidden at "
                        "once and erased 14 days later; until then a link in the e-mail we send "
                        "you brings it back."
                    ),
                ),
                (
                    N_("Chats"),
                    N_(
                        "Until you or the other member delete your account: a chat is then erased "
                        "for both."
                    ),
                ),
                (
                    N_("Log-in sessions"),
                    N_("30 days, or until you log out or change your password."),
                ),
                (
                    N_("Log-in history (time, IP address, device, country)"),
                    N_("12 months."),
                ),
                (
                    N_("Orders, payments, refunds and the credits ledger"),
                    N_(
                        "7 years after the end of the year of purchase, the retention period of "
                        "Dutch tax law, also after your account is erased."
                    ),
                ),
                (
                    N_("Mandates for direct debit"),
                    N_(
                        "A signed mandate stays with its order as a payment record. Once your "
                        "account has been erased and 400 days after signing have passed, the "
                        "name, address, phone number, IBAN (except its country code), IP address "
                        "and browser of the account holder are erased from it. Mandates that were "
                        "never signed are deleted after one day, SMS codes after one day."
                    ),
                ),
                (
                    N_("Reports and moderation decisions"),
                    N_(
                        "Also after your account is erased: a decision must stay open to "
                        "complaints and review, and it counts in our transparency reports under "
                        "the Digital Services Act. Of a banned account we keep only a hash of its "
                        "e-mail address and phone number, so that it cannot return."
                    ),
                ),
                (
                    N_("Reported photos"),
                    N_(
                        "A photo that was reported is kept as evidence while the report, or a "
                        "complaint against the decision on it, is open, and for six months after "
                        "the decision, the time in which a complaint can be lodged, also when its "
                        "owner deleted it. Then it is erased; the report and its decision stay."
                    ),
                ),
                (
                    N_("Customer-service tickets"),
                    N_(
                        "A closed ticket is erased 12 months after its last message or change. "
                        "When your account is erased, all your tickets go with it, including "
                        "those sent from its e-mail address without logging in."
                    ),
                ),
                (
                    N_("Requests for a copy of your data"),
                    N_(
                        "The archive and its download link for 48 hours; the date of each "
                        "request as long as your account exists."
                    ),
                ),
                (
                    N_(
                        "Your acceptance of the terms and this statement (version, time, IP "
                        "address)"
                    ),
                    N_(
                        "Also after your account is erased: it proves which terms our agreement "
                        "was based on."
                    ),
                ),
                (
                    N_("Origin (partner, reference codes and your visit)"),
                    N_(
                        "A visit through a partner's link that led to no account is deleted "
                        "after 13 months. If you signed up after it, it stays with your account, "
                        "also after your account is erased, to settle the partner's commission: "
                        "the hash of your IP address and your browser's identification are then "
                        "removed from it, while the partner, the reference codes, the click id, "
                        "the time, the page, the language and the reports we sent the partner "
                        "are kept. The message you wrote when signing up is erased with your "
                        "account."
                    ),
                ),
                (
                    N_(
                        "Staff audit log: which staff member did what with your account, your "
                        "tickets or moderation cases that concern you, when, and the reason they "
                        "gave"
                    ),
                    N_(
                        "With no time limit, also after your account is erased: it is the record "
                        "that holds our staff to account, and it cannot be changed."
                    ),
                ),
                (
                    N_("Server logs"),
                    N_("30 days."),
                ),
            ),
        ),
    ),
)

_AUTOMATED = LegalSection(
    "automated-decisions",
    N_("Automated processing"),
    (
        Paragraph(
            N_(
                "{site} uses three automated screens. None of them takes a decision about you "
                "on its own that has legal or similarly significant effects (Art. 22 GDPR): "
                "suspending or closing an account is always decided by a person."
            )
        ),
        Bullets(
            (
                N_(
                    "The matchfinder scores how well two members fit, from both sides: the age "
                    "range each wishes, place, shared interests and the answers to the "
                    "matchfinder's questions. The score only decides the order in which members "
                    "are suggested to you."
                ),
                N_(
                    "Message filters look for insults, explicit sexual requests, scams and, "
                    "until the other member has written back, contact details such as a phone "
                    "number. A flagged message is not refused: the sender is asked whether they "
                    "are sure, and the recipient sees it behind a warning."
                ),
                N_(
                    "A photo classifier, running on our own servers, estimates how explicit an "
                    "uploaded photo is. A photo that looks explicit is held back and goes to a "
                    "moderator, who approves or rejects it."
                ),
            )
        ),
    ),
)

_RIGHTS = LegalSection(
    "your-rights",
    N_("Your rights and how to use them"),
    (
        Bullets(
            (
                N_(
                    "Access and data portability: in your account settings, “Download my "
                    "data” builds an archive of your data (JSON and CSV) and e-mails you a "
                    "download link, valid for 48 hours."
                ),
                N_(
                    "Correction: change your profile on your profile page, and your e-mail "
                    "address and password in your account settings. For anything you cannot "
                    "change yourself, write to {support_email}."
                ),
                N_(
                    "Erasure: delete your account in your account settings. It is hidden at once "
                    "and erased after 14 days, except what “How long we keep your data” names as "
                    "kept after erasure, such as the payment records we must keep by law."
                ),
                N_(
                    "Objection: you can object to any processing based on our legitimate "
                    "interest by writing to {support_email}; we then stop unless we have "
                    "compelling grounds. Notification e-mails stop at once with the unsubscribe "
                    "link in every mail or on the Notifications page."
                ),
                N_(
                    "Restriction: ask {support_email} to stop using your data for a while, for "
                    "example while we check a correction you asked for."
                ),
                N_(
                    "Withdrawing consent: switch off push notifications on the Notifications "
                    "page or in your browser, and remove sensitive details from your profile. "
                    "This does not affect what we did before."
                ),
            )
        ),
        Paragraph(
            N_(
                "We answer within one month. To protect your data we may ask you to send the "
                "request from the e-mail address of your account. Using your rights is free."
            )
        ),
    ),
)

_COMPLAINT = LegalSection(
    "complaints",
    N_("Complaints"),
    (
        Paragraph(
            N_(
                "If you are not satisfied with how we handle your data, please tell us first at "
                "{support_email}. You also have the right to lodge a complaint with a supervisory "
                "authority: in the Netherlands the Autoriteit Persoonsgegevens "
                "(autoriteitpersoonsgegevens.nl, P.O. Box 93374, 2509 AJ The Hague), or the "
                "authority of the EU country where you live or work."
            )
        ),
    ),
)

# The age limit is never 1: its number needs no counted form (tests/unit/test_plurals.py).
REQUIRED_DATA = N_(
    "An e-mail address, a password, your date of birth, your gender and who you are looking for "
    "are needed to make an account; without them we cannot conclude the contract. You must be "
    "at least {min_age} years old. Everything else in your profile is up to you. To buy credits "
    "we need the data your payment method requires."
)
_REQUIRED = LegalSection(
    "required-data",
    N_("What you must give us"),
    (Paragraph(REQUIRED_DATA),),
)

_SECURITY = LegalSection(
    "security",
    N_("Security"),
    (
        Paragraph(
            N_(
                "All connections are encrypted. Passwords are stored only as a slow hash, the "
                "session cookie cannot be read by scripts, repeated wrong log-ins are blocked, "
                "and staff log in with a second factor. If a data breach nevertheless puts you "
                "at risk, we tell you and the Autoriteit Persoonsgegevens."
            )
        ),
    ),
)

_CHANGES = LegalSection(
    "changes",
    N_("Changes to this statement"),
    (
        Paragraph(
            N_(
                "This statement is the version of {version_date}. When we change it, we publish "
                "the new version here with its date, and members are asked to read it when they "
                "next log in."
            )
        ),
    ),
)

PRIVACY = LegalDocument(
    "privacy",
    N_("Privacy statement"),
    (
        _CONTROLLER,
        _DATA,
        _PURPOSES,
        _SENSITIVE,
        _RECIPIENTS,
        _TRANSFERS,
        _RETENTION,
        _AUTOMATED,
        _RIGHTS,
        _COMPLAINT,
        _REQUIRED,
        _SECURITY,
        _CHANGES,
    ),
)
