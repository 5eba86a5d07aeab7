"""A JWKS document served on loopback (a thread running http.server), with keys to sign tokens.

The test changes what it serves (`keys`, `status`, `delay_s`) and reads how often it was asked
(`requests`)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa


@dataclass(frozen=True)
class SigningPair:
    """A private key, its kid and algorithm, and its public half as a JWK."""

    kid: str
    algorithm: str
    private: Any

    @classmethod
    def rsa(cls, kid: str) -> SigningPair:
        return cls(kid, "RS256", rsa.generate_private_key(public_exponent=65537, key_size=2048))

    @classmethod
    def ec(cls, kid: str) -> SigningPair:
        return cls(kid, "ES256", ec.generate_private_key(ec.SECP256R1()))

    def jwk(self) -> dict[str, Any]:
        algorithm = jwt.algorithms.get_default_algorithms()[self.algorithm]
        document: dict[str, Any] = json.loads(algorithm.to_jwk(self.private.public_key()))
        return {**document, "kid": self.kid, "use": "sig", "alg": self.algorithm}

    def public_pem(self) -> bytes:
        return self.private.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )

    def sign(self, claims: dict[str, Any], **header: Any) -> str:
        headers = {"kid": self.kid, **header}
        return jwt.encode(claims, self.private, algorithm=self.algorithm, headers=headers)


class JwksServer:
    def __init__(self) -> None:
        self.keys: list[dict[str, Any]] = []
        self.status = 200
        self.delay_s = 0.0
        self.requests = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                server.requests += 1
                time.sleep(server.delay_s)
                body = json.dumps({"keys": server.keys}).encode()
                self.send_response(server.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self._http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._http.server_address[1]}/.well-known/jwks.json"

    def serve(self, *pairs: SigningPair) -> None:
        self.keys = [pair.jwk() for pair in pairs]

    @contextmanager
    def running(self) -> Iterator[JwksServer]:
        thread = threading.Thread(target=self._http.serve_forever, daemon=True)
        thread.start()
        try:
            yield self
        finally:
            self._http.shutdown()
            self._http.server_close()
            thread.join(timeout=5)
