"""The agent tool loop and its bounded tools, shared by extraction and consolidation."""
