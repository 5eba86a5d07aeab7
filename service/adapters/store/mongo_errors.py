"""Driver errors of both async clients (PyMongo, mongoeco) as the port's StoreUnavailable."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

from mongoeco.errors import MongoEcoError
from pymongo.errors import PyMongoError

from pipelines.ports import StoreUnavailable

DRIVER_ERRORS = (PyMongoError, MongoEcoError, sqlite3.Error, OSError)


@contextmanager
def driver_errors() -> Iterator[None]:
    try:
        yield
    except DRIVER_ERRORS as error:
        raise StoreUnavailable(f"store error: {type(error).__name__}") from error
