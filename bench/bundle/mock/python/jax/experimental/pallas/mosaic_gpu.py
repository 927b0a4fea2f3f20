"""jax.experimental.pallas.mosaic_gpu (plgpu) of the fake JAX."""

import dataclasses
import enum


class MemorySpace(enum.Enum):
    # jax/_src/pallas/mosaic_gpu/core.py:151
    GMEM = "gmem"
    SMEM = "smem"


GMEM = MemorySpace.GMEM
SMEM = MemorySpace.SMEM


class LoweringSemantics(enum.Enum):
    Lane = enum.auto()
    Warpgroup = enum.auto()


class TraceScope(enum.Enum):
    WARP = enum.auto()
    WARPGROUP = enum.auto()


@dataclasses.dataclass(frozen=True)
class CompilerParams:
    # the fields of jax/_src/pallas/mosaic_gpu/core.py:128-136
    approx_math: bool = False
    dimension_semantics: object = None
    max_concurrent_steps: int = 1
    unsafe_no_auto_barriers: bool = False
    reduction_scratch_bytes: int = 128 * 4 * 4
    profile_space: int = 0
    profile_dir: str = ""
    profile_trace_scope: TraceScope = TraceScope.WARPGROUP
    lowering_semantics: LoweringSemantics = LoweringSemantics.Warpgroup

    def __post_init__(self):
        if bool(self.profile_space) ^ bool(self.profile_dir):
            raise ValueError("Either both profile_space and profile_dir must "
                             "be set, or neither.")
