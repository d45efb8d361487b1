"""Writes scheduler_hostile.pt for SchedulerStateHostileTest with PyTorch 2.13: for each case, the
scheduler's state_dict() after N steps ("<case>.state"), N ("<case>.epoch"), and the rate and
momentum (SGD's momentum or Adam's beta1) after each of the next three steps ("<case>.next",
"<case>.mom"). Optimizer: SGD lr 0.5 momentum 0.9, or Adam/AdamW lr 0.5.
Regenerate: python3 make_scheduler_hostile.py."""
import copy
import warnings

import torch

from scheduler_cases import S, case as run_case, plateau as run_plateau

warnings.simplefilter("ignore")
out = {}


def case(name, make, steps, kind="sgd", after=3):
    run_case(out, name, make, steps, kind=kind, after=after, momenta=True)


case("oc_nocm_sgd", lambda o: S.OneCycleLR(o, 1.0, total_steps=10, cycle_momentum=False), 3)
case("oc_nocm_adam", lambda o: S.OneCycleLR(o, 1.0, total_steps=10, cycle_momentum=False), 3, kind="adam")
case("oc_adamw", lambda o: S.OneCycleLR(o, 1.0, total_steps=10, anneal_strategy="linear"), 4, kind="adamw")
case("oc_pct0", lambda o: S.OneCycleLR(o, 1.0, total_steps=10, pct_start=0.0), 7)
case("step_gamma1", lambda o: S.StepLR(o, 2, gamma=1.0), 5)
case("step_neg", lambda o: S.StepLR(o, 2, gamma=-0.5), 5)
case("cos_etamin_gt", lambda o: S.CosineAnnealingLR(o, T_max=4, eta_min=1.0), 3)
case("cos_past", lambda o: S.CosineAnnealingLR(o, T_max=4, eta_min=0.1), 6)
case("linear_t0", lambda o: S.LinearLR(o, 0.5, 1.0, 0), 2)
case("seq_one", lambda o: S.SequentialLR(o, [S.StepLR(o, 2, 0.5)], []), 3)
case("seq_ms0", lambda o: S.SequentialLR(o, [S.LinearLR(o, 0.5, 1.0, 2), S.StepLR(o, 2, 0.5)], [0]), 3)
case("seq_oc", lambda o: S.SequentialLR(o, [S.OneCycleLR(o, 1.0, total_steps=5), S.StepLR(o, 2, 0.5)], [5]), 3)
case("seq_oc_late", lambda o: S.SequentialLR(o, [S.OneCycleLR(o, 1.0, total_steps=5), S.StepLR(o, 2, 0.5)], [5]), 6)

metrics = [1.0, 1.2, 1.3, 0.5, 0.5, 0.4, 2.0, 3.0, 0.1, 0.2, 0.3, 0.3, 0.3]


def plateau(name, steps, **kw):
    run_plateau(out, metrics, name, steps, **kw)


plateau("plateau_fresh", 0, mode="max", factor=0.5, patience=0, threshold=0.1, threshold_mode="abs", cooldown=2, min_lr=0.1)
plateau("plateau_cool", 3, mode="max", factor=0.5, patience=0, threshold=0.1, threshold_mode="abs", cooldown=2, min_lr=0.1)
plateau("plateau_minlr", 9, mode="max", factor=0.5, patience=0, threshold=0.1, threshold_mode="abs", cooldown=2, min_lr=0.1)
plateau("plateau_list", 5, mode="min", factor=0.5, patience=1, min_lr=[0.01], eps=0.1)
out["metrics"] = metrics


def grad(k):
    return torch.tensor([0.1 * k + 0.05, -0.2, 0.3])


def resume(name, make_opt, make_sched, steps=4, after=3):
    """A run of steps+after optimizer and scheduler steps from [1, -2, 3] with gradients grad(k): its optimizer's and
    scheduler's state_dict() after steps ("<name>.opt", "<name>.sched"), the parameter then and at the end."""
    p = torch.nn.Parameter(torch.tensor([1.0, -2.0, 3.0]))
    opt = make_opt([p])
    sched = make_sched(opt)
    for k in range(steps + after):
        if k == steps:
            out[f"{name}.opt"] = copy.deepcopy(opt.state_dict())
            out[f"{name}.sched"] = copy.deepcopy(sched.state_dict())
            out[f"{name}.param_mid"] = p.detach().clone()
        p.grad = grad(k)
        opt.step()
        sched.step()
    out[f"{name}.param_end"] = p.detach().clone()
    out[f"{name}.lr_end"] = opt.param_groups[0]["lr"]


resume("resume_adam_oc", lambda ps: torch.optim.Adam(ps, lr=0.5), lambda o: S.OneCycleLR(o, 1.0, total_steps=10))
resume("resume_sgd_oc", lambda ps: torch.optim.SGD(ps, lr=0.5, momentum=0.9), lambda o: S.OneCycleLR(o, 1.0, total_steps=10))
resume("resume_adamw_seq", lambda ps: torch.optim.AdamW(ps, lr=0.5),
       lambda o: S.SequentialLR(o, [S.LinearLR(o, 0.1, 1.0, 3), S.CosineAnnealingLR(o, 5)], [3]))
torch.save(out, "scheduler_hostile.pt")
print(len(out), "entries")
