# PyTorch 2.13 references for TransformerHostileTest: run here with PyTorch's python to rewrite fixtures.pt.
import torch
import torch.nn as nn

torch.manual_seed(5)
E, H, L = 8, 2, 4
out = {}


def put(prefix, module):
    for k, v in module.state_dict().items():
        out[prefix + "." + k] = v.detach().clone()


with torch.no_grad():
    # the is_causal hint beside add_bias_kv/add_zero_attn: PyTorch's need_weights path (and its path
    # with a key_padding_mask) ignores the hint and uses the mask, padded with open columns
    cz = nn.MultiheadAttention(E, H, add_bias_kv=True, add_zero_attn=True).eval()
    put("cz", cz)
    q = torch.randn(L, 2, E)
    causal = nn.Transformer.generate_square_subsequent_mask(L)
    kpm = torch.tensor([[False, False, False, True], [False, True, False, False]])
    o, w = cz(q, q, q, attn_mask=causal, is_causal=True)
    out.update({"cz.q": q, "cz.causal": causal, "cz.kpm": kpm, "cz.out_weights_path": o, "cz.weights": w})
    out["cz.out_kpm"] = cz(q, q, q, key_padding_mask=kpm, attn_mask=causal, is_causal=True, need_weights=False)[0]
    out["cz.out_fused"] = cz(q, q, q, attn_mask=causal, is_causal=True, need_weights=False)[0]

    # the hint beside a mask that is not causal: need_weights=False without key_padding_mask drops the
    # mask for the causal one; need_weights=True drops the hint
    nc = nn.MultiheadAttention(E, H).eval()
    nc.in_proj_bias.normal_()
    nc.out_proj.bias.normal_()  # not zeros, so that a fully masked row's output (this bias) shows
    put("nc", nc)
    bias = torch.randn(L, L)
    o, w = nc(q, q, q, attn_mask=bias, is_causal=True)
    out.update({"nc.bias": bias, "nc.out_weights_path": o, "nc.weights": w})
    out["nc.out_fused"] = nc(q, q, q, attn_mask=bias, is_causal=True, need_weights=False)[0]

    # every key of batch 0 masked: the weights path gives NaN there, the fused path zeros (output = out_proj.bias)
    every = torch.tensor([[True] * L, [False, True, False, False]])
    o, w = nc(q, q, q, key_padding_mask=every)
    out.update({"nc.every": every, "nc.every_out_weights_path": o, "nc.every_weights": w})
    out["nc.every_out_fused"] = nc(q, q, q, key_padding_mask=every, need_weights=False)[0]

# gradients of every parameter and of query, key and value through add_zero_attn and bias_k/bias_v,
# per-head weights, a 3-D per-head mask and a key padding mask (train mode, no dropout)
gz = nn.MultiheadAttention(E, H, add_bias_kv=True, add_zero_attn=True, batch_first=True)
put("gz", gz)
gq, gk, gv = (torch.randn(2, L, E, requires_grad=True) for _ in range(3))
mask3 = torch.randn(2 * H, L, L)
y, w = gz(gq, gk, gv, key_padding_mask=kpm, attn_mask=mask3, average_attn_weights=False)
up = torch.randn_like(y)
(y * up).sum().add((w * w).sum()).backward()
out.update({"gz.q": gq.detach(), "gz.k": gk.detach(), "gz.v": gv.detach(), "gz.mask3": mask3, "gz.kpm": kpm, "gz.up": up,
            "gz.out": y.detach(), "gz.weights": w.detach(), "gz.grad_q": gq.grad, "gz.grad_k": gk.grad, "gz.grad_v": gv.grad})
for name, p in gz.named_parameters():
    out["gz.grad_" + name] = p.grad

# a Transformer without biases, norm_first: its state-dict names, order and shapes
tb = nn.Transformer(E, H, 2, 1, 16, 0.0, norm_first=True, bias=False)
put("tb", tb)
out.update({"tborder." + k: torch.tensor(i) for i, k in enumerate(tb.state_dict())})
out["tborder"] = torch.tensor(len(tb.state_dict()))

torch.save(out, "fixtures.pt")
print(len(out), "tensors")
