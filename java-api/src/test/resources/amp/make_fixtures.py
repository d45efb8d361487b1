"""Writes fixtures.pt for GradScalerTest with PyTorch 2.13: a Linear(3, 2) trained by SGD (lr 0.1,
momentum 0.9) through torch.amp.GradScaler("cpu", init_scale=1024, growth_factor=2, backoff_factor=0.5,
growth_interval=3) for 8 steps, steps 2 and 5 with an infinite input (their gradients not finite,
so skipped and the scale halved). Saved: the initial weight and bias ("w0", "b0"), the inputs
("x", [8, 4, 3]) and targets ("y", [8, 4, 2]), the scale before each step ("scales", float64 [8]),
the parameters after each step ("w", [8, 2, 3]; "b", [8, 2]), the gradient unscale_ leaves at step
0 ("grad0"), and the scaler's state_dict at the end ("state"). Regenerate: python3 make_fixtures.py."""
import torch

torch.manual_seed(11)
lin = torch.nn.Linear(3, 2)
out = {"w0": lin.weight.detach().clone(), "b0": lin.bias.detach().clone()}
x, y = torch.randn(8, 4, 3), torch.randn(8, 4, 2)
x[2, 1, 0] = float("inf")
x[5, 3, 2] = float("inf")
out["x"], out["y"] = x.clone(), y
opt = torch.optim.SGD(lin.parameters(), lr=0.1, momentum=0.9)
scaler = torch.amp.GradScaler("cpu", init_scale=1024.0, growth_factor=2.0, backoff_factor=0.5, growth_interval=3)
scales, ws, bs = [], [], []
for i in range(8):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(lin(x[i]), y[i])
    scales.append(scaler.get_scale())
    scaler.scale(loss).backward()
    scaler.unscale_(opt)
    if i == 0:
        out["grad0"] = lin.weight.grad.detach().clone()
    scaler.step(opt)
    scaler.update()
    ws.append(lin.weight.detach().clone())
    bs.append(lin.bias.detach().clone())
out["scales"] = torch.tensor(scales, dtype=torch.float64)
out["w"], out["b"] = torch.stack(ws), torch.stack(bs)
out["state"] = scaler.state_dict()
print({k: v for k, v in out["state"].items()}, scales)
torch.save(out, "fixtures.pt")
