"""`warden migrate`: copies an embedded deployment into Qdrant and MongoDB servers."""
