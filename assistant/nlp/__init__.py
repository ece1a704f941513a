"""Linguistic leaf modules for the pre-pass and the checks: people and their gender in a source,
whether an utterance is addressed to someone, and what a translation says about both."""
