"""The product's user-facing error texts (spec sections 5 and 8), marked for translation.

The Dutch catalogue carries the spec's Dutch wording verbatim. Parameters in braces are
filled in with `gettext(locale, TEXT, name=value)`.
"""

from translations.catalog import N_

PROFILE_NAME_IS_EMAIL = N_("Your profile name must be different from your e-mail address")
PROFILE_NAME_STARTS_WITH_AT = N_("Your profile name must not start with an @")
INVALID_EMAIL = N_("Invalid e-mail")
DATE_OF_BIRTH_REQUIRED = N_("Enter your date of birth ({min_age}+ years)")
INVALID_DATE_OF_BIRTH = N_("Invalid date of birth.")
PASSWORDS_DIFFER = N_("The passwords you entered do not match.")
INVALID_SMS_CODE = N_("Invalid code")
LOGIN_FAILED = N_("Login failed, please try again")
TOO_MANY_LOGIN_ATTEMPTS = N_("Too many failed attempts, account locked for {minutes} min.")
TOO_MANY_PASSWORD_RESETS = N_("Too many password reset e-mails sent, please try again tomorrow.")
RESET_EMAIL_NOT_FOUND = N_("We could not find an account with this e-mail address.")
RESET_LINK_INVALID = N_("This link has expired or is invalid. Please request a new one.")
ACTIVATION_FAILED = N_("Activation failed")
DUPLICATE_EMAIL = N_("This e-mail address already has an account on this site.")
NEW_EMAIL_INVALID = N_("The new e-mail address is invalid.")
CHECK_OLD_PASSWORD = N_("Check your old password.")
GENERIC_ERROR = N_("Something went wrong, please try again later.")
INSUFFICIENT_CREDITS = N_("You do not have enough credits")
MEMBER_UNAVAILABLE = N_("This member is no longer available.")
MATCH_KEPT = N_(
    "You are a match, so your like stays. Block the member if you no longer want contact."
)
PREMIUM_ONLY = N_("This feature is only available to premium members.")
PHOTO_LIMIT_REACHED = N_("You have reached the maximum number of photos.")
SDD_ACCOUNT_BLOCKED = N_("Direct debit is blocked for this account.")
SDD_AMOUNT_CHANGED = N_(
    "The price has changed since you reviewed the mandate. Please check your details again."
)
SDD_LIMIT_REACHED = N_("You have reached the direct debit limit.")
SDD_IBAN_REFUSED = N_("This bank account cannot be used for direct debit.")
SDD_TOO_MANY_FORMS = N_("You have checked your details too often. Please try again in an hour.")
SDD_DEBIT_REFUSED = N_(
    "The direct debit could not be set up with these details. Check them or choose another "
    "payment method."
)
SDD_FIELD_REQUIRED = N_("Please fill in this field.")
SDD_FIELD_TOO_LONG = N_("This entry is too long.")
SDD_INVALID_CHARACTERS = N_("This entry contains characters that are not allowed.")
SDD_INVALID_IBAN = N_("This IBAN is not valid. Please check it.")
SDD_IBAN_NOT_SEPA = N_("Direct debit is only possible from a bank account in the SEPA area.")
SDD_INVALID_PHONE = N_("Enter a valid mobile number.")
SDD_INVALID_ZIP = N_("This postcode is not valid.")
SMS_CODE_EXPIRED = N_("This code has expired. Request a new code.")
SMS_CODE_TOO_MANY_TRIES = N_("Too many wrong codes. Request a new code.")
SMS_CODE_MISSING = N_("There is no valid code. Request a new code.")
SMS_RESEND_TOO_SOON = N_("Please wait a minute before requesting a new code.")
SMS_DAILY_LIMIT = N_("Too many codes have been requested today. Please try again tomorrow.")
PAYMENT_FAILED = N_("Payment failed")
PAYMENT_CANCELLED = N_("Payment cancelled")
RECURRING_PAYMENT_FAILED = N_("Your card payment failed. Try again or pay with PayPal.")
DISCOUNT_CODE_NOT_FOUND = N_("Code not found")
DISCOUNT_CODE_USED = N_("Code already used")
DISCOUNT_CODE_MINIMUM = N_("This code is valid from an order value of {amount}.")
DISCOUNT_CODE_COUNTRY = N_("This code is not valid in your country.")
DISCOUNT_CODE_CURRENCY = N_("This code is not valid in your currency.")
DISCOUNT_CODE_METHOD = N_("This code is not valid for this payment method.")
DISCOUNT_CODE_EXPIRED = N_("This code has expired.")
TOO_MANY_CODES = N_("You have tried too many codes. Please try again in {minutes} min.")
DISCOUNT_CODE_IN_USE = N_(
    "You already started a payment with this discount. Finish it, or try again once it has "
    "been cancelled or has expired."
)
TOO_MANY_CHECKOUTS = N_(
    "You have started many payments in the last hour. Finish one of them or try again later."
)
REFUND_NOT_POSSIBLE = N_(
    "This purchase can no longer be withdrawn: the withdrawal period has ended or no credits "
    "of it are left."
)
NOTIFICATIONS_DISABLED_SPAM = N_(
    "E-mail notifications were switched off because a message was marked as spam."
)
NOTIFICATIONS_DISABLED_BOUNCE = N_(
    "E-mail notifications were switched off because our e-mails could not be delivered."
)
NOTIFICATIONS_DISABLED_UNSUBSCRIBE = N_("E-mail notifications were switched off at your request.")
ERROR_DEFAULT_MESSAGE = N_("Error")
PAGE_NOT_FOUND = N_("This page could not be found")
BACK_TO_HOME = N_("Back to the home page")
