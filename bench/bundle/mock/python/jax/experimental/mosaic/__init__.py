"""jax.experimental.mosaic of the fake JAX."""
