"""A cap on the size of a request's head (request line and headers), for `warden serve`.

uvicorn's httptools protocol reads a request's headers whole, however long: a 10 MB bearer
header costs the server the time to receive and parse it. `HeaderCappedProtocol` counts the
bytes received while a request's head is incomplete; past MAX_HEAD_BYTES it answers 431
`headers_too_large` (our JSON error envelope) and closes the connection. It stops parsing at
once, but keeps reading and discarding for up to LINGER_S after answering, so the client
receives the 431 instead of a connection reset.
"""

from __future__ import annotations

import json

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

MAX_HEAD_BYTES = 32 * 1024  # browsers send a few KiB; a JWT is well under 2 KiB
LINGER_S = 1.0
HEADERS_TOO_LARGE = "headers_too_large"


def refusal_bytes(limit: int) -> bytes:
    body = json.dumps(
        {"error": HEADERS_TOO_LARGE, "detail": f"The request headers are over {limit} bytes."}
    ).encode()
    head = (
        "HTTP/1.1 431 Request Header Fields Too Large\r\n"
        "content-type: application/json\r\n"
        f"content-length: {len(body)}\r\n"
        "connection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


class HeaderCappedProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with MAX_HEAD_BYTES (`uvicorn.Config(http=...)`)."""

    max_head_bytes = MAX_HEAD_BYTES
    _head_bytes = 0
    _in_head = True
    _refused = False

    _heads_completed = 0  # heads the parser completed during the current read

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return  # discarded while lingering
        in_head, self._heads_completed = self._in_head, 0
        super().data_received(data)
        # the head is still not complete: a read that completed one (a whole request, body
        # and all, can arrive in one read) counts nothing
        if in_head and self._in_head and not self._heads_completed:
            self._head_bytes += len(data)
            if self._head_bytes > self.max_head_bytes:
                self._refuse()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._in_head = True

    def on_headers_complete(self) -> None:
        self._in_head, self._head_bytes = False, 0
        self._heads_completed += 1
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._in_head, self._head_bytes = True, 0

    def _refuse(self) -> None:
        self._refused = True
        self.logger.warning("request headers over %d bytes refused", self.max_head_bytes)
        transport = self.transport
        transport.write(refusal_bytes(self.max_head_bytes))
        if transport.can_write_eof():
            transport.write_eof()
        self.loop.call_later(LINGER_S, transport.close)
