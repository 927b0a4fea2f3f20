// RUN: mgpu-opt %s --mgpu-distribute-warpgroups -verify-diagnostics

// Every vector value needs the layout --mgpu-assign-layouts gives it.
func.func @no_layout(%o: memref<128xf32>) {
  mgpu.launch grid [1] warpgroups 1 outs(%o : memref<128xf32>) {
  ^bb0(%i: index, %wg: index, %y: memref<128xf32>):
    %c0 = arith.constant 0 : index
    // expected-error @below {{'arith.constant' op has a vector result without a lane layout ('mgpu.out_layouts')}}
    // expected-note @below {{run --mgpu-assign-layouts before --mgpu-distribute-warpgroups}}
    %v = arith.constant dense<1.0> : vector<128xf32>
    vector.store %v, %y[%c0] : memref<128xf32>, vector<128xf32>
  }
  return
}
