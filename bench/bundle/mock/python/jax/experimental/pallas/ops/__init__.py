"""jax.experimental.pallas.ops of the fake JAX."""
