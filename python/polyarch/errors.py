"""polyarch's errors as Python exceptions.

Every error the program prints becomes one of these, with the same message and the location it
names as attributes: ``file``, ``line`` and ``column`` (1-based) and ``key`` (the key path in a
YAML file, such as ``units[0].rows``). Parts that are unknown are None.
"""


class Error(Exception):
    """A polyarch error; ``str(error)`` reads as the program's message does."""

    def __init__(self, message, file=None, line=None, column=None, key=None):
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.key = key
        super().__init__(self.location_prefix() + message)

    def location_prefix(self):
        """ "file:line:col: key: " with the unknown parts left out, as the program prints it."""
        where = self.file or ""
        if self.line:
            where += f":{self.line}"
            if self.column:
                where += f":{self.column}"
        if self.key:
            where += (": " if where else "") + self.key
        return where + ": " if where else ""


class BadInputError(Error, ValueError):
    """Bad input: a file, a key or an option polyarch refuses (the program's exit code 2)."""


class SimulationError(Error, RuntimeError):
    """A failure while simulating or an internal error (the program's exit code 1)."""
