"""What a database fault means above storage: a click's time limit, the refusal a person
reads, and which failures background work tries again.

A click must hear back within Discord's 3 s whatever the database does (a server restarting,
a network gone silent, a lock held by a maintenance script). :func:`interactive` gives the
transactions of one request a deadline (``bot.storage``: the wait for a worker, a connection,
a lock and every statement's answer end by then); what runs out of time fails with
``DatabaseUnavailable`` before COMMIT, so the person is told truthfully that nothing was
changed. A COMMIT that got no answer may have been applied: ``CommitUnknown`` says so, and
the person is told to look at the board (which the resume sweep brings up to date) instead.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from bot import storage as store
from bot.storage.database import deadline_in
from bot.vocabulary.errors import TabulaError

# From the click's arrival: the database work of a click ends by then, leaving time for the
# apology to reach Discord well inside its 3 s.
CLICK_DATABASE_SECONDS = 2.0


@contextlib.contextmanager
def interactive(seconds: float = CLICK_DATABASE_SECONDS) -> Iterator[None]:
    """The transactions of the request under way (and of tasks it starts) end within
    ``seconds``: a database that does not answer in time gets the request a refusal."""
    with deadline_in(seconds):
        yield


class DatabaseUnavailable(TabulaError):
    """The database did not answer in time; nothing was changed."""

    key = "error.database_unavailable"


class OutcomeUnknown(TabulaError):
    """The database stopped answering during COMMIT: the change may have been stored."""

    key = "error.outcome_unknown"


def refusal_for(error: BaseException) -> TabulaError | None:
    """The refusal a person reads for a storage fault, or None for anything else."""
    if isinstance(error, store.CommitUnknown):
        return OutcomeUnknown()
    if isinstance(error, store.DatabaseBusy):  # DatabaseUnavailable included
        return DatabaseUnavailable()
    return None


def transient(error: BaseException) -> bool:
    """A failure that trying the same step again later may cure (the database busy, away or
    silent, or its answer to COMMIT lost), not one in the work itself."""
    return isinstance(error, store.DatabaseBusy | store.CommitUnknown | store.DatabaseClosed)
