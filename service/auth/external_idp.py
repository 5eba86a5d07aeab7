"""An external identity provider: its issuer and audience, where its keys come from (one static
RS256 public key, or a JWKS URL with RS256 and ES256 keys, see service/auth/jwks.py), and which
claims carry the user's id, name and e-mail."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import jwt

from service.auth.jwks import JwksKeys


@dataclass(frozen=True)
class ClaimNames:
    """The claims read from a provider's token (`WARDEN_JWT_CLAIM_*`)."""

    user_id: str = "sub"
    name: str = "name"  # falls back to `preferred_username` when absent
    email: str = "email"


def _rsa_key(pem: str) -> Any:
    if not jwt.algorithms.has_crypto:
        raise RuntimeError("verifying RS256 tokens needs the 'cryptography' package")
    algorithm = jwt.algorithms.RSAAlgorithm(jwt.algorithms.RSAAlgorithm.SHA256)
    return algorithm.prepare_key(pem)


@dataclass(frozen=True)
class ExternalIdp:
    """Issuer and audience are required: without them a token the provider signed for any
    other app would pass. Exactly one of `public_key_pem` and `jwks` is given."""

    issuer: str
    audience: str
    public_key_pem: str | None = None
    jwks: JwksKeys | None = None
    claims: ClaimNames = field(default_factory=ClaimNames)
    _static_key: Any = field(init=False, default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.issuer or not self.audience:
            raise ValueError("an external identity provider needs an issuer and an audience")
        if (self.public_key_pem is None) == (self.jwks is None):
            raise ValueError("an external identity provider needs a public key or a JWKS URL")
        if self.public_key_pem is not None:
            object.__setattr__(self, "_static_key", _rsa_key(self.public_key_pem))

    def accepts(self, algorithm: str | None) -> bool:
        return algorithm == "RS256" or (self.jwks is not None and algorithm == "ES256")

    def key_for(self, header: dict[str, Any]) -> Any:
        """The key that must have signed a token with this header; raises UnknownSigningKey
        (JWKS: no cached key has its `kid`) or ValueError (the key is for another algorithm)."""
        if self.jwks is None:
            return self._static_key
        kid = header.get("kid")
        return self.jwks.key(kid if isinstance(kid, str) else None, str(header.get("alg")))

    async def refresh_keys(self) -> None:
        """Fetches the JWKS again if one is configured and a fetch is due."""
        if self.jwks is not None:
            await self.jwks.refresh()

    @property
    def keys_unavailable(self) -> bool:
        return self.jwks is not None and self.jwks.unavailable
