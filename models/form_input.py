"""Reading a field of a form the browser sent: untrusted, so cut before anything looks at it."""


def field_text(form: dict, name: str, limit: int) -> str:
    """Field `name` as text, cut at `limit` characters and trimmed; "" when it is missing.
    Cut one past a rule's maximum, a value too long stays refused."""
    return str(form.get(name) or "")[:limit].strip()
