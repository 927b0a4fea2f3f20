"""jax.experimental.mosaic.gpu of the fake JAX."""
