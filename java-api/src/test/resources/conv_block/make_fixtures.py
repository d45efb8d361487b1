"""Writes fixtures.pt for ConvBlockTest with PyTorch 2.13: conv2d (padding 1) -> max_pool2d(2) ->
batch_norm (training, running statistics) -> layer_norm over the last two dims, at batch 4, in
float32, with the gradients of (out * up).sum() for the input, the convolution's weight and bias,
and the running statistics after the step. Keys: x, weight, bias, up, out, x.grad, weight.grad,
bias.grad, running_mean, running_var. Issue 22 point 5: the comparison at batch > 1 that the
libtorch 2.10 presets' oneDNN could not give. Regenerate: python3 make_fixtures.py (a virtualenv
with torch)."""
import torch
import torch.nn.functional as F

torch.manual_seed(5)
x = torch.randn(4, 2, 6, 6, requires_grad=True)
weight = (torch.randn(3, 2, 3, 3) * 0.4).requires_grad_()
bias = torch.randn(3).requires_grad_()
rm, rv = torch.zeros(3), torch.ones(3)
y = F.max_pool2d(F.conv2d(x, weight, bias, padding=1), 2)
y = F.batch_norm(y, rm, rv, torch.ones(3), torch.zeros(3), training=True, momentum=0.1, eps=1e-5)
y = F.layer_norm(y, (3, 3), torch.ones(3, 3), torch.zeros(3, 3), 1e-5)
up = torch.randn(y.shape)
(y * up).sum().backward()
torch.save({"x": x.detach(), "weight": weight.detach(), "bias": bias.detach(), "up": up, "out": y.detach(),
            "x.grad": x.grad, "weight.grad": weight.grad, "bias.grad": bias.grad, "running_mean": rm, "running_var": rv},
           "fixtures.pt")
