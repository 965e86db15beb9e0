"""security.api_replies: the one maker of Anthropic clients, and the deadline it reads."""

from __future__ import annotations

import httpx2

from memdir_nb.security.api_replies import BoundedReplyClient, messages_client, reply_deadline


def test_the_deadline_is_the_largest_phase_of_the_requests_timeout() -> None:
    assert reply_deadline({"connect": 5.0, "read": 600.0, "write": 600.0, "pool": 600.0}) == 600.0
    assert reply_deadline({"connect": 30.0, "read": 20.0, "write": None, "pool": None}) == 30.0


def test_a_request_with_no_read_timeout_has_no_deadline() -> None:
    assert reply_deadline({"connect": 5.0, "read": None, "write": None, "pool": None}) is None
    assert reply_deadline({}) is None


def test_the_package_client_is_bounded_and_a_callers_own_http_client_is_kept() -> None:
    ours = messages_client(api_key="sk-test", base_url="http://127.0.0.1:9")
    assert isinstance(ours._client, BoundedReplyClient)
    unset = messages_client(api_key="sk-test", base_url="http://127.0.0.1:9", http_client=None)
    assert isinstance(unset._client, BoundedReplyClient)
    theirs = httpx2.Client()
    given = messages_client(api_key="sk-test", base_url="http://127.0.0.1:9", http_client=theirs)
    assert given._client is theirs
