"""Writes fixtures.pt for EverydayOpsTest with PyTorch 2.13: issue 21's losses (l1, smooth L1,
Huber, KL divergence; cross entropy with class weights, ignore_index and label smoothing, and with
probability targets) and cosine_similarity, roll, where(c, scalar, x), masked_fill with a tensor
value and argmax(dim): for case i, float64 inputs "i.a" (and "i.b"), the output "i.out" and, where
differentiable, the gradient of (out * up).sum() in "i.grad_a"/"i.grad_b" ("i.up"). "cases" names
each case; EverydayOpsTest maps the names to jtensor's calls.
Regenerate: python3 make_fixtures.py (in a virtualenv with torch)."""
import torch
import torch.nn.functional as F

torch.manual_seed(121)
out, cases = {}, []
f64 = dict(dtype=torch.float64)


def add(name, fn, a, b=None, grad=True, extra=None):
    i = len(cases)
    a = a.clone().requires_grad_(grad)
    bb = None if b is None else b.clone().requires_grad_(grad and b.is_floating_point() and name not in NO_GRAD_B)
    y = fn(a, bb) if b is not None else fn(a)
    out[f"{i}.a"] = a.detach()
    if b is not None:
        out[f"{i}.b"] = bb.detach()
    out[f"{i}.out"] = y.detach()
    if grad:
        up = torch.randn(y.shape, **f64)
        (y * up).sum().backward()
        out[f"{i}.up"] = up
        out[f"{i}.grad_a"] = a.grad
        if bb is not None and bb.grad is not None:
            out[f"{i}.grad_b"] = bb.grad
    for k, v in (extra or {}).items():
        out[f"{i}.{k}"] = v
    cases.append(name)


NO_GRAD_B = {"ce_weight", "ce_weight_smooth", "ce_weight_none", "kl_batchmean", "kl_sum", "kl_none"}  # index targets; log 0 at a zero target
x, y = torch.randn(4, 5, **f64), torch.randn(4, 5, **f64)
for red in ["mean", "sum", "none"]:
    add(f"l1_{red}", lambda a, b, r=red: F.l1_loss(a, b, reduction=r), x, y)
add("smooth_l1_beta0.5", lambda a, b: F.smooth_l1_loss(a, b, beta=0.5), x, y)
add("smooth_l1_beta1", lambda a, b: F.smooth_l1_loss(a, b, reduction="sum"), x, y)
add("huber_delta0.7", lambda a, b: F.huber_loss(a, b, delta=0.7), x, y)
logp = torch.log_softmax(torch.randn(3, 4, **f64), 1)
q = torch.softmax(torch.randn(3, 4, **f64), 1)
q[0, 1] = 0.0  # a zero target: 0 by definition
add("kl_batchmean", lambda a, b: F.kl_div(a, b, reduction="batchmean"), logp, q)
add("kl_sum", lambda a, b: F.kl_div(a, b, reduction="sum"), logp, q)
add("kl_none", lambda a, b: F.kl_div(a, b, reduction="none"), logp, q)
add("kl_log_target", lambda a, b: F.kl_div(a, b, reduction="batchmean", log_target=True), logp, torch.log_softmax(torch.randn(3, 4, **f64), 1))
logits, target = torch.randn(6, 4, **f64), torch.tensor([0, 3, 1, -100, 2, 3])
w = torch.tensor([0.5, 1.0, 2.0, 1.5], **f64)
add("ce_weight", lambda a, b: F.cross_entropy(a, b, weight=w), logits, target, extra={"weight": w})
add("ce_weight_smooth", lambda a, b: F.cross_entropy(a, b, weight=w, label_smoothing=0.2), logits, target, extra={"weight": w})
add("ce_weight_none", lambda a, b: F.cross_entropy(a, b, weight=w, reduction="none"), logits, target, extra={"weight": w})
probs = torch.softmax(torch.randn(6, 4, **f64), 1)
add("ce_probs", lambda a, b: F.cross_entropy(a, b), logits, probs)
add("ce_probs_weight_smooth", lambda a, b: F.cross_entropy(a, b, weight=w, label_smoothing=0.1), logits, probs, extra={"weight": w})
u, v = torch.randn(3, 5, **f64), torch.randn(3, 5, **f64)
u[1] = 0.0  # a zero row: the norm clamps at eps
add("cosine_dim1", lambda a, b: F.cosine_similarity(a, b, dim=1), u, v)
add("cosine_dim0", lambda a, b: F.cosine_similarity(a, b, dim=0, eps=1e-3), u, v)
r = torch.randn(3, 4, **f64)
add("roll_2d", lambda a: torch.roll(a, shifts=(1, -3), dims=(0, 1)), r)
add("roll_flat", lambda a: torch.roll(a, 5), r)
c = torch.randn(3, 4, **f64) > 0
add("where_scalar_first", lambda a: torch.where(c, 1.5, a), r, extra={"cond": c})
val = torch.tensor(2.5, **f64)
add("masked_fill_tensor", lambda a, b: a.masked_fill(c, b), r, val, extra={"cond": c})
add("argmax_dim1", lambda a: torch.argmax(a, 1), r, grad=False)
out["cases"] = cases
torch.save(out, "fixtures.pt")
print(len(cases), "cases")
