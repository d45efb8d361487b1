"""Writes fixtures.pt for ModuleHostileTest with PyTorch 2.13: the modules' edge cases (no bias,
batch first, 3-D bool masks with a float key padding mask, batch and sequence of one, pre-norm
gelu with both masks), each module's state_dict under its prefix, inputs and output, in eval mode.
Regenerate with a torch virtualenv: python3 make_fixtures.py (from this folder)."""
import torch
import torch.nn as nn

torch.manual_seed(4)
out = {}


def put(prefix, module):
    for k, v in module.state_dict().items():
        out[f"{prefix}.{k}"] = v.detach().clone()


E, H = 8, 2
with torch.no_grad():
    # no bias, batch first, a 3-D bool mask and a float key padding mask
    m = nn.MultiheadAttention(E, H, bias=False, batch_first=True).eval()
    put("nb", m)
    q, kv = torch.randn(2, 3, E), torch.randn(2, 4, E)
    mask = torch.rand(2 * H, 3, 4) > 0.6
    mask[:, :, 0] = False
    kpm = torch.zeros(2, 4)
    kpm[1, 3] = float("-inf")
    kpm[0, 1] = -0.5
    out.update({"nb.q": q, "nb.kv": kv, "nb.mask": mask, "nb.kpm": kpm,
                "nb.out": m(q, kv, kv, key_padding_mask=kpm, attn_mask=mask, need_weights=False)[0]})
    # encoder layer, pre-norm gelu, batch of one and sequence of one, float mask and bool padding
    enc = nn.TransformerEncoderLayer(E, H, dim_feedforward=16, activation="gelu", norm_first=True).eval()
    put("enc", enc)
    src = torch.randn(1, 1, E)
    out.update({"enc.src": src, "enc.out": enc(src, src_mask=torch.zeros(1, 1), src_key_padding_mask=torch.tensor([[False]]))})
    src3 = torch.randn(3, 1, E)
    fm = torch.randn(3, 3)
    out.update({"enc.src3": src3, "enc.fm": fm, "enc.out3": enc(src3, src_mask=fm)})
    # decoder layer, pre-norm, sequence of one against a memory of three
    dec = nn.TransformerDecoderLayer(E, H, dim_feedforward=16, norm_first=True, batch_first=True).eval()
    put("dec", dec)
    tgt, mem = torch.randn(2, 1, E), torch.randn(2, 3, E)
    mm = torch.tensor([[False, True, False]])
    out.update({"dec.tgt": tgt, "dec.mem": mem, "dec.mm": mm, "dec.out": dec(tgt, mem, memory_mask=mm)})

torch.save(out, "fixtures.pt")
print(len(out), "tensors")
