"""Score {"src", "mt", "ref"} segments with COMET, inside COMET's own environment.

COMET pins libraries (transformers<5, numpy<2) that intercpt's environment cannot hold, so
intercpt runs this script with that environment's interpreter. It needs the standard library
and ``unbabel-comet`` only. It reads one JSON segment per line and writes
``{"scores": [...]}``, or ``{"error": "one line"}`` for a failure the user
can fix (a model that cannot be loaded, segments without the references the model needs).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def load_model(model: str):
    """A checkpoint file is loaded as is; any other name goes through COMET's hub download."""
    from comet import download_model, load_from_checkpoint

    checkpoint = model if Path(model).is_file() else download_model(model)
    return load_from_checkpoint(checkpoint)


def score(args: argparse.Namespace) -> dict:
    with open(args.input, encoding="utf-8") as lines:
        segments = [json.loads(line) for line in lines if line.strip()]
    try:
        model = load_model(args.model)
    except Exception as err:  # COMET raises bare Exception/KeyError; the message is what matters
        first_line = (str(err).strip().splitlines() or [""])[0]
        hint = "" if Path(args.model).is_file() else "; a hub name needs network access to the Hugging Face hub"
        return {"error": f"cannot load COMET model {args.model}: {type(err).__name__}: {first_line}{hint}"}
    if model.requires_references():
        missing = [i for i, s in enumerate(segments) if not s.get("ref")]
        if missing:
            return {"error": f"COMET model {args.model} needs a reference for every segment; "
                             f"segment {missing[0]} has none (use a reference-free model such as a QE model)"}
    prediction = model.predict(segments, batch_size=args.batch_size, gpus=args.gpus, progress_bar=False)
    return {"scores": [float(s) for s in prediction.scores]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Score segments with COMET.")
    parser.add_argument("--model", required=True, help="a checkpoint file (…/checkpoints/model.ckpt) or a hub name")
    parser.add_argument("--input", required=True, help="JSONL, one {src, mt, ref} object per line")
    parser.add_argument("--output", required=True, help="JSON file to write the scores to")
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--gpus", type=int, default=0)
    args = parser.parse_args(argv)
    result = score(args)
    Path(args.output).write_text(json.dumps(result), encoding="utf-8")
    return 1 if "error" in result else 0


if __name__ == "__main__":
    sys.exit(main())
