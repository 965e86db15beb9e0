"""Reports over a home and its memory dirs: where, doctor, fleet export, analysis frames."""
