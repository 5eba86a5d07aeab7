"""Personal data at rest and a user's own data: the data keys that seal stored history, the
export and erasure of one's own data (`/v1/me`), and data-key rotation."""
