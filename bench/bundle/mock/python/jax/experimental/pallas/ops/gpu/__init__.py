"""jax.experimental.pallas.ops.gpu of the fake JAX."""
