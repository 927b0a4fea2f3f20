"""jax.experimental.mosaic.gpu.profiler of the fake JAX: measure() as in
jax/experimental/mosaic/gpu/profiler.py:134, reporting a fixed time."""

FAKE_MS = 0.2


def measure(f, *, aggregate=True, iterations=1):
    if iterations < 1:
        raise ValueError(f"{iterations=} must be positive")

    def wrapper(*args, **kwargs):
        out = f(*args, **kwargs)
        one = FAKE_MS if aggregate else [("mock_kernel", FAKE_MS)]
        return out, one if iterations == 1 else [one] * iterations
    return wrapper
