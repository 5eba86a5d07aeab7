"""`warden serve --workers N`: what decides whether N processes may serve one deployment."""

from __future__ import annotations

from service.settings import Settings

APP_FACTORY = "service.app:create_app"  # what each uvicorn worker process imports and calls


def workers_refusal(settings: Settings, workers: int) -> str | None:
    """Why `workers` processes cannot serve with these settings, or None when they can."""
    if workers < 1:
        return "--workers must be at least 1"
    if workers == 1 or not settings.embedded_stores:
        return None
    embedded = []
    if settings.qdrant_url is None:
        embedded.append(f"the vector index ({settings.data_dir}/qdrant, Qdrant Edge)")
    if settings.mongodb_uri is None:
        embedded.append(f"the document store ({settings.data_dir}, mongoeco on SQLite)")
    return (
        f"--workers {workers} needs servers: {' and '.join(embedded)} "
        f"{'belong' if len(embedded) > 1 else 'belongs'} to one process. Set WARDEN_QDRANT_URL "
        "and WARDEN_MONGODB_URI (see `warden migrate`), or serve with one worker."
    )
