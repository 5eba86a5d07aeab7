"""What the service is configured with besides its adapters: the pipeline's rules and the
auth parts."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta

from pipelines.deps import PipelineConfig
from service.auth.access import AccessRules
from service.auth.external_idp import ClaimNames, ExternalIdp
from service.auth.jwks import JwksKeys
from service.auth.secret_file import load_or_create_secret
from service.auth.throttle import AuthThrottle
from service.auth.tokens import TokenService
from service.pipeline_config import load_pipeline_config
from service.settings import Settings


async def pipeline_config(settings: Settings) -> PipelineConfig:
    """The shipped rules, keyword map and allowlist, with the toxicity scorer when enabled."""
    config = load_pipeline_config(settings)
    if not settings.toxicity_classifier:
        return config
    scorer = await asyncio.to_thread(toxicity_scorer)
    return replace(config, safety=replace(config.safety, toxicity_scorer=scorer))


def toxicity_scorer() -> Callable[[str], float]:
    """alt-profanity-check's shipped model: probability that a text is offensive (~25 us,
    compiled from the package's sklearn model, which takes ~4 ms a text)."""
    from service.adapters.toxicity.profanity_model import shipped_profanity_model

    return shipped_profanity_model().probability


def token_service(settings: Settings, access: AccessRules | None = None) -> TokenService:
    secret = settings.jwt_secret
    key = secret.get_secret_value() if secret else load_or_create_secret(settings.data_dir)
    return TokenService(
        key,
        ttl=timedelta(minutes=settings.jwt_ttl_minutes),
        issuer=settings.jwt_issuer,
        external=external_idp(settings),
        local=settings.local_accounts,
        access=access,
    )


def external_idp(settings: Settings) -> ExternalIdp | None:
    """The configured identity provider (a static RS256 key or a JWKS URL), if any."""
    pem, url = settings.external_public_key(), settings.jwt_jwks_url
    if not pem and not url:
        return None
    # Settings refuses a provider without both issuer and audience
    assert settings.jwt_external_issuer and settings.jwt_external_audience
    claims = ClaimNames(
        settings.jwt_claim_user_id, settings.jwt_claim_name, settings.jwt_claim_email
    )
    return ExternalIdp(
        settings.jwt_external_issuer,
        settings.jwt_external_audience,
        public_key_pem=pem,
        jwks=JwksKeys(url) if url else None,
        claims=claims,
    )


def auth_throttle(settings: Settings) -> AuthThrottle:
    return AuthThrottle(
        requests_per_ip=settings.auth_requests_per_ip_per_minute,
        failures_per_ip=settings.login_attempts_per_minute,
        failures_per_account=settings.login_failures_per_account_per_minute,
    )
