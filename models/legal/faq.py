"""The questions members ask most, each a section whose heading is the question."""

from models.legal.document import Bullets, LegalDocument, LegalSection, Paragraph
from translations.catalog import N_, Message, N_plural


def _answer(id_: str, question: str, *answers: Message | Bullets) -> LegalSection:
    blocks = tuple(a if isinstance(a, Bullets) else Paragraph(a) for a in answers)
    return LegalSection(id=id_, heading=question, blocks=blocks)


FAQ = LegalDocument(
    slug="faq",
    title=N_("Frequently asked questions"),
    sections=(
        _answer(
            "free",
            N_("Is signing up free?"),
            N_(
                "Yes. Creating a profile, searching for members, viewing profiles, liking and "
                "the swipe game are free. Only messages and gifts cost credits."
            ),
        ),
        _answer(
            "credits",
            N_("How do credits work?"),
            N_(
                "You buy credits once, in a bundle; there is no subscription and nothing is "
                "charged again automatically. The bigger the bundle, the cheaper each message."
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
                )
            ),
        ),
        _answer(
            "free-credits",
            N_("Do I get free credits?"),
            N_plural(
                "Yes: when you have confirmed your e-mail address you receive {signup_credits} "
                "credit to try out the chat. As a free member you can start up to two chats.",
                "Yes: when you have confirmed your e-mail address you receive {signup_credits} "
                "credits to try out the chat. As a free member you can start up to two chats.",
                "signup_credits",
            ),
        ),
        _answer(
            "premium",
            N_("What is a premium member?"),
            N_(
                "Your first purchase of credits makes you a premium member, for good and at no "
                "extra cost. Premium members see all photos, can upload up to 25 photos of their "
                "own, start as many chats as they like and have no daily limit in the swipe "
                "game. A gold badge shows it on your profile."
            ),
        ),
        _answer(
            "expire",
            N_("Do my credits expire?"),
            N_(
                "No. Your credits stay in your account for as long as it exists. You see your "
                "balance at the top of the page and every purchase in \u201cYour purchases\u201d."
            ),
        ),
        _answer(
            "payment-methods",
            N_("How can I pay?"),
            N_(
                "The credits page shows the methods available in your country, for example "
                "iDEAL, credit card, PayPal, Bancontact or direct debit. Prices include VAT. The "
                "payment is handled by our payment provider; we never see your card details."
            ),
        ),
        _answer(
            "direct-debit",
            N_("How does direct debit work?"),
            N_(
                "You enter your IBAN and your mobile number, check the one-off mandate and sign "
                "it with the code we send you by SMS. Your credits are added straight away and "
                "the amount is collected from your account a few days later. Make sure there is "
                "enough money in your account: a direct debit that bounces blocks this payment "
                "method for your account."
            ),
        ),
        _answer(
            "refund",
            N_("Can I get my money back?"),
            N_plural(
                "Yes, within {refund_days} day of a purchase you can withdraw from it in "
                "\u201cYour purchases\u201d. You get back the price of the credits you have not "
                "used, pro rata; our right of withdrawal page has a worked example.",
                "Yes, within {refund_days} days of a purchase you can withdraw from it in "
                "\u201cYour purchases\u201d. You get back the price of the credits you have not "
                "used, pro rata; our right of withdrawal page has a worked example.",
                "refund_days",
            ),
        ),
        _answer(
            "refund-time",
            N_("When does the refund reach me?"),
            N_(
                "We start the refund as soon as you withdraw. It goes back to the card, bank "
                "account or PayPal account you paid with and usually arrives within a few "
                "working days, depending on your bank."
            ),
        ),
        _answer(
            "photos",
            N_("Why is my photo not visible yet?"),
            N_(
                "Our moderators check every photo. A photo has to show you, recognisably, and "
                "may not show nudity or someone else. Free members can upload 3 photos, premium "
                "members 25. If a photo is rejected, you see it in your profile and can upload "
                "another one."
            ),
        ),
        _answer(
            "blurred",
            N_("Why are some photos blurred?"),
            N_(
                "The main photo of a profile is visible to everyone. Further photos are for "
                "premium members; free members see them blurred."
            ),
        ),
        _answer(
            "block",
            N_("How do I block a member?"),
            N_(
                "Open the member's profile or your chat with them and choose Block. They can "
                "no longer write to you or see your profile. You can unblock them at any time in "
                "your settings."
            ),
        ),
        _answer(
            "report",
            N_("How do I report a member or a message?"),
            N_(
                "Use the Report button on the profile or next to the message and tell us what "
                "is wrong. Our moderators look at every report. To report illegal content "
                "without an account, use the form on the complaints page."
            ),
        ),
        _answer(
            "decision",
            N_("I disagree with a decision about my account. What can I do?"),
            N_(
                "With every decision we send you an e-mail that explains it and names the rule "
                "concerned. Use the link in that e-mail to contest the decision; someone who "
                "was not involved reviews it and you hear the outcome by e-mail."
            ),
        ),
        _answer(
            "fictional",
            N_("Are all profiles real people?"),
            N_(
                "No. Besides real members, {site} shows profiles written by our team to keep "
                "the site lively. They are marked as \u201c{fictional_singular}\u201d; you "
                "cannot meet them in person. Our terms and conditions explain this further."
            ),
        ),
        _answer(
            "notifications",
            N_("How do I choose which notifications I get?"),
            N_(
                "In your settings you choose which e-mails you receive, for example about new "
                "messages, likes and matches, and you can switch on push notifications in your "
                "browser or app. Every e-mail also has a link to unsubscribe."
            ),
        ),
        _answer(
            "invisible",
            N_("Can I use the site without being seen?"),
            N_(
                "Yes. In your settings you can make your profile invisible: you stay out of "
                "search results and other members do not see you until you switch it off."
            ),
        ),
        _answer(
            "password",
            N_("I forgot my password. What now?"),
            N_(
                "Choose \u201cForgot your password?\u201d on the log-in page. We send you an "
                "e-mail with a link to set a new password. If it does not arrive, look in your "
                "spam folder."
            ),
        ),
        _answer(
            "delete",
            N_("How do I delete my account?"),
            N_(
                "In your settings, choose to delete your account. It disappears from the site "
                "at once; for 14 days you can still reactivate it with the link in our e-mail, "
                "after that your data is erased. Unused credits lapse unless you withdraw from "
                "a recent purchase first."
            ),
        ),
        _answer(
            "contact",
            N_("How do I reach customer service?"),
            N_(
                "Write to {support_email}, call {support_phone} or use the form on the customer "
                "service page. We answer within two working days."
            ),
        ),
    ),
)
