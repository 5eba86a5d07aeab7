"""The test run itself cannot reach the internet: prove the guard holds."""

import socket

import pytest

from tests.conftest import NetworkBlocked


@pytest.mark.parametrize("host", ["93.184.216.34", "10.0.0.1", "2001:db8::1"])
def test_connect_off_loopback_is_blocked(host: str) -> None:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock, pytest.raises(NetworkBlocked):
        sock.connect((host, 80))


def test_dns_lookup_is_blocked() -> None:
    with pytest.raises(NetworkBlocked):
        socket.getaddrinfo("publicsuffix.org", 443)


def test_loopback_is_allowed() -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        server.settimeout(2)
        with socket.create_connection(server.getsockname(), timeout=2) as client:
            accepted, (peer_host, peer_port) = server.accept()
            with accepted:
                client.sendall(b"ping")
                assert accepted.recv(4, socket.MSG_WAITALL) == b"ping"  # it crossed loopback
            assert (peer_host, peer_port) == client.getsockname()
