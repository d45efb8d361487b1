"""Writes fixtures.pt, ce_state.pt and ce_io.pt for LossModulesTest with PyTorch 2.13.

fixtures.pt: each torch.nn loss module built with non-default arguments (case names in "cases";
LossModulesTest builds the same modules in jtensor). For case i: the inputs "i.in0", "i.in1", ...
(float64, or int64 class indices), the module's state_dict under "i.sd." (its weight buffers),
the output "i.out", and for each input that takes a gradient "i.grad0", ... of (out * "i.up").sum().
ce_state.pt: an nn.CrossEntropyLoss(weight=..., label_smoothing=0.05)'s state_dict as torch.save
writes it; ce_io.pt: that module's float32 input "x", target "t" and output "out".
Regenerate: python3 make_fixtures.py (in a virtualenv with torch)."""
import torch
import torch.nn as nn

torch.manual_seed(4651)
out, cases = {}, []
f64 = dict(dtype=torch.float64)


def add(name, module, *inputs, grads=None):
    i = len(cases)
    grads = grads if grads is not None else [True] * len(inputs)
    leaves = [t.clone().requires_grad_(g) for t, g in zip(inputs, grads)]
    y = module(*leaves)
    for k, t in enumerate(inputs):
        out[f"{i}.in{k}"] = t
    for k, v in module.state_dict().items():
        out[f"{i}.sd.{k}"] = v.clone()
    out[f"{i}.out"] = y.detach()
    up = torch.randn(y.shape, **f64)
    (y * up).sum().backward()
    out[f"{i}.up"] = up
    for k, t in enumerate(leaves):
        if grads[k]:
            out[f"{i}.grad{k}"] = t.grad
    cases.append(name)


def sign(*shape):
    return torch.randint(0, 2, shape).to(torch.float64) * 2 - 1


x, y = torch.randn(4, 5, **f64), torch.randn(4, 5, **f64)
add("l1_sum", nn.L1Loss(reduction="sum"), x, y)
add("mse_none", nn.MSELoss(reduction="none"), x, y)
add("huber_delta", nn.HuberLoss(reduction="sum", delta=0.7), x * 2, y)
add("smooth_l1_beta", nn.SmoothL1Loss(reduction="none", beta=0.5), x * 2, y)

logits = torch.randn(6, 4, **f64)
classes = torch.tensor([0, 3, 1, 2, 3, 1])
w = torch.rand(4, **f64) + 0.5
add("ce_all", nn.CrossEntropyLoss(weight=w, ignore_index=3, reduction="mean", label_smoothing=0.1), logits, classes, grads=[True, False])
add("ce_none_spatial", nn.CrossEntropyLoss(ignore_index=0, reduction="none"), torch.randn(2, 4, 3, **f64),
    torch.randint(0, 4, (2, 3)), grads=[True, False])
add("ce_probs", nn.CrossEntropyLoss(weight=w, label_smoothing=0.2), logits, torch.softmax(torch.randn(6, 4, **f64), 1), grads=[True, True])
logp = torch.log_softmax(logits, 1)
add("nll_weight_ignore", nn.NLLLoss(weight=w, ignore_index=1, reduction="mean"), logp, classes, grads=[True, False])
add("nll_weight_none", nn.NLLLoss(weight=w, reduction="none"), logp, classes, grads=[True, False])
add("nll_sum", nn.NLLLoss(reduction="sum"), logp, classes, grads=[True, False])

p, t = torch.rand(4, 5, **f64) * 0.9 + 0.05, torch.rand(4, 5, **f64)
add("bce_weight", nn.BCELoss(weight=torch.rand(5, **f64), reduction="sum"), p, t)
add("bce_weight_rows_none", nn.BCELoss(weight=torch.rand(4, 1, **f64), reduction="none"), p, t)
z = torch.randn(4, 5, **f64) * 2
z[0, 0] = 0.0  # σ(0) − t, not 1 − t
add("bce_logits_pos_weight", nn.BCEWithLogitsLoss(pos_weight=torch.rand(5, **f64) * 3), z, t)
add("bce_logits_both_none", nn.BCEWithLogitsLoss(weight=torch.rand(4, 1, **f64), reduction="none", pos_weight=torch.rand(5, **f64) * 3), z, t)
add("bce_logits_weight_sum", nn.BCEWithLogitsLoss(weight=torch.rand(5, **f64), reduction="sum"), z, t)

q = torch.log_softmax(torch.randn(3, 5, **f64), 1)
r = torch.softmax(torch.randn(3, 5, **f64), 1)
add("kl_batchmean", nn.KLDivLoss(reduction="batchmean"), q, r)
add("kl_log_target_sum", nn.KLDivLoss(reduction="sum", log_target=True), q, r.log())
add("kl_mean_none", nn.KLDivLoss(reduction="none"), q, r)

rate, counts = torch.randn(4, 3, **f64), torch.randint(0, 5, (4, 3)).to(torch.float64)
add("poisson_rate_full", nn.PoissonNLLLoss(log_input=False, full=True, eps=1e-4, reduction="sum"), rate.exp(), counts, grads=[True, False])
add("poisson_none", nn.PoissonNLLLoss(reduction="none"), rate, counts, grads=[True, False])
mu, obs = torch.randn(4, 3, **f64), torch.randn(4, 3, **f64)
add("gaussian_full", nn.GaussianNLLLoss(full=True, eps=1e-3, reduction="sum"), mu, obs, torch.rand(4, 3, **f64) + 0.1, grads=[True, False, True])
add("gaussian_short_var_none", nn.GaussianNLLLoss(reduction="none"), mu, obs, torch.rand(4, **f64) + 0.1, grads=[True, False, True])

s1, s2 = torch.randn(6, **f64), torch.randn(6, **f64)
add("margin_ranking", nn.MarginRankingLoss(margin=0.4, reduction="sum"), s1, s2, sign(6), grads=[True, True, False])
add("hinge", nn.HingeEmbeddingLoss(margin=0.8, reduction="none"), x, sign(4, 5), grads=[True, False])
add("soft_margin", nn.SoftMarginLoss(reduction="sum"), x, sign(4, 5), grads=[True, False])
add("multilabel_soft_margin", nn.MultiLabelSoftMarginLoss(weight=torch.rand(5, **f64), reduction="none"), x,
    torch.randint(0, 2, (4, 5)).to(torch.float64), grads=[True, False])
u, v = torch.randn(5, 3, **f64), torch.randn(5, 3, **f64)
add("cosine", nn.CosineEmbeddingLoss(margin=0.2, reduction="sum"), u, v, sign(5), grads=[True, True, False])
add("triplet", nn.TripletMarginLoss(margin=0.5, p=1.0, eps=1e-4, swap=True, reduction="none"), u, v, torch.randn(5, 3, **f64))
add("multi_margin", nn.MultiMarginLoss(p=2, margin=0.6, weight=torch.rand(4, **f64), reduction="sum"), logits, classes, grads=[True, False])
ml = torch.tensor([[3, 0, -1, 1], [1, 2, 3, -1], [0, -1, 2, 2], [2, 1, 0, 3], [-1, 0, 0, 0], [1, 1, -1, 2]])
add("multilabel_margin", nn.MultiLabelMarginLoss(reduction="none"), logits, ml, grads=[True, False])

out["cases"] = cases
torch.save(out, "fixtures.pt")

ce = nn.CrossEntropyLoss(weight=torch.tensor([0.5, 2.0, 1.0, 1.5]), label_smoothing=0.05)
torch.save(ce.state_dict(), "ce_state.pt")
cx, ct = torch.randn(3, 4), torch.tensor([1, 0, 3])
torch.save({"x": cx, "t": ct, "out": ce(cx, ct)}, "ce_io.pt")
