"""PyTorch 2.13's lines for TensorTour: python tour.py > tour.expected (FirstDayTest compares the Java program's output with it)."""
import torch

x = torch.arange(12).reshape(3, 4).to(torch.float32)
print("x =", x)
mask = x > 5
print("x[x > 5] =", x[mask])
print("x[[2, 0]] =", x[torch.tensor([2, 0])])
print("x[[0, 2], [1, 3]] =", x[torch.tensor([0, 2]), torch.tensor([1, 3])])
x[x < 2] = -1
print("after x[x < 2] = -1:", x)
col = x[:, 1]
col.mul_(10)
print("after x[:, 1] *= 10:", x)
copy = x[torch.tensor([0])]
copy.fill_(0.0)
print("x[[0]].fill_(0) leaves x:", x[0])
xt = x.t()
print("x.t() is contiguous:", str(xt.is_contiguous()).lower() + ", x.t().contiguous().stride() =",
      list(xt.contiguous().stride()))
print("x - x.mean(1, keepdim=True) =", x - x.mean(1, keepdim=True))
w = torch.ones(4) * 0.5
x.add_(w).clamp_(0.0, 50.0)
print("x.add_(w).clamp_(0, 50) =", x)
p = torch.tensor([1., 2., 3.]).requires_grad_()
loss = p.pow(2).sum()
loss.backward()
print("grad of (p**2).sum() =", p.grad)
with torch.no_grad():
    p.sub_(p.grad * 0.1)
    print("under no_grad: p =", str(p) + ", (p * 2).requires_grad =", str((p * 2).requires_grad).lower())
f = torch.tensor([-1.7, 0.5, 2.5, 3.9], dtype=torch.float64)
print("float64", f, "to int64:", str(f.to(torch.int64)) + ", to bool:", f.to(torch.bool))
print("int + float:", str((torch.tensor([1, 2]) + 0.5).dtype).replace("torch.", "")
      + ", int / int:", torch.tensor([3, 4]) / torch.tensor([2, 2]))
print("x.tolist()[2] =", str(x.tolist()[2]) + ", x.sum().item() =", x.sum().item())
print("torch.where(x > 20, x, 0) =", torch.where(x > 20, x, 0))
