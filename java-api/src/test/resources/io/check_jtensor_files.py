#!/usr/bin/env python3
"""Reads the files NumPyInteropTest made with jtensor, with NumPy alone, and checks every value.

usage: check_jtensor_files.py DIR   (prints OK, or fails with the first mismatch)
The safetensors file is read per the published format (no `safetensors` package needed).
"""
import json
import struct
import sys

import numpy as np

DIR = sys.argv[1]
NAMES = ['bool', 'uint8', 'int8', 'int16', 'int32', 'int64', 'float16', 'float32', 'float64']
SIGNED = np.array([[0, 1, -2], [3, 100, 127]])


def expected(name):
    base = np.abs(SIGNED) if name in ('bool', 'uint8') else SIGNED
    return base.astype(name)


def same(got, want, what):
    assert got.dtype == want.dtype, (what, got.dtype, want.dtype)
    assert got.shape == want.shape, (what, got.shape, want.shape)
    assert np.array_equal(got, want), (what, got, want)


def check_arrays(get, where):
    for n in NAMES:
        same(get(n), expected(n), where + ' ' + n)
    f = get('fortran')
    assert f.flags.f_contiguous and not f.flags.c_contiguous, where + ' fortran order'
    same(f, np.arange(6, dtype='float32').reshape(2, 3).T, where + ' fortran')
    same(get('strided'), np.arange(24, dtype='int64').reshape(2, 3, 4)[:, :, 1::2], where + ' strided')
    same(get('scalar'), np.array(2.5, dtype='float64'), where + ' scalar')
    same(get('empty'), np.zeros((2, 0, 3), dtype='int8'), where + ' empty')


check_arrays(lambda n: np.load(f'{DIR}/{n}.npy'), '.npy')
for npz in ('stored.npz', 'compressed.npz'):
    with np.load(f'{DIR}/{npz}') as z:
        check_arrays(lambda n: z[n], npz)

ST = {'BOOL': '?', 'U8': 'u1', 'I8': 'i1', 'I16': '<i2', 'I32': '<i4', 'I64': '<i8', 'F16': '<f2', 'F32': '<f4', 'F64': '<f8'}
with open(f'{DIR}/all.safetensors', 'rb') as f:
    raw = f.read()
(n,) = struct.unpack('<Q', raw[:8])
assert n % 8 == 0, 'header padded to 8 bytes'
header = json.loads(raw[8:8 + n].decode('utf-8'))
data = raw[8 + n:]
assert header.pop('__metadata__') == {'written_by': 'jtensor'}
ends = sorted((v['data_offsets'] for v in header.values()))
assert ends[0][0] == 0 and ends[-1][1] == len(data) and all(a[1] == b[0] for a, b in zip(ends, ends[1:])), 'contiguous'
for name, info in header.items():
    b, e = info['data_offsets']
    if info['dtype'] == 'BF16':
        got = (np.frombuffer(data[b:e], '<u2').astype('<u4') << 16).view('<f4').reshape(info['shape'])
        same(got, SIGNED.astype('float32'), 'safetensors bfloat16')
    else:
        got = np.frombuffer(data[b:e], ST[info['dtype']]).reshape(info['shape'])
        same(got, expected(name), 'safetensors ' + name)
print('OK')
