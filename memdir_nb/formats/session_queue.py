"""What a session's `queue-operation` records say: text typed, or notifications, while a turn ran.

The CLI writes `enqueue` (with the text) when input waits, then one of: `remove` (the text was
absorbed into the running turn; its content may be missing), `dequeue` (released as the next
message; the record carries no content) or `popAll` (pulled back into the input box). Two
things make the plain FIFO reading wrong on real files:

- Claude Desktop (and some 2.1.x runs) enqueue and dequeue every prompt, even the first one,
  when nothing is running. So an item is "typed while the agent worked" only if a turn was
  running at its enqueue, or another turn started while it waited in the queue.
- Background-task notifications (`<task-notification>`) go through the same queue. A dequeue
  does not say what it released; the record that follows it does. So a dequeue is resolved by
  the next notification, prompt or command record, never by position alone.
"""

from __future__ import annotations

from memdir_nb.formats import transcript_records as tr
from memdir_nb.formats.session_model import Turn
from memdir_nb.spec.constants import SESSION_PROMPT_MAX_CHARS, SESSION_QUEUED_PROMPT_MAX_CHARS
from memdir_nb.spec.text import cap_text

# Items waiting in the queue, kept at most: a hostile file of enqueues without their dequeues
# must not grow memory (a real queue holds a handful); past it the oldest item is dropped. Each
# item's text is kept cut as a turn's prompt is (SESSION_PROMPT_MAX_CHARS), and the texts it is
# matched with are cut alike: 64 lines of 8 MB each were otherwise held whole (sessions45).
MAX_QUEUED = 64


def _kept(text: str) -> str:
    return cap_text(text, SESSION_PROMPT_MAX_CHARS)


def is_typed(text: str) -> bool:
    """Whether queued text is a prompt a person typed: not blank, not a notification."""
    return bool(text.strip()) and not tr.is_notification(text)


class InputQueue:
    """The queue as the transcript shows it, with whether a turn ran at each enqueue."""

    def __init__(self) -> None:
        # (text, a turn was running at its enqueue, the number of turns then)
        self._items: list[tuple[str, bool, int]] = []
        self._released = 0  # dequeues whose released record has not been read yet
        # typed items dropped at MAX_QUEUED: (the turn count at their enqueue, how many)
        self._dropped = (0, 0)

    def enqueue(self, text: str, running: bool, turns: int) -> None:
        if len(self._items) >= MAX_QUEUED:
            gone, _, then = self._items.pop(0)
            if is_typed(gone):
                self._dropped = (then, self._dropped[1] + 1 if self._dropped[0] == then else 1)
        self._items.append((_kept(text), running, turns))

    def dequeue(self) -> None:
        """Something left the queue as the next message; the next record tells what."""
        if self._released < len(self._items):
            self._released += 1

    def remove(self, text: object) -> str | None:
        """An item absorbed into the running turn: the one named, or else the oldest typed one,
        or else the oldest. On real files a `remove` without text (2.1.x) beside a waiting
        notification took the typed prompt; the notification came later as its own record."""
        kept = _kept(text) if isinstance(text, str) else text
        for i, item in enumerate(self._items):
            if item[0] == kept:
                return self._take(i)
        typed = (i for i, item in enumerate(self._items) if not tr.is_notification(item[0]))
        at = next(typed, 0)
        return self._take(at) if self._items else None

    def pop_all(self) -> None:
        """Pulled back into the input box: nothing was sent."""
        self._items.clear()
        self._released, self._dropped = 0, (0, 0)

    def notification_arrived(self) -> None:
        """A notification record: when a dequeue is waiting, it released this one."""
        if not self._released:
            return
        self._released -= 1
        for i, item in enumerate(self._items):
            if tr.is_notification(item[0]):
                self._take(i)
                return

    def prompt_arrived(self, text: str, turns: int) -> bool:
        """A prompt or command record: whether a dequeue released it and it was typed while a
        turn ran (running at its enqueue, or `turns` grew while it waited). The item is the one
        with the record's text, or else the oldest typed one."""
        if not self._released:
            return False
        self._released = 0
        typed = [i for i, item in enumerate(self._items) if not tr.is_notification(item[0])]
        if not typed:
            return False
        kept = _kept(text).strip()
        at = next((i for i in typed if self._items[i][0].strip() == kept), typed[0])
        _, running, then = self._items[at]
        self._take(at)
        return running or turns > then

    def waiting_typed(self, turns: int) -> list[str]:
        """The typed prompts still in the queue that were enqueued once `turns` turns had
        begun: at the end of a file, those no turn began for (a `-p` run that stopped after its
        enqueue and dequeue; a prompt typed as the session closed), oldest first."""
        return [text for text, _, then in self._items if then >= turns and is_typed(text)]

    def dropped_typed(self, turns: int) -> int:
        """How many more such prompts were queued than the queue kept (dropped, oldest first)."""
        return self._dropped[1] if self._dropped[0] >= turns else 0

    def _take(self, i: int) -> str:
        text = self._items.pop(i)[0]
        self._released = min(self._released, len(self._items))
        return text


def absorb(turn: Turn, text: str, noted: set[int]) -> None:
    """Queued input taken into the running turn (a `remove`, then its attachment): a
    notification counted once (`noted`: the hashes of those counted in this turn), a typed
    prompt listed once (at most MAX_QUEUED a turn)."""
    if tr.is_notification(text):
        if hash(text) not in noted:  # the remove and its attachment are one
            noted.add(hash(text))
            turn.notifications += 1
    elif len(turn.queued_prompts) < MAX_QUEUED and text not in turn.queued_prompts:
        turn.queued_prompts.append(cap_text(text, SESSION_QUEUED_PROMPT_MAX_CHARS))
