"""GET /docs: Swagger UI from the files of the `swagger-ui-bundle` package, served here, so the
page works offline and loads nothing from another origin. ReDoc is off (it would need a CDN)."""

from __future__ import annotations

from pathlib import Path

import swagger_ui_bundle
from fastapi import FastAPI, HTTPException
from fastapi.openapi.docs import get_swagger_ui_html, get_swagger_ui_oauth2_redirect_html
from fastapi.responses import FileResponse, HTMLResponse

DOCS_PATH = "/docs"
ASSETS_PATH = "/docs/assets"
OAUTH2_REDIRECT_PATH = "/docs/oauth2-redirect"
ASSET_DIR = Path(swagger_ui_bundle.swagger_ui_path)
ASSETS = {  # served file name -> media type; nothing else under ASSET_DIR is served
    "swagger-ui-bundle.js": "text/javascript",
    "swagger-ui.css": "text/css",
    "favicon-32x32.png": "image/png",
}


def install_docs(app: FastAPI) -> None:
    """Adds /docs, its assets and the OAuth2 redirect page (none in the OpenAPI document)."""
    openapi_url = app.openapi_url or "/openapi.json"

    @app.get(DOCS_PATH, include_in_schema=False)
    async def swagger_ui() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=openapi_url,
            title=f"{app.title} - API",
            swagger_js_url=f"{ASSETS_PATH}/swagger-ui-bundle.js",
            swagger_css_url=f"{ASSETS_PATH}/swagger-ui.css",
            swagger_favicon_url=f"{ASSETS_PATH}/favicon-32x32.png",
            oauth2_redirect_url=OAUTH2_REDIRECT_PATH,
        )

    @app.get(OAUTH2_REDIRECT_PATH, include_in_schema=False)
    async def swagger_ui_redirect() -> HTMLResponse:
        return get_swagger_ui_oauth2_redirect_html()

    @app.get(ASSETS_PATH + "/{name}", include_in_schema=False)
    async def swagger_ui_asset(name: str) -> FileResponse:
        media_type = ASSETS.get(name)
        if media_type is None:
            raise HTTPException(404, "No such file.")
        headers = {"Cache-Control": "public, max-age=86400"}
        return FileResponse(ASSET_DIR / name, media_type=media_type, headers=headers)
