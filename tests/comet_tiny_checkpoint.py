"""Build a tiny random-weight COMET checkpoint, so tests run COMET's real code without a hub download.

Run by the COMET environment's interpreter: ``python comet_tiny_checkpoint.py OUT [--referenceless]``.
OUT receives ``encoder/`` (an XLM-R config and a tokenizer trained here on a few sentences),
``checkpoints/model.ckpt`` and ``hparams.yaml``: the layout ``comet.load_from_checkpoint`` reads.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pytorch_lightning as ptl
import torch
from comet.models import ReferencelessRegression, RegressionMetric
from pytorch_lightning.core.saving import save_hparams_to_yaml
from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers
from transformers import XLMRobertaConfig, XLMRobertaTokenizerFast

# XLM-R's special tokens, in XLM-R's id order (<s>=0, <pad>=1, </s>=2, <unk>=3).
SPECIAL_TOKENS = ["<s>", "<pad>", "</s>", "<unk>", "<mask>"]
CORPUS = [
    "Are you sure it is pretty?",
    "Êtes-vous sûr qu'il est joli ?",
    "Bist du sicher, dass er hübsch ist?",
    "¿Estás seguro de que es bonito?",
    "The doctor said she would call tomorrow.",
    "Le médecin a dit qu'elle appellerait demain.",
    "Die Ärztin sagte, sie würde morgen anrufen.",
    "La doctora dijo que llamaría mañana.",
    "Good night, see you at the station.",
    "Bonne nuit, à plus tard à la gare.",
]


def build_tokenizer(folder: Path) -> XLMRobertaTokenizerFast:
    """A SentencePiece-style Unigram tokenizer with XLM-R's special tokens and templates."""
    tokenizer = Tokenizer(models.Unigram())
    tokenizer.normalizer = normalizers.NFKC()
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace()
    tokenizer.decoder = decoders.Metaspace()
    trainer = trainers.UnigramTrainer(vocab_size=300, special_tokens=SPECIAL_TOKENS, unk_token="<unk>")
    tokenizer.train_from_iterator(CORPUS, trainer=trainer)
    tokenizer.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>",
        pair="<s> $A </s> </s> $B </s>",
        special_tokens=[(t, tokenizer.token_to_id(t)) for t in ("<s>", "</s>")],
    )
    wrapped = XLMRobertaTokenizerFast(
        tokenizer_object=tokenizer, bos_token="<s>", eos_token="</s>", sep_token="</s>", cls_token="<s>",
        unk_token="<unk>", pad_token="<pad>", mask_token="<mask>",
    )
    wrapped.save_pretrained(folder)
    return wrapped


def build_encoder(folder: Path) -> None:
    """A two-layer XLM-R config beside its tokenizer; COMET builds the encoder from it."""
    tokenizer = build_tokenizer(folder)
    XLMRobertaConfig(
        vocab_size=len(tokenizer), hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
        intermediate_size=64, max_position_embeddings=130, type_vocab_size=1,
        bos_token_id=0, pad_token_id=1, eos_token_id=2,
    ).save_pretrained(folder)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--referenceless", action="store_true", help="a quality-estimation model (no ref)")
    args = parser.parse_args()

    encoder = args.out / "encoder"
    build_encoder(encoder)
    torch.manual_seed(0)
    model_class = ReferencelessRegression if args.referenceless else RegressionMetric
    model = model_class(pretrained_model=str(encoder.resolve()), hidden_sizes=[16],
                        load_pretrained_weights=False, local_files_only=True)
    trainer = ptl.Trainer(accelerator="cpu", devices=1, logger=False, enable_checkpointing=False,
                          enable_progress_bar=False, enable_model_summary=False)
    trainer.strategy.connect(model)
    trainer.save_checkpoint(args.out / "checkpoints" / "model.ckpt")
    save_hparams_to_yaml(args.out / "hparams.yaml", model.hparams)
    print(args.out / "checkpoints" / "model.ckpt")


if __name__ == "__main__":
    main()
