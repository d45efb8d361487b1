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

# kdim/vdim, bias_k/bias_v and a zero key; the attention weights (need_weights=True), averaged and per head
with torch.no_grad():
    sep = nn.MultiheadAttention(E, H, add_bias_kv=True, add_zero_attn=True, kdim=5, vdim=3).eval()
    put("sep", sep)
    sq, sk, sv = torch.randn(5, 2, E), torch.randn(7, 2, 5), torch.randn(7, 2, 3)
    out.update({"sep.q": sq, "sep.k": sk, "sep.v": sv})
    o, w = sep(sq, sk, sv, key_padding_mask=padding, attn_mask=attn)
    out.update({"sep.out": o, "sep.weights": w})
    o, w = sep(sq, sk, sv, key_padding_mask=padding, attn_mask=attn, average_attn_weights=False)
    out.update({"sep.out_heads": o, "sep.weights_heads": w})
    o, w = mha(out["mha.q"][:, 0], out["mha.k"][:, 0], out["mha.v"][:, 0], attn_mask=fmask[:H])
    out.update({"mha.float_mask_one": fmask[:H], "mha.out_unbatched": o, "mha.weights_unbatched": w})

    dec2 = nn.TransformerDecoderLayer(E, H, dim_feedforward=32, activation="gelu", norm_first=True, bias=False).eval()
    put("dec2", dec2)
    tgt2, mem2 = torch.randn(5, 2, E), torch.randn(7, 2, E)
    tpad = torch.zeros(2, 5, dtype=torch.bool)
    tpad[0, 4] = True
    out.update({"dec2.tgt": tgt2, "dec2.memory": mem2, "dec2.tgt_key_padding_mask": tpad, "dec2.memory_key_padding_mask": padding,
                "dec2.out": dec2(tgt2, mem2, tgt_mask=tmask, tgt_key_padding_mask=tpad, memory_key_padding_mask=padding,
                                 tgt_is_causal=True)})

    model = nn.Transformer(E, H, num_encoder_layers=2, num_decoder_layers=2, dim_feedforward=32, batch_first=True).eval()
    put("model", model)
    msrc, mtgt = torch.randn(2, 7, E), torch.randn(2, 5, E)
    out.update({"model.src": msrc, "model.tgt": mtgt, "model.square_mask": nn.Transformer.generate_square_subsequent_mask(5),
                "model.out": model(msrc, mtgt, tgt_mask=tmask, src_key_padding_mask=padding, memory_key_padding_mask=padding,
                                   tgt_is_causal=True)})

# parameter gradients of the separate projections and bias_k/bias_v (train mode, no dropout), through the weights path
gsep = nn.MultiheadAttention(E, H, add_bias_kv=True, kdim=5, vdim=3, batch_first=True)
put("gsep", gsep)
gsq, gsk, gsv = torch.randn(2, 5, E), torch.randn(2, 7, 5), torch.randn(2, 7, 3)
y, w = gsep(gsq, gsk, gsv, attn_mask=gmask)
gsup = torch.randn_like(y)
(y * gsup).sum().add((w * w).sum()).backward()
out.update({"gsep.q": gsq, "gsep.k": gsk, "gsep.v": gsv, "gsep.mask": gmask, "gsep.up": gsup, "gsep.out": y.detach(),
            "gsep.weights": w.detach()})
for name, p in gsep.named_parameters():
    out["gsep.grad_" + name.replace(".", "_")] = p.grad

torch.save(out, "fixtures.pt")
print(len(out), "tensors")
