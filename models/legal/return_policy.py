"""The right of withdrawal (the page keeps its address /pages/return-policy): the period, how to
withdraw, the model withdrawal form of Directive 2011/83/EU, and the refund worked out pro rata as
actions/refunds.py works it out (the example's figures: models/legal/facts.withdrawal_example)."""

from models.legal.document import Bullets, LegalDocument, LegalSection, Paragraph
from translations.catalog import N_, N_plural

RETURN_POLICY = LegalDocument(
    slug="return-policy",
    title=N_("Right of withdrawal"),
    sections=(
        LegalSection(
            id="summary",
            heading=N_("Your right of withdrawal in short"),
            blocks=(
                Paragraph(
                    N_plural(
                        "You may withdraw from every purchase of credits on {site} within "
                        "{refund_days} day, without giving a reason. You get back what you paid "
                        "for the credits you have not used yet.",
                        "You may withdraw from every purchase of credits on {site} within "
                        "{refund_days} days, without giving a reason. You get back what you paid "
                        "for the credits you have not used yet.",
                        "refund_days",
                    )
                ),
                Paragraph(
                    N_(
                        "This right is part of our terms and conditions. The seller is "
                        "{company}, {address}, {city}, {country}, Chamber of Commerce number "
                        "{kvk}."
                    )
                ),
            ),
        ),
        LegalSection(
            id="period",
            heading=N_("The withdrawal period"),
            blocks=(
                Paragraph(
                    N_plural(
                        "The withdrawal period is {refund_days} day. It starts on the day your "
                        "payment is confirmed and the credits are added to your account, and "
                        "ends {refund_days} day later at the same time.",
                        "The withdrawal period is {refund_days} days. It starts on the day your "
                        "payment is confirmed and the credits are added to your account, and "
                        "ends {refund_days} days later at the same time.",
                        "refund_days",
                    )
                ),
                Paragraph(
                    N_(
                        "Each purchase has its own period. You meet the deadline if you withdraw "
                        "in the site, or send us your statement, before the period ends."
                    )
                ),
                Paragraph(
                    N_(
                        "Credits are digital content you can use straight away. When you buy, "
                        "you ask us to deliver them at once; the credits you then use are "
                        "delivered and no longer refunded. Your right to withdraw for the "
                        "unused credits remains."
                    )
                ),
            ),
        ),
        LegalSection(
            id="how",
            heading=N_("How to withdraw"),
            blocks=(
                Paragraph(N_("The quickest way is in the site:")),
                Bullets(
                    (
                        N_("Log in and open \u201cYour purchases\u201d (/transactions)."),
                        N_(
                            "Choose the purchase. While it can be withdrawn, the page shows how "
                            "many credits you get refunded for and the amount."
                        ),
                        N_(
                            "Press the button to withdraw from the purchase and confirm. The "
                            "unused credits leave your balance at once and the refund is "
                            "started."
                        ),
                    ),
                    numbered=True,
                ),
                Paragraph(
                    N_(
                        "You can also tell us by e-mail at {support_email} or by letter to "
                        "{company}, {address}, {city}, {country}, for example with the model "
                        "form below; you do not have to use it. Please give the e-mail address "
                        "of your account and the order number from your receipt. We confirm "
                        "your withdrawal by e-mail without delay."
                    )
                ),
            ),
        ),
        LegalSection(
            id="model-form",
            heading=N_("Model withdrawal form"),
            blocks=(
                Paragraph(
                    N_(
                        "Complete and return this form only if you wish to withdraw from the "
                        "contract."
                    )
                ),
                Bullets(
                    (
                        N_("To: {company}, {address}, {city}, {country}, e-mail {support_email}"),
                        N_(
                            "I/We (*) hereby give notice that I/we (*) withdraw from my/our (*) "
                            "contract for the supply of the following digital content: credits "
                            "on {site}, order number:"
                        ),
                        N_("Ordered on (*):"),
                        N_("Name of consumer(s):"),
                        N_("E-mail address of the account:"),
                        N_("Address of consumer(s):"),
                        N_("Signature of consumer(s) (only if this form is sent on paper):"),
                        N_("Date:"),
                        N_("(*) Delete as appropriate."),
                    )
                ),
            ),
        ),
        LegalSection(
            id="refund-amount",
            heading=N_("How the refund is worked out"),
            blocks=(
                Paragraph(
                    N_(
                        "You get back the price you actually paid for the purchase, after any "
                        "discount, for the share of its credits that you have not used. The "
                        "amount is the price times the unused credits divided by the credits "
                        "of the bundle, rounded down to the cent."
                    )
                ),
                Paragraph(
                    N_(
                        "Credits you spend are counted against your other credits first: free "
                        "credits, credits from earlier purchases. Only what your balance no "
                        "longer covers counts as used from this purchase. A purchase can be "
                        "withdrawn only once."
                    )
                ),
                Paragraph(N_("A worked example:")),
                Bullets(
                    (
                        N_plural(
                            "You buy a bundle of {example_credits} credit for {example_price}.",
                            "You buy a bundle of {example_credits} credits for {example_price}.",
                            "example_credits",
                        ),
                        N_plural(
                            "You send messages for {example_used} credit of it; you have no "
                            "other credits.",
                            "You send messages for {example_used} credits of it; you have no "
                            "other credits.",
                            "example_used",
                        ),
                        N_plural(
                            "You withdraw: {example_unused} credit is still unused.",
                            "You withdraw: {example_unused} credits are still unused.",
                            "example_unused",
                        ),
                        N_(
                            "Your refund is {example_price} \u00d7 {example_unused} \u00f7 "
                            "{example_credits} = {example_refund}."
                        ),
                    )
                ),
            ),
        ),
        LegalSection(
            id="payment-back",
            heading=N_("Where the money goes"),
            blocks=(
                Paragraph(
                    N_(
                        "We pay the refund back through our payment provider with the payment "
                        "method you used for the purchase, to your bank account, your card or "
                        "your PayPal account. We start it within 14 days of your withdrawal, in "
                        "practice at once. It usually reaches you within a few working days, "
                        "depending on your bank or card issuer. You pay no costs for the "
                        "refund."
                    )
                ),
                Paragraph(
                    N_(
                        "If the provider cannot pay the refund, the credits are returned to "
                        "your balance and our customer service pays it another way on request. "
                        "You can follow the refund's status on the purchase's page in "
                        "\u201cYour purchases\u201d."
                    )
                ),
            ),
        ),
        LegalSection(
            id="direct-debit",
            heading=N_("Purchases paid by direct debit"),
            blocks=(
                Paragraph(
                    N_(
                        "The right of withdrawal works the same for purchases paid by direct "
                        "debit. Besides, your bank lets you have a collected direct debit "
                        "refunded within eight weeks; in that case the credits of that purchase "
                        "are taken back and direct debit may be blocked for your account, so "
                        "please withdraw in the site instead while you still can."
                    )
                ),
            ),
        ),
        LegalSection(
            id="questions",
            heading=N_("Questions"),
            blocks=(
                Paragraph(
                    N_(
                        "Our customer service helps you with every question about a purchase "
                        "or a refund: e-mail {support_email} or call {support_phone}."
                    )
                ),
            ),
        ),
    ),
)
