"""The fake of jax/experimental/pallas/ops/gpu/hopper_matmul_mgpu.py:
TuningConfig's fields (:48-59), matmul(a, b, c, config) (:232) with its
checks (:233-250, :85-90), and the shared memory its kernel allocates
(:106-151) against 227 KiB, as main() reports it (:317-319)."""

import dataclasses
import enum

SMEM_BYTES = 227 * 1024


class MatmulDimension(enum.IntEnum):
    M = 0
    N = 1


@dataclasses.dataclass(frozen=True)
class TuningConfig:
    tile_m: int
    tile_n: int
    tile_k: int
    max_concurrent_steps: int
    epi_tile_n: int | None = 64
    epi_tile_m: int | None = 64
    grid_minor_dim: MatmulDimension = MatmulDimension.N
    grid_tile_width: int = 1
    wg_dimension: MatmulDimension = MatmulDimension.N
    cluster_dimension: None | MatmulDimension = None


def matmul(a, b, c, config: TuningConfig):
    if a.dtype != b.dtype:
        raise ValueError(f"Matmul LHS and RHS have incompatible dtypes "
                         f"{a.dtype} vs {b.dtype}")
    (m, k), (k2, n) = a.shape, b.shape
    if k != k2:
        raise ValueError(f"Matmul LHS and RHS have incompatible shapes "
                         f"{a.shape} vs {b.shape}")
    out_dtype = a.dtype if c is None else c.dtype
    if c is not None and c.shape != (m, n):
        raise ValueError(f"C has incompatible shape {c.shape} vs {(m, n)}")
    cta_m = config.tile_m * (1 + (config.wg_dimension == MatmulDimension.M))
    cta_n = config.tile_n * (1 + (config.wg_dimension == MatmulDimension.N))
    if m % cta_m or n % cta_n or k % config.tile_k:
        raise ValueError(f"{m=}, {n=}, {k=} must be divisible by the CTA "
                         f"tile {cta_m}x{cta_n}x{config.tile_k}")
    epi_m = config.epi_tile_m or config.tile_m
    epi_n = config.epi_tile_n or config.tile_n
    slots = min(2, (config.tile_m * config.tile_n) // (epi_m * epi_n))
    smem = config.max_concurrent_steps * (
        cta_m * config.tile_k + config.tile_k * cta_n) * a.dtype.itemsize \
        + 2 * slots * epi_m * epi_n * out_dtype.itemsize
    if smem > SMEM_BYTES:
        raise ValueError(f"The kernel requires {smem} bytes of shared "
                         f"memory, which exceeds available shared memory "
                         f"({SMEM_BYTES})")
    out = a.matmul(b, out_dtype)
    return out if c is None else out + c
