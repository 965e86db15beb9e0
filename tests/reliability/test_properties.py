"""Property: whatever name, description, type and body a store accepts, a scan reads back the same."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from memdir_nb.spec.taxonomy import MemoryType
from memdir_nb.storage.scan import scan_memory_dir
from memdir_nb.storage.store import MemoryStore
from memdir_nb.storage.store_checks import MemoryValidationError

# Text a person or model might put in a header: any printable character, YAML-special ones
# included (':', '#', quotes, '---', '&', '*', leading '-', unicode), no line breaks.
ONE_LINE = (
    st.text(
        alphabet=st.characters(
            blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters="\x85"
        ),
        min_size=1,
        max_size=80,
    )
    .map(str.strip)
    .filter(bool)
)
BODY = st.text(alphabet=st.characters(codec="utf-8", blacklist_characters="\x00"), max_size=400)


@pytest.mark.slow
@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(name=ONE_LINE, description=ONE_LINE, mtype=st.sampled_from(list(MemoryType)), body=BODY)
def test_save_then_scan_round_trips_name_description_and_type(
    name: str, description: str, mtype: MemoryType, body: str
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = MemoryStore(Path(tmp) / "memory")
        try:
            path = store.save(name, description, mtype, body)
        except MemoryValidationError:
            assume(False)  # refused with a clear error: nothing to round-trip
        headers = scan_memory_dir(store.memory_dir, limit=None).headers
        assert [h.filename for h in headers] == [path.name]
        h = headers[0]
        assert (h.name, h.description, h.type, h.malformed) == (name, description, mtype, False)
