"""The secret guard: what looks like a credential, read the way a consumer reads the file."""
