"""security.api_replies: the one maker of Anthropic clients, and the deadline it reads."""

from __future__ import annotations

import inspect
from typing import Any

import anthropic
import httpx2
import pytest

from memdir_nb.security import api_replies
from memdir_nb.security.api_replies import (
    BoundedAnthropic,
    BoundedReplyClient,
    messages_client,
    reply_deadline,
    sdk_has_retry_wait,
)
from memdir_nb.spec.constants import MESSAGES_CALL_DEADLINE_S


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


def test_a_client_holds_each_call_to_the_default_deadline_unless_given_one() -> None:
    default = messages_client(api_key="sk-test", base_url="http://127.0.0.1:9")
    assert isinstance(default, BoundedAnthropic)
    assert default.call_deadline_s == MESSAGES_CALL_DEADLINE_S
    chosen = messages_client(api_key="sk-test", base_url="http://127.0.0.1:9", call_deadline_s=7)
    assert chosen.call_deadline_s == 7


@pytest.mark.parametrize("bad", [0, -1.0, float("nan")])
def test_a_call_deadline_that_is_not_a_positive_number_is_refused(bad: float) -> None:
    with pytest.raises(ValueError, match="call_deadline_s must be a positive number"):
        messages_client(api_key="sk-test", base_url="http://127.0.0.1:9", call_deadline_s=bad)


def test_the_sdks_copies_of_a_client_keep_its_call_deadline() -> None:
    """with_options and with_middleware (the selector's cancel guard) copy the client."""
    client = messages_client(
        api_key="sk-test", base_url="http://127.0.0.1:9", call_deadline_s=7, how_to_raise="ask"
    )

    def passthrough(request: Any, call_next: Any) -> Any:
        return call_next(request)

    for copy in (client.with_options(max_retries=1), client.with_middleware(passthrough)):
        assert isinstance(copy, BoundedAnthropic)
        assert (copy.call_deadline_s, copy.how_to_raise) == (7, "ask")


def test_the_sdk_still_has_the_retry_wait_that_the_call_deadline_replaces() -> None:
    """BoundedAnthropic overrides the SDK's `_sleep_for_retry` and calls its
    `_calculate_retry_timeout`: a new SDK that renamed them would leave waits unbounded."""
    sleep = inspect.signature(anthropic.Anthropic._sleep_for_retry).parameters
    assert {"retries_taken", "max_retries", "options", "response"} <= set(sleep)
    assert callable(anthropic.Anthropic._calculate_retry_timeout)
    assert sdk_has_retry_wait(anthropic.Anthropic)


def test_an_sdk_that_waits_another_way_is_told_apart() -> None:
    """A client class without both retry-wait methods is one whose waits the deadline cannot
    see; BoundedAnthropic then makes one attempt a call instead of waiting unbounded."""

    class OldSdk:
        def _sleep_for_retry(self) -> None: ...

    assert not sdk_has_retry_wait(OldSdk)
    assert not sdk_has_retry_wait(object)


def test_on_an_sdk_whose_waits_it_cannot_see_a_client_makes_one_attempt(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(api_replies, "_RETRY_WAIT_HELD", False)
    held = BoundedAnthropic(api_key="k", base_url="http://127.0.0.1:9", max_retries=2)
    unbounded = BoundedAnthropic(
        api_key="k", base_url="http://127.0.0.1:9", max_retries=2, call_deadline_s=None
    )
    assert (held.max_retries, unbounded.max_retries) == (0, 2)
