"""Writes fixtures.pt for EmbeddingBagTest with PyTorch 2.13: F.embedding_bag in modes sum, mean
and max over 2-D inputs and 1-D inputs with offsets (an empty bag, a bag of padding only, int32
offsets, include_last_offset), with padding_idx (negative too), per_sample_weights and max_norm.
"cases" lists [name, mode, include_last_offset, padding_idx, max_norm]; each case has
"<name>.weight" (float64, before), ".input", ".offsets" (absent for 2-D input), ".psw" (when
given), ".out", ".up" (the upstream gradient of (out * up).sum()), ".grad_weight", ".grad_psw",
and for max_norm ".renormed" (the weight after the call). The max cases hold rows that tie in a
column: PyTorch's gradient goes to the first of the bag. "module.weight" is nn.EmbeddingBag(7, 3,
mode="max", padding_idx=1)'s state dict (float32) with "module.input", ".offsets" and ".out".
Regenerate: python3 make_fixtures.py (in a virtualenv with torch)."""
import torch
import torch.nn.functional as F

torch.manual_seed(44)
out, cases = {}, []


def add(name, weight, inp, offsets=None, mode="mean", psw=None, include_last_offset=False, padding_idx=None, max_norm=None):
    w = weight.clone().requires_grad_()
    p = None if psw is None else psw.clone().requires_grad_()
    before = weight.clone()
    if max_norm is None:
        y = F.embedding_bag(inp, w, offsets, mode=mode, per_sample_weights=p, include_last_offset=include_last_offset,
                            padding_idx=padding_idx)
    else:
        y = F.embedding_bag(inp, w, offsets, max_norm=max_norm, mode=mode, per_sample_weights=p,
                            include_last_offset=include_last_offset, padding_idx=padding_idx)
    up = torch.randn(y.shape, dtype=y.dtype)
    (y * up).sum().backward()
    out[f"{name}.weight"], out[f"{name}.input"], out[f"{name}.out"], out[f"{name}.up"] = before, inp, y.detach(), up
    out[f"{name}.grad_weight"] = w.grad
    if offsets is not None:
        out[f"{name}.offsets"] = offsets
    if psw is not None:
        out[f"{name}.psw"], out[f"{name}.grad_psw"] = psw, p.grad
    if max_norm is not None:
        out[f"{name}.renormed"] = w.detach()
    cases.append([name, mode, include_last_offset, padding_idx, max_norm])


weight = torch.randn(10, 4, dtype=torch.float64)
weight[7] = weight[3]  # rows 3 and 7 tie in every column
weight[8, 0] = weight[5, 0]  # and rows 5 and 8 in column 0
flat = torch.tensor([1, 3, 7, 2, 9, 5, 8, 2, 2, 0, 4, 6])
offsets = torch.tensor([0, 3, 3, 7, 9])  # bag 1 empty, bag 3 = [2, 2]: padding only when padding_idx is 2
for mode in ["sum", "mean", "max"]:
    add(f"{mode}_2d", weight, flat.view(3, 4), mode=mode)
    add(f"{mode}_offsets", weight, flat, offsets, mode=mode)
    add(f"{mode}_padding", weight, flat, offsets, mode=mode, padding_idx=2)
    add(f"{mode}_padding_negative", weight, flat, offsets, mode=mode, padding_idx=-8)
    add(f"{mode}_last_offset", weight, flat, torch.tensor([0, 3, 3, 7, 9, 12], dtype=torch.int32), mode=mode,
        include_last_offset=True)
    add(f"{mode}_max_norm", weight, flat, offsets, mode=mode, max_norm=1.2)
    add(f"{mode}_max_norm_2d", weight, flat.view(2, 6).to(torch.int32), mode=mode, max_norm=0.9)
psw = torch.randn(12, dtype=torch.float64)
add("sum_psw", weight, flat, offsets, mode="sum", psw=psw)
add("sum_psw_padding", weight, flat, offsets, mode="sum", psw=psw, padding_idx=2)
add("sum_psw_2d", weight, flat.view(4, 3), mode="sum", psw=psw.view(4, 3))

module = torch.nn.EmbeddingBag(7, 3, mode="max", padding_idx=1)
for k, v in module.state_dict().items():
    out[f"module.{k}"] = v
out["module.input"] = torch.tensor([0, 1, 6, 1, 2, 5, 3])
out["module.offsets"] = torch.tensor([0, 2, 2, 4])
out["module.out"] = module(out["module.input"], out["module.offsets"]).detach()
out["cases"] = cases
torch.save(out, "fixtures.pt")
print(len(cases), "cases")
