"""What the in-process backends share about fetching models: is the Hugging Face hub reachable,
and a one-line form of a library's error."""

from __future__ import annotations


def hub_reachable(timeout: float = 3.0) -> bool:
    """A quick check, so that an offline machine fails in seconds instead of after minutes of retries."""
    import httpx
    from huggingface_hub import constants

    if constants.HF_HUB_OFFLINE:
        return False
    try:
        httpx.head(constants.ENDPOINT, timeout=timeout)
    except httpx.HTTPError:
        return False
    return True


def first_line(err: BaseException) -> str:
    return (str(err).strip().splitlines() or [type(err).__name__])[0]
