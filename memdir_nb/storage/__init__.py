"""The only code that opens or changes files: the contained reader, scan, the store's transaction, daily logs."""
