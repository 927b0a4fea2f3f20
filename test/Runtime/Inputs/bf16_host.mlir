// Host code that rounds f32 to bf16 at run time (a libcall, __truncsfbf2,
// on x86-64): ties go to even, NaN stays NaN. The values sit in a public
// global so that nothing folds them. Run by test/Runtime/emit-executable.mlir.
memref.global "public" @values : memref<5xf32> =
    dense<[1.00390625, 1.01171875, -3.0, 65536.5, 0x7FC00001]>

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %values = memref.get_global @values : memref<5xf32>
  scf.for %i = %c0 to %c5 step %c1 {
    %v = memref.load %values[%i] : memref<5xf32>
    %b = arith.truncf %v : f32 to bf16
    %w = arith.extf %b : bf16 to f32
    vector.print %w : f32
  }
  return
}
