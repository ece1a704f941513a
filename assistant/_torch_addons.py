"""Keep broken torch add-on wheels from taking transformers and vLLM down.

The CPU vLLM wheel pulls in torchvision, torchaudio and torchcodec builds made for
CUDA torch; on a CPU torch they raise at import time ("operator torchvision::nms
does not exist"), and transformers imports torchvision as soon as it sees it
installed. intercpt never needs these packages, so when one of them cannot be
imported we mark it as absent (``sys.modules[name] = None``), which makes
``importlib.util.find_spec`` report it missing and ``import`` fail cleanly.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys

ADDONS = ("torchvision", "torchaudio", "torchcodec")


def hide_broken_torch_addons() -> list[str]:
    """Probe each add-on once; hide the ones that fail to import. Returns the hidden names."""
    hidden = []
    for name in ADDONS:
        if name in sys.modules:
            continue
        if importlib.util.find_spec(name) is None:
            continue
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - any import-time failure means unusable
            for loaded in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
                del sys.modules[loaded]
            sys.modules[name] = None  # type: ignore[assignment]
            hidden.append(name)
    return hidden
