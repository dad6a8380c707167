"""The terms and conditions: the contract a member makes with the company that runs the site. The
rules of conduct are models/conduct_rules.py's, in their order, so a decision that cites rule 3
cites the third rule here."""

from models.conduct_rules import CONDUCT_RULES
from models.legal.document import Bullets, LegalDocument, LegalSection, Paragraph
from translations.catalog import N_, N_plural

TERMS = LegalDocument(
    slug="terms",
    title=N_("Terms and conditions"),
    sections=(
        LegalSection(
            id="about",
            heading=N_("About these terms"),
            blocks=(
                Paragraph(
                    N_(
                        "These terms and conditions apply to every use of {site} and to every "
                        "purchase you make on it. Please read them carefully before you sign up: "
                        "by creating an account you accept them. They were last changed on "
                        "{version_date}."
                    )
                ),
                Paragraph(
                    N_(
                        "{site} is an online dating and chat service for adults. Members create "
                        "a profile, search for other members, like them, chat with them and send "
                        "them gifts. Signing up and searching are free; sending messages and "
                        "gifts costs credits, which you buy in one-time bundles."
                    )
                ),
            ),
        ),
        LegalSection(
            id="contract",
            heading=N_("Who you make the contract with"),
            blocks=(
                Paragraph(
                    N_(
                        "Your contract is with {company}, {address}, {city}, {country}, "
                        "registered with the Dutch Chamber of Commerce under number {kvk}, VAT "
                        "number {vat_numbers}. We run the site under the trade names "
                        "{tradenames}. In these terms \u201cwe\u201d and \u201cus\u201d mean "
                        "{company}, and \u201cyou\u201d means the member."
                    )
                ),
                Paragraph(
                    N_(
                        "You can reach our customer service by e-mail at {support_email} or by "
                        "phone at {support_phone}. We answer e-mails within two working days."
                    )
                ),
                Paragraph(
                    N_(
                        "The contract is made in the language you use the site in. We keep your "
                        "account details and purchases and you can look at them at any time in "
                        "your account; we send these terms to you by e-mail on request."
                    )
                ),
            ),
        ),
        LegalSection(
            id="eligibility",
            heading=N_("Age and eligibility"),
            blocks=(
                Paragraph(
                    N_plural(
                        "You must be at least {min_age} year old to use {site}.",
                        "You must be at least {min_age} years old to use {site}.",
                        "min_age",
                    )
                ),
                Bullets(
                    (
                        N_(
                            "You sign up for yourself only, with your own e-mail address and "
                            "true details about your age."
                        ),
                        N_(
                            "You may have only one account. An account is personal: you may not "
                            "sell it, lend it or share it with anyone else."
                        ),
                        N_(
                            "You may not sign up if we closed an earlier account of yours for "
                            "breaking these terms."
                        ),
                        N_(
                            "You use the site as a private person, not for business or "
                            "commercial purposes."
                        ),
                    )
                ),
                Paragraph(
                    N_(
                        "If we have reason to believe that a member is under age, we block the "
                        "account at once and may ask for proof of age before we unblock it."
                    )
                ),
            ),
        ),
        LegalSection(
            id="account",
            heading=N_("Your account"),
            blocks=(
                Paragraph(
                    N_(
                        "You confirm your e-mail address with the link we send you after you "
                        "sign up. Keep your password to yourself: everything done with your "
                        "account counts as done by you. Tell us straight away if you think "
                        "someone else has used your account; you can end all your sessions by "
                        "changing your password."
                    )
                ),
                Paragraph(
                    N_(
                        "You can switch your account to invisible, block members and choose "
                        "which e-mails and notifications you receive in your settings. You can "
                        "delete your account there at any time; it is hidden at once and erased "
                        "after 14 days, and until then you can reactivate it with the link in "
                        "our e-mail."
                    )
                ),
            ),
        ),
        LegalSection(
            id="credits",
            heading=N_("Credits and premium"),
            blocks=(
                Paragraph(
                    N_(
                        "{site} works with credits. There is no subscription: you buy a bundle "
                        "of credits once, you pay once, and nothing is renewed or charged "
                        "automatically afterwards. You decide whether and when to buy again."
                    )
                ),
                Bullets(
                    (
                        N_plural(
                            "A message costs {message_credits} credit.",
                            "A message costs {message_credits} credits.",
                            "message_credits",
                        ),
                        N_plural(
                            "A gift costs {gift_credits} credit.",
                            "A gift costs {gift_credits} credits.",
                            "gift_credits",
                        ),
                        N_plural(
                            "A new member receives {signup_credits} free credit after "
                            "confirming their e-mail address.",
                            "A new member receives {signup_credits} free credits after "
                            "confirming their e-mail address.",
                            "signup_credits",
                        ),
                        N_(
                            "Signing up, searching, viewing profiles, liking and the swipe game "
                            "cost no credits."
                        ),
                    )
                ),
                Paragraph(
                    N_(
                        "Your first purchase of a bundle makes you a premium member for as long "
                        "as your account exists. Premium members see all photos of other "
                        "members, can upload more photos of their own, can start as many chats "
                        "as they like and have no daily limit of likes in the swipe game."
                    )
                ),
                Paragraph(
                    N_(
                        "Credits have no cash value and cannot be exchanged for money, "
                        "transferred to another account or used outside {site}. Credits do not "
                        "expire while your account exists; when your account is deleted, "
                        "unused credits lapse, except for what the right of withdrawal gives "
                        "back."
                    )
                ),
            ),
        ),
        LegalSection(
            id="prices",
            heading=N_("Prices and payment"),
            blocks=(
                Paragraph(
                    N_(
                        "The bundles and their prices are shown on the credits page before you "
                        "buy. Prices include VAT at the rate of your country and are shown in "
                        "your country's currency where we offer it, otherwise in euros. A "
                        "discount (a welcome offer or a discount code) is shown with the price "
                        "before you pay and applies to that purchase only."
                    )
                ),
                Paragraph(
                    N_(
                        "You pay through our payment provider with one of the methods offered "
                        "for your country, such as iDEAL, credit card, PayPal, Bancontact or "
                        "direct debit. The credits are added to your account as soon as the "
                        "payment is confirmed, and you receive a receipt by e-mail."
                    )
                ),
                Paragraph(
                    N_(
                        "With direct debit you sign a one-off SEPA mandate with a code sent by "
                        "SMS; the amount is collected a few days later under our creditor "
                        "identifier {creditor_identifier}. If a direct debit is reversed or "
                        "cannot be collected, we may block direct debit for your account and "
                        "take back the credits of that purchase that are still unused."
                    )
                ),
            ),
        ),
        LegalSection(
            id="withdrawal",
            heading=N_("Right of withdrawal"),
            blocks=(
                Paragraph(
                    N_plural(
                        "As a consumer you may withdraw from a purchase of credits within "
                        "{refund_days} day of the purchase, without giving a reason.",
                        "As a consumer you may withdraw from a purchase of credits within "
                        "{refund_days} days of the purchase, without giving a reason.",
                        "refund_days",
                    )
                ),
                Paragraph(
                    N_(
                        "Because you can use credits at once, you ask us when you buy to "
                        "deliver straight away. Credits you have already used are not refunded; "
                        "for the unused credits of the purchase you get back the price you paid "
                        "for them, in proportion to the whole bundle. We count the credits you "
                        "spent against your other credits first, which is the most favourable "
                        "reading for you."
                    )
                ),
                Paragraph(
                    N_(
                        "How to withdraw, the model withdrawal form and a worked example are in "
                        "our right of withdrawal page."
                    )
                ),
            ),
        ),
        LegalSection(
            id="conduct",
            heading=N_("Rules of conduct"),
            blocks=(
                Paragraph(
                    N_(
                        "Everyone on {site} must be able to meet people safely and with "
                        "respect. These rules apply to your profile, your photos, your messages "
                        "and everything else you do on the site. Our decisions name the number "
                        "of the rule that was broken."
                    )
                ),
                Bullets(tuple(rule.title for rule in CONDUCT_RULES), numbered=True),
                Paragraph(
                    N_(
                        "Never send money, gift cards or bank details to anyone you met on the "
                        "site, and report any member who asks for them. Meeting someone in "
                        "person is your own decision: meet in a public place and tell a friend "
                        "where you are."
                    )
                ),
            ),
        ),
        LegalSection(
            id="fictional-profiles",
            heading=N_("Fictional profiles"),
            blocks=(
                Paragraph(
                    N_(
                        "Besides the profiles of real members, {site} shows profiles that do "
                        "not belong to a real person. They are written by our team to make the "
                        "site livelier and to keep conversations going. Each of them is marked "
                        "as \u201c{fictional_singular}\u201d on the profile and in the chat."
                    )
                ),
                Paragraph(
                    N_(
                        "You can never meet the person behind {fictional_plural} in real life, "
                        "and messages to them cost credits like any other message. If you only "
                        "want to talk to real members, check for the label before you start a "
                        "chat."
                    )
                ),
            ),
        ),
        LegalSection(
            id="content",
            heading=N_("Your content"),
            blocks=(
                Paragraph(
                    N_(
                        "You remain the owner of the photos and texts you put on {site}. You "
                        "allow us to store them, to show them to other members and visitors as "
                        "the site's settings and your own choices allow, and to make copies in "
                        "other sizes, for as long as they are on the site."
                    )
                ),
                Paragraph(
                    N_(
                        "You may only upload photos that show you and that you have the rights "
                        "to. We check photos before or after they appear, automatically and by "
                        "hand, and remove those that break these terms."
                    )
                ),
            ),
        ),
        LegalSection(
            id="moderation",
            heading=N_("Moderation, reports and complaints"),
            blocks=(
                Paragraph(
                    N_(
                        "Our moderators review profiles, photos and reported messages. Use the "
                        "Report button on a profile or in a chat if a member breaks these "
                        "rules, and block the member if you no longer want contact. Anyone, "
                        "also without an account, can send us a notice of illegal content "
                        "through the complaints page."
                    )
                ),
                Paragraph(
                    N_(
                        "When we remove content or restrict an account, we send the member a "
                        "statement of reasons by e-mail naming the rule or law concerned. You "
                        "can contest every decision free of charge through the link in that "
                        "e-mail within six months; someone who did not take the first decision "
                        "reviews your complaint."
                    )
                ),
                Paragraph(
                    N_(
                        "For other complaints about our service, write to {support_email}. We "
                        "confirm your complaint and answer it within 14 days."
                    )
                ),
            ),
        ),
        LegalSection(
            id="suspension",
            heading=N_("Suspension and termination"),
            blocks=(
                Paragraph(
                    N_(
                        "If you break these terms we may, depending on how serious it is, "
                        "remove content, warn you, suspend your account for a time or close it "
                        "for good. In serious cases (rules 1, 3 and 9) we close the account at "
                        "once and may inform the authorities."
                    )
                ),
                Paragraph(
                    N_(
                        "If we close your account for breaking these terms, unused credits are "
                        "not refunded, except where the right of withdrawal or the law gives "
                        "you a refund. You may end the contract at any time by deleting your "
                        "account; we may end it for other reasons with two months' notice by "
                        "e-mail."
                    )
                ),
            ),
        ),
        LegalSection(
            id="liability",
            heading=N_("Liability"),
            blocks=(
                Paragraph(
                    N_(
                        "We do our best to keep {site} available and secure, but we cannot "
                        "promise that it works without interruption or errors. We are not "
                        "responsible for what members write, show or do, on the site or when "
                        "they meet, and we do not check whether what members say about "
                        "themselves is true."
                    )
                ),
                Paragraph(
                    N_(
                        "Our liability for damage caused by us is limited to the amount you "
                        "paid us in the twelve months before the damage arose. This limit does "
                        "not apply to damage caused by our intent or gross negligence, nor to "
                        "death or personal injury, and it never takes away rights that "
                        "consumer law gives you."
                    )
                ),
            ),
        ),
        LegalSection(
            id="changes",
            heading=N_("Changes to these terms"),
            blocks=(
                Paragraph(
                    N_(
                        "We may change these terms, for example when the law or our service "
                        "changes. We tell you about a change by e-mail or on the site at least "
                        "30 days before it takes effect, and ask you to accept the new version "
                        "when you next log in. If you do not agree, you can delete your account "
                        "before the change takes effect and withdraw from recent purchases as "
                        "described above."
                    )
                ),
            ),
        ),
        LegalSection(
            id="law",
            heading=N_("Governing law and disputes"),
            blocks=(
                Paragraph(
                    N_(
                        "Dutch law applies to these terms. If you live in another country of "
                        "the European Union, you keep the protection that the mandatory "
                        "consumer law of your country gives you. A dispute goes to the "
                        "competent court in the Netherlands, or to the court where you live if "
                        "you prefer."
                    )
                ),
                Paragraph(
                    N_(
                        "Please contact our customer service first: most problems are solved "
                        "quickly. If we cannot resolve your complaint together, you can turn to "
                        "the European Consumer Centre of your country or submit it through the "
                        "European Commission's online dispute resolution platform at "
                        "https://ec.europa.eu/consumers/odr."
                    )
                ),
            ),
        ),
    ),
)
