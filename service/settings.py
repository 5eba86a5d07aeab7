"""Configuration: environment variables with the prefix WARDEN_ (and a .env file). Read once.

There is no module-level instance: the app, the CLI and tests each build `Settings()` when they
start, so importing this module reads nothing and connects to nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import AliasChoices, Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

KIB = 1024
MIB = 1024 * KIB


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="WARDEN_",
        env_file=".env",
        extra="ignore",
        frozen=True,
        populate_by_name=True,
        hide_input_in_errors=True,  # a startup error must not print WARDEN_JWT_SECRET & co.
    )

    # Storage: embedded stores live here (Qdrant Edge, mongoeco, the JWT secret, the lock file).
    data_dir: Path = Path("data")
    config_dir: Path | None = None  # overrides service/config (safety.yaml, keywords.yaml)

    # Own tokens. No default secret: when unset, one is generated in data_dir/jwt_secret.
    jwt_secret: SecretStr | None = None
    # Seals stored history: base64 of 32 bytes; "NEW,OLD" while rotating (service/privacy/
    # data_keys.py). Unset: a key generated in data_dir/data_key (0600).
    data_key: SecretStr | None = None
    jwt_ttl_minutes: Annotated[int, Field(ge=1, le=24 * 60)] = 60
    jwt_issuer: str = "warden"
    allow_signup: bool = True

    # External identity provider (RS256): a PEM public key (inline or a file path).
    jwt_public_key: SecretStr | None = None
    jwt_public_key_file: Path | None = None
    jwt_external_issuer: str | None = None
    jwt_external_audience: str | None = None
    # ... or its JWKS URL (RS256 and ES256 keys, refreshed on an unknown kid, once a minute at most)
    jwt_jwks_url: str | None = None
    # The provider's claims for the user's id, name and e-mail.
    jwt_claim_user_id: Annotated[str, Field(min_length=1)] = "sub"
    jwt_claim_name: Annotated[str, Field(min_length=1)] = "name"
    jwt_claim_email: Annotated[str, Field(min_length=1)] = "email"
    # Own accounts (register, POST /v1/auth/token, HS256 tokens) beside an external provider:
    # unset = on without a provider, off with one. allow_signup still governs registration.
    allow_local_accounts: bool | None = None

    # Login and register throttles (independent of rate_limit_per_minute; never off).
    # Failed logins per client IP; failed logins per account (all IPs) beyond which each further
    # attempt on that account is delayed, never refused, so nobody can lock a victim out.
    login_attempts_per_minute: Annotated[int, Field(ge=1, le=10_000)] = 10
    login_failures_per_account_per_minute: Annotated[int, Field(ge=1, le=100_000)] = 30
    auth_requests_per_ip_per_minute: Annotated[int, Field(ge=1, le=100_000)] = 30

    # Abuse and size limits.
    rate_limit_per_minute: Annotated[int, Field(ge=0, le=100_000)] = 60  # 0 = off
    max_message_chars: Annotated[int, Field(ge=1, le=100_000)] = 4000
    max_body_bytes: Annotated[int, Field(ge=KIB, le=16 * MIB)] = 64 * KIB
    max_upload_bytes: Annotated[int, Field(ge=KIB, le=512 * MIB)] = 10 * MIB

    # GET /metrics wants `Authorization: Bearer <this>` (a static scrape token); unset: off (403).
    metrics_token: SecretStr | None = None

    # Production backends (unset: embedded defaults).
    qdrant_url: str | None = None
    qdrant_api_key: SecretStr | None = None
    # Embedded Qdrant Edge under `warden serve`: points written (uploads) after which its HNSW
    # index is built again, in a child process while searches go on (0: never; ingest always).
    index_build_after: Annotated[int, Field(ge=0)] = 0  # off: see the README (index build)
    mongodb_uri: SecretStr | None = None
    mongodb_database: str = "warden"

    # Chat model: any OpenAI-compatible endpoint; none configured -> extractive answers.
    llm_base_url: str | None = None
    llm_api_key: SecretStr | None = None
    llm_model: str = "gpt-4o-mini"
    llm_timeout_s: Annotated[float, Field(gt=0, le=300)] = 20.0
    # OpenAI sampling penalties against a model that loops (0: not sent, the server's default).
    llm_frequency_penalty: Annotated[float, Field(ge=-2, le=2)] = 0.0
    llm_presence_penalty: Annotated[float, Field(ge=-2, le=2)] = 0.0

    # Pipeline knobs.
    confidence_threshold: Annotated[float, Field(ge=0, le=100)] = 40.0
    # A generated answer the answer gate refuses is retried this many times, then degrades.
    answer_retries: Annotated[int, Field(ge=0, le=5)] = 1
    answer_max_tokens: Annotated[int, Field(ge=16, le=8192)] = 512  # per generated answer
    # Read answers as a stream and stop one the gate is sure to refuse (repetitive, too long).
    answer_stop_runaway: bool = True
    toxicity_classifier: bool = True  # alt-profanity-check's model, when the word rules are unsure
    safety_models: bool = True  # the shipped learned models (config/models/*.json)
    upload_ttl_hours: Annotated[float, Field(gt=0, le=24 * 90)] = 24.0
    max_documents_per_user: Annotated[int, Field(ge=1, le=10_000)] = 20
    max_upload_chunks: Annotated[int, Field(ge=1, le=100_000)] = 1000
    max_upload_pages: Annotated[int, Field(ge=1, le=100_000)] = 500
    document_sweep_interval_s: Annotated[float, Field(gt=0, le=24 * 3600)] = 60.0
    shutdown_flush_timeout_s: Annotated[float, Field(gt=0, le=60)] = 5.0

    # Langfuse keeps its own standard variable names (no WARDEN_ prefix).
    langfuse_public_key: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("LANGFUSE_PUBLIC_KEY")
    )
    langfuse_secret_key: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("LANGFUSE_SECRET_KEY")
    )
    langfuse_timeout_s: float = Field(
        default=5.0, gt=0, le=60, validation_alias=AliasChoices("LANGFUSE_TIMEOUT")
    )
    langfuse_base_url: str | None = Field(
        default=None, validation_alias=AliasChoices("LANGFUSE_BASE_URL", "LANGFUSE_HOST")
    )

    @field_validator("jwt_secret")
    @classmethod
    def _secret_long_enough(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and len(value.get_secret_value()) < 32:
            raise ValueError("WARDEN_JWT_SECRET must be at least 32 characters")
        return value

    @field_validator("data_key")
    @classmethod
    def _data_key_well_formed(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and value.get_secret_value().strip():
            from service.privacy.data_keys import parse_keys

            parse_keys(value.get_secret_value())  # DataKeyError (a ValueError) names no key
            return value
        return None

    @field_validator(
        "qdrant_url",
        "llm_base_url",
        "langfuse_base_url",
        "jwt_external_issuer",
        "jwt_external_audience",
        "jwt_jwks_url",
    )
    @classmethod
    def _blank_is_unset(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        return value.strip()

    @model_validator(mode="after")
    def _one_public_key(self) -> Settings:
        keys = (self.jwt_public_key, self.jwt_public_key_file, self.jwt_jwks_url)
        if sum(key is not None for key in keys) > 1:
            raise ValueError(
                "set one of WARDEN_JWT_PUBLIC_KEY, WARDEN_JWT_PUBLIC_KEY_FILE, WARDEN_JWT_JWKS_URL"
            )
        if self.jwt_jwks_url is not None and not self.jwt_jwks_url.startswith(
            ("https://", "http://")
        ):
            raise ValueError("WARDEN_JWT_JWKS_URL must be an http(s) URL")
        has_key = any(key is not None for key in keys)
        if has_key and not (self.jwt_external_issuer and self.jwt_external_audience):
            # Without both, any token that provider signs for another app would be accepted.
            raise ValueError(
                "an external identity provider (WARDEN_JWT_PUBLIC_KEY, _FILE or _JWKS_URL) "
                "needs both WARDEN_JWT_EXTERNAL_ISSUER and WARDEN_JWT_EXTERNAL_AUDIENCE"
            )
        return self

    # ------------------------------------------------------------ derived

    @property
    def embedded_stores(self) -> bool:
        """True when any store lives in data_dir (then only one process may open it)."""
        return self.qdrant_url is None or self.mongodb_uri is None

    @property
    def local_accounts(self) -> bool:
        """Own accounts and HS256 tokens: on by default, off by default beside a provider."""
        if self.allow_local_accounts is not None:
            return self.allow_local_accounts
        keys = (self.jwt_public_key, self.jwt_public_key_file, self.jwt_jwks_url)
        return all(key is None for key in keys)

    def external_public_key(self) -> str | None:
        """The identity provider's PEM public key, if one is configured."""
        if self.jwt_public_key is not None:
            return self.jwt_public_key.get_secret_value()
        if self.jwt_public_key_file is not None:
            return self.jwt_public_key_file.read_text(encoding="utf-8")
        return None
