"""Writes a tiny randomly initialised GPT-2 with Hugging Face transformers (model.safetensors and
config.json, as save_pretrained writes them) and what transformers computes with it
(expected.safetensors: "ids" [2, 10], "logits" [2, 10, vocab], "prompt" [1, 4] and "generated",
greedy with the KV cache, 12 new tokens). Gpt2Test checks jtensor's loader against them.
Regenerate in a virtualenv with torch and transformers: python3 make_fixture.py"""
import torch
from safetensors.torch import save_file
from transformers import GPT2Config, GPT2LMHeadModel

torch.manual_seed(5)
config = GPT2Config(vocab_size=96, n_positions=32, n_embd=32, n_layer=2, n_head=4, resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0)
model = GPT2LMHeadModel(config).eval()
with torch.no_grad():
    for p in model.parameters():  # larger than the 0.02 init, so that every layer matters to the logits
        p.add_(torch.randn_like(p) * 0.1)
model.save_pretrained(".", safe_serialization=True)
ids = torch.randint(0, 96, (2, 10))
prompt = torch.tensor([[3, 14, 15, 92]])
with torch.no_grad():
    logits = model(ids).logits
    generated = model.generate(prompt, max_new_tokens=12, do_sample=False, use_cache=True, pad_token_id=0)
save_file({"ids": ids, "logits": logits.contiguous(), "prompt": prompt, "generated": generated}, "expected.safetensors")
print("logits", tuple(logits.shape), "generated", generated.tolist())
