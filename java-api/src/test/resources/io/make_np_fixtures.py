#!/usr/bin/env python3
"""Makes the NumPy and safetensors fixtures that NpyFixturesTest and SafeTensorsFixturesTest read.

Run once from this directory (python3 make_np_fixtures.py); the files are kept in the repository.
Made with NumPy 2.x. The `safetensors` package was not available where these were made (no PyPI),
so the safetensors files are written here by hand from the published format: an 8-byte
little-endian header length, the JSON header padded with spaces to a multiple of 8, then each
tensor's little-endian bytes back to back, laid out as the reference writer lays them out
(largest element size first, then by name).

Expected values (the tests state the same formulas):
  every-dtype arrays: [[0, 1, -2], [3, 100, 127]] cast to the dtype; uint8 and bool take the
  absolute values ([[0, 1, 2], [3, 100, 127]]; bool is value != 0).
"""
import json
import struct
import zipfile

import numpy as np

DTYPES = ['|b1', '|u1', '|i1', '<i2', '<i4', '<i8', '<f2', '<f4', '<f8']
SIGNED = np.array([[0, 1, -2], [3, 100, 127]])


def every_dtype_value(descr):
    base = np.abs(SIGNED) if descr[1] in 'bu' else SIGNED
    return base.astype(np.dtype(descr))


def save_version(path, arr, version):
    with open(path, 'wb') as f:
        np.lib.format.write_array(f, arr, version=version)


def make_npy():
    np.save('c_order_f32.npy', (np.arange(6, dtype='<f4') / 4).reshape(2, 3))
    fortran = np.asfortranarray(np.arange(12, dtype='<i4').reshape(3, 4) - 5)
    assert fortran.flags.f_contiguous and not fortran.flags.c_contiguous
    np.save('fortran_i32.npy', fortran)
    np.save('scalar_f64.npy', np.array(3.25))
    np.save('empty_i64.npy', np.zeros((0, 3), dtype='<i8'))
    np.save('bool.npy', np.array([True, False, True]))
    save_version('v2_u8.npy', np.arange(5, dtype='|u1') * 50, (2, 0))
    save_version('v3_f16.npy', np.array([1.5, -2, 65504], dtype='<f2'), (3, 0))
    np.save('big_endian_i16.npy', np.arange(-3, 3, dtype='>i2').reshape(2, 3))
    np.save('big_endian_f8.npy', np.asfortranarray(np.array([[0.5, -1.0], [1e300, 2.0]], dtype='>f8')))
    # dtypes jtensor does not have: each must be refused by name
    np.save('refused_u2.npy', np.arange(3, dtype='<u2'))
    np.save('refused_c8.npy', np.arange(3, dtype='<c8'))
    np.save('refused_object.npy', np.array([1, 'a', None], dtype=object), allow_pickle=True)
    np.save('refused_structured.npy', np.zeros(2, dtype=[('a', '<i4'), ('b', '<f8')]))


def make_npz():
    arrays = {'a' + d[1:]: every_dtype_value(d) for d in DTYPES}
    arrays['scalar'] = np.array(-7, dtype='<i8')
    arrays['empty'] = np.zeros((2, 0), dtype='<f4')
    arrays['fortran'] = np.asfortranarray(np.arange(6, dtype='<f8').reshape(2, 3))
    np.savez('every_dtype.npz', **arrays)
    np.savez_compressed('every_dtype_compressed.npz', **arrays)
    with zipfile.ZipFile('every_dtype.npz') as z:
        assert all(i.compress_type == zipfile.ZIP_STORED for i in z.infolist())
    with zipfile.ZipFile('every_dtype_compressed.npz') as z:
        assert all(i.compress_type == zipfile.ZIP_DEFLATED for i in z.infolist())


ST_NAMES = {'|b1': 'BOOL', '|u1': 'U8', '|i1': 'I8', '<i2': 'I16', '<i4': 'I32', '<i8': 'I64',
            '<f2': 'F16', '<f4': 'F32', '<f8': 'F64'}


def bf16_bytes(values):
    """bfloat16 is float32's upper half: exact for these small integers."""
    f = np.asarray(values, dtype='<f4')
    return (f.view('<u4') >> 16).astype('<u2').tobytes()


def write_safetensors(path, tensors, metadata=None, order=None):
    """tensors: name -> (dtype name, shape, raw bytes). order: the data layout, else the reference writer's."""
    if order is None:
        size = {'BOOL': 1, 'U8': 1, 'I8': 1, 'I16': 2, 'I32': 4, 'I64': 8, 'F16': 2, 'BF16': 2, 'F32': 4, 'F64': 8}
        order = sorted(tensors, key=lambda n: (-size[tensors[n][0]], n))
    header, at = {}, 0
    if metadata is not None:
        header['__metadata__'] = metadata
    for name in order:
        dtype, shape, raw = tensors[name]
        header[name] = {'dtype': dtype, 'shape': list(shape), 'data_offsets': [at, at + len(raw)]}
        at += len(raw)
    text = json.dumps(header, separators=(',', ':')).encode('utf-8')
    text += b' ' * (-len(text) % 8)
    with open(path, 'wb') as f:
        f.write(struct.pack('<Q', len(text)))
        f.write(text)
        for name in order:
            f.write(tensors[name][2])


def make_safetensors():
    tensors = {}
    for d in DTYPES:
        v = every_dtype_value(d)
        tensors['t_' + ST_NAMES[d].lower()] = (ST_NAMES[d], v.shape, v.astype(np.dtype(d)).tobytes())
    tensors['t_bf16'] = ('BF16', (2, 3), bf16_bytes(SIGNED))
    tensors['scalar'] = ('F32', (), np.array(2.5, dtype='<f4').tobytes())
    tensors['empty'] = ('I32', (0, 4), b'')
    write_safetensors('every_dtype.safetensors', tensors, metadata={'format': 'pt', 'made_by': 'make_np_fixtures.py'})
    # the format does not promise alignment: a float32 tensor at byte offset 3 of the data
    odd = {'bytes': ('U8', (3,), bytes([7, 8, 9])), 'floats': ('F32', (2,), np.array([1.5, -4], dtype='<f4').tobytes())}
    write_safetensors('unaligned.safetensors', odd, order=['bytes', 'floats'])


if __name__ == '__main__':
    make_npy()
    make_npz()
    make_safetensors()
