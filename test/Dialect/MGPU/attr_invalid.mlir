// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

// Malformed attribute syntax and the attribute verifiers: the mesh rules
// S12-S17, block specs, compiler params and targets. Errors are reported at
// the attribute, in the parser.

//===----------------------------------------------------------------------===//
// Mesh rules S12-S17
//===----------------------------------------------------------------------===//

// S12
// expected-error @+1 {{cluster= must be at most 3D}}
#m = #mgpu.mesh<cluster = [2, 1, 1, 1], cluster_names = ["c0", "c1", "c2", "c3"]>

// -----

// S13
// expected-error @+2 {{grid_names must have the same length as grid}}
// expected-note @+1 {{name each of the 2 grid axes, e.g. grid_names = ["i"]}}
#m = #mgpu.mesh<grid = [4, 2], grid_names = ["i"]>

// -----

// S13: an absent list has length 0, as in JAX.
// expected-error @+2 {{grid_names must have the same length as grid}}
// expected-note @+1 {{name each of the 1 grid axes}}
#m = #mgpu.mesh<grid = [4]>

// -----

// S13: names without a grid.
// expected-error @+2 {{grid_names must have the same length as grid}}
// expected-note @+1 {{name each of the 0 grid axes}}
#m = #mgpu.mesh<grid_names = ["i"]>

// -----

// S14
// expected-error @+2 {{cluster_names must have the same length as cluster}}
// expected-note @+1 {{name each of the 2 cluster axes, e.g. cluster_names = ["c"]}}
#m = #mgpu.mesh<cluster = [2, 2], cluster_names = ["a", "b", "c"]>

// -----

// S14: an absent list has length 0.
// expected-error @+2 {{cluster_names must have the same length as cluster}}
// expected-note @+1 {{name each of the 1 cluster axes}}
#m = #mgpu.mesh<grid = [2], grid_names = ["i"], cluster = [2]>

// -----

// S15: num_threads without thread_name.
// expected-error @+2 {{num_threads and thread_name must be either both set or both None}}
// expected-note @+1 {{set both (e.g. num_threads = 2, thread_name = "wg"), or neither for one warpgroup per CTA}}
#m = #mgpu.mesh<grid = [4], grid_names = ["g4"], num_threads = 2>

// -----

// S15: thread_name without num_threads.
// expected-error @+2 {{num_threads and thread_name must be either both set or both None}}
// expected-note @+1 {{set both}}
#m = #mgpu.mesh<thread_name = "wg">

// -----

// S16 on the attribute, which knows no profile: JAX's limit, 16 (the
// extended profile's 8 is checked where a kernel uses the mesh:
// profile_words.mlir). 17 x 128 = 2176 CUDA threads.
// expected-error @+2 {{Requested too many CUDA threads per block. Each Mosaic thread corresponds to 128 CUDA threads. At most 16 are supported}}
// expected-note @+1 {{num_threads = 17 asks for 2176 CUDA threads; use at most 16}}
#m = #mgpu.mesh<num_threads = 17, thread_name = "wg">

// -----

// S16's positive twin on the attribute alone: 16.
#m = #mgpu.mesh<num_threads = 16, thread_name = "wg">

// -----

// The note's arithmetic is checked (found by the fuzzer under UBSan).
// expected-error @+2 {{Requested too many CUDA threads per block}}
// expected-note @+1 {{num_threads = 9223372036854775807 asks for more than 2^63 CUDA threads; use at most 16}}
#m = #mgpu.mesh<num_threads = 9223372036854775807, thread_name = "wg">

// -----

// S17: a negative grid size.
// expected-error @+1 {{mesh grid size #1 must be positive, got -1}}
#m = #mgpu.mesh<grid = [4, -1], grid_names = ["g5", "g6"]>

// -----

// S17: a zero cluster size.
// expected-error @+1 {{mesh cluster size #0 must be positive, got 0}}
#m = #mgpu.mesh<cluster = [0], cluster_names = ["c7"]>

// -----

// S17: zero threads.
// expected-error @+1 {{mesh num_threads must be positive, got 0}}
#m = #mgpu.mesh<num_threads = 0, thread_name = "wg">

// -----

// S17: a repeated axis name, across grid and thread axes.
// expected-error @+1 {{mesh axis name "i" is used more than once}}
#m = #mgpu.mesh<grid = [4], grid_names = ["i"], num_threads = 2, thread_name = "i">

// -----

// S17: a repeated axis name, across grid and cluster axes.
// expected-error @+1 {{mesh axis name "x" is used more than once}}
#m = #mgpu.mesh<grid = [4], grid_names = ["x"], cluster = [2], cluster_names = ["x"]>

// -----

// expected-error @+1 {{mesh axis names must not be empty}}
#m = #mgpu.mesh<grid = [4], grid_names = [""]>

// -----

//===----------------------------------------------------------------------===//
// Mesh syntax
//===----------------------------------------------------------------------===//

// expected-error @+1 {{duplicate or unknown struct parameter name: grid_size}}
#m = #mgpu.mesh<grid = [4], grid_names = ["g8"], grid_size = [4]>

// -----

// expected-error @+1 {{duplicate or unknown struct parameter name: grid}}
#m = #mgpu.mesh<grid = [4], grid_names = ["g9"], grid = [2]>

// -----

// A string where a list is expected.
// expected-error @+2 {{expected '['}}
// expected-error @+1 {{failed to parse MGPU_MeshAttr parameter 'grid'}}
#m = #mgpu.mesh<grid = "4">

// -----

// Integers where names are expected.
// expected-error @+2 {{expected string}}
// expected-error @+1 {{failed to parse MGPU_MeshAttr parameter 'grid_names'}}
#m = #mgpu.mesh<grid = [4], grid_names = [0]>

// -----

// A boolean is not a size.
// expected-error @+2 {{expected an integer, got a boolean}}
// expected-error @+1 {{failed to parse MGPU_MeshAttr parameter 'grid'}}
#m = #mgpu.mesh<grid = [4, true], grid_names = ["g10", "g11"]>

// -----

// expected-error @+2 {{expected an integer, got a boolean}}
// expected-error @+1 {{failed to parse MGPU_MeshAttr parameter 'num_threads'}}
#m = #mgpu.mesh<num_threads = false, thread_name = "wg">

// -----

// expected-error @+2 {{integer value too large}}
// expected-error @+1 {{failed to parse MGPU_MeshAttr parameter 'grid'}}
#m = #mgpu.mesh<grid = [99999999999999999999], grid_names = ["g12"]>

// -----

// expected-error @+1 {{unknown attribute `grid` in dialect `mgpu`}}
#m = #mgpu.grid<[4]>

// -----

//===----------------------------------------------------------------------===//
// Block spec
//===----------------------------------------------------------------------===//

// expected-error @+1 {{struct is missing required parameter: index_map}}
#b = #mgpu.block_spec<shape = [128]>

// -----

// expected-error @+1 {{struct is missing required parameter: shape}}
#b = #mgpu.block_spec<index_map = affine_map<(d0) -> (d0)>>

// -----

// expected-error @+2 {{expected ::mlir::mgpu::MemorySpace to be one of: smem, gmem}}
// expected-error @+1 {{failed to parse MGPU_BlockSpecAttr parameter 'memory_space'}}
#b = #mgpu.block_spec<shape = [128], index_map = affine_map<(d0) -> (d0)>, memory_space = tmem>

// -----

// expected-error @+1 {{block shape size #1 must be positive, got 0}}
#b = #mgpu.block_spec<shape = [128, 0], index_map = affine_map<(d0) -> (d0, 0)>>

// -----

// expected-error @+1 {{block shape size #0 must be positive, got -128}}
#b = #mgpu.block_spec<shape = [-128], index_map = affine_map<(d0) -> (d0)>>

// -----

// S19 (the index map returns one block index per block dimension).
// expected-error @+2 {{block index_map has 2 results but the block shape has rank 1}}
// expected-note @+1 {{the index map returns one block index per dimension of the block}}
#b = #mgpu.block_spec<shape = [128], index_map = affine_map<(d0) -> (d0, 0)>>

// -----

// An integer where an affine map is expected.
// expected-error @+2 {{invalid kind of attribute specified}}
// expected-error @+1 {{failed to parse MGPU_BlockSpecAttr parameter 'index_map'}}
#b = #mgpu.block_spec<shape = [128], index_map = 3>

// -----

//===----------------------------------------------------------------------===//
// Compiler params
//===----------------------------------------------------------------------===//

// expected-error @+2 {{expected 'true' or 'false'}}
// expected-error @+1 {{failed to parse MGPU_CompilerParamsAttr parameter 'approx_math'}}
#p = #mgpu.compiler_params<approx_math = 1>

// -----

// expected-error @+2 {{expected 'parallel' or 'sequential', got 'foo'}}
// expected-error @+1 {{failed to parse MGPU_CompilerParamsAttr parameter 'dimension_semantics'}}
#p = #mgpu.compiler_params<dimension_semantics = [parallel, foo]>

// -----

// A keyword where a list is expected.
// expected-error @+2 {{expected '['}}
// expected-error @+1 {{failed to parse MGPU_CompilerParamsAttr parameter 'dimension_semantics'}}
#p = #mgpu.compiler_params<dimension_semantics = parallel>

// -----

// expected-error @+1 {{max_concurrent_steps must be at least 1, got 0}}
#p = #mgpu.compiler_params<max_concurrent_steps = 0>

// -----

// expected-error @+2 {{expected an integer, got a boolean}}
// expected-error @+1 {{failed to parse MGPU_CompilerParamsAttr parameter 'max_concurrent_steps'}}
#p = #mgpu.compiler_params<max_concurrent_steps = true>

// -----

// expected-error @+1 {{duplicate or unknown struct parameter name: num_stages}}
#p = #mgpu.compiler_params<num_stages = 2>

// -----

// expected-error @+1 {{duplicate or unknown struct parameter name: approx_math}}
#p = #mgpu.compiler_params<approx_math = true, approx_math = false>

// -----

//===----------------------------------------------------------------------===//
// Target
//===----------------------------------------------------------------------===//

// expected-error @+2 {{expected ::mlir::mgpu::Profile to be one of: extended, jax}}
// expected-error @+1 {{failed to parse MGPU_TargetAttr parameter 'profile'}}
#t = #mgpu.target<profile = tpu>

// -----

// expected-error @+2 {{unknown chip "sm_70"}}
// expected-note @+1 {{known chips: sm_80, sm_90, sm_90a, sm_100, sm_100a}}
#t = #mgpu.target<chip = "sm_70">

// -----

// The chip is a string.
// expected-error @+2 {{expected string}}
// expected-error @+1 {{failed to parse MGPU_TargetAttr parameter 'chip'}}
#t = #mgpu.target<chip = sm_90a>

// -----

// expected-error @+1 {{duplicate or unknown struct parameter name: arch}}
#t = #mgpu.target<arch = "sm_90a">
