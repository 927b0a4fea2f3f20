"""The fake of jax/experimental/pallas/ops/gpu/attention_mgpu.py:
TuningConfig (:40-68), attention(q, k, v, config, save_residuals=False)
(:341) with _attention_forward's checks (:83-107, :318-320). The kernel's
shared-memory buffers are float16 (:283-293), so other inputs fail; no
softmax scale is applied (:183-188)."""

import dataclasses

from _mock_array import attention as _attention


@dataclasses.dataclass(frozen=True)
class TuningConfig:
    block_q: int
    block_kv: int
    max_concurrent_steps: int
    use_schedule_barrier: bool = True
    causal: bool = False
    compute_wgs_bwd: int = 1
    block_q_dkv: int | None = None
    block_kv_dkv: int | None = None
    block_q_dq: int | None = None
    block_kv_dq: int | None = None

    def __post_init__(self):
        if self.block_q % 64:
            raise ValueError(f"{self.block_q=} must be a multiple of 64")
        if self.block_kv % 64:
            raise ValueError(f"{self.block_kv=} must be a multiple of 64")
        if self.max_concurrent_steps < 2:
            raise ValueError(f"{self.max_concurrent_steps=} must be at least 2")


def attention(q, k, v, config: TuningConfig, save_residuals: bool = False):
    if q.ndim != 4 or k.ndim != 4 or v.ndim != 4:
        raise ValueError("q, k, and v should all be 4D")
    _, q_seq, _, head_dim = q.shape
    kv_seq = k.shape[1]
    if q.dtype != k.dtype or q.dtype != v.dtype:
        raise ValueError("q, k, and v should all have the same dtype")
    if head_dim % 64:
        raise ValueError(f"{head_dim=} must be divisible by 64")
    if q.dtype.name != "float16":
        raise TypeError("the kernel's shared memory buffers are float16; "
                        "copying %s operands into them fails" % q.dtype)
    if kv_seq % config.block_kv:
        raise ValueError(f"{kv_seq=} must be a multiple of "
                         f"{config.block_kv=}")
    if q_seq % (2 * config.block_q):
        raise NotImplementedError(f"{q_seq=} must be a multiple of "
                                  f"{2 * config.block_q=}")
    out = _attention(q, k, v, 1.0, q.dtype)
    return (out, (None,)) if save_residuals else out
