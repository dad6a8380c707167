"""The error a rule raises: an English message id (translated by the caller) and its values."""


class AccountError(Exception):
    def __init__(self, message: str, field: str = "", **params: object) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.params = params
