"""A small n-dimensional array in plain Python, the data of the fake torch
and JAX that `run.sh --mock` puts on PYTHONPATH (numpy may be missing
where the mock runs). Row-major lists of floats, rounded to the array's
type after every operation; broadcasting as numpy's; sizes are those of
peers.py's mock problems (a few thousand elements), so speed does not
matter.
"""

import itertools
import math
import struct


class DType:
    """A floating-point type; `prefix` is how the framework prints it
    ("torch." for torch, nothing for JAX)."""

    def __init__(self, name, prefix=""):
        self.name, self.prefix = name, prefix

    def __repr__(self):
        return self.prefix + self.name

    __str__ = __repr__

    def __eq__(self, other):
        return getattr(other, "name", other) == self.name

    def __hash__(self):
        return hash(self.name)

    @property
    def itemsize(self):
        return {"float32": 4, "float16": 2, "bfloat16": 2}[self.name]


def round_to(name, value):
    """`value` rounded to the nearest value of type `name`."""
    if math.isnan(value) or math.isinf(value):
        return value
    if name == "float32":
        try:
            return struct.unpack("f", struct.pack("f", value))[0]
        except OverflowError:
            return math.copysign(math.inf, value)
    if name == "float16":
        try:
            return struct.unpack("e", struct.pack("e", value))[0]
        except OverflowError:
            return math.copysign(math.inf, value)
    if name == "bfloat16":  # the top 16 bits of the f32, nearest even
        bits = struct.unpack("I", struct.pack("f", round_to("float32",
                                                            value)))[0]
        bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
        return struct.unpack("f", struct.pack("I", bits))[0]
    raise TypeError("the mock has no type %s" % name)


def strides(shape):
    out, step = [], 1
    for size in reversed(shape):
        out.append(step)
        step *= size
    return tuple(reversed(out))


def broadcast_shape(a, b):
    shape = []
    for x, y in itertools.zip_longest(reversed(a), reversed(b), fillvalue=1):
        if x != y and 1 not in (x, y):
            raise ValueError("shapes %s and %s do not broadcast" % (a, b))
        shape.append(max(x, y))
    return tuple(reversed(shape))


class Array:
    """Shape, type and row-major data. Subclasses (the fake frameworks'
    tensors) are made by `self.make`."""

    def __init__(self, shape, data, dtype):
        """`data`: the values, or a function computing them when they are
        first read (the fakes time a call 13 times and read it once)."""
        self.shape = tuple(shape)
        self.dtype = dtype
        self._data, self._compute = (None, data) if callable(data) else \
            (self._rounded(data), None)

    def _rounded(self, data):
        assert len(data) == math.prod(self.shape), (self.shape, len(data))
        return [round_to(self.dtype.name, float(v)) for v in data]

    @property
    def data(self):
        if self._data is None:
            self._data = self._rounded(self._compute())
            self._compute = None
        return self._data

    @data.setter
    def data(self, values):
        self._data, self._compute = self._rounded(values), None

    def make(self, shape, data, dtype=None):
        return type(self)(shape, data, dtype or self.dtype)

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return math.prod(self.shape)

    def tolist(self):
        def nest(offset, dims):
            if not dims:
                return self.data[offset]
            step = math.prod(dims[1:])
            return [nest(offset + i * step, dims[1:]) for i in range(dims[0])]
        return nest(0, self.shape)

    def item(self):
        assert self.size == 1
        return self.data[0]

    def __float__(self):
        return self.item()

    # --- indexing ---------------------------------------------------------

    def _select(self, index):
        """(shape, flat offsets) of `self[index]`: ints, slices, Ellipsis."""
        if not isinstance(index, tuple):
            index = (index,)
        if Ellipsis in index:
            at = index.index(Ellipsis)
            fill = self.ndim - (len(index) - 1)
            index = index[:at] + (slice(None),) * fill + index[at + 1:]
        index = index + (slice(None),) * (self.ndim - len(index))
        if len(index) != self.ndim:
            raise IndexError("too many indices for shape %s" % (self.shape,))
        ranges, shape = [], []
        for i, size in zip(index, self.shape):
            if isinstance(i, slice):
                r = range(*i.indices(size))
                ranges.append(r)
                shape.append(len(r))
            else:
                i = int(i)
                if not -size <= i < size:
                    raise IndexError("index %d out of %d" % (i, size))
                ranges.append([i % size])
        step = strides(self.shape)
        offsets = [sum(i * s for i, s in zip(position, step))
                   for position in itertools.product(*ranges)]
        return tuple(shape), offsets

    def __getitem__(self, index):
        shape, offsets = self._select(index)
        return self.make(shape, [self.data[o] for o in offsets])

    def __setitem__(self, index, value):
        shape, offsets = self._select(index)
        values = value.broadcast_to(shape).data if isinstance(value, Array) \
            else [float(value)] * len(offsets)
        for o, v in zip(offsets, values):
            self.data[o] = round_to(self.dtype.name, v)

    # --- shape ------------------------------------------------------------

    def broadcast_to(self, shape):
        shape = tuple(shape)
        if shape == self.shape:
            return self
        out = broadcast_shape(self.shape, shape)
        if out != shape:
            raise ValueError("cannot broadcast %s to %s" % (self.shape, shape))
        lead = len(shape) - self.ndim
        step = strides(self.shape)
        data = []
        for position in itertools.product(*map(range, shape)):
            own = position[lead:]
            data.append(self.data[sum(
                (0 if n == 1 else i) * s
                for i, n, s in zip(own, self.shape, step))])
        return self.make(shape, data)

    def reshape(self, *shape):
        shape = shape[0] if len(shape) == 1 and isinstance(shape[0], tuple) \
            else shape
        return self.make(shape, self.data)

    def permute_axes(self, axes):
        shape = tuple(self.shape[a] for a in axes)
        step = [strides(self.shape)[a] for a in axes]

        def compute():
            data = self.data
            return [data[sum(i * s for i, s in zip(position, step))]
                    for position in itertools.product(*map(range, shape))]
        return self.make(shape, compute)

    # --- arithmetic -------------------------------------------------------

    def _binary(self, other, op):
        if not isinstance(other, Array):
            other = self.make((), [float(other)])
        shape = broadcast_shape(self.shape, other.shape)
        a, b = self.broadcast_to(shape), other.broadcast_to(shape)
        return self.make(shape, [op(x, y) for x, y in zip(a.data, b.data)])

    def __add__(self, other):
        return self._binary(other, lambda x, y: x + y)

    def __radd__(self, other):
        return self + other

    def __sub__(self, other):
        return self._binary(other, lambda x, y: x - y)

    def __rsub__(self, other):
        return self._binary(other, lambda x, y: y - x)

    def __mul__(self, other):
        return self._binary(other, lambda x, y: x * y)

    def __rmul__(self, other):
        return self * other

    def __truediv__(self, other):
        return self._binary(other, divide)

    def __rtruediv__(self, other):
        return self._binary(other, lambda x, y: divide(y, x))

    def __neg__(self):
        return self.map(lambda x: -x)

    def __pow__(self, exponent):
        return self.map(lambda x: x ** exponent)

    def map(self, function):
        return self.make(self.shape, [function(x) for x in self.data])

    def reduce(self, function, axis=None, keepdims=False):
        """`function(list) -> float` over `axis` (None: all axes)."""
        axes = tuple(range(self.ndim)) if axis is None else \
            tuple(a % self.ndim for a in (
                axis if isinstance(axis, (tuple, list)) else (axis,)))
        kept = [d for d in range(self.ndim) if d not in axes]
        step = strides(self.shape)
        data = []
        for outer in itertools.product(*(range(self.shape[d]) for d in kept)):
            values = []
            for inner in itertools.product(*(range(self.shape[d])
                                             for d in axes)):
                position = dict(zip(kept, outer))
                position.update(zip(axes, inner))
                values.append(self.data[sum(position[d] * step[d]
                                            for d in range(self.ndim))])
            data.append(function(values))
        shape = tuple(1 if d in axes else n for d, n in enumerate(self.shape)) \
            if keepdims else tuple(self.shape[d] for d in kept)
        return self.make(shape, data)

    def matmul(self, other, dtype=None):
        """A 2-D product, accumulated in float64."""
        (m, k), (k2, n) = self.shape, other.shape
        if k != k2:
            raise ValueError("matmul of %s and %s" % (self.shape, other.shape))

        def compute():
            a, b = self.data, other.data
            return [math.fsum(a[i * k + p] * b[p * n + j] for p in range(k))
                    for i in range(m) for j in range(n)]
        return self.make((m, n), compute, dtype)

    def astype(self, dtype):
        return self.make(self.shape, self.data, dtype)


def divide(x, y):
    if y == 0:
        return math.nan if x == 0 or math.isnan(x) else math.copysign(
            math.inf, x)
    return x / y


def softmax_last(x):
    """The softmax over the last axis of an array."""
    top = x.reduce(max, axis=-1, keepdims=True)
    e = (x - top).map(math.exp)
    return e / e.reduce(math.fsum, axis=-1, keepdims=True)


def attention(q, k, v, scale, out_dtype):
    """softmax(q k^T * scale) v for q, k, v [batch, seq, heads, dim]."""
    batch, seq, heads, dim = q.shape

    def compute():
        out = q.make((batch, seq, heads, dim), [0.0] * q.size, out_dtype)
        for b in range(batch):
            for h in range(heads):
                qh = q[b, :, h, :].astype(DType("float32"))
                kh = k[b, :, h, :].astype(DType("float32"))
                vh = v[b, :, h, :].astype(DType("float32"))
                scores = qh.matmul(kh.permute_axes([1, 0])) * scale
                out[b, :, h, :] = softmax_last(scores).matmul(vh)
        return out.data
    return q.make((batch, seq, heads, dim), compute, out_dtype)


def random_normal(shape, seed):
    """Seeded standard normal values (a stand-in for torch.randn)."""
    import random
    rng = random.Random(seed)
    return [rng.gauss(0.0, 1.0) for _ in range(math.prod(shape))]
