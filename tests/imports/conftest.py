"""The service tests' databases (a SQLite file, a PostgreSQL database) for the import tests."""

from tests.service.conftest import database_url, db

__all__ = ["database_url", "db"]
