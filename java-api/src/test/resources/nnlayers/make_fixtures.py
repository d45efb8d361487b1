"""Writes fixtures.pt for InstanceNormTest and ChannelDropoutTest with PyTorch 2.13.

Instance norm, case "in.<name>": the inputs ("x", "weight", "bias", "running_mean",
"running_var" as given), the output "out", the running statistics after the call ("rm_after",
"rv_after"), and the gradients of (out * up).sum() ("up", "grad_x", "grad_weight", "grad_bias").
"mod.*": an InstanceNorm2d(3, affine=True, track_running_stats=True) with random parameters and
statistics (its state_dict), its eval and train outputs and statistics after the train step.
Dropout, case "drop.<name>": PyTorch's own output "out" for input "x"; the mask it drew,
recovered from that output, "mask" (shaped as the noise: [N, C, 1...] for the channel dropouts);
and the gradient of (out * up).sum().
"softmin", "rms", "rms_noeps", "bilinear", "bilinear_1d", "lp1", "lp2", "lp2_unbatched": F.softmin,
F.rms_norm, F.bilinear, F.lp_pool1d/2d "lrn3d", "lrn4d", "lrn5d" F.local_response_norm and "unpool1d", "unpool2d" F.max_unpool1d/2d
(of max pool's values and indices) on inputs
"<case>.in0", ... with output "out" and gradients "grad0", ... of (out * up).sum(); "bil.*": an
nn.Bilinear(3, 4, 2)'s state_dict with its inputs "in1", "in2" and output "out" (SoftminBilinearTest).
"rrelu.*": F.rrelu's training output for input "x", the slopes it drew ("slopes", read back from
the output and, at x = 0, the gradient) and its gradient; "gumbel.*", "gumbel_hard.*": F.gumbel_softmax
(tau 0.7, dim 1) with its noise read back ("noise", up to a constant per row) (RandomActivationsTest);
"upsample.*": nn.Upsample's outputs for input "x" (SoftminBilinearTest).
Regenerate: python3 make_fixtures.py (in a virtualenv with torch)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(451)
out = {}
f64 = dict(dtype=torch.float64)


def instance(name, x, weight=None, bias=None, rm=None, rv=None, use_input_stats=True, momentum=0.1, eps=1e-5):
    pre = f"in.{name}."
    given = dict(x=x, weight=weight, bias=bias, running_mean=rm, running_var=rv)
    for k, v in given.items():
        if v is not None:
            out[pre + k] = v.clone()
    leaves = {k: v.clone().requires_grad_(True) for k, v in (("x", x), ("weight", weight), ("bias", bias)) if v is not None}
    y = F.instance_norm(leaves["x"], rm, rv, leaves.get("weight"), leaves.get("bias"), use_input_stats, momentum, eps)
    out[pre + "out"] = y.detach()
    if rm is not None:
        out[pre + "rm_after"], out[pre + "rv_after"] = rm.clone(), rv.clone()
    up = torch.randn(y.shape, dtype=y.dtype)
    (y * up).sum().backward()
    out[pre + "up"] = up
    for k, v in leaves.items():
        out[pre + "grad_" + k] = v.grad


instance("plain", torch.randn(2, 3, 5, **f64))
instance("affine2d", torch.randn(2, 3, 4, 4, **f64), torch.randn(3, **f64), torch.randn(3, **f64), eps=1e-3)
instance("running", torch.randn(3, 2, 6, **f64) * 2 + 1, rm=torch.randn(2, **f64), rv=torch.rand(2, **f64) + 0.5, momentum=0.3)
instance("eval", torch.randn(2, 3, 5, **f64), torch.randn(3, **f64), torch.randn(3, **f64), torch.randn(3, **f64),
         torch.rand(3, **f64) + 0.5, use_input_stats=False)
instance("float32_3d", torch.randn(2, 2, 3, 3, 3), torch.randn(2), torch.randn(2), torch.randn(2), torch.rand(2) + 0.5)

m = nn.InstanceNorm2d(3, affine=True, track_running_stats=True)
with torch.no_grad():
    for t in (m.weight, m.bias, m.running_mean):
        t.copy_(torch.randn(3))
    m.running_var.copy_(torch.rand(3) + 0.5)
for k, v in m.state_dict().items():
    out["mod." + k] = v.clone()
x = torch.randn(2, 3, 4, 5)
out["mod.x"] = x
m.eval()
out["mod.eval_out"] = m(x).detach()
out["mod.unbatched_eval_out"] = m(x[1]).detach()
m.train()
out["mod.train_out"] = m(x).detach()
out["mod.rm_after"], out["mod.rv_after"] = m.running_mean.clone(), m.running_var.clone()
out["mod.nbt_after"] = m.num_batches_tracked.clone()

ALPHA_DROPPED = {}


def dropout(name, fn, x, p, feature, alpha):
    pre = f"drop.{name}."
    leaf = x.clone().requires_grad_(True)
    y = fn(leaf, p)
    if alpha:
        a = 1 / ((1.7580993408473766 ** 2 * p + 1) * (1 - p)) ** 0.5
        dropped = 1.7580993408473766 * a * (p - 1)
        kept = (y.detach() != torch.tensor(dropped, dtype=x.dtype))
    else:
        kept = y.detach() != 0
    if feature:  # one draw per [N, C]: every element of a channel agrees
        kept = kept.flatten(2)
        assert bool((kept.all(2) | ~kept.any(2)).all())
        kept = kept[:, :, :1].reshape(x.shape[:2] + (1,) * (x.dim() - 2))
    out[pre + "x"], out[pre + "out"], out[pre + "mask"] = x, y.detach(), kept.to(x.dtype)
    up = torch.randn(y.shape, dtype=y.dtype)
    (y * up).sum().backward()
    out[pre + "up"], out[pre + "grad_x"] = up, leaf.grad


dropout("d1", lambda t, p: F.dropout1d(t, p), torch.randn(4, 6, 5, **f64), 0.3, True, False)
dropout("d2", lambda t, p: F.dropout2d(t, p), torch.randn(3, 5, 2, 3), 0.6, True, False)
dropout("d3", lambda t, p: F.dropout3d(t, p), torch.randn(2, 4, 2, 2, 3, **f64), 0.5, True, False)
dropout("alpha", lambda t, p: F.alpha_dropout(t, p, True), torch.randn(5, 7), 0.2, False, True)
dropout("alpha64", lambda t, p: F.alpha_dropout(t, p, True), torch.randn(5, 7, **f64), 0.35, False, True)
dropout("feature_alpha", lambda t, p: F.feature_alpha_dropout(t, p, True), torch.randn(3, 6, 4, **f64), 0.4, True, True)


def graded(pre, fn, *inputs):
    leaves = [t.clone().requires_grad_(t.is_floating_point()) for t in inputs]
    y = fn(*leaves)
    for k, t in enumerate(inputs):
        out[f"{pre}.in{k}"] = t
    out[pre + ".out"] = y.detach()
    up = torch.randn(y.shape, dtype=y.dtype)
    (y * up).sum().backward()
    out[pre + ".up"] = up
    for k, t in enumerate(leaves):
        if t.grad is not None:
            out[f"{pre}.grad{k}"] = t.grad


graded("softmin", lambda x: F.softmin(x, 0), torch.randn(4, 3, **f64))
graded("rms", lambda x, w: F.rms_norm(x, (3, 4), w, 1e-3), torch.randn(2, 3, 4, **f64), torch.randn(3, 4, **f64))
graded("rms_noeps", lambda x: F.rms_norm(x, (4,)), torch.randn(2, 3, 4))
graded("bilinear", lambda a, b, w, c: F.bilinear(a, b, w, c), torch.randn(2, 5, 3, **f64), torch.randn(2, 5, 4, **f64), torch.randn(6, 3, 4, **f64),
       torch.randn(6, **f64))
graded("bilinear_1d", lambda a, b, w: F.bilinear(a, b, w), torch.randn(3, **f64), torch.randn(4, **f64), torch.randn(2, 3, 4, **f64))
bil = nn.Bilinear(3, 4, 2)
for k, v in bil.state_dict().items():
    out["bil." + k] = v.clone()
a, b = torch.randn(5, 3), torch.randn(5, 4)
out["bil.in1"], out["bil.in2"], out["bil.out"] = a, b, bil(a, b).detach()
x = torch.randn(4, 5, **f64)
x[0, 0] = 0.0  # ATen draws a slope for x = 0 too (x <= 0): the gradient there is that slope
leaf = x.clone().requires_grad_(True)
y = F.rrelu(leaf, 0.1, 0.3, training=True)
slopes = torch.where(x != 0, y.detach() / torch.where(x != 0, x, 1.0), 1.0)
up = torch.randn(4, 5, **f64)
(y * up).sum().backward()
slopes[0, 0] = leaf.grad[0, 0] / up[0, 0]  # x = 0: the slope drawn, read from the gradient
out.update({"rrelu.x": x, "rrelu.slopes": slopes, "rrelu.out": y.detach(), "rrelu.up": up, "rrelu.grad": leaf.grad})
logits = torch.randn(3, 6, **f64)
for hard in (False, True):
    torch.manual_seed(99)
    soft = F.gumbel_softmax(logits, tau=0.7, dim=1)
    torch.manual_seed(99)
    leaf = logits.clone().requires_grad_(True)
    y = F.gumbel_softmax(leaf, tau=0.7, hard=hard, dim=1)
    up = torch.randn(3, 6, **f64)
    (y * up).sum().backward()
    pre = "gumbel_hard." if hard else "gumbel."
    # the noise up to a constant per row, which softmax ignores
    out.update({pre + "logits": logits, pre + "noise": 0.7 * soft.log() - logits, pre + "out": y.detach(), pre + "up": up, pre + "grad": leaf.grad})
graded("lp1", lambda x: F.lp_pool1d(x, 2.0, 3, stride=2), torch.randn(2, 3, 8, **f64))
graded("lp2", lambda x: F.lp_pool2d(x, 1.5, (2, 3), ceil_mode=True), torch.rand(2, 2, 5, 7, **f64) + 0.1)
graded("lp2_unbatched", lambda x: F.lp_pool2d(x, 3.0, 2, stride=(1, 2)), torch.rand(3, 4, 6, **f64) + 0.1)
graded("lrn3d", lambda x: F.local_response_norm(x, 3, alpha=0.5, beta=0.75, k=1.5), torch.randn(2, 5, 4, **f64))
graded("lrn4d", lambda x: F.local_response_norm(x, 4), torch.randn(2, 6, 3, 2, **f64) * 10)
graded("lrn5d", lambda x: F.local_response_norm(x, 2, alpha=1e-2, beta=0.5, k=2.0), torch.randn(1, 4, 2, 3, 2, **f64))
v2, i2 = F.max_pool2d(torch.randn(2, 3, 5, 5, **f64), 2, return_indices=True)
graded("unpool2d", lambda v, i: F.max_unpool2d(v, i, 2, output_size=(5, 5)), v2, i2)
v1, i1 = F.max_pool1d(torch.randn(2, 7, **f64), 3, stride=2, padding=1, return_indices=True)
graded("unpool1d", lambda v, i: F.max_unpool1d(v, i, 3, stride=2, padding=1), v1, i1)
up_in = torch.randn(2, 3, 4, 5)
out["upsample.x"] = up_in
out["upsample.nearest2"] = nn.Upsample(scale_factor=2)(up_in)
out["upsample.bilinear_scale"] = nn.Upsample(scale_factor=(1.5, 2.5), mode="bilinear")(up_in)
out["upsample.bilinear_size_ac"] = nn.Upsample(size=(7, 3), mode="bilinear", align_corners=True)(up_in)
out["upsample.linear"] = nn.Upsample(size=9, mode="linear")(up_in[0])
torch.save(out, "fixtures.pt")
print(len(out), "entries")
