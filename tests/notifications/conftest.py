"""The notifications tests' fixtures: `mailbox`, a real SMTP server the site sends to."""

from tests.mailbox import mailbox  # noqa: F401  (a fixture, registered by importing it here)
