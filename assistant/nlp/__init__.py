"""Language resources the pre-pass and the checkers share (spaCy pipelines, word lists)."""
