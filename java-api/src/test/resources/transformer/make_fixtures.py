"""Writes fixtures.pt for TransformerConformanceTest: PyTorch 2.13's nn.MultiheadAttention,
TransformerEncoderLayer (post-norm relu and pre-norm gelu), TransformerDecoderLayer,
TransformerEncoder (two layers and a final norm) and RMSNorm in eval mode, each module's
state_dict under its prefix, its inputs and its output; MultiheadAttention's parameter and input
gradients ("gmha.*"); and scaled_dot_product_attention with GQA and
a float mask or causal, with every input's gradient. Regenerate with a torch virtualenv:
python3 make_fixtures.py (from this folder)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(2026)
out = {}


def put(prefix, module):
    for k, v in module.state_dict().items():
        out[f"{prefix}.{k}"] = v.detach().clone()


E, H = 16, 4
with torch.no_grad():
    mha = nn.MultiheadAttention(E, H).eval()
    put("mha", mha)
    q, k, v = torch.randn(5, 2, E), torch.randn(7, 2, E), torch.randn(7, 2, E)
    attn = torch.rand(5, 7) > 0.7
    attn[:, 0] = False  # every query sees key 0
    padding = torch.zeros(2, 7, dtype=torch.bool)
    padding[1, 5:] = True
    out.update({"mha.q": q, "mha.k": k, "mha.v": v, "mha.attn_mask": attn, "mha.key_padding_mask": padding})
    out["mha.out"] = mha(q, k, v, key_padding_mask=padding, attn_mask=attn, need_weights=False)[0]
    fmask = torch.randn(2 * H, 5, 7)
    out["mha.float_mask"] = fmask
    out["mha.out_float_mask"] = mha(q, k, v, attn_mask=fmask, need_weights=False)[0]

    enc = nn.TransformerEncoderLayer(E, H, dim_feedforward=32, dropout=0.1, batch_first=True).eval()
    put("enc", enc)
    src = torch.randn(2, 6, E)
    causal = nn.Transformer.generate_square_subsequent_mask(6)
    out.update({"enc.src": src, "enc.mask": causal, "enc.out": enc(src, src_mask=causal)})

    pre = nn.TransformerEncoderLayer(E, H, dim_feedforward=32, activation="gelu", batch_first=False, norm_first=True).eval()
    put("pre", pre)
    src2 = torch.randn(6, 3, E)
    out.update({"pre.src": src2, "pre.out": pre(src2)})

    dec = nn.TransformerDecoderLayer(E, H, dim_feedforward=32, batch_first=True).eval()
    put("dec", dec)
    tgt, memory = torch.randn(2, 5, E), torch.randn(2, 7, E)
    tmask = nn.Transformer.generate_square_subsequent_mask(5)
    out.update({"dec.tgt": tgt, "dec.memory": memory, "dec.tgt_mask": tmask, "dec.out": dec(tgt, memory, tgt_mask=tmask)})

    stack = nn.TransformerEncoder(nn.TransformerEncoderLayer(E, H, dim_feedforward=32, batch_first=True), 2,
                                  norm=nn.LayerNorm(E), enable_nested_tensor=False).eval()
    put("stack", stack)
    out.update({"stack.src": src, "stack.out": stack(src)})

    rms = nn.RMSNorm([4, E])
    rms.weight.normal_()
    put("rms", rms)
    x = torch.randn(3, 4, E)
    out.update({"rms.x": x, "rms.out": rms(x)})

for name, causal in (("sdpa", False), ("sdpac", True)):
    q = torch.randn(2, 6, 9, 8, dtype=torch.float64, requires_grad=True)
    k = torch.randn(2, 3, 11, 8, dtype=torch.float64, requires_grad=True)
    v = torch.randn(2, 3, 11, 5, dtype=torch.float64, requires_grad=True)
    mask = None if causal else torch.randn(9, 11, dtype=torch.float64)
    y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=causal, scale=0.3, enable_gqa=True)
    up = torch.randn_like(y)
    y.backward(up)
    out.update({f"{name}.q": q.detach(), f"{name}.k": k.detach(), f"{name}.v": v.detach(), f"{name}.out": y.detach(),
                f"{name}.up": up, f"{name}.grad_q": q.grad, f"{name}.grad_k": k.grad, f"{name}.grad_v": v.grad})
    if mask is not None:
        out[f"{name}.mask"] = mask

# parameter and input gradients of MultiheadAttention (batch first, a float mask, no dropout)
grad_mha = nn.MultiheadAttention(E, H, batch_first=True)
put("gmha", grad_mha)
gq = torch.randn(2, 5, E, requires_grad=True)
gkv = torch.randn(2, 7, E, requires_grad=True)
gmask = torch.randn(5, 7)
y = grad_mha(gq, gkv, gkv, attn_mask=gmask, need_weights=False)[0]
gup = torch.randn_like(y)
y.backward(gup)
out.update({"gmha.q": gq.detach(), "gmha.kv": gkv.detach(), "gmha.mask": gmask, "gmha.up": gup, "gmha.out": y.detach(),
            "gmha.grad_q": gq.grad, "gmha.grad_kv": gkv.grad, "gmha.grad_in_proj_weight": grad_mha.in_proj_weight.grad,
            "gmha.grad_in_proj_bias": grad_mha.in_proj_bias.grad, "gmha.grad_out_proj_weight": grad_mha.out_proj.weight.grad})

torch.save(out, "fixtures.pt")
print(len(out), "tensors")
