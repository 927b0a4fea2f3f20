// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

// mgpu.mma: JAX's shape and type rules in its words
// (jax/_src/pallas/mosaic_gpu/primitives.py:2175-2200, _mma_abstract_eval),
// then what mgpu computes.

func.func @shapes(%acc: vector<64x64xf32>, %a: vector<64x32xf16>, %b: vector<16x64xf16>) {
  // expected-error @below {{'mgpu.mma' op Incompatible shapes for matrix multiplication: lhs=(64, 32), rhs=(16, 64), acc=(64, 64)}}
  %d = mgpu.mma %acc, %a, %b : vector<64x64xf32>, vector<64x32xf16>, vector<16x64xf16>
  return
}

// -----

func.func @dtypes(%acc: vector<64x64xf32>, %a: vector<64x32xf16>, %b: vector<32x64xbf16>) {
  // expected-error @below {{'mgpu.mma' op Operand dtypes must match: f16 != bf16}}
  %d = mgpu.mma %acc, %a, %b : vector<64x64xf32>, vector<64x32xf16>, vector<32x64xbf16>
  return
}

// -----

func.func @integer_acc(%acc: vector<64x64xf32>, %a: vector<64x32xi8>, %b: vector<32x64xi8>) {
  // expected-error @below {{'mgpu.mma' op Only int32 accumulator supported for integer and boolean operands. Got f32}}
  %d = mgpu.mma %acc, %a, %b : vector<64x64xf32>, vector<64x32xi8>, vector<32x64xi8>
  return
}

// -----

func.func @float_acc(%acc: vector<64x64xbf16>, %a: vector<64x32xf16>, %b: vector<32x64xf16>) {
  // expected-error @below {{'mgpu.mma' op Only float64, float32 and float16 accumulators supported for floating operands. Got bf16}}
  %d = mgpu.mma %acc, %a, %b : vector<64x64xbf16>, vector<64x32xf16>, vector<32x64xf16>
  return
}

// -----

func.func @index_operands(%acc: vector<64x64xf32>, %a: vector<64x32xindex>, %b: vector<32x64xindex>) {
  // expected-error @below {{'mgpu.mma' op Unsupported operand type: index}}
  %d = mgpu.mma %acc, %a, %b : vector<64x64xf32>, vector<64x32xindex>, vector<32x64xindex>
  return
}

// -----

// JAX takes int8 into int32; mgpu computes f16 and bf16 into f32 only.
func.func @int8(%acc: vector<64x64xi32>, %a: vector<64x32xi8>, %b: vector<32x64xi8>) {
  // expected-error @below {{'mgpu.mma' op computes f16 or bf16 operands into an f32 accumulator, got i8 into i32}}
  %d = mgpu.mma %acc, %a, %b : vector<64x64xi32>, vector<64x32xi8>, vector<32x64xi8>
  return
}

// -----

func.func @rows(%acc: vector<32x64xf32>, %a: vector<32x32xf16>, %b: vector<32x64xf16>) {
  // expected-error @below {{'mgpu.mma' op needs M a multiple of 64 (16-row tiles for each of the 4 warps), N a multiple of 8 and K of 16 (m16n8k16 tiles), got M = 32, N = 64, K = 32}}
  %d = mgpu.mma %acc, %a, %b : vector<32x64xf32>, vector<32x32xf16>, vector<32x64xf16>
  return
}
