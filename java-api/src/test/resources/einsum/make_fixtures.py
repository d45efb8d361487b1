"""Writes fixtures.pt for EinsumTest with PyTorch 2.13: for each equation below, float64 operands
("<i>.in<k>") and torch.einsum's result ("<i>.out"); "equations" lists them in order.
Regenerate: python3 make_fixtures.py."""
import torch

torch.manual_seed(11)
cases = [
    ("ij,jk->ik", [(3, 4), (4, 5)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("bhqd,bhkd->bhqk", [(2, 3, 4, 5), (2, 3, 6, 5)]),
    ("ii->i", [(4, 4)]),
    ("ii", [(4, 4)]),
    ("ij->", [(3, 4)]),
    ("ij->ji", [(3, 4)]),
    ("i,j->ij", [(3,), (4,)]),
    ("i,i->", [(5,), (5,)]),
    ("...ij,...jk", [(2, 3, 4), (2, 4, 5)]),
    ("...ij,jk->...ik", [(2, 1, 3, 4), (4, 5)]),
    ("bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)]),
    ("ijk,ikl->jl", [(2, 3, 4), (2, 4, 5)]),
    ("iij->ji", [(3, 3, 2)]),
    ("ab,ab,ab->a", [(3, 4), (3, 4), (3, 4)]),
    ("ij,kj", [(3, 4), (5, 4)]),
]
out = {"equations": [eq for eq, _ in cases]}
for i, (eq, shapes) in enumerate(cases):
    ops = [torch.randn(*s, dtype=torch.float64) for s in shapes]
    for k, t in enumerate(ops):
        out[f"{i}.in{k}"] = t
    out[f"{i}.out"] = torch.einsum(eq, *ops)
torch.save(out, "fixtures.pt")
print(len(cases), "equations")
