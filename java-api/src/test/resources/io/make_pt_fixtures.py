"""Makes the .pt fixtures in pt/ with real PyTorch, once; the files are kept in the repository.

Run with a Python that has torch (Debian's python3-torch 1.13.1+dfsg, whose torch.__version__ reads
"1.13.0a0", made the committed files):
    /usr/bin/python3 make_pt_fixtures.py
(then remove python3-torch again: its libtorch-dev puts libtorch_cpu.so on the linker's path, where
the JVM's libtorch 2.10 presets find it on their first load and crash; see PtPythonTest).
Each fixture's tensors are described in pt/expected.json: dtype, shape, stride, storage offset,
which storage they view (tensors that share one have the same "storage"), requires_grad, and
their values in row-major order (non-finite floats as the strings "nan", "inf", "-inf").
"""
import collections
import json
import math
import os

import torch

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pt")
DTYPES = {
    torch.bool: "bool", torch.uint8: "uint8", torch.int8: "int8", torch.int16: "int16", torch.int32: "int32",
    torch.int64: "int64", torch.float16: "float16", torch.bfloat16: "bfloat16", torch.float32: "float32",
    torch.float64: "float64",
}


def number(v):
    if isinstance(v, float) and not math.isfinite(v):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    return v


def describe(t, storages):
    # the StorageImpl's address (data_ptr would merge distinct empty storages)
    untyped = t.untyped_storage() if hasattr(t, "untyped_storage") else t.storage()._storage
    key = storages.setdefault(untyped._cdata, len(storages))
    flat = t.detach().reshape(-1)
    values = [number(v) for v in (flat.to(torch.float64) if t.dtype in (torch.float16, torch.bfloat16) else flat).tolist()]
    return {"dtype": DTYPES[t.dtype], "shape": list(t.shape), "stride": list(t.stride()), "offset": t.storage_offset(),
            "storage": key, "requires_grad": t.requires_grad, "values": values}


def describe_tree(obj, storages):
    if isinstance(obj, torch.Tensor):
        return {"tensor": describe(obj, storages)}
    if isinstance(obj, dict):
        return {"dict": [[k, describe_tree(v, storages)] for k, v in obj.items()]}
    if isinstance(obj, (list, tuple)):
        return {"list": [describe_tree(v, storages) for v in obj]}
    return {"value": number(obj)}


def state_dict():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4))
    model(torch.randn(5, 3))  # running stats and num_batches_tracked move
    sd = model.state_dict()  # an OrderedDict with _metadata, as checkpoints have
    base = torch.arange(24, dtype=torch.float32).reshape(4, 6)
    sd["base"] = base
    sd["base_t"] = base.t()  # non-contiguous view of the same storage
    sd["base_slice"] = base[1:3, ::2]  # offset and step
    sd["base_row"] = base[2]
    sd["expanded"] = torch.tensor([1.5, -2.5]).expand(3, 2)  # stride 0
    return sd


def dtypes():
    d = collections.OrderedDict()
    d["bool"] = torch.tensor([True, False, True])
    d["uint8"] = torch.tensor([0, 1, 255], dtype=torch.uint8)
    d["int8"] = torch.tensor([-128, 0, 127], dtype=torch.int8)
    d["int16"] = torch.tensor([-32768, 1, 32767], dtype=torch.int16)
    d["int32"] = torch.tensor([-2**31, 2, 2**31 - 1], dtype=torch.int32)
    d["int64"] = torch.tensor([-2**53, 3, 2**53], dtype=torch.int64)
    d["float16"] = torch.tensor([0.5, -65504.0, float("inf"), 1e-7], dtype=torch.float16)
    d["bfloat16"] = torch.tensor([0.5, -3.0e38, float("-inf"), 1.0 / 3], dtype=torch.bfloat16)
    d["float32"] = torch.tensor([1.0 / 3, float("nan"), -0.0, 3.4e38], dtype=torch.float32)
    d["float64"] = torch.tensor([1.0 / 3, 1e-300, -1e300, float("inf")], dtype=torch.float64)
    return d


def shapes():
    d = collections.OrderedDict()
    d["scalar"] = torch.tensor(7.25)
    d["empty"] = torch.zeros(0)
    d["empty_2x0x3"] = torch.zeros(2, 0, 3, dtype=torch.int64)
    d["matrix_f64"] = torch.arange(6, dtype=torch.float64).reshape(2, 3)
    d["permuted"] = torch.arange(24, dtype=torch.int32).reshape(2, 3, 4).permute(2, 0, 1)
    return d


def checkpoint():
    w = torch.arange(4, dtype=torch.float32)
    return {"model": collections.OrderedDict(w=w, w_view=w[1:]), "epoch": 3, "lr": 0.5, "name": "run-1",
            "flags": [True, None, False], "shape": (2, 3), "history": [w[:2], 2**70]}


def shared_list():
    base = torch.arange(5, dtype=torch.int16)
    return [base, base[::2]]  # one storage, two tensors


class Evil:
    """What a malicious checkpoint holds: unpickling would call os.system."""

    def __reduce__(self):
        return (os.system, ("echo this must never run",))


def main():
    os.makedirs(OUT, exist_ok=True)
    expected = {"torch_version": torch.__version__}
    fixtures = {
        "state_dict.pt": state_dict(),
        "dtypes.pt": dtypes(),
        "shapes.pt": shapes(),
        "list.pt": shared_list(),
        "checkpoint.pt": checkpoint(),
        "parameter.pt": torch.nn.Parameter(torch.tensor([[1.0, 2.0], [3.0, 4.0]])),
    }
    for name, obj in fixtures.items():
        torch.save(obj, os.path.join(OUT, name))
        expected[name] = describe_tree(obj, {})
    torch.save({"weights": torch.zeros(2), "payload": Evil()}, os.path.join(OUT, "evil.pt"))
    with open(os.path.join(OUT, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
