"""A fake Triton 3.6 for `run.sh --mock`: @triton.jit kernels are launched
as `kernel[grid](*args, **kwargs)` with their arguments bound to the
kernel's parameters as Triton binds them (a missing or unknown argument, a
constexpr not known at launch, a grid that is not a tuple of positive
ints raise), and then do nothing: the kernel's body is never run, so its
outputs keep torch.empty's NaNs and fail peers.py's check, which is how
the mock shows that a wrong output is caught."""

import inspect

from . import language  # noqa: F401

# the launch options Triton takes besides the kernel's arguments
LAUNCH_OPTIONS = {"num_warps", "num_stages", "num_ctas", "maxnreg",
                  "enable_fp_fusion", "launch_cooperative_grid",
                  "launch_pdl", "stream"}


def cdiv(x, y):
    return (x + y - 1) // y


class JITFunction:
    def __init__(self, fn):
        self.fn = fn
        self.signature = inspect.signature(fn)
        self.__name__ = fn.__name__
        self.launches = 0

    def __call__(self, *args, **kwargs):
        raise RuntimeError("Cannot call @triton.jit'd outside of the scope "
                           "of a kernel")

    def __getitem__(self, grid):
        def launch(*args, **kwargs):
            g = grid(kwargs) if callable(grid) else grid
            if not isinstance(g, tuple) or not 1 <= len(g) <= 3 or not all(
                    isinstance(d, int) and d > 0 for d in g):
                raise TypeError("grid must be a tuple of 1 to 3 positive "
                                "ints, got %r" % (g,))
            options = {k: v for k, v in kwargs.items() if k in LAUNCH_OPTIONS}
            for name in ("num_warps", "num_stages"):
                if name in options and not isinstance(options[name], int):
                    raise TypeError("%s must be an int" % name)
            bound = self.signature.bind(
                *args, **{k: v for k, v in kwargs.items()
                          if k not in LAUNCH_OPTIONS})
            for name, parameter in self.signature.parameters.items():
                value = bound.arguments.get(name)
                if parameter.annotation is language.constexpr and not \
                        isinstance(value, (int, float, bool)):
                    raise TypeError("constexpr %s must be a Python scalar, "
                                    "got %r" % (name, value))
                if hasattr(value, "device") and value.device != "cuda":
                    raise ValueError("Pointer argument %s is not on cuda"
                                     % name)
            self.launches += 1
            return self
        return launch


def jit(fn=None, **options):
    if fn is None:
        return lambda f: JITFunction(f)
    return JITFunction(fn)
