"""jax.experimental of the fake JAX."""
