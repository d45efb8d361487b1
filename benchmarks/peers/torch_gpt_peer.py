"""PyTorch's side of gpt.sh's --benchmark (2 threads, as jtensor's machine has): the same
character-level GPT (token and position embeddings, pre-norm blocks of causal
scaled_dot_product_attention and a GELU MLP, final LayerNorm, output tied to the token embedding;
default 2 layers x 64 wide, 4 heads, context 64, vocabulary 81), one AdamW training step
(forward, cross-entropy, backward, clip_grad_norm_ 1.0, step) on a batch of 32 x 64 random ids,
and generation through a KV cache, one token at a time (greedy, so both sides do the same work).
Prints `peer gptStep MS` (median), `peer generationCold TOKENS_PER_S` (the first 5 rounds of 63
tokens) and `peer generation TOKENS_PER_S` (the median round after 100 of warm-up). Run it before and after
`scripts/gpt.sh --benchmark` in one command and report the ratios.
With --autocast bf16 the step's forward pass and loss run under torch.autocast("cpu", torch.bfloat16)
(backward after it, as jtensor's gpt.sh --autocast bf16 does) and the line reads
`peer gptStep autocast bfloat16 MS`.
python3 torch_gpt_peer.py [--autocast bf16] [THREADS [LAYERS EMBD HEADS]]"""
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

from peer_timing import median_ms

args = sys.argv[1:]
AUTOCAST = None
if "--autocast" in args:
    i = args.index("--autocast")
    AUTOCAST = {"bf16": torch.bfloat16, "bfloat16": torch.bfloat16, "fp16": torch.float16, "float16": torch.float16}[args[i + 1]]
    del args[i:i + 2]
torch.set_num_threads(int(args[0]) if len(args) > 0 else 2)
LAYERS, EMBD, HEADS = (int(v) for v in args[1:4]) if len(args) > 3 else (2, 64, 4)
VOCAB, CONTEXT, BATCH = 81, 64, 32
# generation as jtensor's --benchmark times it: the first rounds whole ("cold"), then the median
# of 20 after warm-up rounds (jtensor's JIT compiles the one-token path within about 70 rounds)
COLD_ROUNDS, GENERATION_WARM_ROUNDS = 5, 100


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(EMBD), nn.LayerNorm(EMBD)
        self.qkv, self.proj = nn.Linear(EMBD, 3 * EMBD), nn.Linear(EMBD, EMBD)
        self.fc, self.fc_proj = nn.Linear(EMBD, 4 * EMBD), nn.Linear(4 * EMBD, EMBD)

    def forward(self, x, cache=None):
        b, t, e = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(b, t, 3, HEADS, e // HEADS).permute(2, 0, 3, 1, 4)
        if cache is not None:
            if "k" in cache:
                k, v = torch.cat([cache["k"], k], 2), torch.cat([cache["v"], v], 2)
            cache["k"], cache["v"] = k, v
        a = F.scaled_dot_product_attention(q, k, v, is_causal=t > 1)
        x = x + self.proj(a.transpose(1, 2).reshape(b, t, e))
        return x + self.fc_proj(F.gelu(self.fc(self.ln2(x))))


class Gpt(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok, self.pos = nn.Embedding(VOCAB, EMBD), nn.Embedding(CONTEXT, EMBD)
        self.blocks = nn.ModuleList(Block() for _ in range(LAYERS))
        self.ln_f = nn.LayerNorm(EMBD)

    def forward(self, ids, caches=None, past=0):
        x = self.tok(ids) + self.pos(torch.arange(past, past + ids.shape[1]))
        for i, blk in enumerate(self.blocks):
            x = blk(x, None if caches is None else caches[i])
        return self.ln_f(x) @ self.tok.weight.t()


torch.manual_seed(0)
model = Gpt()
opt = torch.optim.AdamW(model.parameters(), lr=3e-3, betas=(0.9, 0.99), weight_decay=0.01)


def step():
    ids = torch.randint(0, VOCAB, (BATCH, CONTEXT + 1))
    opt.zero_grad(set_to_none=True)
    with torch.autocast("cpu", AUTOCAST or torch.bfloat16, enabled=AUTOCAST is not None):
        loss = F.cross_entropy(model(ids[:, :-1]).reshape(-1, VOCAB), ids[:, 1:].reshape(-1))
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()


def generate(n=CONTEXT - 1):
    caches = [dict() for _ in range(LAYERS)]
    nxt = torch.zeros(1, 1, dtype=torch.long)
    with torch.no_grad():
        for i in range(n):
            nxt = model(nxt, caches, i)[:, -1].argmax(-1, keepdim=True)


LABEL = "" if AUTOCAST is None else " autocast " + str(AUTOCAST).removeprefix("torch.")
print(f"peer gptStep{LABEL} {median_ms(step, 20, warm=60):.2f}", flush=True)  # warm-up as jtensor's (its JIT)
t0 = time.perf_counter()
for _ in range(COLD_ROUNDS):
    generate()
print(f"peer generationCold {COLD_ROUNDS * (CONTEXT - 1) / (time.perf_counter() - t0):.0f}", flush=True)
ms = median_ms(generate, 20, warm=GENERATION_WARM_ROUNDS)
print(f"peer generation {(CONTEXT - 1) / (ms / 1e3):.0f}", flush=True)
