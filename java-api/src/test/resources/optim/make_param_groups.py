"""Writes param_groups.pt for ParamGroupsTest with PyTorch 2.13: SGD and AdamW over two parameter groups
with their own lr and options (a decay group p0, p1 and a no-decay group p2), 20 steps with gradients
grads[step][i] ("grads"): each parameter after every step ("<name>.traj<i>", steps stacked), its start
("<name>.start<i>"), the state_dict after 10 steps ("<name>.state") and the parameters then
("<name>.mid<i>"); and the two groups' rates under schedulers over 30 steps ("lr.<name>", [step][group]).
Regenerate: python3 make_param_groups.py. Check jtensor's own state in PyTorch: run ParamGroupsTest with
-Djt.test.keepPt=DIR, then python3 make_param_groups.py --check DIR (loads jtensor_<name>.pt into PyTorch's
optimizer and resumes it to PyTorch's parameters)."""
import copy
import sys

import torch

torch.manual_seed(11)
STEPS = 20
shapes = [(3, 4), (4,), (5,)]
starts = [torch.randn(s) for s in shapes]
grads = [[torch.randn(s) for s in shapes] for _ in range(STEPS)]
out = {"grads": [g for step in grads for g in step]}  # flattened: step * 3 + i


def sgd(ps):
    return torch.optim.SGD([{"params": ps[:2]},
                            {"params": ps[2:], "lr": 0.05, "momentum": 0.5, "dampening": 0.1, "nesterov": False, "weight_decay": 0.0}],
                           lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01)


def adamw(ps):
    return torch.optim.AdamW([{"params": ps[:2], "weight_decay": 0.1},
                              {"params": ps[2:], "weight_decay": 0.0, "lr": 1e-3, "betas": (0.8, 0.99)}], lr=3e-3)


if len(sys.argv) == 3 and sys.argv[1] == "--check":
    for name, make in (("sgd", sgd), ("adamw", adamw)):
        ps = [torch.nn.Parameter(s.clone()) for s in starts]
        opt = make(ps)
        for step in range(10):  # jtensor's state was saved after 10 steps from the same start
            for p, g in zip(ps, grads[step]):
                p.grad = g.clone()
            opt.step()
        ref = copy.deepcopy(opt.state_dict())
        opt2 = make([torch.nn.Parameter(p.detach().clone()) for p in ps])
        opt2.load_state_dict(torch.load(f"{sys.argv[2]}/jtensor_{name}.pt", weights_only=False))
        assert [{k: v for k, v in g.items()} for g in opt2.state_dict()["param_groups"]] == ref["param_groups"], name
        qs = opt2.param_groups[0]["params"] + opt2.param_groups[1]["params"]
        for step in range(10, STEPS):
            for p, q, g in zip(ps, qs, grads[step]):
                p.grad, q.grad = g.clone(), g.clone()
            opt.step()
            opt2.step()
        for p, q in zip(ps, qs):
            torch.testing.assert_close(q, p, rtol=0, atol=1e-6)
        print(name, "jtensor's state loads in PyTorch and resumes as PyTorch's own")
    sys.exit(0)

for name, make in (("sgd", sgd), ("adamw", adamw)):
    ps = [torch.nn.Parameter(s.clone()) for s in starts]
    opt = make(ps)
    traj = [[] for _ in ps]
    for step in range(STEPS):
        if step == 10:
            out[f"{name}.state"] = copy.deepcopy(opt.state_dict())
            for i, p in enumerate(ps):
                out[f"{name}.mid{i}"] = p.detach().clone()
        for p, g in zip(ps, grads[step]):
            p.grad = g.clone()
        opt.step()
        for i, p in enumerate(ps):
            traj[i].append(p.detach().clone())
    for i in range(len(ps)):
        out[f"{name}.start{i}"] = starts[i]
        out[f"{name}.traj{i}"] = torch.stack(traj[i])

S = torch.optim.lr_scheduler


def rates(make, n=30, metrics=None):
    a, b = torch.nn.Parameter(torch.zeros(1)), torch.nn.Parameter(torch.zeros(1))
    opt = torch.optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.02}], lr=0.5, momentum=0.9)
    sched = make(opt)
    lrs = [[g["lr"] for g in opt.param_groups]]
    for step in range(n):
        opt.step()
        sched.step(metrics[step]) if metrics else sched.step()
        lrs.append([g["lr"] for g in opt.param_groups])
    return torch.tensor(lrs, dtype=torch.float64), sched


out["lr.step"], sched = rates(lambda o: S.StepLR(o, step_size=7, gamma=0.5))
out["lr.step.state"] = sched.state_dict()
out["lr.lambdas"], _ = rates(lambda o: S.LambdaLR(o, [lambda e: 0.95 ** e, lambda e: 1.0 / (e + 1)]))
out["lr.sequential"], _ = rates(lambda o: S.SequentialLR(o, [S.LinearLR(o, 0.1, 1.0, 10), S.CosineAnnealingLR(o, T_max=20, eta_min=0.001)],
                                                         milestones=[10]))
out["lr.onecycle"], _ = rates(lambda o: S.OneCycleLR(o, max_lr=[0.8, 0.08], total_steps=31))
metrics = [1.0 / (1 + min(i, 5)) for i in range(30)]  # improves for 5 steps, then stalls
out["lr.plateau"], sched = rates(lambda o: S.ReduceLROnPlateau(o, patience=2, factor=0.5, min_lr=[0.01, 0.005]), metrics=metrics)
out["lr.plateau.state"] = sched.state_dict()
torch.save(out, "param_groups.pt")
print(len(out), "entries")
