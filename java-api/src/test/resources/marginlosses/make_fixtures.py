"""Writes fixtures.pt for MarginLossesTest with PyTorch 2.13: the margin, embedding and likelihood
losses (margin_ranking, hinge_embedding, soft_margin, multilabel_soft_margin, cosine_embedding,
pairwise_distance, triplet_margin, poisson_nll, gaussian_nll, multi_margin, multilabel_margin) in each reduction and with their
options. For case i: inputs "i.in0", "i.in1", ... (float64, a ±1 or 0/1 target, or int64 classes), the output "i.out",
and for each input that takes a gradient "i.grad0", ... of (out * "i.up").sum(). "cases" names
each case; MarginLossesTest maps the names to jtensor's calls.
Regenerate: python3 make_fixtures.py (in a virtualenv with torch)."""
import torch
import torch.nn.functional as F

torch.manual_seed(452)
out, cases = {}, []
f64 = dict(dtype=torch.float64)


def add(name, fn, *inputs, grads=None):
    i = len(cases)
    grads = grads if grads is not None else [True] * len(inputs)
    leaves = [t.clone().requires_grad_(g) for t, g in zip(inputs, grads)]
    y = fn(*leaves)
    for k, t in enumerate(inputs):
        out[f"{i}.in{k}"] = t
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


x1, x2 = torch.randn(6, **f64), torch.randn(6, **f64)
for red in ["mean", "sum", "none"]:
    add(f"margin_ranking_{red}", lambda a, b, y, r=red: F.margin_ranking_loss(a, b, y, margin=0.3, reduction=r), x1, x2, sign(6), grads=[True, True, False])
add("margin_ranking_broadcast", lambda a, b, y: F.margin_ranking_loss(a, b, y, reduction="none"), torch.randn(3, 4, **f64), torch.randn(1, 4, **f64), sign(3, 1),
    grads=[True, True, False])
h = torch.randn(4, 5, **f64) * 2
y3 = sign(4, 5)
y3[0, 0] = 0.0  # neither 1 nor −1: both terms, as ATen's
add("hinge_mean", lambda a, y: F.hinge_embedding_loss(a, y, margin=1.5), h, y3, grads=[True, False])
add("hinge_none", lambda a, y: F.hinge_embedding_loss(a, y, reduction="none"), h, y3, grads=[True, False])
add("soft_margin_mean", lambda a, y: F.soft_margin_loss(a, y), h, sign(4, 5), grads=[True, False])
add("soft_margin_broadcast_none", lambda a, y: F.soft_margin_loss(a, y, reduction="none"), h, sign(5), grads=[True, False])
t = torch.randint(0, 2, (4, 5)).to(torch.float64)
add("multilabel_soft_margin", lambda a, y: F.multilabel_soft_margin_loss(a, y), h, t, grads=[True, False])
add("multilabel_soft_margin_weight_none", lambda a, y, w: F.multilabel_soft_margin_loss(a, y, weight=w, reduction="none"), h, t,
    torch.rand(5, **f64), grads=[True, False, True])
add("multilabel_soft_margin_1d_sum", lambda a, y: F.multilabel_soft_margin_loss(a, y, reduction="sum"), h[0], t[0], grads=[True, False])
u, v = torch.randn(5, 3, **f64), torch.randn(5, 3, **f64)
yc = sign(5)
yc[2] = 0.0  # neither: 0
add("cosine_embedding_mean", lambda a, b, y: F.cosine_embedding_loss(a, b, y, margin=-0.2), u, v, yc, grads=[True, True, False])
add("cosine_embedding_none", lambda a, b, y: F.cosine_embedding_loss(a, b, y, reduction="none"), u, v, yc, grads=[True, True, False])
add("cosine_embedding_1d", lambda a, b, y: F.cosine_embedding_loss(a, b, y, margin=0.1), u[0], v[0], torch.tensor(-1.0, **f64), grads=[True, True, False])
add("pairwise_distance_p3_keepdim", lambda a, b: F.pairwise_distance(a, b, p=3.0, eps=1e-4, keepdim=True), u, v)
add("pairwise_distance_broadcast", lambda a, b: F.pairwise_distance(a, b), u, v[0])
an, po, ne = torch.randn(6, 4, **f64), torch.randn(6, 4, **f64), torch.randn(6, 4, **f64)
add("triplet_mean", lambda a, p, n: F.triplet_margin_loss(a, p, n), an, po, ne)
add("triplet_p1_swap_none", lambda a, p, n: F.triplet_margin_loss(a, p, n, margin=2.0, p=1, eps=1e-3, swap=True, reduction="none"), an, po, ne)
add("triplet_swap_sum", lambda a, p, n: F.triplet_margin_loss(a, p, n, margin=1.5, swap=True, reduction="sum"), an, ne, po)
rate, counts = torch.randn(3, 4, **f64), torch.randint(0, 6, (3, 4)).to(torch.float64)
add("poisson_log_mean", lambda a, y: F.poisson_nll_loss(a, y), rate, counts, grads=[True, False])
add("poisson_full_none", lambda a, y: F.poisson_nll_loss(a, y, full=True, reduction="none"), rate, counts, grads=[True, False])
add("poisson_rate_full_sum", lambda a, y: F.poisson_nll_loss(a, y, log_input=False, full=True, eps=1e-6, reduction="sum"), rate.exp(), counts,
    grads=[True, False])
mu, obs = torch.randn(4, 3, **f64), torch.randn(4, 3, **f64)
var = torch.rand(4, 3, **f64) + 0.1
var[0, 0] = 1e-9  # below eps: clamped, its gradient passed as if not
add("gaussian_mean", lambda a, y, s: F.gaussian_nll_loss(a, y, s), mu, obs, var)
add("gaussian_full_none", lambda a, y, s: F.gaussian_nll_loss(a, y, s, full=True, eps=1e-4, reduction="none"), mu, obs, var)
add("gaussian_short_var_sum", lambda a, y, s: F.gaussian_nll_loss(a, y, s, reduction="sum"), mu, obs, var[:, 0] + 0.5)
add("gaussian_size1_var", lambda a, y, s: F.gaussian_nll_loss(a, y, s), mu, obs, var[:1] + 0.5)
scores, cls = torch.randn(5, 4, **f64), torch.tensor([0, 3, 1, 1, 2])
add("multi_margin_mean", lambda a, y: F.multi_margin_loss(a, y), scores, cls, grads=[True, False])
add("multi_margin_p2_weight_none", lambda a, y, w: F.multi_margin_loss(a, y, p=2, margin=0.7, weight=w, reduction="none"), scores, cls,
    torch.rand(4, **f64) + 0.5, grads=[True, False, False])
add("multi_margin_1d_sum", lambda a, y: F.multi_margin_loss(a, y, margin=2.0, reduction="sum"), scores[0], torch.tensor(2), grads=[True, False])
labels = torch.tensor([[3, 0, -1, 1], [0, 1, 2, 3], [1, 1, -1, -1], [-1, 2, 0, 0], [2, -1, 3, 0]])  # after the first −1: ignored
add("multilabel_margin_none", lambda a, y: F.multilabel_margin_loss(a, y, reduction="none"), scores, labels, grads=[True, False])
add("multilabel_margin_mean", lambda a, y: F.multilabel_margin_loss(a, y), scores, labels, grads=[True, False])
add("multilabel_margin_1d", lambda a, y: F.multilabel_margin_loss(a, y, reduction="none"), scores[4], labels[0], grads=[True, False])
out["cases"] = cases
torch.save(out, "fixtures.pt")
print(len(cases), "cases")
