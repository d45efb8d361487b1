"""Writes fixtures.pt for OptimizerStateTest with PyTorch 2.13: AdamW and SGD (momentum) after three
steps over two parameters with fixed gradients ("<name>.state", PyTorch's state_dict), the
parameters then ("<name>.p0", "<name>.p1") and after two more steps ("<name>.after0", ...); and
the learning rates of LambdaLR, LinearLR, StepLR, CosineAnnealingLR and SequentialLR (LinearLR
warm-up, then cosine) over 30 steps ("lr.<name>"), and OneCycleLR's rates and momenta over 29. Regenerate: python3 make_fixtures.py."""
import copy

import torch

torch.manual_seed(7)
out = {}
g0, g1 = torch.randn(3, 4), torch.randn(4)
for name, make in (("adamw", lambda ps: torch.optim.AdamW(ps, lr=0.01, betas=(0.8, 0.95), weight_decay=0.1)),
                   ("sgd", lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9, nesterov=True))):
    p0, p1 = torch.nn.Parameter(torch.randn(3, 4)), torch.nn.Parameter(torch.randn(4))
    opt = make([p0, p1])
    for i in range(5):
        if i == 3:
            out[f"{name}.state"] = copy.deepcopy(opt.state_dict())  # state_dict() holds references the next steps change
            out[f"{name}.p0"], out[f"{name}.p1"] = p0.detach().clone(), p1.detach().clone()
        p0.grad, p1.grad = g0 * (i + 1), g1 * (i + 1)
        opt.step()
    out[f"{name}.after0"], out[f"{name}.after1"] = p0.detach().clone(), p1.detach().clone()
out["g0"], out["g1"] = g0, g1


def rates(make, n=30):
    p = torch.nn.Parameter(torch.zeros(1))
    opt = torch.optim.SGD([p], lr=0.5)
    sched = make(opt)
    lrs = [opt.param_groups[0]["lr"]]
    for _ in range(n):
        opt.step()
        sched.step()
        lrs.append(opt.param_groups[0]["lr"])
    return torch.tensor(lrs, dtype=torch.float64)


S = torch.optim.lr_scheduler
out["lr.lambda"] = rates(lambda o: S.LambdaLR(o, lambda e: 0.95 ** e))
out["lr.linear"] = rates(lambda o: S.LinearLR(o, start_factor=0.1, end_factor=1.0, total_iters=10))
out["lr.step"] = rates(lambda o: S.StepLR(o, step_size=7, gamma=0.5))
out["lr.cosine"] = rates(lambda o: S.CosineAnnealingLR(o, T_max=30, eta_min=0.01))
out["lr.sequential"] = rates(lambda o: S.SequentialLR(o, [S.LinearLR(o, 0.1, 1.0, 10), S.CosineAnnealingLR(o, T_max=20, eta_min=0.0)],
                                                      milestones=[10]))
def onecycle(n=29):
    p = torch.nn.Parameter(torch.zeros(1))
    opt = torch.optim.SGD([p], lr=0.5, momentum=0.9)
    sched = S.OneCycleLR(opt, max_lr=0.8, total_steps=30)
    lrs, moms = [opt.param_groups[0]["lr"]], [opt.param_groups[0]["momentum"]]
    for _ in range(n):
        opt.step()
        sched.step()
        lrs.append(opt.param_groups[0]["lr"])
        moms.append(opt.param_groups[0]["momentum"])
    return torch.tensor(lrs, dtype=torch.float64), torch.tensor(moms, dtype=torch.float64)


out["lr.onecycle"], out["momentum.onecycle"] = onecycle()
torch.save(out, "fixtures.pt")
print(len(out), "entries")
